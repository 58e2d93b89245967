// The director's state, shared by its modules (service.ts wires them): the config and the clock, the store and the
// broker connection, each table's fold, and what is derived from the events (results, records, alerts, decisions,
// assignments), with the timers and flags of the standings, the snapshot and the store.
import type { MqttClient } from 'mqtt';
import type { Logger } from '../../config/logger.js';
import type { TableEvent } from '../../formats/table-log.js';
import { sessionTopics, tableTopics, type SessionTopics } from '../../feed/topics.js';
import { ScoreCache, scoreTravellers as realScoreTravellers } from '../scoring/index.js';
import * as trays from '../trays/index.js';
import { movementByName } from '../movements/index.js';
import type { BoardAnalyses } from '../../dd/boards.js';
import type { ClaimAnalyses } from '../../dd/claim.js';
import type { ClubAlert, DirectorSnapshot, RoundAssignment, Schedule, ScoreReport, Traveller, TrayRecord } from '../types.js';
import { type DirectorConfig, readSchedule } from './config.js';
import { type ScheduleIndex, TableFold, indexSchedule } from './fold.js';
import type { PartitionLeases } from './leases.js';
import { IntakeGuard } from './intake.js';
import type { ChangeNote, DirectorStore, StoreOps, StoredDecision, StoredEvent, StoredResult } from './store.js';
import { FindingsBook } from './findings.js';
import { tablePin } from './hand-scored.js';
import type { Players } from './players.js';

/** The club functions the director calls (injected in tests, the real modules by default). */
export interface ClubFunctions {
  recordFromPlay: typeof trays.recordFromPlay;
  handDifferences: typeof trays.handDifferences;
  trayDoctor: typeof trays.trayDoctor;
  fouledTrayOutcome: typeof trays.fouledTrayOutcome;
  scoreTravellers: typeof realScoreTravellers;
}

const REAL: ClubFunctions = {
  recordFromPlay: trays.recordFromPlay, handDifferences: trays.handDifferences, trayDoctor: trays.trayDoctor,
  fouledTrayOutcome: trays.fouledTrayOutcome, scoreTravellers: realScoreTravellers,
};

/**
 * A traveller as the director scores it: `version` (the bridge scorer's extension, src/club/scoring/bridge.ts) is the
 * Law 87B group of a fouled board, 1-based, from the director's `fouled-board` decision.
 */
export type DirectorTraveller = Traveller & { version?: number };

export interface DirectorServiceOptions {
  config: DirectorConfig;
  log: Logger;
  /** The schedule; default generated from config.movement. */
  schedule?: Schedule;
  /** An open store; default opened from config.store.url (and closed on stop). */
  store?: DirectorStore;
  /** The MQTT password read from mqtt.passwordFile. */
  password?: string;
  club?: Partial<ClubFunctions>;
  /** Start the director page (default config.http.enabled). */
  web?: boolean;
  now?: () => Date;
  /** The store failed: the service can no longer promise persist-before-ack. Default: log it. */
  onFatal?: (err: Error) => void;
  /** How long a request/events waits for its answer before it may be asked again (ms, default 3000). */
  requestRetryMs?: number;
  /** How often a cluster instance reads back all the others stored while no LISTEN tells it of their commits (ms, default SYNC_MS). */
  syncMs?: number;
  /** The same while the LISTEN connection is open (ms, default LISTENED_SYNC_MS). */
  listenedSyncMs?: number;
  /** The longest wait between two tries of a store that is full or read-only (ms, default 30000). */
  storeRetryMaxMs?: number;
}

export interface TableState {
  id: string;
  no: number;
  fold: TableFold;
  /** First seq of the table's journal session, once known (a request/events answer from the start). */
  firstSeq: number | null;
  /** Events stored but not folded yet (after a gap, or before the first seq is known), by seq. */
  pending: Map<number, TableEvent>;
  /** Highest seq stored. */
  maxSeq: number;
  /** Events folded whose group commit has not finished yet, by seq. */
  unstored: Map<number, TableEvent>;
  status: 'online' | 'offline' | 'unknown';
  /** Deals (by the seq of their deal event) already compared with the tray record. */
  recorded: Set<number>;
  request: { tx: string; after: number; at: number } | null;
}

/** What one message changes: the writes of its transaction, and what to publish once it is committed. */
/** What a cluster instance reads back: everything (the poll, a partition taken up), or what a notification named. */
export type SyncWant = ChangeNote | 'all';

export class Work {
  readonly writes: ((tx: StoreOps) => Promise<unknown>)[] = [];
  readonly publishes: (() => void)[] = [];
  changed = false;
  write(fn: (tx: StoreOps) => Promise<unknown>): void {
    this.writes.push(fn);
    this.changed = true;
  }
  publish(fn: () => void): void {
    this.publishes.push(fn);
    this.changed = true;
  }
}

/** Writes committed together in one transaction (group commit), and the promise of their commit. */
export interface CommitGroup {
  readonly writes: ((tx: StoreOps) => Promise<void>)[];
  /** The table events to store, inserted together first (and counted in the line a full disk says). */
  readonly events: StoredEvent[];
  /** Whether they store what other instances read back (results, records, alerts, decisions), not only events. */
  shared: boolean;
  /** Settled once the group is on disk: its PUBACKs wait for this. */
  readonly done: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (e: Error) => void;
  /** Settled once the group is committed (readable, maybe not yet on disk): what its messages publish waits for this. */
  readonly committed: Promise<void>;
  readonly resolveCommitted: () => void;
}

/** A commit failed for good (or the service stopped while waiting for the store): the message is not acknowledged. */
export class StoreFailure extends Error {}

/** A result's key: a table may play a tray in two rounds (a Howell of 4 or 6 pairs). */
export function resultKey(r: { table: string; traveller: Traveller }): string {
  return `${r.traveller.board}:${r.table}:${r.traveller.round ?? 0}`;
}

/** Hold a result under its key, and the round its play is stored with. */
export function setResult(st: DirectorState, key: string, r: StoredResult): void {
  st.results.set(key, r);
  st.playRound.set(`${r.table}:${r.fromSeq}`, r.traveller.round);
}

/**
 * The snapshot is rebuilt at most this often (ms): a busy session changes it with every card, and it (schedule,
 * records, alerts) is the largest message the director sends.
 */
export const FLUSH_MS = 100;

/**
 * After a scoring that took c ms of CPU the next waits at least this many times c: scoring then takes at most a fifth
 * of the event loop, however large the session, and the tables' events are not held up behind it.
 */
export const STANDINGS_COST_FACTOR = 4;

/** The first wait before a full or read-only store is tried again (ms); it doubles up to storeRetryMaxMs. */
export const STORE_RETRY_MS = 250;

/** SQLite in WAL mode: the WAL's fdatasyncs that may run at once (libuv's thread pool has 4 threads). */
export const SYNCS_IN_FLIGHT = 2;

/**
 * How often a cluster instance reads back everything the others stored (ms) while no LISTEN connection tells it of
 * their commits (SQLite, or PostgreSQL's connection lost): the standings lag the cards by about this.
 */
export const SYNC_MS = 250;

/**
 * The same while the LISTEN connection is open (ms): every commit another instance shares is notified, so the full
 * read-back, five queries, is only a safety net (issue 18: at every SYNC_MS each instance ran them four times a
 * second, for nothing the notifications had not said).
 */
export const LISTENED_SYNC_MS = 5_000;

/** The schedule of the config's movement; throws a sentence naming the field when it cannot be made. */
export function generateSchedule(c: DirectorConfig): Schedule {
  if (c.movement.schedule !== undefined) return readSchedule(c.movement.schedule);
  const m = movementByName(c.movement.name);
  if (!m) throw new Error(`movement.name: "${c.movement.name}" is not a movement`);
  return m.generate({ tables: c.movement.tables, boardsPerRound: c.movement.boardsPerRound, options: c.movement.options });
}

/** Everything the director's modules share; one per service, made from its options. */
export class DirectorState {
  readonly schedule: Schedule;
  readonly c: DirectorConfig;
  readonly log: Logger;
  readonly fns: ClubFunctions;
  readonly now: () => Date;
  readonly index: ScheduleIndex;
  readonly topics: SessionTopics;
  readonly prefix: string;
  store: DirectorStore | null;
  readonly ownStore: boolean;
  client: MqttClient | null = null;
  web: { url: string; close(): Promise<void> } | null = null;
  /** Issue 21: each board's double-dummy table and par for the exports, solved in a child process once asked for. */
  dd: { analyses: BoardAnalyses; claims: ClaimAnalyses; close(): void } | null = null;
  readonly tables = new Map<string, TableState>();
  readonly byNo = new Map<number, string>();
  readonly records = new Map<number, TrayRecord>();
  /** Set through setResult, which keeps playRound in step. */
  readonly results = new Map<string, StoredResult>();
  /** The round each table's play (`table:fromSeq`) was last stored with: a completion asks at every change. */
  readonly playRound = new Map<string, number | undefined>();
  readonly playedAt = new Map<number, string[]>();
  readonly alertIds = new Set<string>();
  readonly alerts: ClubAlert[] = [];
  readonly decisions = new Map<string, StoredDecision>();
  readonly adjustments = new Map<string, NonNullable<Traveller['adjusted']>>();
  readonly fouledBoards = new Map<number, string[][]>();
  readonly latePlays = new Set<string>();
  readonly assignments = new Map<string, RoundAssignment>();
  readonly findings = new FindingsBook();
  /** The pairs' players (the console's names), once the store is open. */
  players: Players | null = null;
  released: number[] = [];
  /** The trays every table has played (updateReleased), once first counted. */
  complete: Set<number> | null = null;
  standings: ScoreReport | null = null;
  standingsDirty = true;
  /** performance.now() before which the standings are not scored again (STANDINGS_COST_FACTOR times the last cost). */
  standingsDue = 0;
  /** What the last scoring took (ms). */
  standingsCost = 0;
  /**
   * The boards as last scored (issue 18): a result scores its own board again, not the session. The travellers of
   * the last scoring, by the result or adjustment each was made from, are given again while those are unchanged, so
   * that the cache sees the same objects (scoredTravellers).
   */
  readonly scoreCache = new ScoreCache();
  readonly lastTravellers = new WeakMap<object, { adjusted: Traveller['adjusted']; version: number | undefined; t: DirectorTraveller }>();
  /**
   * Results changed in memory whose commit has not finished, by key: the committed result before (null: none) and
   * the commits pending. The standings show the committed one: memory runs ahead of the store while a commit is in
   * flight (a gap fill of 88 events and the result they make is one transaction), and the flush timer does not wait
   * for it, so that scoring overlaps the commit's I/O.
   */
  readonly uncommitted = new Map<string, { before: StoredResult | null; pending: number }>();
  snap: DirectorSnapshot | null = null;
  /** The snapshot is older than the state: build it again when asked for it. */
  snapDirty = true;
  /** The state changed since the last snapshot sent (retained topic, page watchers): send one when next due. */
  snapUnsent = true;
  /** performance.now() before which no new snapshot is sent: 9 times the cost of the last one (see flushSnapshot). */
  snapDue = 0;
  snapTimer: NodeJS.Timeout | null = null;
  /** Retained topics where only the latest message counts: how many are in flight, and the body waiting (null: none). */
  readonly latest = new Map<string, { flying: number; next: string | null }>();
  readonly watchers = new Set<(s: DirectorSnapshot) => void>();
  chain: Promise<void> = Promise.resolve();
  /**
   * Work that runs at the chain's next step, ahead of the messages queued (commit.ts enqueue): synchronous, so it
   * never falls between a message's awaits. Another instance's results carried by its NOTIFY (cluster.ts).
   */
  readonly urgent: (() => void)[] = [];
  /** Group commit: the writes queued for the next transaction, the one on its way, and whether one is scheduled. */
  openGroup: CommitGroup | null = null;
  committing: CommitGroup | null = null;
  /** SQLite in WAL mode: groups committed, waiting for a WAL sync to begin, and the groups of each sync running. */
  readonly unsynced: CommitGroup[] = [];
  readonly syncing: CommitGroup[][] = [];
  groupScheduled = false;
  /** Cancels the flush of the standings scheduled (scheduleFlush); null when none is. */
  flushCancel: (() => void) | null = null;
  retryTimer: NodeJS.Timeout | null = null;
  readonly warned = new Set<string>();
  /** What the tables may send: the limits, and the refusals counted (src/club/director/intake.ts). */
  readonly intake: IntakeGuard;
  stopped = false;
  failed = false;
  /** Ends the wait before the store is tried again (stop). */
  wakeRetry: (() => void) | null = null;
  /** Cluster mode: the leases, the tables followed (those of the partitions held), the store's changes read back. */
  leases: PartitionLeases | null = null;
  readonly owned: Set<string> | null;
  syncTimer: NodeJS.Timeout | null = null;
  syncQueued = false;
  /** The read-back in flight may bring alerts or decisions, which change how results score (cluster.ts requestSync). */
  syncReadingScores = false;
  /** The LISTEN connection for the other instances' commits is open (the full read-back is then rare). */
  listening = false;
  /** What to read back at the next read-back (cluster.ts requestSync): null when nothing is asked. */
  syncWanted: SyncWant | null = null;
  /** Stops listening for the other instances' changes (PostgreSQL cluster). */
  unlisten: (() => Promise<void>) | null = null;
  /** This instance's name among the director instances (cluster mode; '' otherwise). */
  instance = '';
  /** The MQTT client id, which names the director's persistent session at the broker (set by start). */
  clientId = '';
  /** The tables without readers (config handScored): their results come as table-result decisions. */
  readonly handScored: Set<string>;
  /** The secret the table PINs are made from, kept in the store (set by start). */
  pinSecret = '';
  /** Each table's PIN, made from the secret once (pinOf). */
  readonly pins = new Map<string, string>();

  constructor(readonly opts: DirectorServiceOptions) {
    this.c = opts.config;
    this.log = opts.log;
    this.fns = { ...REAL, ...opts.club };
    this.now = opts.now ?? (() => new Date());
    this.schedule = opts.schedule ?? generateSchedule(opts.config);
    this.index = indexSchedule(this.schedule);
    this.topics = sessionTopics(this.c.club.id, this.c.session, this.c.mqtt.baseTopic);
    this.prefix = `${this.c.mqtt.baseTopic}/${this.c.club.id}/`;
    this.store = opts.store ?? null;
    this.ownStore = !opts.store;
    this.owned = this.c.cluster ? new Set() : null;
    // Hand-scored: the config's handScored list, or a table the set-up marked manual (tableOptions).
    this.handScored = new Set([...(this.c.handScored ?? []), ...Object.entries(this.c.tableOptions ?? {}).filter(([, o]) => o.manual).map(([t]) => t)]);
    this.intake = new IntakeGuard({ log: this.log, session: this.c.session, now: () => performance.now(), iso: () => this.now().toISOString() });
    if (this.c.tables.length !== this.schedule.tables) {
      throw new Error(`tables: lists ${this.c.tables.length} table ids but the schedule has ${this.schedule.tables} tables; give one id per table`);
    }
    this.c.tables.forEach((id, i) => {
      tableTopics(this.c.club.id, id, this.c.mqtt.baseTopic); // throws on a bad or reserved id
      this.tables.set(id, {
        id, no: i + 1, fold: new TableFold(this.c.variant), firstSeq: null, pending: new Map(), unstored: new Map(), maxSeq: 0, status: 'unknown', recorded: new Set(), request: null,
      });
      this.byNo.set(i + 1, id);
    });
  }
}

/** Whether this instance publishes the session's own topics: always alone, the holder of partition 0 in a cluster. */
export function isLeader(st: DirectorState): boolean {
  return st.leases === null || st.leases.leader;
}

/** The tables this instance follows: all of them alone, those of its partitions in a cluster. */
export function followed(st: DirectorState): TableState[] {
  return [...st.tables.values()].filter((ts) => st.owned === null || st.owned.has(ts.id));
}

/** Log a warning once per key. */
export function warnOnce(st: DirectorState, key: string, obj: object, msg: string): void {
  if (st.warned.has(key)) return;
  st.warned.add(key);
  st.log.warn(obj, msg);
}

/** A table's PIN, made once: an HMAC at every assignment was about 1.4 ms of each round's end in the club bench. */
export function pinOf(st: DirectorState, table: string): string {
  let pin = st.pins.get(table);
  if (pin === undefined) {
    pin = tablePin(st.pinSecret, st.c.session, table);
    st.pins.set(table, pin);
  }
  return pin;
}
