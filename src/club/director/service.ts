// The director service (docs/club.md): it follows every table's journal over MQTT, stores each event once, folds
// them through the engine, and from the completed deals derives the travellers, the tray records, the fouled-tray
// alerts, the released trays, the round assignments and the standings; it takes the director's decisions as
// journaled commands.
//
// Persist before acknowledging: the table events arrive at QoS 1 on a persistent session, and the PUBACK of each
// is sent by `customHandleAcks` only once the event (and all that was derived from it) is committed. Until then the
// broker keeps the message and gives it again after any disconnect or crash, so a kill -9 between receipt and
// commit loses nothing; a redelivery of a committed event is recognised by (session, table, seq) and counts once.
// mqtt.js handles incoming packets one at a time and waits for the ack callback, so the store is written in arrival
// order; nothing in that path may wait for another incoming packet (a PUBACK of our own publish, a response), or the
// client would wait for itself: publishes from it are fire-and-forget, requests are answered on a later packet.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { type TableEvent, validateTableEvent } from '../../formats/table-log.js';
import { sessionTopics, tableTopics, type SessionTopics } from '../../feed/topics.js';
import { scoreTravellers as realScoreTravellers } from '../scoring/index.js';
import { compareIds } from '../scoring/collate.js';
import * as trays from '../trays/index.js';
import { movementByName } from '../movements/index.js';
import { sessionExports } from '../exports/index.js';
import { BoardAnalyses } from '../../dd/boards.js';
import { ClaimAnalyses, type ClaimPosition } from '../../dd/claim.js';
import type {
  ClubAlert, DirectorSnapshot, DirectorSnapshotMessage, SessionExport, DirectorTableView, DirectorTrayView, RoundAssignment, Schedule, ScoreReport, Traveller, TrayRecord,
} from '../types.js';
import { type DirectorConfig, readSchedule } from './config.js';
import { type Decision, type DecisionResponse, checkDecision, decisionDigest, transactionKey } from './decisions.js';
import { getVariant } from '../../laws/variants.js';
import { publicResults } from './public-results.js';
import { HAND_SCORED_SEQ, handScoredTraveller, newPinSecret, tablePin, tableResultRefusal } from './hand-scored.js';
import { type HandTableView, handTableView } from './hand-table.js';
import { type Completion, type ScheduleIndex, TableFold, indexSchedule, travellerOf } from './fold.js';
import { PartitionLeases, partitionOf } from './leases.js';
import { GAP_WINDOW, INTAKE_LIMITS, IntakeGuard, MAX_PACKET_BYTES, REQUEST_LIMIT, type Refusal, isSeq, kindOf, sameJson, unknownBoardAlert } from './intake.js';
import { closeClient } from '../../broker/close-client.js';
import { DirectorStore, type StoreOps, type StoredDecision, type StoredResult, storeFault } from './store.js';
import { FindingsBook } from './findings.js';
import { directorConsole } from './console-api.js';
import { Players, exportNames, seatNames, withNames } from './players.js';

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
  /** The longest wait between two tries of a store that is full or read-only (ms, default 30000). */
  storeRetryMaxMs?: number;
}

interface TableState {
  id: string;
  no: number;
  fold: TableFold;
  /** First seq of the table's journal session, once known (a request/events answer from the start). */
  firstSeq: number | null;
  /** Events stored but not folded yet (after a gap, or before the first seq is known), by seq. */
  pending: Map<number, TableEvent>;
  /** Highest seq stored. */
  maxSeq: number;
  status: 'online' | 'offline' | 'unknown';
  /** Deals (by the seq of their deal event) already compared with the tray record. */
  recorded: Set<number>;
  request: { tx: string; after: number; at: number } | null;
}

/** What one message changes: the writes of its transaction, and what to publish once it is committed. */
class Work {
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

/** The director service: start it, and it runs until stop(). */
export class DirectorService {
  readonly schedule: Schedule;
  private readonly c: DirectorConfig;
  private readonly log: Logger;
  private readonly fns: ClubFunctions;
  private readonly now: () => Date;
  private readonly index: ScheduleIndex;
  private readonly topics: SessionTopics;
  private readonly prefix: string;
  private store: DirectorStore | null;
  private readonly ownStore: boolean;
  private client: MqttClient | null = null;
  private web: { url: string; close(): Promise<void> } | null = null;
  /** Issue 21: each board's double-dummy table and par for the exports, solved in a child process once asked for. */
  private dd: { analyses: BoardAnalyses; claims: ClaimAnalyses; close(): void } | null = null;
  private readonly tables = new Map<string, TableState>();
  private readonly byNo = new Map<number, string>();
  private readonly records = new Map<number, TrayRecord>();
  private readonly results = new Map<string, StoredResult>();
  private readonly playedAt = new Map<number, string[]>();
  private readonly alertIds = new Set<string>();
  private readonly alerts: ClubAlert[] = [];
  private readonly decisions = new Map<string, StoredDecision>();
  private readonly adjustments = new Map<string, NonNullable<Traveller['adjusted']>>();
  private readonly fouledBoards = new Map<number, string[][]>();
  private readonly latePlays = new Set<string>();
  private readonly assignments = new Map<string, RoundAssignment>();
  private readonly findings = new FindingsBook();
  /** The pairs' players (the console's names), once the store is open. */
  players: Players | null = null;
  private released: number[] = [];
  private standings: ScoreReport | null = null;
  private standingsDirty = true;
  /**
   * Results changed in memory whose commit has not finished, by key: the committed result before (null: none) and
   * the commits pending. The standings show the committed one: memory runs ahead of the store while a commit is in
   * flight (a gap fill of 88 events and the result they make is one transaction), and the flush timer does not wait
   * for it, so that scoring overlaps the commit's I/O.
   */
  private readonly uncommitted = new Map<string, { before: StoredResult | null; pending: number }>();
  private snap: DirectorSnapshot | null = null;
  /** The snapshot is older than the state: build it again when asked for it. */
  private snapDirty = true;
  /** The state changed since the last snapshot sent (retained topic, page watchers): send one when next due. */
  private snapUnsent = true;
  /** performance.now() before which no new snapshot is sent: 9 times the cost of the last one (see flushSnapshot). */
  private snapDue = 0;
  private snapTimer: NodeJS.Timeout | null = null;
  /** Retained topics where only the latest message counts: the body waiting while one is in flight (null: none). */
  private readonly latest = new Map<string, string | null>();
  private readonly watchers = new Set<(s: DirectorSnapshot) => void>();
  private chain: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly warned = new Set<string>();
  /** What the tables may send: the limits, and the refusals counted (src/club/director/intake.ts). */
  private readonly intake: IntakeGuard;
  private stopped = false;
  private failed = false;
  /** Ends the wait before the store is tried again (stop). */
  private wakeRetry: (() => void) | null = null;
  /** Cluster mode: the leases, the tables followed (those of the partitions held), the store's changes read back. */
  private leases: PartitionLeases | null = null;
  private readonly owned: Set<string> | null;
  private syncTimer: NodeJS.Timeout | null = null;
  private syncQueued = false;
  /** This instance's name among the director instances (cluster mode; '' otherwise). */
  instance = '';
  /** The MQTT client id, which names the director's persistent session at the broker (set by start). */
  clientId = '';
  /** The tables without readers (config handScored): their results come as table-result decisions. */
  private readonly handScored: Set<string>;
  /** The secret the table PINs are made from, kept in the store (set by start). */
  private pinSecret = '';

  constructor(private readonly opts: DirectorServiceOptions) {
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
        id, no: i + 1, fold: new TableFold(this.c.variant), firstSeq: null, pending: new Map(), maxSeq: 0, status: 'unknown', recorded: new Set(), request: null,
      });
      this.byNo.set(i + 1, id);
    });
  }

  /** Open the store, rebuild everything from it, connect to the broker and start the page. */
  async start(): Promise<void> {
    if (!this.store) this.store = await DirectorStore.open(this.c.store.url);
    this.pinSecret = await this.store.metaValue('table-pin-secret', newPinSecret);
    this.players = new Players(this.store.db, this.c.session, this.c.pairs);
    await this.players.load();
    await this.rebuild();
    const cl = this.c.cluster;
    this.instance = cl ? (cl.instance ?? `${hostname()}-${process.pid}`) : '';
    this.clientId = this.c.mqtt.clientId
      ?? `tenace-director-${this.c.club.id}-${this.c.session}-${cl ? this.instance : (await this.store.instanceId()).slice(0, 8)}`;
    this.connect();
    this.retryTimer = setInterval(() => this.retryGaps(), Math.max(500, (this.opts.requestRetryMs ?? 3000) / 2));
    this.retryTimer.unref();
    if (cl) {
      this.leases = new PartitionLeases({
        ops: this.store.leaseOps, session: this.c.session, instance: this.instance, partitions: cl.partitions,
        leaseMs: cl.leaseSeconds * 1000, heartbeatMs: cl.heartbeatSeconds * 1000, log: this.log,
        onChange: (gained, lost) => this.enqueue(() => this.repartition(gained, lost)),
        onFailure: (err) => this.fail(err),
      });
      await this.leases.start();
      this.syncTimer = setInterval(() => {
        // One read-back queued at a time: under load they would pile up ahead of the tables' events.
        if (this.stopped || this.failed || this.syncQueued) return;
        this.syncQueued = true;
        void this.enqueue(() => this.syncFromStore()).catch(() => undefined).finally(() => { this.syncQueued = false; });
      }, SYNC_MS);
      this.syncTimer.unref();
    }
    if (this.opts.web ?? this.c.http.enabled) await this.startWeb();
    this.flushNow();
  }

  /** Whether this instance publishes the session's own topics: always alone, the holder of partition 0 in a cluster. */
  private get leader(): boolean {
    return this.leases === null || this.leases.leader;
  }

  /** The tables this instance follows: all of them alone, those of its partitions in a cluster. */
  private followed(): TableState[] {
    return [...this.tables.values()].filter((ts) => this.owned === null || this.owned.has(ts.id));
  }

  /** The store or the leases failed: stop acknowledging, and let the owner restart the service. */
  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.log.fatal({ err: err.message }, 'director: the store failed; no further message is acknowledged');
    this.opts.onFatal?.(err);
  }

  /** Stop: finish the message in hand, disconnect cleanly, close the page and the store. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.syncTimer) clearInterval(this.syncTimer);
    // A clean stop gives the leases up, so the other instances take the tables at once; a failed store cannot.
    if (this.leases) await this.leases.stop(!this.failed);
    if (this.retryTimer) clearInterval(this.retryTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.snapTimer) clearTimeout(this.snapTimer);
    this.wakeRetry?.();
    await this.chain.catch(() => undefined);
    if (this.client) await closeClient(this.client).catch(() => undefined);
    if (this.web) await this.web.close().catch((err: unknown) => this.log.warn({ err }, 'director page did not close cleanly'));
    this.dd?.close();
    if (this.ownStore && this.store) await this.store.close();
  }

  /** The latest snapshot (what the page shows). */
  snapshot(): DirectorSnapshot {
    if (!this.snap || this.snapDirty) {
      this.snap = this.buildSnapshot();
      this.snapDirty = false;
    }
    return this.snap;
  }

  /** Call `fn` on every new snapshot; returns the unsubscribe. */
  subscribe(fn: (s: DirectorSnapshot) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  /** The travellers as scored: the results, the director's adjustments applied, fouled-board groups marked. */
  travellers(): DirectorTraveller[] {
    const out: DirectorTraveller[] = [];
    const seen = new Set<string>();
    const byLaw = this.averagesByLaw();
    const groups = this.groupsByLaw();
    const committed = [...this.results].flatMap(([key, r]) => {
      const u = this.uncommitted.get(key);
      return u ? (u.before ? [u.before] : []) : [r];
    });
    for (const r of committed.sort((a, b) => a.traveller.board - b.traveller.board || compareIds(String(a.traveller.table), String(b.traveller.table)) || (a.traveller.round ?? 0) - (b.traveller.round ?? 0))) {
      const t: DirectorTraveller = { ...r.traveller };
      // An adjustment names a tray and a table: where the table played the tray in two rounds it applies to both.
      const key = `${t.board}:${r.table}`;
      const adj = this.adjustments.get(key) ?? (this.fouledBoards.has(t.board) ? undefined : byLaw.get(key));
      if (adj !== undefined) t.adjusted = adj;
      const g = this.groupOf(t.board, r.table) ?? (this.fouledBoards.has(t.board) ? undefined : groups.get(t.board)?.(r.table));
      if (g !== undefined) t.version = g;
      out.push(t);
      seen.add(key);
    }
    for (const [key, adjusted] of this.adjustments) {
      if (seen.has(key)) continue;
      const [b, table] = [Number(key.slice(0, key.indexOf(':'))), key.slice(key.indexOf(':') + 1)];
      const ts = this.tables.get(table)!;
      const where = this.index.get(ts.no, b);
      out.push({ board: b, ns: where?.ns ?? `${ts.no}NS`, ew: where?.ew ?? `${ts.no}EW`, table: ts.no, ...(where ? { round: where.round } : {}), adjusted });
    }
    return out;
  }

  /** The session as the exports read it (PBN with results, USEBIO, CSV travellers). */
  sessionExport(): SessionExport {
    const travellers = this.travellers();
    const report = this.standings ?? this.fns.scoreTravellers(travellers, this.c.scoring.method ? { method: this.c.scoring.method } : {});
    return {
      club: this.c.club.id, session: this.c.session, date: this.now().toISOString().slice(0, 10), variant: this.c.variant,
      schedule: this.schedule, records: this.trayRecords(), travellers, report, ...exportNames(this.players?.pairs() ?? {}),
    };
  }

  /** The tray records in force (latest revision of each board). */
  trayRecords(): TrayRecord[] {
    return [...this.records.values()].sort((a, b) => a.board - b.board);
  }

  // ------------------------------------------------------------------------------------------------ rebuild

  private async rebuild(): Promise<void> {
    const s = this.store!;
    const session = this.c.session;
    for (const d of await s.decisions(session)) {
      this.decisions.set(d.transaction, d);
      const ok = (d.response as { ok?: boolean }).ok === true;
      if (ok) this.applyDecisionState({ name: d.cmd, params: d.request } as Decision);
    }
    for (const r of await s.trays(session)) this.records.set(r.board, r);
    for (const a of await s.assignments(session)) this.assignments.set(a.table, a);
    for (const { id, alert } of await s.alerts(session)) {
      this.alertIds.add(id);
      this.alerts.push(alert);
    }
    for (const r of await s.results(session)) {
      this.results.set(resultKey(r), r);
      // Its record check was committed with it: against the record then in force, which a correction since may have
      // replaced. Checking it again against today's record could raise an alert the live run never raised.
      this.tables.get(r.table)?.recorded.add(r.fromSeq);
    }
    const first = await s.firstSeqs(session);
    // In a cluster no table is followed before the leases are taken: their events are read then (repartition).
    const events = this.owned ? [] : await s.events(session);
    const work = new Work();
    for (const e of events) {
      const ts = this.tables.get(e.table);
      if (!ts || (this.owned && !this.owned.has(ts.id))) continue;
      ts.pending.set(e.seq, { ...e.event, seq: e.seq });
      ts.maxSeq = Math.max(ts.maxSeq, e.seq);
    }
    for (const ts of this.tables.values()) {
      const f = first.get(ts.id);
      if (f !== undefined) ts.firstSeq = f;
      this.foldReady(ts, work);
    }
    this.initialAssignments(work);
    // The derived rows are keyed, so writing them again changes nothing when the last run committed them.
    if (work.writes.length > 0) await s.transaction(async (tx) => { for (const w of work.writes) await w(tx); });
    this.uncommitted.clear();
    this.playedAtFromResults();
    this.log.info({ events: events.length, results: this.results.size, records: this.records.size, alerts: this.alerts.length, decisions: this.decisions.size }, 'director: rebuilt from the store');
  }

  /** A result's commit finished: the standings may show it. */
  private settle(key: string): void {
    const u = this.uncommitted.get(key);
    if (u && --u.pending === 0) this.uncommitted.delete(key);
    this.standingsDirty = true;
    this.scheduleFlush();
  }

  private playedAtFromResults(): void {
    const sorted = [...this.results.values()].sort((a, b) => a.toSeq - b.toSeq);
    for (const r of sorted) {
      const list = this.playedAt.get(r.traveller.board) ?? [];
      if (!list.includes(r.table)) list.push(r.table);
      this.playedAt.set(r.traveller.board, list);
    }
  }

  private initialAssignments(work: Work): void {
    for (const ts of this.followed()) {
      if (this.assignments.has(ts.id)) continue;
      this.assign(ts, this.schedule.rounds[0]?.round ?? 1, work);
    }
  }

  // ------------------------------------------------------------------------------------------------ MQTT

  private connect(): void {
    const o: IClientOptions = {
      clientId: this.clientId,
      // A persistent session: what the tables publish while the director is down waits for it at the broker (a week,
      // longer than any session, on MQTT 5; on MQTT 3.1.1 a persistent session lasts until the broker drops it).
      // customHandleAcks holds each PUBACK until the commit on either protocol.
      clean: false,
      ...(this.c.mqtt.protocolVersion === 4
        ? { protocolVersion: 4 as const }
        // A cluster instance's tables go to another instance when it dies, which asks the tables for what it missed:
        // its own queue need only outlive a restart.
        // maximumPacketSize: the broker drops a larger message for the director instead of sending it.
        : { protocolVersion: 5 as const, properties: { sessionExpiryInterval: this.c.cluster ? Math.max(60, 6 * this.c.cluster.leaseSeconds) : 7 * 24 * 3600, maximumPacketSize: MAX_PACKET_BYTES } }),
      keepalive: this.c.mqtt.keepalive,
      reconnectPeriod: 1000,
      // As the table's feed: no cache of 65,536 packet-id Buffers (6 MB of heap) in mqtt-packet.
      writeCache: false,
      username: this.c.mqtt.username,
      password: this.opts.password ?? this.c.mqtt.password,
      customHandleAcks: (topic, message, _packet, done) => {
        this.enqueue(() => this.handle(topic, message)).then(() => done(0), (err: Error) => done(err));
      },
    };
    const client = mqtt.connect(this.c.mqtt.url, o);
    this.client = client;
    if (this.c.mqtt.protocolVersion === 4) {
      // mqtt.js calls customHandleAcks on MQTT 5 only; on 3.1.1 its documented hook is handleMessage, which it awaits
      // before it sends the PUBACK of a QoS 1 message: persist there instead.
      client.handleMessage = (packet, callback) => {
        if (packet.cmd !== 'publish' || packet.qos === 0) return callback();
        this.enqueue(() => this.handle(packet.topic, packet.payload as Buffer)).then(() => callback(), (err: Error) => callback(err));
      };
    }
    client.on('connect', (ack) => {
      // Small messages (PUBACKs, standings) one after another: Nagle would hold each for the broker's delayed ACK.
      (client.stream as { setNoDelay?: (on: boolean) => void } | undefined)?.setNoDelay?.(true);
      this.log.info({ url: this.c.mqtt.url, sessionPresent: ack.sessionPresent }, 'director: connected');
      const p = this.prefix;
      const filters = this.owned
        ? [this.topics.traysFilter, ...(this.leader ? [this.decisionFilter()] : []), ...this.followed().flatMap((ts) => this.tableFilters(ts.id))]
        : [`${p}+/director/event`, `${p}+/status`, `${p}+/response/events`, `${p}+/director`, this.decisionFilter(), this.topics.traysFilter];
      this.mqttSubscribe(filters);
      this.publishAll();
      for (const ts of this.followed()) {
        ts.request = null;
        this.requestEvents(ts);
      }
    });
    // QoS 0 messages take no ack; everything the director needs comes at QoS 1 through customHandleAcks.
    client.on('message', (topic, message, packet) => {
      if (packet.qos === 0) void this.enqueue(() => this.handle(topic, message)).catch(() => undefined);
    });
    client.on('error', (err) => this.log.warn({ err: err.message }, 'director: mqtt error'));
    client.on('offline', () => this.log.warn('director: broker offline; reconnecting'));
  }

  private decisionFilter(): string {
    return `${this.prefix}club/${this.c.session}/request/+`;
  }

  /** The topics of one table the director follows. */
  private tableFilters(id: string): string[] {
    return ['director/event', 'status', 'response/events', 'director'].map((t) => `${this.prefix}${id}/${t}`);
  }

  private mqttSubscribe(filters: string[]): void {
    if (filters.length === 0 || !this.client?.connected) return;
    this.client.subscribe(filters, { qos: 1 }, (err) => {
      if (err && !this.stopped) this.log.error({ err }, 'director: subscribe failed');
    });
  }

  private mqttUnsubscribe(filters: string[]): void {
    if (filters.length === 0 || !this.client?.connected) return;
    this.client.unsubscribe(filters, (err) => {
      if (err && !this.stopped) this.log.warn({ err }, 'director: unsubscribe failed');
    });
  }

  /** Run `fn` after everything queued before it: the director's state changes one message at a time. */
  private enqueue(fn: () => Promise<void>): Promise<void> {
    const next = this.chain.then(() => {
      if (this.failed) throw new Error('director: the store failed; not acknowledging');
      return fn();
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  private pub(topic: string, body: unknown, retain: boolean): void {
    const c = this.client;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    if (!c || this.failed || this.tooLarge(topic, text)) return;
    c.publish(topic, text, { qos: 1, retain }, (err) => {
      if (err && !this.stopped) this.log.warn({ err: err.message, topic }, 'director: publish failed');
    });
  }

  /**
   * Publish a retained message of which only the latest counts (standings, snapshot, released trays): while one is
   * in flight, a newer one waits and replaces any other waiting. A director that publishes faster than the broker
   * acknowledges then holds one message a topic, not a queue that grows without bound.
   */
  private pubLatest(topic: string, body: string): void {
    const c = this.client;
    if (!c || this.failed || this.tooLarge(topic, body)) return;
    if (this.latest.has(topic)) {
      this.latest.set(topic, body);
      return;
    }
    this.latest.set(topic, null);
    c.publish(topic, body, { qos: 1, retain: true }, (err) => {
      if (err && !this.stopped) this.log.warn({ err: err.message, topic }, 'director: publish failed');
      const next = this.latest.get(topic);
      this.latest.delete(topic);
      if (next != null && !this.stopped) this.pubLatest(topic, next);
    });
  }

  /**
   * A message over the broker's message_size_limit is not sent: Mosquitto would drop the connection, and mqtt.js would
   * send the message again on the next one, for ever. Said once a topic, with the setting to change.
   */
  private tooLarge(topic: string, body: string): boolean {
    const bytes = Buffer.byteLength(body);
    if (bytes <= this.c.mqtt.maxMessageBytes) return false;
    const where = topic.slice(this.prefix.length).replace(/\/\d+$/, '/<n>');
    if (!this.warned.has(`size:${where}`)) {
      this.warned.add(`size:${where}`);
      this.log.error({ topic, bytes, maxMessageBytes: this.c.mqtt.maxMessageBytes },
        'director: a message is larger than mqtt.maxMessageBytes and is not published; raise the broker\'s message_size_limit and mqtt.maxMessageBytes together (mosquitto/central.conf has 8388608)');
    }
    return true;
  }

  private publishAll(): void {
    for (const ts of this.followed()) {
      const a = this.assignments.get(ts.id);
      if (a) this.pub(tableTopics(this.c.club.id, a.table, this.c.mqtt.baseTopic).assignment, a, true);
    }
    if (this.leader) this.publishSessionTopics();
  }

  /** The session's own retained topics, published by the one instance that holds partition 0. */
  private publishSessionTopics(): void {
    this.pub(this.topics.schedule, this.schedule, true);
    for (const r of this.records.values()) this.pub(this.topics.tray(r.board), r, true);
    this.pubLatest(this.topics.released, JSON.stringify(this.releasedMessage()));
    this.standingsDirty = true;
    this.flushNow();
  }

  private async handle(topic: string, payload: Buffer): Promise<void> {
    if (!topic.startsWith(this.prefix)) return;
    this.log.trace({ topic, bytes: payload.length }, 'director: message');
    const parts = topic.slice(this.prefix.length).split('/');
    const from = this.tables.has(parts[0]) ? parts[0] : null;
    // A table of a partition given up (a message the broker had queued): its new holder asks the table for it.
    if (from !== null && this.owned && !this.owned.has(from)) return;
    const kind = kindOf(parts);
    if (kind && payload.length > INTAKE_LIMITS[kind]) return this.refused({ table: from, reason: 'too-large', kind, bytes: payload.length, detail: { topic } });
    try {
      if (parts[0] === 'club') {
        if (parts.length === 4 && parts[1] === this.c.session && parts[2] === 'request') await this.onDecision(parts[3], payload);
        return;
      }
      if (parts[0] === 'trays') {
        if (parts.length === 3 && parts[1] === this.c.session) await this.onTrayRecord(payload);
        return;
      }
      const ts = this.tables.get(parts[0]);
      const rest = parts.slice(1).join('/');
      if (!ts) {
        if (rest === 'director/event' && !this.warned.has(`table:${parts[0]}`)) {
          this.warned.add(`table:${parts[0]}`);
          this.log.warn({ table: parts[0] }, 'director: events from a table that is not in the config\'s tables; ignored');
        }
        return;
      }
      if (rest === 'director/event') await this.onTableEvent(ts, payload);
      else if (rest === 'response/events') await this.onEventsResponse(ts, payload);
      else if (rest === 'status') this.onStatus(ts, payload);
      else if (rest === 'director') await this.onTableAlert(ts, payload);
    } catch (err) {
      if (err instanceof StoreFailure) throw err;
      // A malformed message must not stop the director (nor be redelivered forever): count it and acknowledge it.
      await this.refused({ table: from, reason: 'not-understood', detail: { err: (err as Error).message, topic } });
    }
  }

  private onStatus(ts: TableState, payload: Buffer): void {
    const s = payload.toString('utf8').trim();
    const status = s === 'online' ? 'online' : s === 'offline' ? 'offline' : 'unknown';
    if (status === ts.status) return;
    ts.status = status;
    // A table coming (back) online may hold events the director missed: ask for them.
    if (status === 'online') {
      ts.request = null;
      this.requestEvents(ts);
    }
    this.scheduleFlush();
  }

  private async onTableEvent(ts: TableState, payload: Buffer): Promise<void> {
    const m = JSON.parse(payload.toString('utf8')) as { type?: string; session?: string; seq?: number; event?: unknown };
    if (m.type !== 'tenace.journal-event') return;
    if (m.session !== this.c.session) return this.refused({ table: ts.id, reason: 'other-session', detail: { session: String(m.session).slice(0, 100) } });
    const c = this.checkEvent(ts, m.seq, m.event);
    if (c.refusal) return this.refused(c.refusal);
    await this.ingest(ts, [c.ev], undefined);
  }

  /** A table's event with its seq, or why it is refused. */
  private checkEvent(ts: TableState, seq: unknown, event: unknown): { ev: TableEvent; refusal?: undefined } | { refusal: Refusal } {
    if (!isSeq(seq)) return { refusal: { table: ts.id, reason: 'bad-seq', seq } };
    const ev = { ...(event as object), seq } as TableEvent;
    const problem = validateTableEvent(ev);
    return problem ? { refusal: { table: ts.id, reason: 'invalid-event', seq, detail: { problem } } } : { ev };
  }

  /** Count a refusal; the first of a burst raises its alert (committed before the message is acknowledged). */
  private async refused(r: Refusal): Promise<void> {
    const work = new Work();
    this.refusedInto(r, work);
    await this.commitWork(work);
  }

  private refusedInto(r: Refusal, work: Work): void {
    const a = this.intake.refuse(r);
    if (a) this.raise(`${a.kind}:${a.table}:${r.reason}:${a.at}`, a, work);
  }

  /** Commit a message's work, then publish what it made. */
  private async commitWork(work: Work): Promise<void> {
    if (!work.changed) return;
    if (work.writes.length > 0) await this.commit(async (tx) => { for (const w of work.writes) await w(tx); });
    for (const p of work.publishes) p();
    this.scheduleFlush();
  }

  /** The refusals of the intake so far, by `"<table>:<reason>"`. */
  refusals(): Record<string, number> {
    return this.intake.counts();
  }

  /** How many events each table holds past a gap, not yet folded. */
  pendingEvents(): Record<string, number> {
    return Object.fromEntries([...this.tables.values()].map((ts) => [ts.id, ts.pending.size]));
  }

  private async onEventsResponse(ts: TableState, payload: Buffer): Promise<void> {
    const m = JSON.parse(payload.toString('utf8')) as { transaction?: unknown; ok?: boolean; session?: string; events?: unknown[]; last?: number; error?: string };
    const req = ts.request;
    if (!req || m.transaction !== req.tx) return;
    ts.request = null;
    if (m.ok !== true) {
      this.log.warn({ table: ts.id, error: m.error }, 'director: the table refused request/events');
      return;
    }
    if (m.session !== this.c.session) return this.refused({ table: ts.id, reason: 'other-session', detail: { session: String(m.session).slice(0, 100) } });
    const events: TableEvent[] = [];
    for (const raw of (Array.isArray(m.events) ? m.events : []).slice(0, REQUEST_LIMIT)) {
      const c = this.checkEvent(ts, (raw as { seq?: unknown } | null)?.seq, raw);
      if (c.refusal) await this.refused(c.refusal);
      else events.push(c.ev);
    }
    events.sort((a, b) => a.seq! - b.seq!);
    // An answer from the start of the session tells where the table's session begins.
    const firstSeq = req.after === 0 && ts.firstSeq === null ? (events[0]?.seq ?? (Number.isSafeInteger(m.last) ? m.last! + 1 : undefined)) : undefined;
    await this.ingest(ts, events, firstSeq);
    if (events.length === 0 && ts.pending.size > 0 && req.after === ts.fold.lastSeq) {
      // The table holds nothing after the gap's start (a journal from another session, or cut short): the events past
      // the gap stay stored but unfolded, and the results after it wait. Only the director can sort it out.
      this.warnOnce(`gap:${ts.id}:${req.after}`, { table: ts.id, after: req.after, waiting: ts.pending.size }, 'director: the table cannot give the events after a gap; its later results wait');
    }
    const lastGot = events.at(-1)?.seq ?? req.after;
    if (Number.isSafeInteger(m.last) && m.last! > lastGot && events.length > 0) this.requestEvents(ts);
  }

  /** Store new events of a table, fold those that follow on, and commit all that follows from them, then publish. */
  private async ingest(ts: TableState, events: TableEvent[], firstSeq: number | undefined): Promise<void> {
    const setFirst = firstSeq !== undefined && ts.firstSeq === null;
    const work = new Work();
    const fresh = await this.admit(ts, events, setFirst ? firstSeq : ts.firstSeq, work);
    if (fresh.length === 0 && !setFirst) {
      await this.commitWork(work);
      this.checkGap(ts);
      return;
    }
    for (const e of fresh) {
      ts.pending.set(e.seq!, e);
      ts.maxSeq = Math.max(ts.maxSeq, e.seq!);
    }
    if (setFirst) {
      ts.firstSeq = firstSeq;
      for (const s of [...ts.pending.keys()]) if (s < firstSeq) ts.pending.delete(s);
    }
    this.foldReady(ts, work);
    const at = this.now().toISOString();
    for (const e of fresh) if (e.type === 'deal' && e.board !== undefined && this.index.playsOf(e.board).length === 0) this.unknownBoard(ts, e, work);
    await this.commit(async (tx) => {
      for (const e of fresh) await tx.insertEvent(this.c.session, ts.id, e.seq!, e, at);
      if (setFirst) await tx.setFirstSeq(this.c.session, ts.id, firstSeq);
      for (const w of work.writes) await w(tx);
    }, fresh.length);
    for (const p of work.publishes) p();
    this.scheduleFlush();
    this.checkGap(ts);
  }

  /**
   * The events of a message that are new and within the gap window; the rest refused: past the window (dropped, to be
   * asked for again), or at a seq already held with other content (the first stands). A redelivery is dropped quietly.
   */
  private async admit(ts: TableState, events: TableEvent[], first: number | null, work: Work): Promise<TableEvent[]> {
    const fresh: TableEvent[] = [];
    const held: TableEvent[] = [];
    const seen = new Set<number>();
    const base = first === null ? null : Math.max(ts.fold.lastSeq, first - 1);
    let dropped = false;
    for (const e of events) {
      const seq = e.seq!;
      if ((first !== null && seq < first) || seen.has(seq)) continue;
      seen.add(seq);
      if (seq <= ts.fold.lastSeq || ts.pending.has(seq)) held.push(e);
      // Before the first seq is known there is no base: the events held are bounded by count instead.
      else if (base === null ? ts.pending.size + fresh.length >= GAP_WINDOW : seq > base + GAP_WINDOW) {
        this.refusedInto({ table: ts.id, reason: 'past-window', seq }, work);
        dropped = true;
      } else fresh.push(e);
    }
    const folded = held.filter((e) => !ts.pending.has(e.seq!)).map((e) => e.seq!);
    const stored = await this.store!.eventsAt(this.c.session, ts.id, folded);
    for (const e of held) {
      const before = ts.pending.get(e.seq!) ?? stored.get(e.seq!);
      if (before && !sameJson({ ...before, seq: e.seq }, e)) this.refusedInto({ table: ts.id, reason: 'reused-seq', seq: e.seq }, work);
    }
    if (held.length > 0) this.log.debug({ table: ts.id, seqs: held.map((e) => e.seq) }, 'director: events already stored (a redelivery)');
    // What was dropped past the window is asked for again (request/events, answered from the gap on).
    if (dropped) this.requestEvents(ts);
    return fresh;
  }

  /** A deal of a board the movement does not have: an alert for the director (a table's alerts are rate-limited). */
  private unknownBoard(ts: TableState, e: TableEvent & { board?: number }, work: Work): void {
    if (!this.intake.allowAlert(ts.id)) return this.refusedInto({ table: ts.id, reason: 'alert-rate' }, work);
    const a = unknownBoardAlert(this.c.session, ts.id, e.board!, e.seq!, this.now().toISOString());
    this.raise(`unknown-board:${ts.id}:${e.seq}`, a, work);
  }

  /**
   * Commit a message's writes. A fault the operator can fix (a full disk, a read-only file) is waited out here: the
   * message is not acknowledged meanwhile, so the broker keeps it and all after it; said in one line, tried again
   * with back-off, and said again once written. Any other failure stops the service (a restart rebuilds).
   */
  private async commit(fn: (tx: StoreOps) => Promise<void>, events = 0): Promise<void> {
    const started = performance.now();
    for (let wait = STORE_RETRY_MS; ; wait = Math.min(2 * wait, this.opts.storeRetryMaxMs ?? 30_000)) {
      try {
        await this.store!.transaction(fn);
        if (wait > STORE_RETRY_MS) this.log.warn({ store: this.store!.where, seconds: Math.round((performance.now() - started) / 1000) }, 'director: the store takes writes again; acknowledging again');
        return;
      } catch (err) {
        // Stopped while waiting: the message stays unacknowledged, for the next start.
        if (this.stopped) throw new StoreFailure((err as Error).message);
        const fault = storeFault(err);
        if (fault === null) {
          // The in-memory state now runs ahead of the store: stop acknowledging; a restart rebuilds from the store.
          this.fail(err as Error);
          throw new StoreFailure((err as Error).message);
        }
        if (wait === STORE_RETRY_MS) {
          this.log.error({ store: this.store!.where, err: (err as Error).message, waiting: events },
            `director: cannot write the store ${this.store!.where}: ${fault}; ${events} event${events === 1 ? '' : 's'} wait, not acknowledged (the broker keeps the rest); trying again with back-off`);
        }
        await new Promise<void>((r) => {
          const t = setTimeout(r, wait);
          this.wakeRetry = () => { clearTimeout(t); r(); };
        });
        this.wakeRetry = null;
      }
    }
  }

  private checkGap(ts: TableState): void {
    if (ts.firstSeq === null || ts.pending.size > 0) this.requestEvents(ts);
  }

  private retryGaps(): void {
    if (this.stopped || !this.client?.connected) return;
    for (const ts of this.followed()) if (ts.firstSeq === null || ts.pending.size > 0) this.requestEvents(ts);
  }

  /** Ask a table for the events after the last one folded (from the start while its first seq is unknown). */
  private requestEvents(ts: TableState): void {
    if (!this.client?.connected || this.stopped) return;
    const retry = this.opts.requestRetryMs ?? 3000;
    if (ts.request && Date.now() - ts.request.at < retry) return;
    const after = ts.firstSeq === null ? 0 : Math.max(ts.fold.lastSeq, ts.firstSeq - 1);
    const tx = `director-${randomUUID()}`;
    ts.request = { tx, after, at: Date.now() };
    this.pub(tableTopics(this.c.club.id, ts.id, this.c.mqtt.baseTopic).request('events'), { transaction: tx, after, limit: REQUEST_LIMIT }, false);
  }

  /** Fold the pending events that follow on from the last folded one. */
  private foldReady(ts: TableState, work: Work): void {
    if (ts.firstSeq === null) return;
    for (;;) {
      const next = ts.fold.lastSeq === 0 ? ts.firstSeq : ts.fold.lastSeq + 1;
      const ev = ts.pending.get(next);
      if (!ev) {
        // Events below the first seq or already folded (a restart before the first seq was known) are dropped.
        for (const s of [...ts.pending.keys()]) if (s < next) ts.pending.delete(s);
        return;
      }
      ts.pending.delete(next);
      let c: Completion | null = null;
      try {
        c = ts.fold.apply(ev);
      } catch (err) {
        ts.fold.lastSeq = next;
        this.log.error({ err, table: ts.id, seq: next }, 'director: the engine refused an event; it is stored and skipped');
      }
      if (c) this.onCompletion(ts, c, work);
    }
  }

  // ------------------------------------------------------------------------------------------------ cluster

  /** Partitions changed hands: stop following the tables lost, and take up the tables gained from the store. */
  private async repartition(gained: number[], lost: number[]): Promise<void> {
    const owned = this.owned!;
    const parts = this.c.cluster!.partitions;
    const tablesOf = (ps: number[]) => [...this.tables.values()].filter((ts) => ps.includes(partitionOf(ts.no, parts)));
    const wasLeader = lost.includes(0);
    for (const ts of tablesOf(lost)) {
      owned.delete(ts.id);
      this.mqttUnsubscribe(this.tableFilters(ts.id));
      this.resetTable(ts);
    }
    if (wasLeader) this.mqttUnsubscribe([this.decisionFilter()]);
    const taken = tablesOf(gained);
    if (taken.length > 0) {
      // What the previous holder stored is the starting point: its results, records and decisions first, then this
      // partition's events folded again (which derives nothing new), then the tables are asked for the rest.
      await this.syncFromStore();
      const s = this.store!;
      const first = await s.firstSeqs(this.c.session);
      const work = new Work();
      for (const ts of taken) {
        owned.add(ts.id);
        this.resetTable(ts);
        const f = first.get(ts.id);
        if (f !== undefined) ts.firstSeq = f;
        for (const r of this.results.values()) if (r.table === ts.id) ts.recorded.add(r.fromSeq);
        for (const e of await s.events(this.c.session, ts.id)) {
          ts.pending.set(e.seq, { ...e.event, seq: e.seq });
          ts.maxSeq = Math.max(ts.maxSeq, e.seq);
        }
        this.foldReady(ts, work);
      }
      this.initialAssignments(work);
      if (work.writes.length > 0) await this.commit(async (tx) => { for (const w of work.writes) await w(tx); });
      for (const p of work.publishes) p();
      this.mqttSubscribe([...(gained.includes(0) ? [this.decisionFilter()] : []), ...taken.flatMap((ts) => this.tableFilters(ts.id))]);
      for (const ts of taken) {
        const a = this.assignments.get(ts.id);
        if (a) this.pub(tableTopics(this.c.club.id, ts.id, this.c.mqtt.baseTopic).assignment, a, true);
        this.requestEvents(ts);
      }
    }
    if (gained.includes(0)) this.publishSessionTopics();
    this.scheduleFlush();
  }

  private resetTable(ts: TableState): void {
    ts.fold = new TableFold(this.c.variant);
    ts.firstSeq = null;
    ts.pending.clear();
    ts.maxSeq = 0;
    ts.status = 'unknown';
    ts.recorded.clear();
    ts.request = null;
  }

  /**
   * Read back what the other instances stored: results, tray records, assignments, alerts and decisions. The store
   * is the truth they share; standings and released trays are derived from it by the holder of partition 0.
   */
  private async syncFromStore(): Promise<void> {
    const s = this.store!;
    const session = this.c.session;
    let changed = false;
    for (const r of await s.results(session)) {
      if (this.owned?.has(r.table)) continue;
      const key = resultKey(r);
      const prev = this.results.get(key);
      if (prev && prev.fromSeq === r.fromSeq && prev.toSeq === r.toSeq) continue;
      this.results.set(key, r);
      const list = this.playedAt.get(r.traveller.board) ?? [];
      if (!list.includes(r.table)) list.push(r.table);
      this.playedAt.set(r.traveller.board, list);
      changed = true;
    }
    for (const r of await s.trays(session)) {
      if ((this.records.get(r.board)?.rev ?? 0) < r.rev) {
        this.records.set(r.board, r);
        changed = true;
      }
    }
    for (const a of await s.assignments(session)) {
      // A later round, or the same round given again by a decision (a late play adds a tray to it).
      const mine = this.assignments.get(a.table);
      if (!mine || mine.round < a.round || (mine.round === a.round && mine.at < a.at)) {
        this.assignments.set(a.table, a);
        changed = true;
      }
    }
    for (const { id, alert } of await s.alerts(session)) {
      if (this.alertIds.has(id)) continue;
      this.alertIds.add(id);
      this.alerts.push(alert);
      changed = true;
    }
    for (const d of await s.decisions(session)) {
      if (this.decisions.has(d.transaction)) continue;
      this.decisions.set(d.transaction, d);
      if ((d.response as { ok?: boolean }).ok === true) this.applyDecisionState({ name: d.cmd, params: d.request } as Decision);
      changed = true;
    }
    if (!changed) return;
    this.standingsDirty = true;
    const work = new Work();
    this.updateReleased(work);
    if (this.leader) this.advanceIdle(work);
    if (work.writes.length > 0) await this.commit(async (tx) => { for (const w of work.writes) await w(tx); });
    for (const p of work.publishes) p();
    this.scheduleFlush();
  }

  // ------------------------------------------------------------------------------------------------ derivations

  private onCompletion(ts: TableState, c: Completion, work: Work): void {
    // The round the deal was played in: the one stored with it (a rebuild, when the table has moved on since), else
    // the one the table journaled with the deal, else the table's round now.
    let round: number | undefined;
    for (const r of this.results.values()) if (r.table === ts.id && r.fromSeq === c.fromSeq) round = r.traveller.round;
    round ??= c.deal.round;
    const traveller = travellerOf(c, { tableNo: ts.no, index: this.index, assignment: this.assignments.get(ts.id), round, variant: this.c.variant });
    this.putResult(ts, { table: ts.id, traveller, fromSeq: c.fromSeq, toSeq: c.toSeq }, work);
    this.findings.noteDeal(ts.id, c.board, traveller.round, c.fromSeq, c.result.findings);
    if (!ts.recorded.has(c.fromSeq)) {
      ts.recorded.add(c.fromSeq);
      this.checkRecord(ts, c, traveller.round, work);
    }
    this.updateReleased(work);
    this.maybeAdvance(ts, work);
  }

  /** Store a result unless it is stored as it is; the standings show it once its commit is done. */
  private putResult(ts: TableState, r: StoredResult, work: Work): void {
    const key = resultKey(r);
    const prev = this.results.get(key);
    if (prev && JSON.stringify(prev.traveller) === JSON.stringify(r.traveller)) return;
    this.results.set(key, r);
    work.write((tx) => tx.putResult(this.c.session, r));
    const u = this.uncommitted.get(key);
    if (u) u.pending++;
    else this.uncommitted.set(key, { before: prev ?? null, pending: 1 });
    work.publish(() => this.settle(key));
    this.standingsDirty = true;
    const list = this.playedAt.get(r.traveller.board) ?? [];
    if (!list.includes(ts.id)) list.push(ts.id);
    this.playedAt.set(r.traveller.board, list);
  }

  private checkRecord(ts: TableState, c: Completion, round: number | undefined, work: Work): void {
    const original = c.deal.hands === undefined && c.deal.overplay !== true;
    const existing = this.records.get(c.board);
    if (existing?.source.kind === 'original-play' && existing.source.table === ts.id && existing.source.fromSeq === c.fromSeq) return;
    if (!existing && !original) return;
    let mine: TrayRecord | null;
    try {
      mine = this.fns.recordFromPlay({ session: this.c.session, table: ts.id, events: c.events, result: c.result, at: this.now().toISOString(), variant: this.c.variant });
    } catch (err) {
      this.warnOnce('recordFromPlay', { err: (err as Error).message }, 'director: cannot make tray records');
      return;
    }
    if (!mine) return;
    if (!existing) {
      const rec: TrayRecord = { ...mine, rev: 1 };
      this.records.set(rec.board, rec);
      let stands = true;
      work.write(async (tx) => {
        if (await tx.putTray(this.c.session, rec)) return;
        // Another director instance stored this tray's original first (a cluster): that record stands, and this play
        // is compared with it as any later play is.
        const first = await tx.tray(this.c.session, rec.board);
        if (!first) return;
        stands = false;
        this.records.set(first.board, first);
        const fouled = this.fouledAlert(ts, c, round, first, mine, original);
        if (fouled && !this.alertIds.has(fouled.id) && await tx.putAlert(this.c.session, fouled.id, fouled.alert)) {
          this.alertIds.add(fouled.id);
          this.alerts.push(fouled.alert);
          work.publish(() => this.pub(this.topics.alerts, fouled.alert, false));
        }
      });
      work.publish(() => {
        if (stands) this.pub(this.topics.tray(rec.board), rec, true);
      });
      return;
    }
    const fouled = this.fouledAlert(ts, c, round, existing, mine, original);
    if (fouled) this.raise(fouled.id, fouled.alert, work);
  }

  /** The fouled-tray alert when a play's hands differ from the record, with the tray doctor's moves; null when equal. */
  private fouledAlert(ts: TableState, c: Completion, round: number | undefined, existing: TrayRecord, mine: TrayRecord, original: boolean): { id: string; alert: ClubAlert } | null {
    try {
      const differences = this.fns.handDifferences(existing.hands, mine.hands);
      if (differences.length === 0) return null;
      const moves = this.fns.trayDoctor(existing.hands, mine.hands);
      const outcome = this.fns.fouledTrayOutcome(this.schedule.tables, original ? 'original' : 'overplay', 'hands', getVariant(this.c.variant).trump === 'contract' ? 'bridge' : 'whist');
      const cards = differences.map((d) => `${d.card} (${d.table} here, ${d.record} in the record)`).join(', ');
      return {
        id: `fouled-tray:${ts.id}:${c.board}:${c.fromSeq}`,
        alert: {
          schema: 1, type: 'tenace.alert', kind: 'fouled-tray', session: this.c.session, table: ts.id, board: c.board,
          ...(round !== undefined ? { round } : {}), law: outcome.law,
          message: `Tray ${c.board} at table ${ts.id} held other hands than its record: ${cards}. ${outcome.law}: ${outcome.message}`,
          differences, moves, outcome, seq: c.toSeq, at: this.now().toISOString(),
        },
      };
    } catch (err) {
      this.warnOnce('handDifferences', { err: (err as Error).message }, 'director: cannot compare tray records');
      return null;
    }
  }

  private raise(id: string, alert: ClubAlert, work: Work): void {
    if (this.alertIds.has(id)) return;
    this.alertIds.add(id);
    this.alerts.push(alert);
    work.write((tx) => tx.putAlert(this.c.session, id, alert));
    work.publish(() => this.pub(this.topics.alerts, alert, false));
  }

  /** Whether `table` has a result on `board` from its play in `round` (as travellerOf rounds it), or from any play. */
  private hasResult(board: number, table: string, round?: number): boolean {
    if (round === undefined) return [...this.results.values()].some((r) => r.table === table && r.traveller.board === board);
    const ts = this.tables.get(table);
    const played = ts ? (this.index.get(ts.no, board, round)?.round ?? round) : round;
    return this.results.has(`${board}:${table}:${played}`);
  }

  private updateReleased(work: Work): void {
    const boards = this.index.boards();
    const complete = boards.filter((b) => this.index.playsOf(b).every((p) => this.hasResult(b, this.byNo.get(p.table)!, p.round)));
    const released = this.c.embargo === 'session-end' ? (complete.length === boards.length ? complete : []) : complete;
    if (released.length === this.released.length && released.every((b, i) => b === this.released[i])) return;
    this.released = released;
    work.publish(() => {
      if (this.leader) this.pubLatest(this.topics.released, JSON.stringify(this.releasedMessage()));
    });
  }

  private releasedMessage(): unknown {
    return { schema: 1, type: 'tenace.released', session: this.c.session, boards: this.released };
  }

  /** Advance a table once it has completed every tray of its round (a tray moved to late play excepted). */
  private maybeAdvance(ts: TableState, work: Work): void {
    const a = this.assignments.get(ts.id);
    if (!a) return;
    const required = a.trays.filter((b) => !this.latePlays.has(`${b}:${ts.id}`) || this.hasResult(b, ts.id, a.round));
    if (required.length === 0 || !required.every((b) => this.hasResult(b, ts.id, a.round))) return;
    if (this.nextRound(a.round) === undefined) return;
    this.assign(ts, this.nextRound(a.round)!, work);
    this.advanceIdle(work);
  }

  /** A table with nothing to play in its round (a sit-out) moves on once no other table is still in that round. */
  private advanceIdle(work: Work): void {
    let moved = true;
    while (moved) {
      moved = false;
      for (const ts of this.tables.values()) {
        const a = this.assignments.get(ts.id);
        if (!a || a.trays.length > 0) continue;
        const next = this.nextRound(a.round);
        if (next === undefined) continue;
        const others = [...this.assignments.values()].filter((x) => x.table !== ts.id && x.trays.length > 0);
        if (others.length > 0 && others.every((x) => x.round > a.round)) {
          this.assign(ts, next, work);
          moved = true;
        }
      }
    }
  }

  private nextRound(round: number): number | undefined {
    const rounds = this.schedule.rounds.map((r) => r.round).sort((x, y) => x - y);
    return rounds.find((r) => r > round);
  }

  /** Give a table its assignment for a round: stored, then published retained on `<table>/assignment`. */
  private assign(ts: TableState, round: number, work: Work): RoundAssignment {
    const entry = this.schedule.rounds.find((r) => r.round === round)?.tables.find((t) => t.table === ts.no);
    const late = [...this.latePlays].filter((k) => k.endsWith(`:${ts.id}`)).map((k) => Number(k.slice(0, k.indexOf(':'))))
      .filter((b) => !this.hasResult(b, ts.id));
    const trays = [...(entry?.trays.filter((b): b is number => b !== null) ?? [])];
    for (const b of late) if (!trays.includes(b)) trays.push(b);
    const a: RoundAssignment = {
      schema: 1, type: 'tenace.assignment', session: this.c.session, movement: this.schedule.movement, round, table: ts.id,
      ...(entry?.ns !== undefined ? { ns: entry.ns } : {}), ...(entry?.ew !== undefined ? { ew: entry.ew } : {}),
      ...(entry?.players ? { players: entry.players } : {}), ...(entry?.turn ? { turn: entry.turn } : {}),
      ...(this.c.trump ? { trump: this.c.trump } : {}), ...seatNames(this.players?.pairs() ?? {}, entry?.ns, entry?.ew, entry?.turn),
      trays, tables: this.schedule.tables, variant: this.c.variant, pin: tablePin(this.pinSecret, this.c.session, ts.id), at: this.now().toISOString(),
    };
    this.assignments.set(ts.id, a);
    work.write((tx) => tx.putAssignment(this.c.session, a));
    work.publish(() => this.pub(tableTopics(this.c.club.id, ts.id, this.c.mqtt.baseTopic).assignment, a, true));
    return a;
  }

  /**
   * The averages the laws give without a decision: a tray found fouled on the overplay with more than two tables in
   * play (Dup. IV.9, IV.10, V.1: "the table at which the error was discovered ... shall take the average score"),
   * keyed `board:table`. The director's adjusted score or fouled-board decision on that tray takes its place.
   */
  private averagesByLaw(): Map<string, 'average'> {
    const out = new Map<string, 'average'>();
    for (const a of this.alerts) {
      if (a.kind !== 'fouled-tray' || a.outcome?.remedy !== 'rectify-and-average' || a.board === undefined || a.table === undefined) continue;
      // The average of no result is no score: until another table has played the tray (a dealing machine's record
      // can make the fouled play the first), the result stands as played and the alert asks for the director.
      if ((this.playedAt.get(a.board) ?? []).some((t) => t !== String(a.table))) out.set(`${a.board}:${a.table}`, 'average');
    }
    return out;
  }

  /**
   * Bridge's fouled boards without a decision (Law 87B): per board, each table's group, 1 for the form of the record
   * and one more for each other form found (tables whose hands differed alike played the same form).
   */
  private groupsByLaw(): Map<number, (table: string) => number> {
    const forms = new Map<number, Map<string, string>>();
    for (const a of this.alerts) {
      if (a.kind !== 'fouled-tray' || a.outcome?.remedy !== 'score-in-groups' || a.board === undefined || a.table === undefined) continue;
      const form = (a.differences ?? []).map((d) => `${d.card}:${d.table}`).sort().join(' ');
      const m = forms.get(a.board) ?? new Map<string, string>();
      m.set(String(a.table), form);
      forms.set(a.board, m);
    }
    const out = new Map<number, (table: string) => number>();
    for (const [board, byTable] of forms) {
      const order = [...new Set(byTable.values())].sort();
      out.set(board, (table) => {
        const f = byTable.get(table);
        return f === undefined ? 1 : order.indexOf(f) + 2;
      });
    }
    return out;
  }

  private groupOf(board: number, table: string): number | undefined {
    const groups = this.fouledBoards.get(board);
    if (!groups) return undefined;
    const i = groups.findIndex((g) => g.includes(table));
    return i < 0 ? undefined : i + 1;
  }

  // ------------------------------------------------------------------------------------------------ other inputs

  private async onTrayRecord(payload: Buffer): Promise<void> {
    if (payload.length === 0) return;
    const r = JSON.parse(payload.toString('utf8')) as TrayRecord;
    if (r.type !== 'tenace.tray' || r.session !== this.c.session || !Number.isInteger(r.board) || !Number.isInteger(r.rev) || typeof r.hands !== 'string') return;
    const have = this.records.get(r.board);
    if (have && have.rev >= r.rev) return;
    // A record from elsewhere (a dealing machine's file, `tenace trays import`) is adopted as it is.
    this.records.set(r.board, r);
    await this.commit(async (tx) => { await tx.putTray(this.c.session, r); });
    this.scheduleFlush();
  }

  private async onTableAlert(ts: TableState, payload: Buffer): Promise<void> {
    const a = JSON.parse(payload.toString('utf8')) as ClubAlert;
    if (a.type !== 'tenace.alert' || a.session !== this.c.session || typeof a.kind !== 'string') return;
    const id = `${a.kind}:${ts.id}:${a.board ?? ''}:${a.seq ?? a.at}`;
    if (this.alertIds.has(id)) return;
    if (!this.intake.allowAlert(ts.id)) return this.refused({ table: ts.id, reason: 'alert-rate' });
    const work = new Work();
    this.raise(id, { ...a, table: ts.id }, work);
    await this.commitWork(work);
  }

  private respond(cmd: string, body: unknown): void {
    this.pub(`${this.prefix}club/${this.c.session}/response/${cmd}`, body, false);
  }

  private async onDecision(cmd: string, payload: Buffer): Promise<void> {
    this.respond(cmd, await this.takeDecision(cmd, payload));
  }

  /** The director page's URL, once it listens (null without a page). */
  get pageUrl(): string | null {
    return this.web?.url ?? null;
  }

  /** Each table's PIN for this session, for the director's console: the players of a table type it on its terminal. */
  tablePins(): Record<string, string> {
    return Object.fromEntries([...this.tables.keys()].map((id) => [id, tablePin(this.pinSecret, this.c.session, id)]));
  }

  /** What a hand-scored table's terminal shows: its round, pairs and trays with the results entered, and where to go next. */
  handTable(id: string): HandTableView | null {
    const ts = this.tables.get(id);
    if (!ts || !this.handScored.has(id)) return null;
    const a = this.assignments.get(id) ?? null;
    const round = a?.round ?? this.schedule.rounds[0].round;
    const results = [...this.results.values()].filter((r) => r.table === id && r.traveller.round === round).map((r) => r.traveller);
    return handTableView({ table: id, no: ts.no, variant: this.c.variant, schedule: this.schedule, assignment: a, round, results, done: this.nextRound(round) === undefined && a !== null && a.trays.every((b) => this.hasResult(b, id, round)) });
  }

  /**
   * A decision from the director's own pages or a hand-scored table's terminal: the same checks, journal and
   * exactly-once answer as one from MQTT, taken in the same serialised chain as every message.
   */
  decide(cmd: string, payload: string): Promise<DecisionResponse> {
    let out: DecisionResponse = { transaction: null, ok: false, error: 'director: stopped' };
    return this.enqueue(async () => { out = await this.takeDecision(cmd, Buffer.from(payload)); }).then(() => out);
  }

  /** The pairs' names changed: each table's assignment in force is given again, with the names. */
  async renamePairs(): Promise<void> {
    await this.enqueue(async () => {
      const work = new Work();
      for (const ts of this.followed()) if (this.assignments.has(ts.id)) this.assign(ts, this.assignments.get(ts.id)!.round, work);
      this.standingsDirty = true;
      await this.commit(async (tx) => { for (const w of work.writes) await w(tx); });
      for (const p of work.publishes) p();
      this.scheduleFlush();
    });
  }

  private async takeDecision(cmd: string, payload: Buffer): Promise<DecisionResponse> {
    const chk = checkDecision(cmd, payload);
    if (!chk.ok) return { transaction: chk.transaction, ok: false, error: chk.error };
    const d = chk.decision;
    const key = transactionKey(d.transaction);
    const digest = decisionDigest(d);
    const prior = this.decisions.get(key);
    if (prior) {
      // A retry gets the first answer; the decision is not applied again.
      return prior.digest === digest ? prior.response as DecisionResponse
        : { transaction: d.transaction, ok: false, error: `transaction: "${d.transaction}" was used for another decision (${prior.cmd}); give each decision its own transaction id` };
    }
    const problem = this.refusal(d);
    if (problem) return { transaction: d.transaction, ok: false, error: problem };
    const work = new Work();
    const detail = this.applyDecision(d, work);
    const response = { transaction: d.transaction, ok: true, ...detail };
    const stored: StoredDecision = { transaction: key, cmd: d.name, digest, request: d.params, response, at: this.now().toISOString() };
    await this.commit(async (tx) => {
      await tx.putDecision(this.c.session, stored);
      for (const w of work.writes) await w(tx);
    });
    this.decisions.set(key, stored);
    for (const p of work.publishes) p();
    this.log.info({ decision: d.name, transaction: d.transaction, params: d.params }, 'director: decision taken');
    this.scheduleFlush();
    return response;
  }

  /** Why a well-formed decision cannot apply, naming the field and the fix; null when it can. */
  private refusal(d: Decision): string | null {
    const p = d.params as { board?: number; table?: string; groups?: string[][] };
    if (p.table !== undefined && !this.tables.has(p.table)) return `table: "${p.table}" is not a table of this session; use one of ${[...this.tables.keys()].join(', ')}`;
    if (p.board !== undefined && d.name !== 'correct-tray' && !this.index.boards().includes(p.board)) {
      return `board: ${p.board} is not a tray of this session; use one of ${this.index.boards().join(', ')}`;
    }
    if ((d.name === 'adjust-score' || d.name === 'late-play' || d.name === 'result-stands') && !this.index.get(this.tables.get(p.table!)!.no, p.board!)) {
      return `board: table ${p.table} does not play tray ${p.board} in this schedule; its trays are ${this.index.boards().filter((b) => this.index.get(this.tables.get(p.table!)!.no, b)).join(', ')}`;
    }
    if (d.name === 'fouled-board') {
      const all = p.groups!.flat();
      const bad = all.find((t) => !this.tables.has(t));
      if (bad) return `groups: "${bad}" is not a table of this session`;
      if (new Set(all).size !== all.length) return 'groups: a table is in two groups; put each table in one group';
    }
    if (d.name === 'correct-tray' && !this.records.has(p.board!) && !(d.params as { dealer?: string }).dealer) {
      return `dealer: tray ${p.board} has no record yet, so give the dealer (N, E, S or W) with the hands`;
    }
    if (d.name === 'table-result') {
      // The round the result is of: the one named, else the table's round now (a result is entered as it is played).
      const round = d.params.round ?? this.assignments.get(d.params.table)?.round;
      const play = this.index.get(this.tables.get(d.params.table)!.no, d.params.board, round);
      const problem = tableResultRefusal({ ...d.params, round }, { variant: this.c.variant, handScored: this.handScored.has(d.params.table), plays: play?.round === round ? play : undefined });
      if (problem) return problem;
    }
    if (d.name === 'advance-round') {
      const ids = p.table !== undefined ? [p.table] : [...this.tables.keys()];
      if (ids.every((id) => this.nextRound(this.assignments.get(id)?.round ?? 0) === undefined)) return 'table: already in the last round; there is no round to advance to';
    }
    return null;
  }

  /** What a decision changes in memory (also run for each journaled decision at a restart). */
  private applyDecisionState(d: Decision): void {
    if (d.name === 'adjust-score') this.adjustments.set(`${d.params.board}:${d.params.table}`, d.params.adjusted);
    else if (d.name === 'fouled-board') this.fouledBoards.set(d.params.board, d.params.groups);
    else if (d.name === 'late-play') this.latePlays.add(`${d.params.board}:${d.params.table}`);
    this.standingsDirty = true;
  }

  /** Apply a decision: its state, and the records, assignments and alerts it makes (written in its transaction). */
  private applyDecision(d: Decision, work: Work): Record<string, unknown> {
    this.applyDecisionState(d);
    const at = this.now().toISOString();
    switch (d.name) {
      case 'adjust-score':
      case 'fouled-board':
      case 'result-stands':
        return {};
      case 'table-result': {
        const ts = this.tables.get(d.params.table)!;
        const traveller = handScoredTraveller(d.params, { tableNo: ts.no, index: this.index, assignment: this.assignments.get(ts.id), round: d.params.round, variant: this.c.variant });
        this.putResult(ts, { table: ts.id, traveller, fromSeq: HAND_SCORED_SEQ, toSeq: HAND_SCORED_SEQ }, work);
        this.updateReleased(work);
        this.maybeAdvance(ts, work);
        return { traveller };
      }
      case 'late-play': {
        const ts = this.tables.get(d.params.table)!;
        const a = this.assign(ts, this.assignments.get(ts.id)?.round ?? this.schedule.rounds[0].round, work);
        this.raise(`late-play:${ts.id}:${d.params.board}:${at}`, {
          schema: 1, type: 'tenace.alert', kind: 'late-play', session: this.c.session, table: ts.id, board: d.params.board, round: a.round,
          message: `Tray ${d.params.board} is to be played late at table ${ts.id}${d.params.reason ? `: ${d.params.reason}` : ''}.`, at,
        }, work);
        return { assignment: a };
      }
      case 'correct-tray': {
        const prev = this.records.get(d.params.board);
        const rec: TrayRecord = {
          schema: 1, type: 'tenace.tray', session: this.c.session, board: d.params.board, hands: d.params.hands,
          dealer: d.params.dealer ?? prev!.dealer,
          ...(d.params.trumpCard ?? prev?.trumpCard ? { trumpCard: d.params.trumpCard ?? prev?.trumpCard } : {}),
          ...(prev?.trump ? { trump: prev.trump } : {}), ...(prev?.vulnerable ? { vulnerable: prev.vulnerable } : {}),
          variant: prev?.variant ?? this.c.variant,
          source: { kind: 'correction', by: 'director', reason: d.params.reason, at }, rev: (prev?.rev ?? 0) + 1,
        };
        this.records.set(rec.board, rec);
        work.write((tx) => tx.putTray(this.c.session, rec));
        work.publish(() => this.pub(this.topics.tray(rec.board), rec, true));
        return { record: rec };
      }
      case 'advance-round': {
        const ids = d.params.table !== undefined ? [d.params.table] : [...this.tables.keys()];
        const moved: RoundAssignment[] = [];
        for (const id of ids) {
          const ts = this.tables.get(id)!;
          const a = this.assignments.get(id);
          const next = this.nextRound(a?.round ?? 0);
          if (next === undefined) continue;
          for (const b of a?.trays ?? []) {
            if (this.hasResult(b, id, a!.round)) continue;
            this.raise(`missing-result:${id}:${b}:${a!.round}`, {
              schema: 1, type: 'tenace.alert', kind: 'missing-result', session: this.c.session, table: id, board: b, round: a!.round,
              message: `Table ${id} moved on from round ${a!.round} without a result on tray ${b}: adjust the score or allow a late play.`, at,
            }, work);
          }
          moved.push(this.assign(ts, next, work));
        }
        this.advanceIdle(work);
        return { assignments: moved };
      }
    }
  }

  // ------------------------------------------------------------------------------------------------ standings, snapshot

  private scheduleFlush(): void {
    if (this.flushTimer || this.stopped) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushNow();
    }, FLUSH_MS);
  }

  private flushNow(): void {
    // After a failed commit the memory runs ahead of the store: publish nothing that the store may not hold.
    if (this.failed) return;
    if (this.standingsDirty && this.leader) {
      this.standingsDirty = false;
      const travellers = this.travellers();
      if (travellers.length > 0) {
        try {
          this.standings = withNames(this.fns.scoreTravellers(travellers, this.c.scoring.method ? { method: this.c.scoring.method } : {}), this.players?.pairs() ?? {});
          this.pubLatest(this.topics.standings, JSON.stringify(this.standings));
        } catch (err) {
          // Logged once per reason: the next change of the travellers tries again.
          this.warnOnce(`scoreTravellers:${(err as Error).message}`, { err: (err as Error).message }, 'director: cannot score the travellers');
        }
      }
    }
    this.snapDirty = true;
    this.snapUnsent = true;
    this.flushSnapshot();
  }

  /**
   * Build and send the snapshot (retained topic, page watchers) when it is due. It holds the whole schedule, grid
   * and records: 5 MB at 200 tables, where the standings are a few kB. So the next one waits 9 times as long as this
   * one took (at least FLUSH_MS), which keeps it to a tenth of the director's time at any size, and no instance
   * builds it for nobody: only the holder of partition 0 publishes it, and a page asks for it.
   */
  private flushSnapshot(): void {
    if (!this.snapUnsent || this.failed || this.stopped || this.snapTimer) return;
    if (!this.leader && this.watchers.size === 0) return;
    const wait = this.snapDue - performance.now();
    if (wait > 0) {
      this.snapTimer = setTimeout(() => { this.snapTimer = null; this.flushSnapshot(); }, wait);
      return;
    }
    const t0 = performance.now();
    this.snapUnsent = false;
    const snap = this.snapshot();
    if (this.leader) this.pubLatest(this.topics.director, this.snapshotJson(snap));
    for (const w of this.watchers) {
      try {
        w(snap);
      } catch (err) {
        this.log.warn({ err }, 'director: a snapshot watcher failed');
      }
    }
    const t1 = performance.now();
    this.snapDue = t1 + Math.max(FLUSH_MS, 9 * (t1 - t0));
  }

  /**
   * The snapshot as retained on MQTT: without the schedule and the standings, which have topics of their own, nor the
   * findings (a championship's run to hundreds; the page reads them over HTTP), and with the progress of the rounds
   * begun only. The page's copy (HTTP) is whole; this one must fit the broker's message
   * size limit, where a 200-table Mitchell's schedule alone is 2.8 MB.
   */
  private snapshotJson(snap: DirectorSnapshot): string {
    const begun = Math.max(0, ...snap.tables.map((t) => t.round));
    const { schedule: _schedule, standings: _standings, findings: _findings, ...rest } = snap;
    const message: DirectorSnapshotMessage = { ...rest, progress: snap.progress.filter((p) => p.round <= begun) };
    return JSON.stringify(message);
  }

  private buildSnapshot(): DirectorSnapshot {
    // One pass over the results, not one per table: a championship has hundreds of tables and thousands of results.
    const done = new Map<string, number[]>();
    for (const r of this.results.values()) {
      const list = done.get(r.table);
      if (list) list.push(r.traveller.board);
      else done.set(r.table, [r.traveller.board]);
    }
    const tables: DirectorTableView[] = [...this.tables.values()].map((ts) => ({
      table: ts.id, status: ts.status, round: this.assignments.get(ts.id)?.round ?? 0, ...ts.fold.inPlay(),
      done: (done.get(ts.id) ?? []).sort((a, b) => a - b),
      lastSeq: ts.fold.lastSeq, ...(this.c.tableOptions?.[ts.id]?.manual ? { manual: true as const } : {}),
      ...claimView(ts.fold.lastClaim(), this.dd?.claims),
    }));
    const progress = this.schedule.rounds.flatMap((r) => r.tables.map((t) => {
      const id = this.byNo.get(t.table);
      const boards = t.trays.filter((b): b is number => b !== null);
      return { table: t.table, round: r.round, played: id ? boards.filter((b) => this.hasResult(b, id, r.round)).length : 0, of: boards.length };
    }));
    const fouled = new Map<number, ClubAlert>();
    for (const a of this.alerts) if (a.kind === 'fouled-tray' && a.board !== undefined && !fouled.has(a.board)) fouled.set(a.board, a);
    const trayViews: DirectorTrayView[] = this.index.boards().map((b) => ({
      board: b, ...(this.records.has(b) ? { record: this.records.get(b) } : {}), playedAt: [...(this.playedAt.get(b) ?? [])],
      released: this.released.includes(b), ...(fouled.has(b) ? { fouled: fouled.get(b) } : {}),
    }));
    const rounds = tables.map((t) => t.round).filter((r) => r > 0);
    return {
      schema: 1, type: 'tenace.director', club: this.c.club.id, session: this.c.session, variant: this.c.variant, schedule: this.schedule,
      round: rounds.length ? Math.min(...rounds) : 1, tables, progress, trays: trayViews, alerts: this.alerts.slice(-200),
      standings: this.standings, pairs: this.players?.pairs() ?? {}, at: this.now().toISOString(),
      findings: this.findings.list(this.decisions.values(), this.followed().flatMap((ts) => {
        const l = ts.fold.live();
        return l ? [{ table: ts.id, round: this.assignments.get(ts.id)?.round, ...l }] : [];
      })),
    };
  }

  private async startWeb(): Promise<void> {
    try {
      const { startDirectorWeb } = await import('./web.js');
      const { DoubleDummy } = await import('../../dd/solver.js');
      const solver = new DoubleDummy();
      const analyses = new BoardAnalyses(solver);
      // A claim solved: the page's next snapshot shows what the claimer's side could take.
      const claims = new ClaimAnalyses(solver, () => { this.snapDirty = true; this.snapUnsent = true; this.flushSnapshot(); });
      this.dd = { analyses, claims, close: () => solver.close() };
      const dd = (rec: TrayRecord, bridge: boolean) => analyses.get({ board: rec.board, hands: rec.hands, dealer: rec.dealer, vulnerable: rec.vulnerable, bridge });
      this.web = await startDirectorWeb({
        host: this.c.http.host, port: this.c.http.port, allowedHosts: this.c.http.allowedHosts, snapshot: () => this.snapshot(), subscribe: (fn) => this.subscribe(fn),
        exports: sessionExports(() => this.sessionExport(), dd),
        console: directorConsole(this, this.store!.db),
        publicResults: () => publicResults(this.snapshot(), (pair) => this.players?.pairs()[pair]?.players.map((p) => p.name).join(' & ') || undefined, dd),
        ...(this.handScored.size > 0 ? { hand: { pins: () => this.tablePins(), view: (t: string) => this.handTable(t), decide: (cmd: string, p: string) => this.decide(cmd, p) } } : {}),
      });
      this.log.info({ url: this.web.url }, 'director page');
    } catch (err) {
      // The page is a view: the director goes on storing and scoring without it.
      this.log.error({ err: (err as Error).message }, 'director: the director page did not start; running without it');
    }
  }

  private warnOnce(key: string, obj: object, msg: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.log.warn(obj, msg);
  }
}

class StoreFailure extends Error {}

/** A result's key: a table may play a tray in two rounds (a Howell of 4 or 6 pairs). */
function resultKey(r: { table: string; traveller: Traveller }): string {
  return `${r.traveller.board}:${r.table}:${r.traveller.round ?? 0}`;
}

/**
 * Standings and the snapshot are recomputed at most this often (ms): a busy session changes them with every card,
 * and the snapshot (schedule, records, alerts) is the largest message the director sends.
 */
const FLUSH_MS = 100;

/** The first wait before a full or read-only store is tried again (ms); it doubles up to storeRetryMaxMs. */
const STORE_RETRY_MS = 250;

/** How often a cluster instance reads back what the others stored (ms): the standings lag the cards by about this. */
const SYNC_MS = 250;

/** The schedule of the config's movement; throws a sentence naming the field when it cannot be made. */
export function generateSchedule(c: DirectorConfig): Schedule {
  if (c.movement.schedule !== undefined) return readSchedule(c.movement.schedule);
  const m = movementByName(c.movement.name);
  if (!m) throw new Error(`movement.name: "${c.movement.name}" is not a movement`);
  return m.generate({ tables: c.movement.tables, boardsPerRound: c.movement.boardsPerRound, options: c.movement.options });
}

/** A table's latest claim for its snapshot view, solved when analysis is on. */
function claimView(c: ClaimPosition | null, claims: ClaimAnalyses | undefined): { claim?: DirectorTableView['claim'] } {
  if (!c) return {};
  return { claim: claims ? claims.view(c) : { board: c.board, seat: c.seat, claimed: c.claimed, left: c.left } };
}
