// A firmware-bridge emulator: speaks firmware-bridge/PROTOCOL.md (v2) on a serial port or a Duplex
// stream exactly as the bridge does, and plays a table log as tag arrivals and departures.
//
//   const emu = new FirmwareEmulator({ faults: 'crc:0.01,unplug:at=40:for=1500' });
//   await emu.start(serialLink('/tmp/tenace/emulator'));     // or ptyLink(pair), streamLink(duplex)
//   const result = await emu.play(loadLog(text, file).events, { deck, speed: 20 });
//   await emu.stop();
//
// The device model (PROTOCOL.md section numbers):
// - Power-up and every reset: a new boot id (1..65535, from a PRNG seeded by the fault seed, never
//   the previous one, §4), after `bootMs` `hello` (seq 0, §4) and `cfg` with the defaults (pollMs
//   50, misses 3; settings are not kept, §6). The presence sets and the event log start empty; the
//   first poll (pollMs later) re-sees every tag lying on the table, each reported with `arrive` in
//   reader order (§9). Readers are `W` until `misses` polls have passed, then `O` (§10).
//   Heartbeats every second; hello, identity and hb carry the boot id.
// - The event log (§11): the last 256 arrive/leave lines, appended when the line is created (so a
//   line the `lose` fault drops is still in it).
// - Host commands (§6, §7): ping, ident (ack + identity), set (ack + cfg), present (ack + a snapshot
//   as soon as every reader is O, at most 2000 ms; several presents before the answer share one
//   snapshot with the latest hseq, §11), since (ack + replay/rec…/replayend at once, or nak gone,
//   §11), reset (ack, then nothing, then hello with cause `host`).
//   A damaged line gets `err line <code>`, an intact but unacceptable one `nak <hseq> <code>`, an
//   empty line nothing. Classification follows firmware-bridge/src/command.cpp.
// - Presence (§9): `place` → the tag lies on the reader: `arrive` when the device first sees it;
//   `lift` → `leave`. The debounce delay (misses × pollMs) is folded away: the leave goes out when
//   the lift is played, so the stream's order is the log's order.
// - A snapshot or a replay (§11) is one synchronous write, so no arrive/leave/hb can come between
//   its lines; each is positioned in the stream.
// Faults are described in emulator-faults.ts.
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { SerialPortStream } from '@serialport/stream';
import type { Seat } from '../cards/seat.js';
import type { TableEvent } from '../formats/table-log.js';
import { type DeckFile, DeckSet } from './deck.js';
import {
  type FaultPlan, FaultRandom, type HelloFault, type ResetCause, corruptLine, noFaults, parseFaultSpec,
} from './emulator-faults.js';
import { LineSplitter, type SplitItem } from './line-splitter.js';
import {
  BOOT_MAX, EVENT_LOG_SIZE, type Frame, MAX_READERS, PROTOCOL_VERSION, SEQ_MAX, decodeLine, encodeFrame, isDeviceType,
  nextDeviceSeq, seqAfter, withCrc,
} from './protocol.js';
import type { PtyPair } from './pty.js';
import type { SerialBinding } from './scanner-serial.js';
import { SeatMap } from './seat-map.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** A timeout for Promise.race that does not keep the process alive. */
const bound = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

// ------------------------------------------------------------------ links: where the bytes go

/** The device's end of the wire. */
export interface EmulatorLink {
  /** Open (or, after an unplug, reopen) the device's end. */
  open(): Promise<Duplex>;
  /** Close it for good. */
  close(stream: Duplex): Promise<void>;
  /** Pull the cable. Resolves true when the port really went away (open() plugs it back in);
   * absent or false: the emulator only falls silent and deaf for the outage. */
  unplug?(stream: Duplex): Promise<boolean>;
  /** For messages. */
  readonly name: string;
}

/** A Duplex you manage (tests). */
export function streamLink(stream: Duplex, name = 'stream'): EmulatorLink {
  return { name, open: async () => stream, close: async () => undefined };
}

async function openSerial(path: string, binding?: SerialBinding): Promise<SerialPortStream> {
  const b = binding ?? ((await import('serialport')).SerialPort.binding as unknown as SerialBinding);
  const port = new SerialPortStream({ binding: b, path, baudRate: 115200, autoOpen: false });
  await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
  port.on('error', () => { /* the other end went away; writes are lost as on a real wire */ });
  return port;
}

async function closeSerial(stream: Duplex): Promise<void> {
  const port = stream as SerialPortStream;
  if (!port.isOpen) return;
  await new Promise<void>((res) => port.close(() => res()));
}

/** A serial port path (one end of a pty pair you run, or a real port). Unplugging falls silent:
 * closing our end would not remove the port the host has open. */
export function serialLink(path: string, binding?: SerialBinding): EmulatorLink {
  return { name: path, open: () => openSerial(path, binding), close: closeSerial };
}

/** One end (`a`) of a PtyPair this process runs: unplugging stops socat, so the host's port really
 * disappears, and plugging back in starts it again. */
export function ptyLink(pair: PtyPair, binding?: SerialBinding): EmulatorLink {
  return {
    name: pair.a,
    async open() {
      if (!pair.running) await pair.start();
      return openSerial(pair.a, binding);
    },
    close: closeSerial,
    async unplug(stream) {
      await closeSerial(stream);
      // Let socat hand over what it has read, so the host has everything sent before the pull.
      await sleep(50);
      await pair.stop();
      return true;
    },
  };
}

// ------------------------------------------------------------------ the device

export interface FirmwareEmulatorOptions {
  /** Readers fitted, 1..8. Default 4. */
  readers?: number;
  /** Firmware version string. Default "1.0.0-emu". */
  fw?: string;
  /** Heartbeat period. Default 1000 ms (§10). */
  heartbeatMs?: number;
  /** Time from a reset to its hello. Default 20 ms. */
  bootMs?: number;
  /** Longest wait for settled readers before a snapshot goes out anyway (§11). Default 2000 ms. */
  snapshotMaxWaitMs?: number;
  /** Faults: a SPEC string (emulator-faults.ts) or a parsed plan. */
  faults?: string | FaultPlan;
  /** Cause reported in the first hello. Default `power`. */
  resetCause?: ResetCause;
}

export interface EmulatorStats {
  linesSent: number;
  hostLines: number;
  acks: number;
  naks: number;
  lineErrors: number;
  snapshots: number;
  corrupted: number;
  lost: number;
  flickers: number;
  resets: number;
  unplugs: number;
  /** Replays sent (answers to `since`), and `since` commands answered `nak gone`. */
  replays: number;
  gone: number;
  /** Hellos lost or corrupted by `reset:…:hello=`, and foreign hellos injected by `badhello`. */
  helloFaults: number;
  badHellos: number;
}

/** One logged arrive/leave line (§11): `abs` counts the boot's lines without wrapping (hello = 0). */
interface LogEntry { abs: number; seq: number; kind: 'arrive' | 'leave'; reader: number; uid: string }

export interface EmulatorEvents {
  /** A line as written to the wire (after fault injection), without its terminator. */
  tx: [line: string];
  /** A host line as received. */
  rx: [line: string];
}

type ReaderChar = 'O' | 'W' | 'F';
/** Tags one reader tracks (PROTOCOL.md §16 kMaxTagsPerReader). */
const MAX_TAGS_PER_READER = 8;

export class EmulatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmulatorError';
  }
}

export class FirmwareEmulator extends EventEmitter<EmulatorEvents> {
  readonly readers: number;
  readonly fw: string;
  readonly faults: FaultPlan;
  readonly stats: EmulatorStats = {
    linesSent: 0, hostLines: 0, acks: 0, naks: 0, lineErrors: 0, snapshots: 0,
    corrupted: 0, lost: 0, flickers: 0, resets: 0, unplugs: 0, replays: 0, gone: 0, helloFaults: 0, badHellos: 0,
  };

  private readonly heartbeatMs: number;
  private readonly bootMs: number;
  private readonly snapshotMaxWaitMs: number;
  private readonly rnd: FaultRandom;
  /** Boot ids come from their own stream, so the faults of a seed stay the same as in v1. */
  private readonly bootRnd: FaultRandom;
  private link: EmulatorLink | undefined;
  private stream: Duplex | undefined;
  private readonly splitter: LineSplitter;

  /** The physical table: tags lying on each reader's antenna, in order of arrival. */
  private readonly table: string[][];
  /** The device's presence sets (§9). */
  private readonly present: string[][];
  private readonly status: ReaderChar[];
  /** Readers that saw more tags than they can track since the last leave. */
  private readonly overfull: boolean[];
  private powered = false;
  /** The first poll after a reset has run (before it, the device has seen nothing). */
  private firstPollDone = false;
  private seq = 0;
  /** The boot's line count, not wrapping: `seq` is its image on 0..65535 (§4). */
  private abs = 0;
  private bootId = 0;
  /** The event log, oldest first, at most EVENT_LOG_SIZE entries; `evictedAbs` is the abs of the
   * newest entry overwritten (0: none yet). */
  private log: LogEntry[] = [];
  private evictedAbs = 0;
  private bootAt = 0;
  private lastReset: ResetCause;
  private pollMs = 50;
  private misses = 3;
  private dropped = 0;
  /** Snapshots and replays sent since the last reset: a host has resynchronised. */
  private resyncsSinceBoot = 0;
  private pendingSnap: { hseq: number; timer?: NodeJS.Timeout } | undefined;
  private timers = new Set<NodeJS.Timeout>();
  private hbTimer: NodeJS.Timeout | undefined;
  private readyWaiters: (() => void)[] = [];
  /** Completes when the last line written has been handed to the OS. */
  private written: Promise<void> = Promise.resolve();
  private syncWaiters: ((ok: boolean) => void)[] = [];
  /** A line was lost or corrupted and no clean snapshot has been sent since: the host has not yet
   * resynchronised. It can know of the fault once `faultLine` lines have been written. */
  private dirty = false;
  private faultLine = 0;
  /** abs of the first line lost or corrupted while dirty: a replay resynchronises only if it
   * starts before it. */
  private faultAbs = 0;
  private cleanWaiters: ((ok: boolean) => void)[] = [];
  private onData = (chunk: Buffer) => {
    if (this.powered) this.splitter.push(chunk);
  };

  constructor(opts: FirmwareEmulatorOptions = {}) {
    super();
    this.readers = opts.readers ?? 4;
    if (!Number.isInteger(this.readers) || this.readers < 1 || this.readers > MAX_READERS) {
      throw new EmulatorError(`readers must be 1..${MAX_READERS} (got ${opts.readers})`);
    }
    this.fw = opts.fw ?? '1.0.0-emu';
    this.heartbeatMs = opts.heartbeatMs ?? 1000;
    this.bootMs = opts.bootMs ?? 20;
    this.snapshotMaxWaitMs = opts.snapshotMaxWaitMs ?? 2000;
    this.faults = typeof opts.faults === 'string' ? parseFaultSpec(opts.faults) : (opts.faults ?? noFaults());
    this.rnd = new FaultRandom(this.faults.seed);
    this.bootRnd = new FaultRandom(this.faults.seed ^ 0x5eed_b007);
    this.lastReset = opts.resetCause ?? 'power';
    this.table = Array.from({ length: this.readers }, () => []);
    this.present = Array.from({ length: this.readers }, () => []);
    this.status = new Array<ReaderChar>(this.readers).fill('W');
    this.overfull = new Array<boolean>(this.readers).fill(false);
    this.splitter = new LineSplitter((item) => this.onHostItem(item));
  }

  // ---------------------------------------------------------------- lifecycle

  /** Plug in: open the link and power up (hello with cause `power` unless told otherwise). */
  async start(link: EmulatorLink): Promise<void> {
    if (this.link) throw new EmulatorError('the emulator is already started');
    this.link = link;
    this.attach(await link.open());
    this.powerUp(this.lastReset);
  }

  /** Power off and close the link. */
  async stop(): Promise<void> {
    this.powerOff();
    await this.flush();
    const s = this.stream;
    this.detach();
    if (s && this.link) await this.link.close(s);
    this.link = undefined;
    for (const w of this.syncWaiters.splice(0)) w(false);
    for (const w of this.readyWaiters.splice(0)) w();
    for (const w of this.cleanWaiters.splice(0)) w(false);
  }

  /** True while the device runs (powered, booted). */
  isPowered(): boolean {
    return this.powered;
  }

  /** True when every reader is O (the device's presence sets are the truth). */
  isSettled(): boolean {
    return this.powered && this.status.every((s) => s !== 'W');
  }

  /** Resolves once the device runs and its readers have settled. */
  whenReady(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((r) => this.readyWaiters.push(r));
  }

  /** Resolves once a host has received a snapshot or a replay since the last reset (it has
   * resynchronised), or after `timeoutMs`; resolves to false on timeout. */
  whenHostSynced(timeoutMs: number): Promise<boolean> {
    if (this.powered && this.resyncsSinceBoot > 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(t);
        resolve(ok);
      };
      this.syncWaiters.push(done);
    });
  }

  /** The current boot id (§4); 0 before the first power-up. */
  boot(): number {
    return this.bootId;
  }

  /** The device's presence sets (copies), per reader. */
  presence(): string[][] {
    return this.present.map((p) => [...p]);
  }

  /** The tags lying on the table, per reader. */
  onTable(): string[][] {
    return this.table.map((p) => [...p]);
  }

  // ---------------------------------------------------------------- the physical table

  /** A tag is laid on a reader's antenna. Returns false if it already lay there. */
  place(reader: number, uid: string): boolean {
    this.checkReader(reader);
    if (this.table[reader].includes(uid)) return false;
    this.table[reader].push(uid);
    if (this.powered && this.firstPollDone) this.see(reader, uid);
    return true;
  }

  /** A poll sees a tag: an arrive if it is new, unless the reader already tracks 8 (§9, §16). */
  private see(reader: number, uid: string): void {
    const set = this.present[reader];
    if (set.includes(uid)) return;
    if (set.length >= MAX_TAGS_PER_READER) {
      if (!this.overfull[reader]) this.send({ type: 'err', kind: 'reader', reader, code: 'overfull' });
      this.overfull[reader] = true;
      return;
    }
    set.push(uid);
    this.sendEvent('arrive', reader, uid);
  }

  /** A tag is taken off a reader. Returns false if it did not lie there. */
  lift(reader: number, uid: string): boolean {
    this.checkReader(reader);
    const i = this.table[reader].indexOf(uid);
    if (i < 0) return false;
    this.table[reader].splice(i, 1);
    const j = this.present[reader].indexOf(uid);
    if (this.powered && j >= 0) {
      this.present[reader].splice(j, 1);
      this.sendEvent('leave', reader, uid);
      // Room again: a tag the reader could not track is reported now (§5 overfull).
      if (this.overfull[reader]) {
        const set = this.present[reader];
        for (const t of this.table[reader]) {
          if (set.length >= MAX_TAGS_PER_READER) break;
          if (!set.includes(t)) this.see(reader, t);
        }
        this.overfull[reader] = this.table[reader].some((t) => !set.includes(t));
      }
    }
    return true;
  }

  private checkReader(reader: number): void {
    if (!Number.isInteger(reader) || reader < 0 || reader >= this.readers) {
      throw new EmulatorError(`reader ${reader} is not fitted (this bridge has readers 0..${this.readers - 1})`);
    }
  }

  // ---------------------------------------------------------------- resets and unplugging

  /** The device restarts (watchdog, reset pin…): a new boot, hello again (unless `hello` says it
   * is lost or corrupted), presence rebuilt from the table, the event log empty. */
  reset(cause: ResetCause = 'watchdog', hello?: HelloFault): void {
    this.stats.resets++;
    this.powerOff();
    this.powerUp(cause, hello);
  }

  /** One valid-CRC hello claiming protocol 9, as if from another firmware; the device's own state
   * and seq are untouched. */
  injectForeignHello(): void {
    if (!this.powered) return;
    this.stats.badHellos++;
    this.write(withCrc(`0 hello ${this.fw} 9 ${this.readers} ${this.lastReset} ${this.bootId}`));
    // The host ignores the stream until it has a valid identity again, as if the lines after this
    // one were lost: a resynchronisation covering them is due.
    this.markDirty(false, this.abs + 1);
  }

  /**
   * Pull the cable for `forMs`. `meanwhile` runs while it is out (the players go on). Then the
   * bridge powers up again (hello, cause `power`). Resolves when it is running again.
   */
  async unplug(forMs: number, meanwhile?: () => void | Promise<void>): Promise<void> {
    if (!this.link) throw new EmulatorError('the emulator is not started');
    this.stats.unplugs++;
    await this.flush(); // what was sent before the cable was pulled has reached the host
    this.powerOff();
    const t0 = Date.now();
    const s = this.stream;
    let real = false;
    if (s && this.link.unplug) {
      this.detach();
      real = await this.link.unplug(s);
      if (!real) this.attach(s);
    }
    await meanwhile?.();
    const rest = forMs - (Date.now() - t0);
    if (rest > 0) await sleep(rest);
    if (real) {
      let lastErr: unknown;
      for (let i = 0; i < 50 && !this.stream; i++) {
        try {
          this.attach(await this.link.open());
        } catch (e) {
          lastErr = e;
          await sleep(100);
        }
      }
      if (!this.stream) throw new EmulatorError(`cannot plug back in to ${this.link.name}: ${(lastErr as Error)?.message}`);
    }
    this.powerUp('power');
  }

  private attach(stream: Duplex): void {
    this.stream = stream;
    this.splitter.reset();
    stream.on('data', this.onData);
  }

  private detach(): void {
    this.stream?.off('data', this.onData);
    this.stream = undefined;
  }

  private later(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  private powerOff(): void {
    this.powered = false;
    this.firstPollDone = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.hbTimer) clearInterval(this.hbTimer);
    this.hbTimer = undefined;
    this.pendingSnap = undefined;
    for (const p of this.present) p.length = 0;
    this.status.fill('W');
    this.overfull.fill(false);
    this.dropped = 0;
    this.splitter.reset();
    this.dirty = false;
    for (const w of this.cleanWaiters.splice(0)) w(true);
  }

  private powerUp(cause: ResetCause, helloFault?: HelloFault): void {
    // A new boot id at once, never the previous one (§4): RAM starts over.
    let id: number;
    do id = 1 + this.bootRnd.int(BOOT_MAX); while (id === this.bootId);
    this.bootId = id;
    this.log = [];
    this.evictedAbs = 0;
    this.later(this.bootMs, () => {
      this.powered = true;
      this.lastReset = cause;
      this.bootAt = Date.now();
      this.pollMs = 50;
      this.misses = 3;
      this.resyncsSinceBoot = 0;
      this.send({ type: 'hello', fw: this.fw, proto: PROTOCOL_VERSION, readers: this.readers, reset: cause, boot: this.bootId }, { helloFault });
      this.send({ type: 'cfg', pollMs: this.pollMs, misses: this.misses });
      this.hbTimer = setInterval(() => this.heartbeat(), this.heartbeatMs);
      // The first poll re-sees what lies on the table; `misses` polls later the readers are settled.
      this.later(this.pollMs, () => {
        this.firstPollDone = true;
        for (let r = 0; r < this.readers; r++) {
          for (const uid of this.table[r]) this.see(r, uid);
        }
      });
      this.later(this.pollMs * this.misses, () => this.settle());
    });
  }

  private settle(): void {
    this.status.fill('O');
    if (this.pendingSnap) this.sendSnapshot();
    for (const w of this.readyWaiters.splice(0)) w();
  }

  private heartbeat(): void {
    if (!this.powered) return;
    this.send({
      type: 'hb',
      uptimeS: Math.floor((Date.now() - this.bootAt) / 1000),
      status: this.status.join(''),
      tags: this.present.map((p) => Math.min(9, p.length)),
      boot: this.bootId,
    });
  }

  // ---------------------------------------------------------------- sending

  private sendEvent(type: 'arrive' | 'leave', reader: number, uid: string): void {
    this.send({ type, reader, uid });
    if (this.faults.flicker > 0 && this.rnd.chance(this.faults.flicker)) {
      this.stats.flickers++;
      this.send({ type, reader, uid });
    }
  }

  /**
   * Create a line (using up a seq), log it if it is an arrive/leave, apply faults, and write it.
   * `inBlock`: a line inside a snapshot or replay (tag, snapend, rec, replayend), which nothing
   * may precede. Snapshot and replay lines are never dropped (the device waits for room).
   */
  private send(frame: { type: string; [k: string]: unknown }, o: { inBlock?: boolean; helloFault?: HelloFault } = {}): void {
    if (!this.powered) return;
    const hello = frame.type === 'hello';
    const blockLine = o.inBlock || frame.type === 'snap' || frame.type === 'replay';
    // Lines were dropped: say so before the next line (§5 `err overflow`), never inside a block.
    if (!hello && !o.inBlock && this.dropped > 0) this.reportOverflow();
    this.nextSeq(hello);
    if (frame.type === 'arrive' || frame.type === 'leave') this.logEvent(frame.type, frame.reader as number, frame.uid as string);
    let line = encodeFrame({ ...frame, seq: this.seq } as Frame);
    if (o.helloFault) {
      this.stats.helloFaults++;
      if (o.helloFault === 'lost') return;
      line = corruptLine(line, this.rnd);
    }
    if (!hello && !blockLine && this.rnd.chance(this.faults.lose)) {
      this.stats.lost++;
      this.dropped = Math.min(SEQ_MAX, this.dropped + 1);
      this.markDirty(false, this.abs);
      return;
    }
    if (!hello && this.rnd.chance(this.faults.crc)) {
      this.stats.corrupted++;
      line = corruptLine(line, this.rnd);
      this.markDirty(true, this.abs);
    }
    this.write(line);
  }

  private nextSeq(hello = false): void {
    this.abs = hello ? 0 : this.abs + 1;
    this.seq = hello ? 0 : nextDeviceSeq(this.seq);
  }

  /** Append an arrive/leave line to the event log, evicting the oldest when full (§11). */
  private logEvent(kind: 'arrive' | 'leave', reader: number, uid: string): void {
    if (this.log.length >= EVENT_LOG_SIZE) this.evictedAbs = this.log.shift()!.abs;
    this.log.push({ abs: this.abs, seq: this.seq, kind, reader, uid });
  }

  /**
   * `since boot after` (§11): the abs after which the replay starts, or undefined for `gone` (other
   * boot; `after` ahead of the last seq used or older than this boot; an entry after it evicted).
   * `after` names the latest line with that seq, at most half the seq ring back (§4).
   */
  private replayFrom(boot: number, after: number): number | undefined {
    if (boot !== this.bootId) return undefined;
    let from = 0;
    if (after !== 0) {
      if (this.abs === 0 || seqAfter(after, this.seq)) return undefined;
      from = this.abs - ((this.seq - after + SEQ_MAX) % SEQ_MAX);
      if (from < 1) return undefined; // a seq this boot has not used yet
    }
    return this.evictedAbs > from ? undefined : from;
  }

  /** A line was lost (`written` false) or corrupted at `abs`: the host learns of it from the next
   * line (or, for a written line the host must act on, at once). */
  private markDirty(written: boolean, abs: number): void {
    if (!this.dirty) this.faultAbs = abs;
    this.dirty = true;
    this.faultLine = this.stats.linesSent + (written ? 2 : 1);
  }

  /**
   * Resolves true once no lost or corrupted line is awaiting resynchronisation: the host has
   * received a whole, clean snapshot that started after the last such line, or a whole, clean
   * replay that covers the first one. False on timeout.
   */
  whenResynced(timeoutMs: number): Promise<boolean> {
    if (!this.dirty) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.cleanWaiters = this.cleanWaiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(t);
        resolve(ok);
      };
      this.cleanWaiters.push(done);
    });
  }

  private reportOverflow(): void {
    const n = this.dropped;
    this.dropped = 0;
    this.nextSeq();
    this.write(encodeFrame({ seq: this.seq, type: 'err', kind: 'overflow', dropped: n }));
  }

  private write(line: string): void {
    this.stats.linesSent++;
    this.emit('tx', line);
    const s = this.stream;
    if (s && !s.destroyed && s.writable) {
      this.written = new Promise<void>((r) => s.write(`${line}\n`, () => r()));
    }
  }

  /**
   * Wait until every line written so far has left this process: the stream's buffer is empty and,
   * on a serial port, the OS has sent it (tcdrain). A real bridge's USB link keeps up with its
   * events; without this, a fast play would run ahead of the wire.
   */
  async flush(): Promise<void> {
    const s = this.stream;
    if (!s) return;
    await Promise.race([this.written, bound(2000)]);
    const port = s as Partial<SerialPortStream>;
    if (this.stream === s && typeof port.drain === 'function' && port.isOpen) {
      await Promise.race([new Promise<void>((r) => port.drain!(() => r())), bound(2000)]);
    }
  }

  // ---------------------------------------------------------------- host lines

  private onHostItem(item: SplitItem): void {
    if (!this.powered) return;
    if (typeof item !== 'string') {
      this.stats.lineErrors++;
      this.send({ type: 'err', kind: 'line', code: 'too-long' });
      return;
    }
    this.stats.hostLines++;
    this.emit('rx', item);
    const r = decodeLine(item);
    if (r.ok) {
      if (isDeviceType(r.frame.type)) return this.nak(r.frame.seq, 'unknown-type');
      return this.execute(r.frame);
    }
    if (r.error === 'empty') return;
    if (r.error === 'too-long' || r.error === 'bad-char' || r.error === 'no-checksum' || r.error === 'bad-crc' || r.error === 'bad-frame') {
      return this.lineError(r.error);
    }
    // The CRC and framing were good: the first token decides whether the hseq can be trusted.
    const body = item.replace(/\r$/, '').slice(0, -3);
    const tok = body.split(' ');
    if (!/^(0|[1-9][0-9]{0,4})$/.test(tok[0]) || Number(tok[0]) > SEQ_MAX) return this.lineError('bad-seq');
    const hseq = Number(tok[0]);
    if (tok.length >= 2 && isDeviceType(tok[1])) return this.nak(hseq, 'unknown-type');
    this.nak(hseq, r.error === 'bad-seq' ? 'unknown-type' : r.error);
  }

  private lineError(code: string): void {
    this.stats.lineErrors++;
    this.send({ type: 'err', kind: 'line', code });
  }

  private nak(hseq: number, code: string): void {
    this.stats.naks++;
    this.send({ type: 'nak', hseq, code });
  }

  private ack(hseq: number, cmd: string): void {
    this.stats.acks++;
    this.send({ type: 'ack', hseq, cmd });
  }

  private execute(f: Frame): void {
    const hseq = f.seq;
    switch (f.type) {
      case 'ping':
        this.ack(hseq, 'ping');
        return;
      case 'ident':
        this.ack(hseq, 'ident');
        this.send({
          type: 'identity', fw: this.fw, proto: PROTOCOL_VERSION, readers: this.readers, reset: this.lastReset,
          uptimeS: Math.floor((Date.now() - this.bootAt) / 1000), boot: this.bootId,
        });
        return;
      case 'since': {
        const from = this.replayFrom(f.boot as number, f.after as number);
        if (from === undefined) {
          this.stats.gone++;
          return this.nak(hseq, 'gone');
        }
        this.ack(hseq, 'since');
        this.sendReplay(hseq, from);
        return;
      }
      case 'set':
        this.ack(hseq, 'set');
        this.pollMs = f.pollMs as number;
        this.misses = f.misses as number;
        this.send({ type: 'cfg', pollMs: this.pollMs, misses: this.misses });
        return;
      case 'present':
        this.ack(hseq, 'present');
        if (this.pendingSnap) {
          this.pendingSnap.hseq = hseq; // several presents share one snapshot (§11)
          return;
        }
        this.pendingSnap = { hseq };
        if (this.isSettled()) this.sendSnapshot();
        else this.pendingSnap.timer = this.later(this.snapshotMaxWaitMs, () => this.sendSnapshot());
        return;
      case 'reset':
        this.ack(hseq, 'reset');
        this.stats.resets++;
        // Let the ack leave before the device goes down.
        setImmediate(() => {
          if (!this.powered) return;
          this.powerOff();
          this.powerUp('host');
        });
        return;
      default:
        this.nak(hseq, 'unknown-type');
    }
  }

  private sendSnapshot(): void {
    const p = this.pendingSnap;
    if (!p || !this.powered) return;
    if (p.timer) {
      clearTimeout(p.timer);
      this.timers.delete(p.timer);
    }
    this.pendingSnap = undefined;
    const tags: { reader: number; uid: string }[] = [];
    for (let r = 0; r < this.readers; r++) for (const uid of this.present[r]) tags.push({ reader: r, uid });
    const faultsBefore = this.stats.lost + this.stats.corrupted;
    const wasDirty = this.dirty;
    this.send({ type: 'snap', hseq: p.hseq, total: tags.length });
    for (const t of tags) this.send({ type: 'tag', reader: t.reader, uid: t.uid }, { inBlock: true });
    this.send({ type: 'snapend', hseq: p.hseq, total: tags.length, status: this.status.join('') }, { inBlock: true });
    this.stats.snapshots++;
    // A snapshot sent whole and clean, after every earlier fault, resynchronises the host (§11).
    this.resynced(wasDirty && this.stats.lost + this.stats.corrupted === faultsBefore);
  }

  /** The answer to `since`: every logged event after `from`, oldest first, as consecutive lines. */
  private sendReplay(hseq: number, from: number): void {
    const recs = this.log.filter((e) => e.abs > from);
    const faultsBefore = this.stats.lost + this.stats.corrupted;
    const covers = this.dirty && from < this.faultAbs;
    this.send({ type: 'replay', hseq, count: recs.length });
    // A host applies a replay's records as they come: if the replay line got through, the records
    // before the first damaged line are its, and it will ask again from there.
    const headClean = this.stats.lost + this.stats.corrupted === faultsBefore;
    let damagedAt = 0;
    for (const e of recs) {
      const before = this.stats.corrupted;
      this.send({ type: 'rec', oseq: e.seq, kind: e.kind, reader: e.reader, uid: e.uid }, { inBlock: true });
      if (!damagedAt && this.stats.corrupted !== before) damagedAt = e.abs;
    }
    const before = this.stats.corrupted;
    this.send({ type: 'replayend', hseq, count: recs.length }, { inBlock: true });
    if (!damagedAt && this.stats.corrupted !== before) damagedAt = this.abs;
    if (covers && headClean && damagedAt) this.faultAbs = damagedAt;
    this.stats.replays++;
    // A clean replay that starts before the first fault gives the host every event it missed.
    this.resynced(covers && this.stats.lost + this.stats.corrupted === faultsBefore);
  }

  /** A snapshot or replay went out; `clean`: it also resolves the pending faults. */
  private resynced(clean: boolean): void {
    this.resyncsSinceBoot++;
    for (const w of this.syncWaiters.splice(0)) w(true);
    if (clean) {
      this.dirty = false;
      for (const w of this.cleanWaiters.splice(0)) w(true);
    }
  }

  // ---------------------------------------------------------------- playing a table log

  /**
   * Play a table log: every `place` lays its card's tag on the reader under that seat, every `lift`
   * takes it off. `deal`, `claim`, `remedy`, `exchange` are not RFID and are skipped; `tray` events
   * go to `onTray` (a scanner emulator). Faults with `at=N` fire just before the N-th place/lift.
   */
  async play(events: readonly TableEvent[], opts: PlayOptions): Promise<PlayResult> {
    if (!this.link) throw new EmulatorError('start the emulator before playing');
    const steps = planSteps(events, opts.deck, opts.seatMap ?? SeatMap.default(), this.readers);
    const speed = opts.speed ?? 'max';
    if (speed !== 'max' && !(typeof speed === 'number' && speed > 0 && Number.isFinite(speed))) {
      throw new EmulatorError(`speed must be a positive number of events per second, or "max" (got ${String(speed)})`);
    }
    const waitHost = opts.waitForHost ?? true;
    const waitFaults = opts.waitAfterFaults ?? true;
    const hostWaitMs = opts.hostWaitMs ?? 10_000;
    const result: PlayResult = { played: 0, skipped: 0, trays: 0, impossible: [], outages: [], hostWaitTimeouts: 0, resyncTimeouts: 0, aborted: false };

    const sync = async () => {
      await this.whenReady();
      if (waitHost && !(await this.whenHostSynced(hostWaitMs))) result.hostWaitTimeouts++;
    };
    await sync();

    const interval = speed === 'max' ? 0 : 1000 / speed;
    let clock = Date.now();
    const pace = async () => {
      await this.flush();
      // Players are slow next to the wire: after a lost or corrupted line, once a later line has
      // shown the host the gap, wait for its resynchronisation before the next event.
      if (waitFaults && this.dirty && this.stats.linesSent >= this.faultLine) {
        if (!(await this.whenResynced(hostWaitMs))) result.resyncTimeouts++;
      }
      if (interval === 0) {
        await new Promise((r) => setImmediate(r));
        return;
      }
      clock += interval;
      const d = clock - Date.now();
      if (d > 0) await sleep(d);
      else clock = Date.now();
    };
    const apply = (s: RfidStep) => {
      const ok = s.kind === 'arrive' ? this.place(s.reader, s.uid) : this.lift(s.reader, s.uid);
      if (!ok) result.impossible.push(s.event);
      result.played++;
    };

    let i = 0;
    let n = 0;
    /** The next place/lift step; trays and skipped events before it are handled on the way. */
    const nextRfid = async (): Promise<RfidStep | undefined> => {
      while (i < steps.length) {
        const s = steps[i++];
        if (s.kind === 'skip') result.skipped++;
        else if (s.kind === 'tray') {
          result.trays++;
          await opts.onTray?.(s.code);
        } else return s;
      }
      return undefined;
    };

    for (let s = await nextRfid(); s !== undefined; s = await nextRfid()) {
      if (opts.signal?.aborted) {
        result.aborted = true;
        break;
      }
      n++;
      for (const r of this.faults.resets) {
        if (r.at !== n) continue;
        this.reset(r.reason, r.hello);
        await sync();
      }
      if (this.faults.badHellos.includes(n)) this.injectForeignHello();
      let done = false;
      for (const u of this.faults.unplugs) {
        if (u.at !== n || done) continue;
        const during: TableEvent[] = [];
        const first = n;
        const cur = s;
        await this.unplug(u.forMs, async () => {
          // The players go on while the cable is out: `play` events, starting with this one.
          if (u.play === 0) return;
          apply(cur);
          during.push(cur.event);
          done = true;
          while (during.length < u.play) {
            const x = await nextRfid();
            if (!x) break;
            n++;
            apply(x);
            during.push(x.event);
          }
        });
        result.outages.push({ at: first, events: during, invisible: invisibleIn(during) });
        await sync();
      }
      if (!done) apply(s);
      await pace();
    }
    return result;
  }
}

export interface PlayOptions {
  /** The deck whose tags carry the cards (one pack; the first deck of a DeckSet). */
  deck: DeckSet | DeckFile;
  /** Reader → seat (the emulator uses the first reader under each seat). Default r0=N,r1=E,r2=S,r3=W. */
  seatMap?: SeatMap;
  /** RFID events per second, or `max`. Default `max`. */
  speed?: number | 'max';
  /** Called for each `tray` event (forward it to a scanner emulator). */
  onTray?: (code: string) => void | Promise<void>;
  /** Before playing, and after each reset or unplug, wait until a host has taken a snapshot or a
   * replay of the new boot (it has resynchronised), at most `hostWaitMs` (default 10 s). Default true. */
  waitForHost?: boolean;
  hostWaitMs?: number;
  /** After a lost or corrupted line (or a foreign hello), hold the next event until the host has
   * resynchronised (a clean snapshot after the fault, or a clean replay covering it), at most
   * `hostWaitMs`. People play far slower than a
   * resynchronisation takes; a fast emulated play must not outrun it, or a card placed and lifted
   * before the host could look again is lost to any host. Default true. */
  waitAfterFaults?: boolean;
  /** Stop playing when aborted (the result says `aborted`). */
  signal?: AbortSignal;
}

export interface PlayResult {
  /** place/lift events played. */
  played: number;
  /** Events that are not RFID (deal, claim, remedy, exchange). */
  skipped: number;
  trays: number;
  /** place of a card already lying there, or lift of a card not there: played as nothing. */
  impossible: TableEvent[];
  /** Each unplug: the index of its first event, the events played while the cable was out, and
   * those no hardware could see (a card both placed and lifted during the outage). */
  outages: { at: number; events: TableEvent[]; invisible: TableEvent[] }[];
  /** Times the host did not resynchronise within hostWaitMs after a reset or unplug. */
  hostWaitTimeouts: number;
  /** Times the host did not resynchronise within hostWaitMs after a lost or corrupted line. */
  resyncTimeouts: number;
  aborted: boolean;
}

export interface RfidStep { kind: 'arrive' | 'leave'; reader: number; uid: string; event: TableEvent }
export type Step = RfidStep | { kind: 'tray'; code: string } | { kind: 'skip' };

/** Map a log to device steps; throws EmulatorError naming every card the deck lacks and every seat
 * without a reader. */
export function planSteps(events: readonly TableEvent[], deck: DeckSet | DeckFile, seatMap: SeatMap, readers = 4): Step[] {
  const decks = deck instanceof DeckSet ? deck : new DeckSet([deck]);
  const readerOf = new Map<Seat, number>();
  const missingCards = new Set<string>();
  const missingSeats = new Set<string>();
  const steps: Step[] = [];
  for (const e of events) {
    if (e.type === 'place' || e.type === 'lift') {
      let r = readerOf.get(e.seat);
      if (r === undefined) {
        r = seatMap.readersOf('*', e.seat).find((x) => x < readers);
        if (r !== undefined) readerOf.set(e.seat, r);
      }
      // A place may carry a tag from no deck instead of a card (an unknown card): play its UID.
      const { card, tag } = e as { card?: string; tag?: string };
      const uid = card !== undefined ? decks.uidOf(card) : tag;
      if (r === undefined) missingSeats.add(e.seat);
      if (uid === undefined) missingCards.add(card ?? '(no card)');
      if (r !== undefined && uid !== undefined) steps.push({ kind: e.type === 'place' ? 'arrive' : 'leave', reader: r, uid, event: e });
    } else if (e.type === 'tray') steps.push({ kind: 'tray', code: e.code });
    else steps.push({ kind: 'skip' });
  }
  const problems: string[] = [];
  if (missingCards.size) problems.push(`the deck ${decks.decks[0]?.deck ?? '(empty)'} has no tag for ${[...missingCards].join(' ')}`);
  if (missingSeats.size) problems.push(`no reader (of ${readers}) is mapped to seat ${[...missingSeats].join(', ')}`);
  if (problems.length) throw new EmulatorError(`cannot play this log: ${problems.join('; ')}`);
  return steps;
}

/** Events of an outage no hardware could see: a card placed and lifted again within it. */
export function invisibleIn(events: readonly TableEvent[]): TableEvent[] {
  const out: TableEvent[] = [];
  const placed = new Map<string, TableEvent>();
  for (const e of events) {
    if (e.type !== 'place' && e.type !== 'lift') continue;
    const { card, tag } = e as { card?: string; tag?: string };
    const k = `${e.seat}${card ?? `#${tag}`}`;
    if (e.type === 'place') placed.set(k, e);
    else if (placed.has(k)) {
      out.push(placed.get(k)!, e);
      placed.delete(k);
    }
  }
  return out;
}
