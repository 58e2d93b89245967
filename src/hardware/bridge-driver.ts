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
// - Splits the byte stream with a hard line cap (line-splitter.ts). Lines of play (arrive, leave,
//   hb) are decoded in place from the bytes (card-line.ts), every other line by the shared codec
//   (protocol.ts), with the same verdicts. Bad lines are counted per error code (§8), never thrown;
//   dropped lines (bad, duplicate or stale) are logged once per burst, not once per line.
// - The order of play is never guessed (stream-resync.ts): every place/lift carries
//   `src: {bridge, boot, seq}`; after any doubt the driver asks for a replay (`since`) and holds
//   live arrive/leave lines until it is applied; a snapshot (`present`) is the fallback, and what
//   it yields is marked `orderUnknown`.
// - The bridge is identified before its stream is interpreted (bridge-handshake.ts); a bridge of
//   another protocol version is reported "incompatible" and asked again.
// - Reader status from `hb`, `snapend` and `err reader` → `reader-status` events on change. A bridge
//   with no valid line for `heartbeatTimeoutMs` (default 3 s = three missed heartbeats, §10) is
//   offline: its readers are reported "offline".
// - J (the (reader, uid) pairs present) can be seeded from the journal (`initialPresence`), so a
//   daemon restart invents nothing: a journal card seen again is adopted silently.
// - Lost ports are reopened with capped exponential backoff (serial-link.ts). Nothing here ever
//   exits the process or emits 'error'; listener exceptions are caught and counted. Buffers are
//   bounded: a line ≤ 96 bytes, a snapshot ≤ its announced total, nothing of a replay is kept, and
//   at most 64 commands wait for an answer (command-channel.ts).
// - J and the seat counts live on interned tags (seat-events.ts, reader-presence.ts,
//   seat-presence.ts): a card line makes no string and grows or shrinks no Map.
//
// Events are emitted per seat, not per antenna: if several readers of a bridge (or of several
// bridges sharing a SeatPresence, see MultiBridge) lie under one seat, a card is placed when the
// first of them sees it and lifted when the last one loses it.
import { EventEmitter } from 'node:events';
import { basename } from 'node:path';
import { Handshake } from './bridge-handshake.js';
import { CARD_ARRIVE, CARD_HB, type CardLine, decodeCardLine, newCardLine, StatusWord } from './card-line.js';
import { CommandChannel } from './command-channel.js';
import { DeckSet } from './deck.js';
import {
  type BridgeDriverEvents,
  type BridgeDriverOptions,
  type DriverStats,
  driverTiming,
  type DriverTiming,
  type Logger,
  newStats,
  type PresenceEntry,
  type ReaderStatus,
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
  MAX_READERS,
  PROTOCOL_VERSION,
  SeqTracker,
} from './protocol.js';
import type { Tag } from './reader-presence.js';
import { SeatEvents } from './seat-events.js';
import { SeatMap } from './seat-map.js';
import { SeatPresence } from './seat-presence.js';
import { SerialLink, type SerialLinkHost } from './serial-link.js';
import { StatusReports } from './status-reports.js';
import { StreamResync } from './stream-resync.js';

// The driver's modules, re-exported: importers of bridge-driver.js see the API it always had.
export * from './driver-types.js';
export { SeatPresence } from './seat-presence.js';
export { presenceFromEvents, resumePoints } from './journal-state.js';
export { MultiBridge, type MultiBridgeOptions } from './multi-bridge.js';

const NO_LOG: Logger = { debug() {}, info() {}, warn() {}, error() {} };

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

  private readonly opts: DriverTiming;
  private readonly seatMap: SeatMap;
  private readonly decks: DeckSet;
  private readonly seats: SeatPresence;
  private readonly settings?: { pollMs: number; misses: number };
  private readonly log: Logger;

  /** The serial port, reopened when lost. */
  private readonly link: SerialLink;
  private readonly splitter: ByteLineSplitter;
  /** The stream position (gaps, duplicates); `stream.last` is how far the play is applied. */
  private readonly seq = new SeqTracker();
  /** Where the ordered stream stands, and the resynchronisation in progress. */
  private readonly stream: StreamResync;
  /** What the table holds: J, the journal's unmatched entries, and the seat events they yield. */
  private readonly table: SeatEvents;
  /** What the byte-level decoder found in the current line (one object, reused). */
  private readonly card: CardLine = newCardLine();
  /** The last heartbeat status word, reused while the bytes are the same. */
  private readonly statusWord = new StatusWord();
  /** The readers' and the bridge's last reported status. */
  private readonly status: StatusReports;
  /** Who the bridge is and which protocol it speaks. */
  private readonly handshake: Handshake;
  private online = false;
  private everOnline = false;
  private lastValidAt = 0;
  private watchedLines = 0;
  private readonly commands: CommandChannel;
  /** Dropped lines not yet logged, by reason (logged once per burst). */
  private readonly burst = new Map<string, number>();
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
    this.opts = driverTiming(options);
    this.link = new SerialLink(this.linkHost(), options.binding, this.opts);
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
    this.status = new StatusReports({
      bridge: this.bridge,
      path: this.path,
      seatMap: this.seatMap,
      device: () => this.handshake.device,
      readerStatus: (ev) => this.safeEmit('reader-status', ev),
      bridgeStatus: (ev) => this.safeEmit('bridge-status', ev),
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
      readerStates: (status) => this.status.word(status),
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
      setBridgeStatus: (status, detail) => this.status.bridge(status, detail),
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
    this.status.bridge('connecting');
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
    if (wasRunning) this.status.bridge('stopped');
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
    return this.status.readers();
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
        if (this.status.lastBridge !== 'connecting' && this.status.lastBridge !== 'disconnected') {
          this.status.bridge('disconnected', err.message);
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
        this.status.bridge('disconnected', err?.message ?? 'port closed');
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
      this.status.bridge('offline', `no valid line for ${this.opts.heartbeatTimeoutMs} ms`);
    }
  }

  private goOnline(): void {
    this.online = true;
    this.link.resetBackoff();
    const back = this.everOnline;
    this.everOnline = true;
    // Before identification the status stays "connecting"; identification reports "online".
    if (back && this.handshake.identified) {
      this.status.bridge('online', 'valid lines again');
      this.stream.doubt('valid lines again after silence');
    }
  }

  private readersOffline(): void {
    this.status.readersOffline(this.handshake.device?.readers ?? MAX_READERS);
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
    const status = this.statusWord.of(buf, c.statusStart, c.statusEnd);
    const tags: number[] = [];
    for (let i = 0; i < status.length; i++) tags.push(buf[c.tagsStart + i] - 0x30);
    this.countValid();
    if (!this.sequence('hb', seq, boot)) return;
    if (this.listenerCount('frame') > 0) this.safeEmit('frame', { seq, type: 'hb', uptimeS, status, tags, boot });
    if (this.interpreted('hb')) this.onHeartbeat(status, tags);
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
    this.status.word(status);
    this.stream.heartbeat(status, tags);
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
        this.status.reader(r, 'faulted', code);
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
