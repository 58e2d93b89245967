// The seat-reader driver: one firmware bridge on one serial port → TableEvents.
//
// API (an EventEmitter; every event is listed in `BridgeDriverEvents`):
//
//   const d = new BridgeDriver({ path: '/dev/serial/by-id/usb-…-if00', decks, seatMap, resume });
//   d.on('event', (ev, origin) => journal.append(ev));       // place / lift TableEvents, with `src`
//   d.on('reader-status', (s) => …);                          // { type: 'reader-status', bridge, reader, status }
//   d.on('bridge-status', (s) => …);                          // online / offline / disconnected / incompatible …
//   d.start();  …  await d.stop();
//
// What it does (PROTOCOL.md v2 is the contract; section numbers refer to it):
// - Splits the byte stream with a hard line cap (line-splitter.ts) and decodes every line with the
//   shared codec (protocol.ts). Bad lines are counted per error code (§8), never thrown; dropped
//   lines (bad, duplicate or stale) are logged once per burst, not once per line.
// - The order of play is never guessed. The driver follows the device's boot id and `last`, the seq
//   of the last line it accepted in order. Every place/lift carries `src: {bridge, boot, seq}` (the
//   arrive/leave line, or the replayed record's original seq). After any doubt — a seq gap, a bad
//   line, `err overflow`, a reconnect, lines again after silence, or its own restart (`resume`, the
//   last `src` of this bridge in the journal) — it sends `since <boot> <last>` and HOLDS live
//   arrive/leave lines until `replayend`: they are inside the replay, which is applied in seq order
//   (records not after `last` are skipped, so a replay is idempotent, and arrive/leave are
//   idempotent against J). A damaged replay is asked again from the last record applied. Then live
//   lines go on.
// - The snapshot (`present`, §11) is the fallback only: on `nak gone`, on no answer, after a reset,
//   on a heartbeat count that disagrees, when a deferred reader settles, or with nothing to resume
//   from. Every place/lift emitted while a snapshot is awaited, and every one the reconciliation
//   yields (late lifts, then late places), is marked `orderUnknown: true` with the `snapend` seq:
//   the table did not see when those cards moved, so the engine must not judge their order.
// - Resets: a `hello`, or an `hb`/`identity` whose boot differs from the one followed (the hello
//   was lost: the new boot's lines looked stale). After a lost hello it asks `since <newBoot> 0`
//   and, at once, `present`: the new boot's records begin with the first poll's re-sightings in
//   reader order, so what they yield is order-unknown too; the snapshot reconciles what the old
//   boot lost before it reset.
// - A `hello`/`identity` of another protocol version (v1's have no boot; `announcedProto` reads
//   them) is reported (`bridge-status` "incompatible", one log line); the stream is not
//   interpreted, the port stays open and `ident` is re-sent every `incompatibleRetryMs`: the next
//   valid v2 hello/identity makes the bridge usable again (then `since` recovers what was missed).
// - Reader status from `hb`, `snapend` and `err reader` → `reader-status` events on change. A bridge
//   with no valid line for `heartbeatTimeoutMs` (default 3 s = three missed heartbeats, §10) is
//   offline: its readers are reported "offline".
// - J (the (reader, uid) pairs present) can be seeded from the journal (`initialPresence`), so a
//   daemon restart invents nothing: a journal card seen again is adopted silently.
// - Lost ports (unplugged: 'close' with a disconnect error, ENOENT/EACCES/EBUSY on open) are
//   reopened with capped exponential backoff (250 ms doubling to 5 s). Nothing here ever exits the
//   process or emits 'error'; listener exceptions are caught and counted. Buffers are bounded: a
//   line ≤ 96 bytes, a snapshot ≤ its announced total; replayed records are applied as they come
//   (a clean prefix of a replay is exactly the first events missed), nothing of a replay is kept,
//   and at most 64 commands wait for an answer (command-channel.ts).
// - Paths: configure the stable `/dev/serial/by-id/usb-…` (or `/dev/tenace-bridge-<serial>` from
//   hardware/99-tenace.rules) path. It is opened as given, so a replug that renumbers ttyACM0 →
//   ttyACM1 still finds the bridge; the symlink is resolved only to log where it points.
//
// Events are emitted per seat, not per antenna: if several readers of a bridge (or of several
// bridges sharing a SeatPresence, see MultiBridge) lie under one seat, a card is placed when the
// first of them sees it and lifted when the last one loses it.
import { EventEmitter } from 'node:events';
import { basename } from 'node:path';
import { Handshake } from './bridge-handshake.js';
import { CARD_ARRIVE, CARD_HB, type CardLine, decodeCardLine, newCardLine } from './card-line.js';
import { CommandChannel } from './command-channel.js';
import { DeckSet } from './deck.js';
import {
  type BridgeDriverEvents,
  type BridgeDriverOptions,
  type BridgeState,
  type BridgeStatusEvent,
  type DriverStats,
  type Logger,
  newStats,
  type PresenceEntry,
  type ReaderStatus,
  type ReaderStatusEvent,
  type ResumePoint,
} from './driver-types.js';
import { ByteLineSplitter, latin1, type SplitItem } from './line-splitter.js';
import {
  announcedProto,
  decodeLine,
  type Frame,
  type HostType,
  isDeviceType,
  type LineError,
  PROTOCOL_VERSION,
  SeqTracker,
} from './protocol.js';
import type { Tag } from './reader-presence.js';
import { SeatMap } from './seat-map.js';
import { SeatEvents } from './seat-events.js';
import { StreamResync } from './stream-resync.js';
import { SeatPresence } from './seat-presence.js';
import { SerialLink, type SerialLinkHost } from './serial-link.js';

// The driver's modules, re-exported: importers of bridge-driver.js see the API it always had.
export * from './driver-types.js';
export { SeatPresence } from './seat-presence.js';
export { presenceFromEvents, resumePoints } from './journal-state.js';
export { MultiBridge, type MultiBridgeOptions } from './multi-bridge.js';

const NO_LOG: Logger = { debug() {}, info() {}, warn() {}, error() {} };

// ------------------------------------------------------------------ the driver

const STATE_CHAR: Record<string, ReaderStatus> = { O: 'ok', W: 'warming', F: 'faulted' };
const MAX_READERS = 8;

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
      | 'incompatibleRetryMs'
      | 'baudRate'
    >
  >;
  private readonly seatMap: SeatMap;
  private readonly decks: DeckSet;
  private readonly seats: SeatPresence;
  private readonly settings?: { pollMs: number; misses: number };
  private readonly log: Logger;

  /** The serial port, reopened when lost. */
  private readonly link: SerialLink;
  private readonly splitter: ByteLineSplitter;
  /** The stream position (gaps, duplicates); `last` below is how far the play is applied. */
  private readonly seq = new SeqTracker();
  /** Where the ordered stream stands, and the resynchronisation in progress. */
  private readonly stream: StreamResync;
  /** What the table holds: J, the journal's unmatched entries, and the seat events they yield. */
  private readonly table: SeatEvents;
  /** What the byte-level decoder found in the current line (one object, reused). */
  private readonly card: CardLine = newCardLine();
  /** The last heartbeat status word, reused while the bytes are the same. */
  private lastStatus = '';
  private readonly readerState: (ReaderStatus | undefined)[] = new Array(MAX_READERS).fill(undefined);
  private readonly readerCode: (string | undefined)[] = new Array(MAX_READERS).fill(undefined);
  /** Who the bridge is and which protocol it speaks. */
  private readonly handshake: Handshake;
  private online = false;
  private everOnline = false;
  private lastValidAt = 0;
  private watchedLines = 0;
  private readonly commands: CommandChannel;
  /** Dropped lines not yet logged, by reason (logged once per burst). */
  private readonly burst = new Map<string, number>();
  private lastBridgeStatus?: BridgeState;
  private watchTimer?: NodeJS.Timeout;

  constructor(options: BridgeDriverOptions) {
    super();
    this.path = options.path;
    this.bridge = options.bridgeId ?? basename(options.path);
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
      incompatibleRetryMs: options.incompatibleRetryMs ?? 3000,
      baudRate: options.baudRate ?? 115200,
    };
    this.link = new SerialLink(this.linkHost(), options.binding, {
      baudRate: this.opts.baudRate,
      reconnectMinMs: this.opts.reconnectMinMs,
      reconnectMaxMs: this.opts.reconnectMaxMs,
    });
    this.commands = new CommandChannel(
      { stats: this.stats, isOpen: () => this.link.isOpen, write: (line) => this.link.write(line) },
      this.opts.commandTimeoutMs,
      this.opts.commandAttempts,
    );
    this.table = new SeatEvents(this.bridge, this.seatMap, this.decks, this.seats, {
      stats: this.stats,
      boot: () => this.stream.boot ?? 0,
      event: (ev, origin) => {
        // safeEmit by hand for the one event of every card line: no rest-argument array per event.
        try {
          this.emit('event', ev, origin);
        } catch (e) {
          this.stats.listenerErrors++;
          this.log.error({ bridge: this.bridge, event: 'event', err: (e as Error).message }, 'an event listener threw');
        }
      },
      wantsPresence: () => this.listenerCount('presence') > 0,
      presence: (change) => this.safeEmit('presence', change),
    });
    this.stream = new StreamResync({
      bridge: this.bridge,
      stats: this.stats,
      log: this.log,
      commands: this.commands,
      table: this.table,
      snapshotTimeoutMs: this.opts.snapshotTimeoutMs,
      isOpen: () => this.link.state === 'open',
      isIdentified: () => this.handshake.identified,
      readerStates: (status) => {
        for (let r = 0; r < status.length; r++) {
          const st = STATE_CHAR[status[r]];
          this.setReader(r, st, st === 'faulted' ? this.readerCode[r] : undefined);
        }
      },
      synced: (info) => this.safeEmit('synced', info),
    });
    this.handshake = new Handshake({
      bridge: this.bridge,
      log: this.log,
      stats: this.stats,
      stream: this.stream,
      commands: this.commands,
      settings: this.settings,
      timing: this.opts,
      isOpen: () => this.link.state === 'open',
      setBridgeStatus: (status, detail) => this.setBridgeStatus(status, detail),
      readersOffline: () => this.readersOffline(),
    });
    if (options.resume) {
      this.stream.boot = options.resume.boot;
      this.stream.last = options.resume.seq;
    }
    this.splitter = new ByteLineSplitter(
      (buf, start, end) => this.onLine(buf, start, end),
      (length) => this.onItem({ error: 'too-long', length }),
    );
    for (const e of options.initialPresence ?? []) this.table.seed(e);
  }

  // ---------------------------------------------------------------- lifecycle

  /** Opens the port (and keeps reopening it when lost) until `stop()`. */
  start(): void {
    if (!this.link.arm()) return;
    this.setBridgeStatus('connecting');
    const period = Math.max(10, Math.min(1000, Math.floor(this.opts.heartbeatTimeoutMs / 4)));
    this.watchTimer = setInterval(() => this.watch(), period);
    void this.link.open();
  }

  /** Closes the port and stops reconnecting. Pending commands are rejected. */
  async stop(): Promise<void> {
    const wasRunning = this.link.stop();
    this.clearTimers();
    this.commands.rejectAll('the driver was stopped');
    this.endBurst();
    await this.link.close();
    if (wasRunning) this.setBridgeStatus('stopped');
  }

  /** True while the port is open and valid lines arrive. */
  isOnline(): boolean {
    return this.online;
  }

  /** The device's hello/identity, once known. */
  deviceInfo(): { fw: string; proto: number; readers: number; reset: string; uptimeS?: number; boot?: number } | undefined {
    return this.handshake.device ? { ...this.handshake.device } : undefined;
  }

  /** Where the ordered stream stands: the boot followed and the last seq applied in order. */
  position(): ResumePoint | undefined {
    const { boot, last } = this.stream;
    return boot === undefined ? undefined : { boot, seq: last };
  }

  /** J: the (reader, uid) pairs this driver considers present, plus unmatched journal entries. */
  presence(): PresenceEntry[] {
    return this.table.presence();
  }

  /** Last known status per reader index (undefined: not reported yet). */
  readerStatuses(): (ReaderStatus | undefined)[] {
    return [...this.readerState];
  }

  /** Ask for a snapshot and reconcile (§11); what it yields is order-unknown. */
  resync(): void {
    if (this.handshake.identified) this.stream.startPresent();
  }

  /**
   * Sends a host command and resolves with its `ack` (rejects with CommandError on `nak`, on
   * timeout after `commandAttempts` tries with fresh hseqs, or when the port closes).
   */
  command(type: HostType, fields: Record<string, unknown> = {}): Promise<Frame> {
    return this.commands.send(type, fields);
  }

  /** Feeds received bytes as if they came from the port (benchmarks and tests). */
  receive(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  // ---------------------------------------------------------------- the connection

  private linkHost(): SerialLinkHost {
    return {
      bridge: this.bridge,
      path: this.path,
      log: this.log,
      stats: this.stats,
      opened: () => {
        this.splitter.reset();
        this.seq.reset();
        this.handshake.identified = false;
        this.stream.reset();
        this.online = false;
        this.lastValidAt = Date.now();
        this.watchedLines = this.stats.linesOk;
      },
      data: (chunk) => this.splitter.push(chunk),
      ready: () => {
        this.link.write('\n');
        this.handshake.identify();
      },
      openFailed: (err, first) => {
        this.log[first ? 'warn' : 'debug']({ bridge: this.bridge, path: this.path, err: err.message }, 'cannot open the bridge port; retrying');
        if (this.lastBridgeStatus !== 'connecting' && this.lastBridgeStatus !== 'disconnected') {
          this.setBridgeStatus('disconnected', err.message);
        }
      },
      closed: (err, stopped) => {
        this.commands.rejectAll('the port closed');
        this.stream.reset();
        this.handshake.forget();
        const wasOnline = this.online;
        this.online = false;
        if (stopped) return;
        const disconnected = Boolean((err as { disconnected?: boolean } | null)?.disconnected);
        this.log.warn({ bridge: this.bridge, err: err?.message, disconnected }, 'bridge port closed; reopening');
        if (wasOnline) this.readersOffline();
        this.setBridgeStatus('disconnected', err?.message ?? 'port closed');
      },
    };
  }

  private clearTimers(): void {
    clearInterval(this.watchTimer);
    this.handshake.stopAsking();
    this.stream.clearTimers();
    this.watchTimer = undefined;
  }

  // ---------------------------------------------------------------- liveness

  private watch(): void {
    this.endBurst();
    if (this.link.state !== 'open') return;
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
    this.link.resetBackoff();
    const back = this.everOnline;
    this.everOnline = true;
    // Before identification the status stays "connecting"; identification reports "online".
    if (back && this.handshake.identified) {
      this.setBridgeStatus('online', 'valid lines again');
      this.stream.doubt('valid lines again after silence');
    }
  }

  private readersOffline(): void {
    const n = this.handshake.device?.readers ?? MAX_READERS;
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
    if (this.handshake.device) {
      ev.fw = this.handshake.device.fw;
      ev.proto = this.handshake.device.proto;
      ev.readers = this.handshake.device.readers;
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

  /**
   * A received line, as bytes valid during this call only. The lines of play (arrive, leave, hb)
   * are decoded in place (card-line.ts); every other line, and any line they do not take, goes
   * through decodeLine as a string. Both ways end in the same steps (countValid, sequence,
   * interpreted, onCard/onHeartbeat), so a line gets the same verdict whichever way it came.
   */
  private onLine(buf: Buffer, start: number, end: number): void {
    const c = this.card;
    if (!decodeCardLine(buf, start, end, c)) {
      this.onItem(latin1(buf, start, end));
      return;
    }
    // Everything is read from the bytes before any step runs: a listener may feed more bytes.
    const seq = c.seq;
    if (c.kind !== CARD_HB) {
      const kind = c.kind === CARD_ARRIVE ? 'arrive' : 'leave';
      const reader = c.reader;
      const tag = this.table.tagAt(buf, c.uidStart, c.uidEnd, c.uidHash);
      this.countValid();
      if (!this.sequence(kind, seq, 0)) return;
      if (this.listenerCount('frame') > 0) this.safeEmit('frame', { seq, type: kind, reader, uid: tag.uid });
      if (this.interpreted(kind)) this.onCard(kind, seq, reader, tag);
      return;
    }
    const boot = c.boot;
    const uptimeS = c.uptimeS;
    const status = this.statusText(buf, c.statusStart, c.statusEnd);
    const tags: number[] = [];
    for (let i = 0; i < status.length; i++) tags.push(buf[c.tagsStart + i] - 0x30);
    this.countValid();
    if (!this.sequence('hb', seq, boot)) return;
    if (this.listenerCount('frame') > 0) this.safeEmit('frame', { seq, type: 'hb', uptimeS, status, tags, boot });
    if (this.interpreted('hb')) this.onHeartbeat(status, tags);
  }

  /** A heartbeat's status word: the same string as the last one when the bytes are (nearly always). */
  private statusText(buf: Buffer, start: number, end: number): string {
    const last = this.lastStatus;
    if (last.length === end - start) {
      let same = true;
      for (let i = 0; i < last.length; i++) {
        if (last.charCodeAt(i) !== buf[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return last;
    }
    return (this.lastStatus = latin1(buf, start, end));
  }

  private onItem(item: SplitItem): void {
    if (typeof item !== 'string') {
      this.bad('too-long', `(${item.length} bytes)`);
      return;
    }
    const r = decodeLine(item);
    if (!r.ok) {
      if (r.error === 'empty') {
        this.stats.emptyLines++;
        return;
      }
      // A good checksum on a hello/identity of another version (v1 has no boot): say which.
      const proto = r.error === 'missing-field' || r.error === 'extra-field' || r.error === 'bad-field' ? announcedProto(item) : undefined;
      if (proto !== undefined && proto !== PROTOCOL_VERSION) {
        this.stats.linesOk++;
        this.handshake.onForeign(proto, item.split(' ')[2] ?? '?');
        return;
      }
      this.bad(r.error, item);
      return;
    }
    const f = r.frame;
    if (!isDeviceType(f.type)) {
      this.stats.unexpected++;
      this.drop('host type');
      return;
    }
    this.countValid();
    const t = f.type;
    if ((t === 'hello' || t === 'identity') && f.proto !== PROTOCOL_VERSION) {
      // Not fed to the seq tracker: a foreign line tells nothing about this device's stream.
      this.handshake.onForeign(f.proto as number, f.fw as string);
      return;
    }
    if (!this.sequence(t, f.seq, t === 'hb' || t === 'identity' ? (f.boot as number) : 0)) return;
    if (this.listenerCount('frame') > 0) this.safeEmit('frame', f);
    if (this.interpreted(t)) this.dispatch(f);
  }

  /** A valid device line: counted, and the bridge is online again if it was not. */
  private countValid(): void {
    this.stats.linesOk++;
    if (!this.online && this.link.state === 'open') this.goOnline();
  }

  /**
   * Places a valid device line of type `t` in the stream (`boot`: an hb's or identity's boot id):
   * false when it is dropped as a duplicate or stale; a gap or a new boot starts a resync.
   */
  private sequence(t: string, seq: number, boot: number): boolean {
    // A boot id other than the one followed: the device has reset and its hello was lost. Its lines
    // are judged from here as a new stream, not as stale lines of the old one.
    const rebooted = (t === 'hb' || t === 'identity') && this.handshake.identified && this.stream.boot !== undefined && boot !== this.stream.boot;
    if (rebooted) this.seq.reset();
    const v = this.seq.accept(seq, t === 'hello');
    if (v.verdict === 'duplicate') {
      this.stats.duplicates++;
      this.drop('duplicate or stale');
      return false;
    }
    this.endBurst();
    if (rebooted) this.stream.newBoot(boot, false);
    else if (v.verdict === 'gap') {
      this.stats.gaps++;
      this.stats.lost += v.lost;
      this.stream.onGap(t);
    } else if (v.verdict === 'in-order' && this.handshake.identified && !this.stream.active) this.stream.last = seq;
    return true;
  }

  private bad(error: Exclude<LineError, 'empty'>, line: string): void {
    this.stats.bad[error]++;
    this.stats.badTotal++;
    this.drop(error);
    if (this.listenerCount('line-error') > 0) this.safeEmit('line-error', error, line);
    // The damaged line may have been an arrive/leave, or a line of a replay or snapshot.
    this.stream.doubt(`a damaged line (${error})`);
  }

  /** Counts a dropped line into the current burst (logged once when the burst ends). */
  private drop(why: string): void {
    this.burst.set(why, (this.burst.get(why) ?? 0) + 1);
  }

  private endBurst(): void {
    if (this.burst.size === 0) return;
    let n = 0;
    for (const c of this.burst.values()) n += c;
    this.log.warn({ bridge: this.bridge, lines: n, ...Object.fromEntries(this.burst) }, `dropped ${n} line${n === 1 ? '' : 's'}`);
    this.burst.clear();
  }

  /**
   * Whether a sequenced line of type `t` is interpreted now (not before the identification), and
   * what it interrupts (a snapshot's or a replay's lines are consecutive).
   */
  private interpreted(t: string): boolean {
    if (!this.handshake.identified && t !== 'hello' && t !== 'identity' && t !== 'ack' && t !== 'nak') {
      // §1/§12: do not interpret the stream before the protocol version is known. A resync after
      // the identification covers what is skipped here.
      this.stats.ignoredBeforeIdent++;
      return false;
    }
    this.stream.interrupt(t);
    return true;
  }

  private dispatch(f: Frame): void {
    const t = f.type;
    switch (t) {
      case 'hello':
        this.handshake.onHello(f as Frame & { fw: string; proto: number; readers: number; reset: string; boot: number });
        return;
      case 'identity':
        this.handshake.onIdentity(f as Frame & { fw: string; proto: number; readers: number; reset: string; uptimeS: number; boot: number });
        return;
      case 'cfg':
        return;
      case 'hb':
        this.onHeartbeat(f.status as string, f.tags as number[]);
        return;
      case 'arrive':
      case 'leave':
        this.onCard(t, f.seq, f.reader as number, this.table.tag(f.uid as string));
        return;
      case 'snap':
        this.stream.onSnap(f.hseq as number, f.total as number);
        return;
      case 'tag':
        this.stream.onTag(f.reader as number, f.uid as string);
        return;
      case 'snapend':
        this.stream.onSnapEnd(f.seq, f.hseq as number, f.total as number, f.status as string);
        return;
      case 'replay':
        this.stream.onReplay(f.hseq as number, f.count as number);
        return;
      case 'rec':
        this.stream.onRec(f.oseq as number, f.kind as 'arrive' | 'leave', f.reader as number, f.uid as string);
        return;
      case 'replayend':
        this.stream.onReplayEnd(f.seq, f.hseq as number, f.count as number);
        return;
      case 'err':
        this.onErr(f);
        return;
      case 'ack':
      case 'nak': {
        if (t === 'nak') this.stats.naks++;
        const type = this.commands.answer(f);
        // Known at once, not in a promise continuation: the replay follows in the same chunk.
        if (t === 'ack' && type === 'since') this.stream.sinceAcked();
        return;
      }
    }
  }

  /** A live arrive/leave line, sequenced and interpreted. */
  private onCard(kind: 'arrive' | 'leave', seq: number, reader: number, tag: Tag): void {
    if (this.stream.holding) {
      this.stats.held++; // inside the replay to come, which applies it in order
      return;
    }
    this.table.applyOne(kind, reader, tag, false, seq, this.stream.active);
  }

  // ---------------------------------------------------------------- identification and resets

  private onHeartbeat(status: string, tags: number[]): void {
    let wake = false;
    for (let r = 0; r < status.length; r++) {
      const st = STATE_CHAR[status[r]];
      const code = st === 'faulted' ? this.readerCode[r] : undefined;
      this.setReader(r, st, code);
      if (st === 'ok' && this.stream.deferred.has(r)) wake = true;
    }
    if (this.stream.active) return;
    if (wake) {
      this.stream.startPresent();
      return;
    }
    // Doubt: the device's count for a settled reader differs from J, with the stream in order.
    // No replay can explain that: ask for a snapshot (§11).
    if (this.stream.synced && !this.table.unmatched && !this.stream.presentInFlight) {
      for (let r = 0; r < status.length; r++) {
        if (status[r] === 'O' && this.table.count(r) !== tags[r]) {
          this.stats.doubts++;
          this.log.info({ bridge: this.bridge, reader: r, device: tags[r], host: this.table.count(r) }, 'tag count differs; resynchronising');
          this.stream.startPresent();
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
        this.stream.doubt('err overflow');
        return;
      case 'line':
        this.stats.hostLineErrors++;
        this.log.warn({ bridge: this.bridge, code: f.code }, 'the bridge received a damaged host line');
        return;
    }
  }
}
