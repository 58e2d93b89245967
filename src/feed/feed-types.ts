// The MQTT feed's contract (mqtt-feed.ts): where it reads events, where it keeps the delivery mark, its options,
// counters, commands' answers and logger.
import type { TableEvent } from '../formats/table-log.js';
import type { Table, TableOptions } from '../laws/engine.js';
import type { ScoreOptions } from '../laws/score/index.js';
import type { FeedCommand, Transaction, TransactionIndex } from './commands.js';
import type { EmbargoPolicy } from './projection.js';
/** Where the feed reads events: the journal. `eventsAfter(seq)` yields the events with a greater seq, in order. */
export interface EventSource {
  eventsAfter(seq: number): Iterable<TableEvent>;
  /** The last seq in the source (0 or -1 when empty); read by `request/events` for its `last`. Default: iterate. */
  lastSeq?(): number;
}

/** A club message the feed received on a subscribed club topic (docs/club.md, "Topics"). */
export type ClubInbound =
  | { kind: 'tray'; board: number; topic: string; payload: Buffer }
  | { kind: 'assignment'; topic: string; payload: Buffer }
  | { kind: 'released'; topic: string; payload: Buffer }
  | { kind: 'schedule'; topic: string; payload: Buffer };

/** The table's part in a club session: what it subscribes to and where what arrives goes. */
export interface FeedClubOptions {
  session: string;
  /** Subscribe to the session's tray records (`trays/<session>/+`) and this table's `assignment`. */
  trays: boolean;
  /** Called for each message on the club topics (records, assignment, released); the feed does not parse them. */
  onMessage(m: ClubInbound): void;
}

/** The highest seq the broker has acknowledged (-1 when none), kept durably by whoever owns the journal. */
export interface DeliveryMark {
  get(): number;
  set(seq: number): Promise<void>;
}

/** The logging the feed needs (`logger.warn({ err }, "text")`); the daemons' Logger satisfies it. */
export interface FeedLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Handles a validated command; resolves to fields merged into the `ok: true` response, or throws to refuse it. */
export type CommandHandler = (cmd: FeedCommand) => Promise<Record<string, unknown> | void>;

/** Thrown by a command handler to refuse a command with a sentence for the sender ("<field>: <fix>"). */
export class CommandRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandRejected';
  }
}

/** TLS material, as contents (PEM strings or Buffers), not paths: the config layer reads the files. */
export interface FeedTls {
  ca?: string | Buffer | string[] | Buffer[];
  cert?: string | Buffer;
  key?: string | Buffer;
  passphrase?: string;
  /** Default true; false only for a test broker with a self-signed certificate. */
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface FeedOptions {
  /** mqtt://host:1883, mqtts://host:8883, ws://host:9001, wss://... */
  url: string;
  club: string;
  table: string;
  /** Topic base, default "tenace". */
  base?: string;
  username?: string;
  password?: string;
  /** Default "tenace-<club>-<table>". */
  clientId?: string;
  /** Seconds, default 30. */
  keepalive?: number;
  /**
   * Milliseconds before the first reconnection attempt, default 1000. Each failed attempt doubles the wait, up to
   * maxReconnectPeriod, so a broker that stays down costs a connection attempt every half minute, not every second.
   */
  reconnectPeriod?: number;
  /** The longest wait between reconnection attempts, default 30000 ms. */
  maxReconnectPeriod?: number;
  /** Milliseconds to wait for CONNACK, default 10000. */
  connectTimeout?: number;
  /**
   * MQTT 5 (default). 4 (3.1.1) only for a broker without MQTT 5, such as the embedded aedes of `tenace simulate`:
   * the payloads are the same, but the content-type and schema-version properties are not sent.
   */
  protocolVersion?: 5 | 4;
  tls?: FeedTls;
  source: EventSource;
  mark: DeliveryMark;
  embargo?: EmbargoPolicy;
  tableOptions?: TableOptions;
  /** The social game's score options (config `score`), passed to the projector for the `state`'s score. */
  scoreOptions?: ScoreOptions;
  onCommand?: CommandHandler;
  /**
   * The transactions already applied, so a retry is answered and not re-applied. Default: an empty one in memory;
   * the daemon gives one rebuilt from its journal, where the handler journals each command's `tx`.
   */
  transactions?: TransactionIndex;
  logger?: FeedLogger;
  /** Events read from the source per pass, default 256. */
  batchSize?: number;
  /** The journal's session name: sent with `director/event` and `response/events`. */
  session?: string;
  /**
   * Club: also publish every event in full on `director/event` (QoS 1, before the public event, under the same
   * delivery mark), so the director gets each event once durable, in seq order, and again after a reconnect.
   */
  directorEvents?: boolean;
  /** Club: subscribe to the tray records, the assignment and the released list of a session. */
  clubSession?: FeedClubOptions;
  /**
   * Told after each event folded (on start too, without publishing) and when the club layer lifts the embargo: the
   * feed's table and whether the embargo lets the deal out. The live analysis (src/dd/live.ts) follows the play so.
   */
  onFolded?: (table: Table, info: { seq: number | null; newDeal: boolean; released: boolean }) => void;
  /** Told when the club layer releases a board (`setTrayComplete`), whether or not it is the deal in progress. */
  onRelease?: (board: number) => void;
}

/** Counters for health checks and tests. */
export interface FeedStats {
  connects: number;
  disconnects: number;
  /** Events acknowledged by the broker in this run. */
  delivered: number;
  publishFailures: number;
  malformedCommands: number;
  commandsHandled: number;
  commandsRefused: number;
  duplicateCommands: number;
  /** Events the source returned without a usable seq, or out of order. */
  skippedEvents: number;
  engineErrors: number;
  privacyGuardTrips: number;
  /** `request/events` queries answered (ok or not). */
  queries: number;
  /** Club alerts published on `director`. */
  clubAlerts: number;
}

/** The payload of `response/<cmd>`. */
export type CommandResponse = { transaction: Transaction | null; ok: true; [k: string]: unknown } | { transaction: Transaction | null; ok: false; error: string };
