// The seat-reader driver: one firmware bridge on one serial port → TableEvents.
//
// API (an EventEmitter; every event is listed in `BridgeDriverEvents`):
//
//   const d = new BridgeDriver({ path: '/dev/serial/by-id/usb-…-if00', decks, seatMap });
//   d.on('event', (ev, origin) => journal.append(ev));       // place / lift TableEvents
//   d.on('reader-status', (s) => …);                          // { type: 'reader-status', bridge, reader, status }
//   d.on('bridge-status', (s) => …);                          // online / offline / disconnected / incompatible …
//   d.start();  …  await d.stop();
//
// What it does (PROTOCOL.md is the contract; section numbers refer to it):
// - Splits the byte stream with a hard line cap (line-splitter.ts) and decodes every line with the
//   shared codec (protocol.ts). Bad lines are counted per error code (§8), never thrown.
// - Tracks device sequence numbers (§4): gaps are counted (and the lines lost), duplicates dropped.
// - Checks `proto` in `hello`/`identity` (§1, §12). A bridge that speaks another protocol version is
//   reported (`bridge-status` "incompatible") and not used again until `start()` is called again.
// - Reader status from `hb`, `snapend` and `err reader` → `reader-status` events on change. A bridge
//   with no valid line for `heartbeatTimeoutMs` (default 3 s = three missed heartbeats, §10) is
//   offline: its readers are reported "offline", and when lines come back it resynchronises.
// - Resynchronisation (§11): after every (re)connect and identification, every `hello`, every seq
//   gap, `err overflow`, broken snapshot, heartbeat count mismatch or on `resync()`, it sends
//   `present` and reconciles the snapshot with its presence set J. J can be seeded from the journal
//   (`initialPresence`) so that a daemon restart invents nothing: a card placed meanwhile becomes a
//   late place, a card gone a lift (only for readers whose status is O), and `arrive`/`leave` are
//   idempotent against J.
// - Lost ports (unplugged: 'close' with a disconnect error, ENOENT/EACCES/EBUSY on open) are
//   reopened with capped exponential backoff (250 ms doubling to 5 s). Nothing here ever exits the
//   process or emits 'error'; listener exceptions are caught and counted.
// - Paths: configure the stable `/dev/serial/by-id/usb-…` (or `/dev/tenace-bridge-<serial>` from
//   hardware/99-tenace.rules) path. It is opened as given, so a replug that renumbers ttyACM0 →
//   ttyACM1 still finds the bridge; the symlink is resolved only to log where it points.
//
// Events are emitted per seat, not per antenna: if several readers of a bridge (or of several
// bridges sharing a SeatPresence, see MultiBridge) lie under one seat, a card is placed when the
// first of them sees it and lifted when the last one loses it.
import { EventEmitter } from 'node:events';
import { realpath } from 'node:fs/promises';
import { basename } from 'node:path';
import { SerialPortStream } from '@serialport/stream';
import type { Seat } from '../cards/seat.js';
import type { LiftEvent, PlaceEvent } from '../formats/table-log.js';
import { DeckSet } from './deck.js';
import { LineSplitter, type SplitItem } from './line-splitter.js';
import {
  decodeLine,
  encodeFrame,
  type Frame,
  type HostType,
  isDeviceType,
  type LineError,
  nextHostSeq,
  PROTOCOL_VERSION,
  SeqTracker,
} from './protocol.js';
import { SeatMap } from './seat-map.js';

// ------------------------------------------------------------------ public types

/** A serialport binding (`MockBinding` in tests, the platform binding of `serialport` otherwise). */
export type BindingInterface = ConstructorParameters<typeof SerialPortStream>[0]['binding'];

/** A place or lift of a tag from no loaded deck: `tag` (the UID) instead of `card`. The engine turns
 * such a place into an `unknown-card` finding; such a lift changes nothing in the play. */
export interface UnknownTagEvent {
  type: 'place' | 'lift';
  seat: Seat;
  tag: string;
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

export interface SyncInfo {
  bridge: string;
  hseq: number;
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
  duplicates: number;
  reconnects: number;
  openFailures: number;
  unknownTags: number;
  places: number;
  lifts: number;
  latePlaces: number;
  lateLifts: number;
  redundant: number;
  unmapped: number;
  snapshots: number;
  snapshotsDiscarded: number;
  snapshotTimeouts: number;
  strayTags: number;
  overflows: number;
  overfull: number;
  hostLineErrors: number;
  naks: number;
  commandTimeouts: number;
  doubts: number;
  ignoredBeforeIdent: number;
  listenerErrors: number;
}

/** pino-compatible logger subset. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const NO_LOG: Logger = { debug() {}, info() {}, warn() {}, error() {} };

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
  /** Wait for a snapshot after `present` before asking again (default 3000 ms; the device waits ≤ 2000 ms). */
  snapshotTimeoutMs?: number;
  /** Poll settings sent with `set` after every hello/identification (default: device defaults). */
  settings?: { pollMs: number; misses: number };
  logger?: Logger;
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

// ------------------------------------------------------------------ seat-level presence

/** Reference counts of (seat, uid) across readers (and bridges, when shared). */
export class SeatPresence {
  private readonly counts = new Map<string, number>();
  /** Increments; true when the tag was not yet present at the seat. */
  add(seat: Seat, uid: string): boolean {
    const k = seat + uid;
    const n = this.counts.get(k) ?? 0;
    this.counts.set(k, n + 1);
    return n === 0;
  }
  /** Decrements; true when the tag is no longer present at the seat. */
  remove(seat: Seat, uid: string): boolean {
    const k = seat + uid;
    const n = this.counts.get(k) ?? 0;
    if (n <= 1) {
      this.counts.delete(k);
      return n === 1;
    }
    this.counts.set(k, n - 1);
    return false;
  }
  has(seat: Seat, uid: string): boolean {
    return this.counts.has(seat + uid);
  }
}

/**
 * The cards on the table according to a table log (place without a later lift), as seat-level
 * presence entries for `initialPresence`. Use it on restart with the journal's events.
 */
export function presenceFromEvents(events: Iterable<unknown>): PresenceEntry[] {
  const on = new Map<string, PresenceEntry & { n: number }>();
  for (const raw of events) {
    if (typeof raw !== 'object' || raw === null) continue;
    const e = raw as { type?: unknown; seat?: unknown; card?: unknown; tag?: unknown };
    if ((e.type !== 'place' && e.type !== 'lift') || typeof e.seat !== 'string') continue;
    const seat = e.seat as Seat;
    let k: string;
    let entry: PresenceEntry;
    if (typeof e.card === 'string') {
      k = `${seat}|card:${e.card}`;
      entry = { seat, card: e.card };
    } else if (typeof e.tag === 'string') {
      k = `${seat}|tag:${e.tag}`;
      entry = { seat, tag: e.tag };
    } else continue;
    const cur = on.get(k);
    if (e.type === 'place') {
      if (cur) cur.n++;
      else on.set(k, { ...entry, n: 1 });
    } else if (cur) {
      if (--cur.n <= 0) on.delete(k);
    }
  }
  const out: PresenceEntry[] = [];
  for (const v of on.values()) {
    const { n, ...entry } = v;
    for (let i = 0; i < n; i++) out.push(entry as PresenceEntry);
  }
  return out;
}

// ------------------------------------------------------------------ the driver

/** The platform binding of `serialport`, loaded on first use (tests inject MockBinding instead). */
let defaultBinding: BindingInterface | undefined;

const STATE_CHAR: Record<string, ReaderStatus> = { O: 'ok', W: 'warming', F: 'faulted' };
const MAX_READERS = 8;

interface Pending {
  type: HostType;
  resolve: (f: Frame) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

interface Snapshot {
  hseq: number;
  total: number;
  tags: Array<{ reader: number; uid: string }>;
}

function newStats(): DriverStats {
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
    redundant: 0,
    unmapped: 0,
    snapshots: 0,
    snapshotsDiscarded: 0,
    snapshotTimeouts: 0,
    strayTags: 0,
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

type RunState = 'idle' | 'opening' | 'open' | 'waiting' | 'stopped' | 'incompatible';

export interface BridgeDriver {
  on<K extends keyof BridgeDriverEvents>(event: K, listener: (...args: BridgeDriverEvents[K]) => void): this;
  once<K extends keyof BridgeDriverEvents>(event: K, listener: (...args: BridgeDriverEvents[K]) => void): this;
  off<K extends keyof BridgeDriverEvents>(event: K, listener: (...args: BridgeDriverEvents[K]) => void): this;
  emit<K extends keyof BridgeDriverEvents>(event: K, ...args: BridgeDriverEvents[K]): boolean;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class BridgeDriver extends EventEmitter {
  readonly bridge: string;
  readonly path: string;
  readonly stats: DriverStats = newStats();

  private readonly opts: Required<
    Pick<
      BridgeDriverOptions,
      | 'heartbeatTimeoutMs'
      | 'reconnectMinMs'
      | 'reconnectMaxMs'
      | 'commandTimeoutMs'
      | 'commandAttempts'
      | 'snapshotTimeoutMs'
      | 'baudRate'
    >
  >;
  private readonly binding?: BindingInterface;
  private readonly seatMap: SeatMap;
  private readonly decks: DeckSet;
  private readonly seats: SeatPresence;
  private readonly settings?: { pollMs: number; misses: number };
  private readonly log: Logger;

  private run: RunState = 'idle';
  private port?: SerialPortStream;
  private readonly splitter: LineSplitter;
  private readonly seq = new SeqTracker();
  /** J: (reader, uid) present on this bridge, keyed `${reader} ${uid}`. */
  private readonly present = new Map<string, { reader: number; uid: string }>();
  /** Seat-level entries from a journal, not yet matched to a (reader, uid): label → count. */
  private readonly pendingSeat = new Map<string, number>();
  private readonly readerState: (ReaderStatus | undefined)[] = new Array(MAX_READERS).fill(undefined);
  private readonly readerCode: (string | undefined)[] = new Array(MAX_READERS).fill(undefined);
  private identified = false;
  private device?: { fw: string; proto: number; readers: number; reset: string; uptimeS?: number };
  private online = false;
  private everOnline = false;
  private lastValidAt = 0;
  private watchedLines = 0;
  private hseq = -1;
  private readonly pending = new Map<number, Pending>();
  private snap?: Snapshot;
  private presentInFlight = false;
  private synced = false;
  private readonly deferred = new Set<number>();
  private attempt = 0;
  private opens = 0;
  private lastBridgeStatus?: BridgeState;
  private reopenTimer?: NodeJS.Timeout;
  private watchTimer?: NodeJS.Timeout;
  private snapshotTimer?: NodeJS.Timeout;
  private identTimer?: NodeJS.Timeout;
  private closing?: Promise<void>;

  constructor(options: BridgeDriverOptions) {
    super();
    this.path = options.path;
    this.bridge = options.bridgeId ?? basename(options.path);
    this.binding = options.binding;
    this.seatMap = options.seatMap ?? SeatMap.default();
    this.decks = options.decks ?? new DeckSet();
    this.seats = options.seatPresence ?? new SeatPresence();
    this.settings = options.settings;
    this.log = options.logger ?? NO_LOG;
    this.opts = {
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 3000,
      reconnectMinMs: options.reconnectMinMs ?? 250,
      reconnectMaxMs: options.reconnectMaxMs ?? 5000,
      commandTimeoutMs: options.commandTimeoutMs ?? 500,
      commandAttempts: options.commandAttempts ?? 3,
      snapshotTimeoutMs: options.snapshotTimeoutMs ?? 3000,
      baudRate: options.baudRate ?? 115200,
    };
    this.splitter = new LineSplitter((item) => this.onItem(item));
    for (const e of options.initialPresence ?? []) this.seed(e);
  }

  // ---------------------------------------------------------------- lifecycle

  /** Opens the port (and keeps reopening it when lost) until `stop()`. */
  start(): void {
    if (this.run !== 'idle' && this.run !== 'stopped' && this.run !== 'incompatible') return;
    this.run = 'waiting';
    this.attempt = 0;
    this.setBridgeStatus('connecting');
    const period = Math.max(10, Math.min(1000, Math.floor(this.opts.heartbeatTimeoutMs / 4)));
    this.watchTimer = setInterval(() => this.watch(), period);
    void this.open();
  }

  /** Closes the port and stops reconnecting. Pending commands are rejected. */
  async stop(): Promise<void> {
    const wasRunning = this.run !== 'stopped' && this.run !== 'idle';
    this.run = 'stopped';
    this.clearTimers();
    this.rejectPending('the driver was stopped');
    const port = this.port;
    this.port = undefined;
    if (port?.isOpen) {
      await new Promise<void>((res) => port.close(() => res()));
    }
    if (this.closing) await this.closing;
    if (wasRunning) this.setBridgeStatus('stopped');
  }

  /** True while the port is open and valid lines arrive. */
  isOnline(): boolean {
    return this.online;
  }

  /** The device's hello/identity, once known. */
  deviceInfo(): { fw: string; proto: number; readers: number; reset: string; uptimeS?: number } | undefined {
    return this.device ? { ...this.device } : undefined;
  }

  /** J: the (reader, uid) pairs this driver considers present, plus unmatched journal entries. */
  presence(): PresenceEntry[] {
    const out: PresenceEntry[] = [...this.present.values()].map((p) => ({ bridge: this.bridge, reader: p.reader, uid: p.uid }));
    for (const [label, n] of this.pendingSeat) {
      const seat = label[0] as Seat;
      const rest = label.slice(2);
      for (let i = 0; i < n; i++) {
        out.push(rest.startsWith('card:') ? { bridge: this.bridge, seat, card: rest.slice(5) } : { bridge: this.bridge, seat, tag: rest.slice(4) });
      }
    }
    return out;
  }

  /** Last known status per reader index (undefined: not reported yet). */
  readerStatuses(): (ReaderStatus | undefined)[] {
    return [...this.readerState];
  }

  /** Ask for a snapshot and reconcile ("whenever in doubt", §11). */
  resync(): void {
    this.requestSnapshot(true);
  }

  /**
   * Sends a host command and resolves with its `ack` (rejects with CommandError on `nak`, on
   * timeout after `commandAttempts` tries with fresh hseqs, or when the port closes).
   */
  async command(type: HostType, fields: Record<string, unknown> = {}): Promise<Frame> {
    let last: Error = new CommandError(`${type}: no answer`, 'timeout');
    for (let i = 0; i < this.opts.commandAttempts; i++) {
      try {
        return await this.commandOnce(type, fields);
      } catch (e) {
        last = e as Error;
        if (!(e instanceof CommandError) || e.code !== 'timeout') throw e;
      }
    }
    throw last;
  }

  /** Feeds received bytes as if they came from the port (benchmarks and tests). */
  receive(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  // ---------------------------------------------------------------- port handling

  private createPort(): SerialPortStream {
    return new SerialPortStream({
      binding: this.binding ?? (defaultBinding as BindingInterface),
      path: this.path,
      baudRate: this.opts.baudRate,
      autoOpen: false,
    });
  }

  private async open(): Promise<void> {
    if (this.run !== 'waiting') return;
    this.run = 'opening';
    if (!this.binding && !defaultBinding) {
      try {
        defaultBinding = (await import('serialport')).SerialPort.binding as unknown as BindingInterface;
      } catch (e) {
        this.log.error({ bridge: this.bridge, err: (e as Error).message }, 'cannot load the serialport binding');
      }
    }
    let port: SerialPortStream;
    try {
      port = this.createPort();
    } catch (e) {
      this.openFailed(e as Error);
      return;
    }
    port.on('error', (err: Error) => this.log.warn({ bridge: this.bridge, err: err.message }, 'serial port error'));
    const err = await new Promise<Error | null>((res) => port.open((e) => res(e ?? null)));
    if ((this.run as RunState) === 'stopped') {
      if (!err && port.isOpen) port.close();
      return;
    }
    if (err) {
      this.openFailed(err);
      return;
    }
    this.run = 'open';
    this.port = port;
    if (this.opens++ > 0) this.stats.reconnects++;
    this.splitter.reset();
    this.seq.reset();
    this.identified = false;
    this.snap = undefined;
    this.presentInFlight = false;
    this.online = false;
    this.lastValidAt = Date.now();
    this.watchedLines = this.stats.linesOk;
    realpath(this.path).then(
      (real) => this.log.info({ bridge: this.bridge, path: this.path, device: real }, 'bridge port open'),
      () => this.log.info({ bridge: this.bridge, path: this.path }, 'bridge port open'),
    );
    // §12.1: flush input, then a bare "\n" ends any half line in the device's input buffer.
    port.on('close', (e: Error | null) => this.onClose(port, e));
    await new Promise<void>((res) => port.flush(() => res()));
    if (this.port !== port) return;
    port.on('data', (chunk: Buffer) => this.onData(chunk));
    this.write('\n');
    this.identify();
  }

  private openFailed(err: Error): void {
    this.stats.openFailures++;
    this.run = 'waiting';
    const level = this.attempt === 0 ? 'warn' : 'debug';
    this.log[level]({ bridge: this.bridge, path: this.path, err: err.message }, 'cannot open the bridge port; retrying');
    if (this.lastBridgeStatus !== 'connecting' && this.lastBridgeStatus !== 'disconnected') {
      this.setBridgeStatus('disconnected', err.message);
    }
    this.scheduleReopen();
  }

  private scheduleReopen(): void {
    if (this.run !== 'waiting') return;
    const delay = Math.min(this.opts.reconnectMaxMs, this.opts.reconnectMinMs * 2 ** Math.min(this.attempt, 20));
    this.attempt++;
    clearTimeout(this.reopenTimer);
    this.reopenTimer = setTimeout(() => void this.open(), delay);
  }

  private onClose(port: SerialPortStream, err: Error | null): void {
    if (port !== this.port) return;
    this.port = undefined;
    this.rejectPending('the port closed');
    this.clearSnapshotState();
    clearTimeout(this.identTimer);
    this.identified = false;
    const wasOnline = this.online;
    this.online = false;
    if (this.run === 'stopped' || this.run === 'incompatible') return;
    this.run = 'waiting';
    const disconnected = Boolean((err as { disconnected?: boolean } | null)?.disconnected);
    this.log.warn({ bridge: this.bridge, err: err?.message, disconnected }, 'bridge port closed; reopening');
    if (wasOnline) this.readersOffline();
    this.setBridgeStatus('disconnected', err?.message ?? 'port closed');
    this.scheduleReopen();
  }

  private write(text: string): void {
    const port = this.port;
    if (!port?.isOpen) return;
    port.write(text, (e) => {
      if (e) this.log.debug({ bridge: this.bridge, err: e.message }, 'write failed');
    });
  }

  private clearTimers(): void {
    clearTimeout(this.reopenTimer);
    clearInterval(this.watchTimer);
    clearTimeout(this.snapshotTimer);
    clearTimeout(this.identTimer);
    this.reopenTimer = this.watchTimer = this.snapshotTimer = this.identTimer = undefined;
  }

  private rejectPending(why: string): void {
    for (const [h, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(h);
      p.reject(new CommandError(`${p.type}: ${why}`, 'closed'));
    }
  }

  // ---------------------------------------------------------------- liveness

  private watch(): void {
    if (this.run !== 'open') return;
    // Liveness from the valid-line counter (no clock read per line).
    const now = Date.now();
    if (this.stats.linesOk !== this.watchedLines) {
      this.watchedLines = this.stats.linesOk;
      this.lastValidAt = now;
    }
    if (this.online && now - this.lastValidAt > this.opts.heartbeatTimeoutMs) {
      this.online = false;
      this.log.warn({ bridge: this.bridge, ms: this.opts.heartbeatTimeoutMs }, 'bridge offline: no valid line');
      this.readersOffline();
      this.setBridgeStatus('offline', `no valid line for ${this.opts.heartbeatTimeoutMs} ms`);
    }
  }

  private goOnline(): void {
    this.online = true;
    this.attempt = 0;
    const back = this.everOnline;
    this.everOnline = true;
    // Before identification the status stays "connecting"; identification reports "online".
    if (back && this.identified) {
      this.setBridgeStatus('online', 'valid lines again');
      this.requestSnapshot(true);
    }
  }

  private readersOffline(): void {
    const n = this.device?.readers ?? MAX_READERS;
    for (let r = 0; r < n; r++) {
      if (this.readerState[r] !== undefined) this.setReader(r, 'offline');
    }
  }

  private setReader(reader: number, status: ReaderStatus, code?: string): void {
    if (this.readerState[reader] === status && this.readerCode[reader] === code) return;
    this.readerState[reader] = status;
    this.readerCode[reader] = code;
    const ev: ReaderStatusEvent = { type: 'reader-status', bridge: this.bridge, reader, status };
    const seat = this.seatMap.seatOf(this.bridge, reader);
    if (seat) ev.seat = seat;
    if (code) ev.code = code;
    this.safeEmit('reader-status', ev);
  }

  private setBridgeStatus(status: BridgeState, detail?: string): void {
    this.lastBridgeStatus = status;
    const ev: BridgeStatusEvent = { type: 'bridge-status', bridge: this.bridge, path: this.path, status };
    if (detail) ev.detail = detail;
    if (this.device) {
      ev.fw = this.device.fw;
      ev.proto = this.device.proto;
      ev.readers = this.device.readers;
    }
    this.safeEmit('bridge-status', ev);
  }

  private safeEmit<K extends keyof BridgeDriverEvents>(event: K, ...args: BridgeDriverEvents[K]): void {
    try {
      this.emit(event, ...args);
    } catch (e) {
      this.stats.listenerErrors++;
      this.log.error({ bridge: this.bridge, event, err: (e as Error).message }, 'an event listener threw');
    }
  }

  // ---------------------------------------------------------------- lines

  private onData(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  private onItem(item: SplitItem): void {
    if (typeof item !== 'string') {
      this.bad('too-long', `(${item.length} bytes)`);
      return;
    }
    const r = decodeLine(item);
    if (!r.ok) {
      if (r.error === 'empty') this.stats.emptyLines++;
      else this.bad(r.error, item);
      return;
    }
    const f = r.frame;
    if (!isDeviceType(f.type)) {
      this.stats.unexpected++;
      return;
    }
    this.stats.linesOk++;
    if (!this.online && this.run === 'open') this.goOnline();
    const v = this.seq.accept(f.seq, f.type === 'hello');
    if (v.verdict === 'duplicate') {
      this.stats.duplicates++;
      return;
    }
    if (v.verdict === 'gap') {
      this.stats.gaps++;
      this.stats.lost += v.lost;
      if (this.snap) this.discardSnapshot('a gap inside the snapshot');
      // Lines were lost: ask for a snapshot, unless this line starts one (it is positioned after
      // the gap). Ask even when a present is outstanding: the lost line may have been its `snap`,
      // and the device answers several presents with one snapshot (§11).
      if (f.type !== 'snap') this.requestSnapshot(true);
    }
    if (this.listenerCount('frame') > 0) this.safeEmit('frame', f);
    this.dispatch(f);
  }

  private bad(error: Exclude<LineError, 'empty'>, line: string): void {
    this.stats.bad[error]++;
    this.stats.badTotal++;
    if (this.listenerCount('line-error') > 0) this.safeEmit('line-error', error, line);
  }

  private dispatch(f: Frame): void {
    const t = f.type;
    if (!this.identified && t !== 'hello' && t !== 'identity' && t !== 'ack' && t !== 'nak') {
      // §1/§12: do not interpret the stream before the protocol version is known.
      this.stats.ignoredBeforeIdent++;
      return;
    }
    if (this.snap && t !== 'tag' && t !== 'snapend') {
      // §11: a snapshot's lines are consecutive; anything else inside breaks it.
      this.discardSnapshot(`a ${t} line inside the snapshot`);
      if (t !== 'hello') this.requestSnapshot(false);
    }
    switch (t) {
      case 'hello':
        this.onHello(f as Frame & { fw: string; proto: number; readers: number; reset: string });
        return;
      case 'identity':
        this.onIdentity(f as Frame & { fw: string; proto: number; readers: number; reset: string; uptimeS: number });
        return;
      case 'cfg':
        return;
      case 'hb':
        this.onHeartbeat(f.status as string, f.tags as number[]);
        return;
      case 'arrive':
      case 'leave':
        this.applyOne(t, f.reader as number, f.uid as string, false);
        return;
      case 'snap':
        this.presentInFlight = false;
        clearTimeout(this.snapshotTimer);
        this.snap = { hseq: f.hseq as number, total: f.total as number, tags: [] };
        return;
      case 'tag':
        if (!this.snap) {
          this.stats.strayTags++;
          return;
        }
        this.snap.tags.push({ reader: f.reader as number, uid: f.uid as string });
        if (this.snap.tags.length > this.snap.total) {
          this.discardSnapshot('more tag lines than announced');
          this.requestSnapshot(false);
        }
        return;
      case 'snapend':
        if (!this.snap) {
          // The end of a snapshot whose start we did not see: ask again.
          this.stats.strayTags++;
          this.requestSnapshot(true);
          return;
        }
        this.finishSnapshot(f.hseq as number, f.total as number, f.status as string);
        return;
      case 'err':
        this.onErr(f);
        return;
      case 'ack':
      case 'nak': {
        const p = this.pending.get(f.hseq as number);
        if (t === 'nak') this.stats.naks++;
        if (!p) return;
        clearTimeout(p.timer);
        this.pending.delete(f.hseq as number);
        if (t === 'ack') p.resolve(f);
        else p.reject(new CommandError(`${p.type}: refused by the bridge (${String(f.code)})`, 'nak', f.code as string));
        return;
      }
    }
  }

  private checkProto(proto: number, fw: string): boolean {
    if (proto === PROTOCOL_VERSION) return true;
    this.run = 'incompatible';
    this.identified = false;
    this.clearTimers();
    this.rejectPending('incompatible protocol');
    const detail = `the bridge speaks protocol ${proto} (firmware ${fw}); this daemon implements ${PROTOCOL_VERSION}. Not using it.`;
    this.log.error({ bridge: this.bridge, proto, fw }, detail);
    this.readersOffline();
    this.setBridgeStatus('incompatible', detail);
    const port = this.port;
    this.port = undefined;
    if (port?.isOpen) this.closing = new Promise<void>((res) => port.close(() => res()));
    return false;
  }

  private onHello(f: { fw: string; proto: number; readers: number; reset: string }): void {
    this.device = { fw: f.fw, proto: f.proto, readers: f.readers, reset: f.reset };
    if (!this.checkProto(f.proto, f.fw)) return;
    this.log.info({ bridge: this.bridge, fw: f.fw, readers: f.readers, reset: f.reset }, 'bridge hello (device reset)');
    clearTimeout(this.identTimer);
    this.identified = true;
    this.setBridgeStatus('online', `reset: ${f.reset}`);
    this.afterIdentified(true);
  }

  private onIdentity(f: { fw: string; proto: number; readers: number; reset: string; uptimeS: number }): void {
    const prevUptime = this.device?.uptimeS;
    this.device = { fw: f.fw, proto: f.proto, readers: f.readers, reset: f.reset, uptimeS: f.uptimeS };
    if (!this.checkProto(f.proto, f.fw)) return;
    clearTimeout(this.identTimer);
    const wasIdentified = this.identified;
    this.identified = true;
    if (!wasIdentified) {
      this.log.info({ bridge: this.bridge, fw: f.fw, readers: f.readers, uptimeS: f.uptimeS }, 'bridge identified');
      this.setBridgeStatus('online', `firmware ${f.fw}, ${f.readers} readers`);
      this.afterIdentified(true);
    } else if (prevUptime !== undefined && f.uptimeS < prevUptime) {
      this.requestSnapshot(true);
    }
  }

  private afterIdentified(force: boolean): void {
    if (this.settings) {
      this.command('set', { pollMs: this.settings.pollMs, misses: this.settings.misses }).catch((e: Error) =>
        this.log.warn({ bridge: this.bridge, err: e.message }, 'set failed'),
      );
    }
    this.requestSnapshot(force);
  }

  private identify(): void {
    if (this.run !== 'open' || this.identified) return;
    this.command('ident').catch(() => undefined);
    clearTimeout(this.identTimer);
    const wait = this.opts.commandTimeoutMs * (this.opts.commandAttempts + 1);
    this.identTimer = setTimeout(() => this.identify(), wait);
  }

  private onHeartbeat(status: string, tags: number[]): void {
    let wake = false;
    for (let r = 0; r < status.length; r++) {
      const st = STATE_CHAR[status[r]];
      const code = st === 'faulted' ? this.readerCode[r] : undefined;
      this.setReader(r, st, code);
      if (st === 'ok' && this.deferred.has(r)) wake = true;
    }
    if (wake) {
      this.requestSnapshot(false);
      return;
    }
    // Doubt: the device's count for a settled reader differs from J. Ask again (cheap, §11).
    if (this.synced && this.identified && !this.snap && !this.presentInFlight && this.pendingSeat.size === 0) {
      const counts = new Array<number>(status.length).fill(0);
      for (const p of this.present.values()) if (p.reader < counts.length) counts[p.reader]++;
      for (let r = 0; r < status.length; r++) {
        if (status[r] === 'O' && counts[r] !== tags[r]) {
          this.stats.doubts++;
          this.log.info({ bridge: this.bridge, reader: r, device: tags[r], host: counts[r] }, 'tag count differs; resynchronising');
          this.requestSnapshot(false);
          return;
        }
      }
    }
  }

  private onErr(f: Frame): void {
    switch (f.kind) {
      case 'reader': {
        const r = f.reader as number;
        const code = f.code as string;
        if (code === 'overfull') {
          this.stats.overfull++;
          this.log.warn({ bridge: this.bridge, reader: r }, 'too many tags on one antenna (overfull)');
          return;
        }
        this.log.warn({ bridge: this.bridge, reader: r, code }, 'reader fault');
        this.setReader(r, 'faulted', code);
        return;
      }
      case 'overflow':
        this.stats.overflows++;
        this.log.warn({ bridge: this.bridge, dropped: f.dropped }, 'the bridge dropped lines (overflow)');
        this.requestSnapshot(false);
        return;
      case 'line':
        this.stats.hostLineErrors++;
        this.log.warn({ bridge: this.bridge, code: f.code }, 'the bridge received a damaged host line');
        return;
    }
  }

  // ---------------------------------------------------------------- commands

  private nextHseq(): number {
    do this.hseq = nextHostSeq(this.hseq);
    while (this.pending.has(this.hseq));
    return this.hseq;
  }

  private commandOnce(type: HostType, fields: Record<string, unknown>): Promise<Frame> {
    return new Promise<Frame>((resolve, reject) => {
      if (!this.port?.isOpen) {
        reject(new CommandError(`${type}: the port is not open`, 'closed'));
        return;
      }
      const h = this.nextHseq();
      let line: string;
      try {
        line = encodeFrame({ ...fields, seq: h, type });
      } catch (e) {
        reject(e as Error);
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(h);
        this.stats.commandTimeouts++;
        reject(new CommandError(`${type}: no answer within ${this.opts.commandTimeoutMs} ms`, 'timeout'));
      }, this.opts.commandTimeoutMs);
      this.pending.set(h, { type, resolve, reject, timer });
      this.write(`${line}\n`);
    });
  }

  // ---------------------------------------------------------------- resynchronisation

  private requestSnapshot(force: boolean): void {
    if (this.run !== 'open' || !this.identified) return;
    if (this.presentInFlight && !force) return;
    this.presentInFlight = true;
    this.deferred.clear();
    this.command('present').catch((e: Error) => this.log.debug({ bridge: this.bridge, err: e.message }, 'present failed'));
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = setTimeout(() => {
      if (!this.presentInFlight) return;
      this.stats.snapshotTimeouts++;
      this.presentInFlight = false;
      this.requestSnapshot(false);
    }, this.opts.snapshotTimeoutMs);
  }

  private discardSnapshot(why: string): void {
    this.snap = undefined;
    this.stats.snapshotsDiscarded++;
    this.log.debug({ bridge: this.bridge, why }, 'snapshot discarded');
  }

  private clearSnapshotState(): void {
    this.snap = undefined;
    this.presentInFlight = false;
    clearTimeout(this.snapshotTimer);
  }

  private finishSnapshot(hseq: number, total: number, status: string): void {
    const s = this.snap!;
    this.snap = undefined;
    if (total !== s.total || s.tags.length !== s.total) {
      this.discardSnapshot(`announced ${s.total} tags, got ${s.tags.length}, end says ${total}`);
      this.requestSnapshot(false);
      return;
    }
    this.stats.snapshots++;
    for (let r = 0; r < status.length; r++) {
      const st = STATE_CHAR[status[r]];
      this.setReader(r, st, st === 'faulted' ? this.readerCode[r] : undefined);
    }
    const inS = new Set<string>();
    const changes: Array<{ kind: 'arrive' | 'leave'; reader: number; uid: string }> = [];
    const deferred = new Set<number>();
    for (const t of s.tags) {
      const k = `${t.reader} ${t.uid}`;
      if (inS.has(k)) continue;
      inS.add(k);
      if (!this.present.has(k)) changes.push({ kind: 'arrive', reader: t.reader, uid: t.uid });
    }
    for (const [k, p] of this.present) {
      if (inS.has(k)) continue;
      if (status[p.reader] === 'O') changes.push({ kind: 'leave', reader: p.reader, uid: p.uid });
      else deferred.add(p.reader);
    }
    const batch = this.applyBatch(changes);
    // Journal entries (seat + card) that no tag matched: gone, if every reader of the seat is O.
    const labelLifts: Array<{ seat: Seat; label: string; reader: number }> = [];
    for (const [label, n] of [...this.pendingSeat]) {
      const seat = label[0] as Seat;
      const readers = this.seatMap.readersOf(this.bridge, seat);
      if (readers.length > 0 && readers.every((r) => status[r] === 'O')) {
        this.pendingSeat.delete(label);
        for (let i = 0; i < n; i++) labelLifts.push({ seat, label, reader: readers[0] });
      } else {
        for (const r of readers) deferred.add(r);
      }
    }
    // Lifts first (they happened earlier, as in a poll), then the late places.
    for (const b of batch.lifts) this.emitSeat('lift', b.seat, b.reader, b.uid, true);
    for (const l of labelLifts) this.emitLabelLift(l.seat, l.label, l.reader);
    for (const b of batch.places) this.emitSeat('place', b.seat, b.reader, b.uid, true);
    const places = batch.places.length;
    const lifts = batch.lifts.length + labelLifts.length;
    for (const r of deferred) this.deferred.add(r);
    this.synced = true;
    this.log[places + lifts > 0 ? 'info' : 'debug']({ bridge: this.bridge, total, places, lifts, deferred: [...deferred] }, 'snapshot reconciled');
    this.safeEmit('synced', { bridge: this.bridge, hseq, total, places, lifts, deferred: [...deferred].sort() });
  }

  // ---------------------------------------------------------------- presence → events

  private seed(e: PresenceEntry): void {
    if (e.bridge !== undefined && e.bridge !== this.bridge) return;
    if ('uid' in e) {
      const k = `${e.reader} ${e.uid}`;
      if (this.present.has(k)) return;
      this.present.set(k, { reader: e.reader, uid: e.uid });
      const seat = this.seatMap.seatOf(this.bridge, e.reader);
      if (seat) this.seats.add(seat, e.uid);
      return;
    }
    // Seat-level entries belong to this bridge only if it has a reader under that seat.
    if (this.seatMap.readersOf(this.bridge, e.seat).length === 0) return;
    const label = 'card' in e ? `${e.seat}|card:${e.card}` : `${e.seat}|tag:${e.tag}`;
    this.pendingSeat.set(label, (this.pendingSeat.get(label) ?? 0) + 1);
  }

  private labelOf(seat: Seat, uid: string): string {
    const entry = this.decks.lookup(uid);
    return entry ? `${seat}|card:${entry.card}` : `${seat}|tag:${uid}`;
  }

  /** Takes one matching journal entry, if any (true when one was consumed). */
  private takePending(seat: Seat, uid: string): boolean {
    if (this.pendingSeat.size === 0) return false;
    const label = this.labelOf(seat, uid);
    const n = this.pendingSeat.get(label);
    if (!n) return false;
    if (n <= 1) this.pendingSeat.delete(label);
    else this.pendingSeat.set(label, n - 1);
    return true;
  }

  /** A live arrive/leave: the hot path. */
  private applyOne(kind: 'arrive' | 'leave', reader: number, uid: string, late: boolean): void {
    const k = `${reader} ${uid}`;
    const seat = this.seatMap.seatOf(this.bridge, reader);
    if (kind === 'arrive') {
      if (this.present.has(k)) {
        this.stats.redundant++;
        return;
      }
      this.present.set(k, { reader, uid });
      if (this.listenerCount('presence') > 0) this.safeEmit('presence', { kind, bridge: this.bridge, reader, uid, late });
      if (!seat) {
        this.stats.unmapped++;
        return;
      }
      const first = this.seats.add(seat, uid);
      if (first && !this.takePending(seat, uid)) this.emitSeat('place', seat, reader, uid, late);
    } else {
      const p = this.present.get(k);
      if (!p) {
        // Not in J. If the journal says this card lies at this seat, the leave is real (§11).
        if (seat && this.takePending(seat, uid) && !this.seats.has(seat, uid)) {
          if (this.listenerCount('presence') > 0) this.safeEmit('presence', { kind, bridge: this.bridge, reader, uid, late });
          this.emitSeat('lift', seat, reader, uid, late);
        } else this.stats.redundant++;
        return;
      }
      this.present.delete(k);
      if (this.listenerCount('presence') > 0) this.safeEmit('presence', { kind, bridge: this.bridge, reader, uid, late });
      if (!seat) {
        this.stats.unmapped++;
        return;
      }
      if (this.seats.remove(seat, uid)) this.emitSeat('lift', seat, reader, uid, late);
    }
  }

  /**
   * Applies a snapshot's differences to J and the seat counts, and returns the seat-level changes
   * to emit. Seat-level effects are netted, so a tag that moved between two readers under the same
   * seat produces nothing; places that match a journal entry are adopted silently.
   */
  private applyBatch(changes: Array<{ kind: 'arrive' | 'leave'; reader: number; uid: string }>): {
    places: Array<{ seat: Seat; uid: string; reader: number }>;
    lifts: Array<{ seat: Seat; uid: string; reader: number }>;
  } {
    const before = new Map<string, { seat: Seat; uid: string; reader: number; was: boolean }>();
    for (const c of changes) {
      const seat = this.seatMap.seatOf(this.bridge, c.reader);
      const k = `${c.reader} ${c.uid}`;
      if (seat) {
        const sk = seat + c.uid;
        if (!before.has(sk)) before.set(sk, { seat, uid: c.uid, reader: c.reader, was: this.seats.has(seat, c.uid) });
      } else this.stats.unmapped++;
      if (c.kind === 'arrive') {
        this.present.set(k, { reader: c.reader, uid: c.uid });
        if (seat) this.seats.add(seat, c.uid);
      } else {
        this.present.delete(k);
        if (seat) this.seats.remove(seat, c.uid);
      }
      this.safeEmit('presence', { kind: c.kind, bridge: this.bridge, reader: c.reader, uid: c.uid, late: true });
    }
    const places: Array<{ seat: Seat; uid: string; reader: number }> = [];
    const lifts: Array<{ seat: Seat; uid: string; reader: number }> = [];
    for (const b of before.values()) {
      const now = this.seats.has(b.seat, b.uid);
      if (b.was && !now) lifts.push(b);
      else if (!b.was && now && !this.takePending(b.seat, b.uid)) places.push(b);
    }
    return { places, lifts };
  }

  private emitSeat(type: 'place' | 'lift', seat: Seat, reader: number, uid: string, late: boolean): void {
    const entry = this.decks.lookup(uid);
    const ev: SeatEvent = entry
      ? (type === 'place' ? { type, seat, card: entry.card } : { type, seat, card: entry.card })
      : { type, seat, tag: uid };
    const origin: EventOrigin = { bridge: this.bridge, reader, uid, late };
    if (entry) origin.deck = entry.deck;
    if (type === 'place') {
      this.stats.places++;
      if (late) this.stats.latePlaces++;
      if (!entry) this.stats.unknownTags++;
    } else {
      this.stats.lifts++;
      if (late) this.stats.lateLifts++;
    }
    this.safeEmit('event', ev, origin);
  }

  private emitLabelLift(seat: Seat, label: string, reader: number): void {
    const rest = label.slice(2);
    const ev: SeatEvent = rest.startsWith('card:') ? { type: 'lift', seat, card: rest.slice(5) } : { type: 'lift', seat, tag: rest.slice(4) };
    this.stats.lifts++;
    this.stats.lateLifts++;
    this.safeEmit('event', ev, { bridge: this.bridge, reader, uid: rest.startsWith('tag:') ? rest.slice(4) : '', late: true });
  }
}

// ------------------------------------------------------------------ several bridges

export interface MultiBridgeOptions {
  bridges: Array<Omit<BridgeDriverOptions, 'seatPresence' | 'initialPresence'>>;
  /** Shared by all drivers unless a bridge entry sets its own. */
  seatMap?: SeatMap;
  decks?: DeckSet;
  /** From the journal; exact entries should carry `bridge`. */
  initialPresence?: PresenceEntry[];
  logger?: Logger;
}

/**
 * Runs one BridgeDriver per bridge and merges their events (same event names and payloads as
 * BridgeDriver). The drivers share one SeatPresence, so a seat served by readers of two bridges
 * still gets one place per card.
 */
export class MultiBridge extends EventEmitter {
  readonly drivers: BridgeDriver[];

  constructor(opts: MultiBridgeOptions) {
    super();
    const shared = new SeatPresence();
    const claimed = new Set<PresenceEntry>();
    this.drivers = opts.bridges.map((b) => {
      const id = b.bridgeId ?? basename(b.path);
      const seatMap = b.seatMap ?? opts.seatMap;
      const mine = (opts.initialPresence ?? []).filter((e) => {
        if (claimed.has(e)) return false;
        if (e.bridge !== undefined) return e.bridge === id;
        // Seat-level entries go to the first bridge with a reader under that seat.
        if ('seat' in e && (seatMap ?? SeatMap.default()).readersOf(id, e.seat).length > 0) {
          claimed.add(e);
          return true;
        }
        return false;
      });
      return new BridgeDriver({
        ...b,
        bridgeId: id,
        seatMap,
        decks: b.decks ?? opts.decks,
        logger: b.logger ?? opts.logger,
        seatPresence: shared,
        initialPresence: mine.map((e) => ({ ...e, bridge: id })),
      });
    });
    for (const d of this.drivers) {
      for (const name of ['event', 'reader-status', 'bridge-status', 'presence', 'synced', 'line-error'] as const) {
        d.on(name, (...args: unknown[]) => {
          try {
            this.emit(name, ...args);
          } catch {
            d.stats.listenerErrors++;
          }
        });
      }
    }
  }

  start(): void {
    for (const d of this.drivers) d.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.drivers.map((d) => d.stop()));
  }

  presence(): PresenceEntry[] {
    return this.drivers.flatMap((d) => d.presence());
  }

  stats(): Record<string, DriverStats> {
    return Object.fromEntries(this.drivers.map((d) => [d.bridge, d.stats]));
  }

  resync(): void {
    for (const d of this.drivers) d.resync();
  }
}
