// The seat-reader driver's public types: what it emits, what it is given, what it counts.
//
// Kept apart from bridge-driver.ts so that the modules the driver is built from (presence, line
// decoding, the bridges together) name the same types without importing the driver itself.
import type { SerialPortStream } from '@serialport/stream';
import type { Seat } from '../cards/seat.js';
import type { EventSource, LiftEvent, PlaceEvent } from '../formats/table-log.js';
import type { DeckSet } from './deck.js';
import type { Frame, LineError } from './protocol.js';
import type { SeatMap } from './seat-map.js';
import type { SeatPresence } from './seat-presence.js';

/** A serialport binding (`MockBinding` in tests, the platform binding of `serialport` otherwise). */
export type BindingInterface = ConstructorParameters<typeof SerialPortStream>[0]['binding'];

/** A place or lift of a tag from no loaded deck: `tag` (the UID) instead of `card`. The engine turns
 * such a place into an `unknown-card` finding; such a lift changes nothing in the play. */
export interface UnknownTagEvent {
  type: 'place' | 'lift';
  seat: Seat;
  tag: string;
  src?: EventSource;
  orderUnknown?: true;
  seq?: number;
  at?: string;
}

/** What the seat readers produce: TableEvents `place`/`lift` (DESIGN §4). */
export type SeatEvent = PlaceEvent | LiftEvent | UnknownTagEvent;

/** Where a SeatEvent came from (not part of the TableEvent). */
export interface EventOrigin {
  bridge: string;
  reader: number;
  uid: string;
  /** The deck of the card, when the tag is known. */
  deck?: string;
  /** True when found by reconciling a snapshot (the change happened while we were not looking). */
  late: boolean;
}

export type ReaderStatus = 'ok' | 'warming' | 'faulted' | 'offline';

/** Reader health (not a TableEvent). `code` is the fault from `err reader` (no-chip, timeout, comm). */
export interface ReaderStatusEvent {
  type: 'reader-status';
  bridge: string;
  reader: number;
  seat?: Seat;
  status: ReaderStatus;
  code?: string;
}

export type BridgeState = 'connecting' | 'online' | 'offline' | 'disconnected' | 'incompatible' | 'stopped';

export interface BridgeStatusEvent {
  type: 'bridge-status';
  bridge: string;
  path: string;
  status: BridgeState;
  detail?: string;
  fw?: string;
  proto?: number;
  readers?: number;
}

/** A reader-level presence change (after idempotency against J), for enrolment and diagnostics. */
export interface PresenceChange {
  kind: 'arrive' | 'leave';
  bridge: string;
  reader: number;
  uid: string;
  late: boolean;
}

/**
 * A presence entry, for `initialPresence` and `presence()`. Exact: `{ reader, uid }` (optionally
 * with `bridge`). From a journal of TableEvents, where only the seat is known: `{ seat, card }` or
 * `{ seat, tag }`; these are matched by seat and card against the first snapshot and live lines.
 */
export type PresenceEntry =
  | { bridge?: string; reader: number; uid: string }
  | { bridge?: string; seat: Seat; card: string }
  | { bridge?: string; seat: Seat; tag: string };

/** Where to resume a bridge's ordered stream: its boot id and the seq of the last line journaled. */
export interface ResumePoint {
  boot: number;
  seq: number;
}

export interface SyncInfo {
  bridge: string;
  /** `replay`: the missed lines, in order (answer to `since`); `snapshot`: a reconciliation (order unknown). */
  via: 'replay' | 'snapshot';
  hseq: number;
  /** Tags in the snapshot, or records in the replay. */
  total: number;
  places: number;
  lifts: number;
  /** Readers whose absent tags were kept because the reader was not O. */
  deferred: number[];
}

export interface DriverStats {
  linesOk: number;
  /** Bad lines by error code (`empty` lines are ignored and counted in `emptyLines` only). */
  bad: Record<Exclude<LineError, 'empty'>, number>;
  badTotal: number;
  emptyLines: number;
  /** Valid lines of a host type (the device never sends these). */
  unexpected: number;
  gaps: number;
  lost: number;
  /** Lines dropped as duplicates or stale (seq not after the last one). */
  duplicates: number;
  reconnects: number;
  openFailures: number;
  unknownTags: number;
  places: number;
  lifts: number;
  latePlaces: number;
  lateLifts: number;
  /** Places and lifts emitted with `orderUnknown`. */
  orderUnknown: number;
  redundant: number;
  unmapped: number;
  snapshots: number;
  snapshotsDiscarded: number;
  snapshotTimeouts: number;
  strayTags: number;
  /** `since` commands sent, replays applied, broken replays thrown away, replays that never came. */
  sinceRequests: number;
  replays: number;
  replaysDiscarded: number;
  replayTimeouts: number;
  /** Replayed records already applied (not after `last`): skipped. */
  replaySkipped: number;
  /** `rec`/`replay`/`replayend` lines outside a replay the driver waits for. */
  strayReplayLines: number;
  /** `since` answered `nak gone` (the device's log no longer covers the gap): snapshot fallback. */
  gone: number;
  /** Live arrive/leave lines held (not applied) because a replay that covers them was awaited. */
  held: number;
  /** Device resets seen (hello, or a new boot id in hb/identity). */
  resets: number;
  /** hello/identity lines of an unsupported protocol version. */
  foreign: number;
  overflows: number;
  overfull: number;
  hostLineErrors: number;
  naks: number;
  commandTimeouts: number;
  doubts: number;
  ignoredBeforeIdent: number;
  listenerErrors: number;
}

/** The logging the driver needs; the daemons' Logger (config/logger.ts) satisfies it. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}


export interface BridgeDriverOptions {
  /** Serial device; prefer `/dev/serial/by-id/…` or `/dev/tenace-bridge-<serial>`. */
  path: string;
  /** Id used in the seat map and in events (default: the basename of `path`). */
  bridgeId?: string;
  /** serialport binding (tests: MockBinding). Default: the platform binding of `serialport`. */
  binding?: BindingInterface;
  /** Ignored by the device (USB CDC), 115200 by convention. */
  baudRate?: number;
  seatMap?: SeatMap;
  decks?: DeckSet;
  /** J at start, from the journal (daemon restart). */
  initialPresence?: Iterable<PresenceEntry>;
  /** The last `src` of this bridge in the journal (daemon restart): the replay starts after it. */
  resume?: ResumePoint;
  /** Shared seat-level reference counts (MultiBridge passes one to all its drivers). */
  seatPresence?: SeatPresence;
  /** No valid line for this long → offline (default 3000 ms). */
  heartbeatTimeoutMs?: number;
  /** Reopen backoff: first delay and cap (defaults 250 ms and 5000 ms). */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Per-attempt wait for ack/nak (default 500 ms, §6) and attempts per command (default 3). */
  commandTimeoutMs?: number;
  commandAttempts?: number;
  /** Wait for a snapshot or a replay before asking again (default 3000 ms; the device waits ≤ 2000 ms). */
  snapshotTimeoutMs?: number;
  /** While the bridge speaks another protocol version: re-send `ident` this often (default 3000 ms). */
  incompatibleRetryMs?: number;
  /** Poll settings sent with `set` after every hello/identification (default: device defaults). */
  settings?: { pollMs: number; misses: number };
  logger?: Logger;
}

/** The driver's timings and line settings, every one given (BridgeDriverOptions, defaults filled in). */
export type DriverTiming = Required<
  Pick<
    BridgeDriverOptions,
    | 'heartbeatTimeoutMs'
    | 'reconnectMinMs'
    | 'reconnectMaxMs'
    | 'commandTimeoutMs'
    | 'commandAttempts'
    | 'snapshotTimeoutMs'
    | 'incompatibleRetryMs'
    | 'baudRate'
  >
>;

/** The timings of `options`, with the defaults of BridgeDriverOptions for those not given. */
export function driverTiming(options: BridgeDriverOptions): DriverTiming {
  return {
    heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 3000,
    reconnectMinMs: options.reconnectMinMs ?? 250,
    reconnectMaxMs: options.reconnectMaxMs ?? 5000,
    commandTimeoutMs: options.commandTimeoutMs ?? 500,
    commandAttempts: options.commandAttempts ?? 3,
    snapshotTimeoutMs: options.snapshotTimeoutMs ?? 3000,
    incompatibleRetryMs: options.incompatibleRetryMs ?? 3000,
    baudRate: options.baudRate ?? 115200,
  };
}

export interface BridgeDriverEvents {
  event: [ev: SeatEvent, origin: EventOrigin];
  'reader-status': [ev: ReaderStatusEvent];
  'bridge-status': [ev: BridgeStatusEvent];
  presence: [change: PresenceChange];
  synced: [info: SyncInfo];
  frame: [frame: Frame];
  'line-error': [error: Exclude<LineError, 'empty'>, line: string];
}

/** A host command that failed: refused (`nak`), unanswered (`timeout`) or cut off (`closed`). */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly code: 'nak' | 'timeout' | 'closed',
    readonly nak?: string,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

/** Every counter at zero (a new driver). */
export function newStats(): DriverStats {
  return {
    linesOk: 0,
    bad: {
      'too-long': 0,
      'bad-char': 0,
      'no-checksum': 0,
      'bad-crc': 0,
      'bad-frame': 0,
      'bad-seq': 0,
      'unknown-type': 0,
      'missing-field': 0,
      'extra-field': 0,
      'bad-field': 0,
    },
    badTotal: 0,
    emptyLines: 0,
    unexpected: 0,
    gaps: 0,
    lost: 0,
    duplicates: 0,
    reconnects: 0,
    openFailures: 0,
    unknownTags: 0,
    places: 0,
    lifts: 0,
    latePlaces: 0,
    lateLifts: 0,
    orderUnknown: 0,
    redundant: 0,
    unmapped: 0,
    snapshots: 0,
    snapshotsDiscarded: 0,
    snapshotTimeouts: 0,
    strayTags: 0,
    sinceRequests: 0,
    replays: 0,
    replaysDiscarded: 0,
    replayTimeouts: 0,
    replaySkipped: 0,
    strayReplayLines: 0,
    gone: 0,
    held: 0,
    resets: 0,
    foreign: 0,
    overflows: 0,
    overfull: 0,
    hostLineErrors: 0,
    naks: 0,
    commandTimeouts: 0,
    doubts: 0,
    ignoredBeforeIdent: 0,
    listenerErrors: 0,
  };
}
