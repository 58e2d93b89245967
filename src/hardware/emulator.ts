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
//
// The device is built from parts, each in its own module:
//   emulator-links.ts       where the bytes go (stream, serial port, pty pair) and unplugging
//   emulator-readers.ts     the tags on the table, the presence sets, the readers' status
//   emulator-wire.ts        the lines out: seqs, line faults, overflow reports, writing
//   emulator-event-log.ts   the event log that `since` replays
//   emulator-host-lines.ts  the verdict on a host line (command, nak, err line)
//   emulator-resync.ts      what the device knows of the host's resynchronisation
//   emulator-play.ts        playing a table log
//   emulator-types.ts       options, stats, events, EmulatorError
// This module is the device itself (power, host commands, snapshots, replays) and re-exports the
// public parts.
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TableEvent } from '../formats/table-log.js';
import { EventLog } from './emulator-event-log.js';
import {
  type FaultPlan, FaultRandom, type HelloFault, type ResetCause, noFaults, parseFaultSpec,
} from './emulator-faults.js';
import { classifyHostLine } from './emulator-host-lines.js';
import type { EmulatorLink } from './emulator-links.js';
import { type PlayOptions, type PlayResult, playLog } from './emulator-play.js';
import { ReaderBank } from './emulator-readers.js';
import { ResyncState } from './emulator-resync.js';
import { DeviceWire, type OutFrame, type SendOptions } from './emulator-wire.js';
import { type EmulatorEvents, EmulatorError, type EmulatorStats, type FirmwareEmulatorOptions } from './emulator-types.js';
import { LineSplitter, type SplitItem } from './line-splitter.js';
import { BOOT_MAX, type Frame, MAX_READERS, PROTOCOL_VERSION, withCrc } from './protocol.js';

export * from './emulator-links.js';
export * from './emulator-types.js';
export { type PlayOptions, type PlayResult, type RfidStep, type Step, invisibleIn, planSteps } from './emulator-play.js';

/** The emulated bridge: the device model described at the top of this file, on one link. */
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
  /** The transmit side: seqs, line faults, overflow reports, writing. */
  private readonly wire: DeviceWire;

  /** The readers: the physical table, the device's presence sets (§9), the readers' status. */
  private readonly bank: ReaderBank;
  private powered = false;
  /** The first poll after a reset has run (before it, the device has seen nothing). */
  private firstPollDone = false;
  private bootId = 0;
  /** The event log (§11). */
  private readonly log = new EventLog();
  private bootAt = 0;
  private lastReset: ResetCause;
  private pollMs = 50;
  private misses = 3;
  private pendingSnap: { hseq: number; timer?: NodeJS.Timeout } | undefined;
  private timers = new Set<NodeJS.Timeout>();
  private hbTimer: NodeJS.Timeout | undefined;
  private readyWaiters: (() => void)[] = [];
  /** What the device knows of the host's resynchronisation (snapshots, replays, pending faults). */
  private readonly resync = new ResyncState();
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
    this.wire = new DeviceWire({
      stats: this.stats, faults: this.faults, rnd: this.rnd, log: this.log, resync: this.resync,
      stream: () => this.stream, tx: (line) => this.emit('tx', line),
    });
    this.bank = new ReaderBank(this.readers, {
      event: (type, reader, uid) => this.sendEvent(type, reader, uid),
      overfull: (reader) => this.send({ type: 'err', kind: 'reader', reader, code: 'overfull' }),
    });
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
    this.resync.synced.settle(false);
    for (const w of this.readyWaiters.splice(0)) w();
    this.resync.clean.settle(false);
  }

  /** True while the device runs (powered, booted). */
  isPowered(): boolean {
    return this.powered;
  }

  /** True when every reader is O (the device's presence sets are the truth). */
  isSettled(): boolean {
    return this.powered && this.bank.isSettled();
  }

  /** Resolves once the device runs and its readers have settled. */
  whenReady(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((r) => this.readyWaiters.push(r));
  }

  /** Resolves once a host has received a snapshot or a replay since the last reset (it has
   * resynchronised), or after `timeoutMs`; resolves to false on timeout. */
  whenHostSynced(timeoutMs: number): Promise<boolean> {
    if (this.powered && this.resync.sinceBoot > 0) return Promise.resolve(true);
    return this.resync.synced.wait(timeoutMs);
  }

  /**
   * Resolves true once no lost or corrupted line is awaiting resynchronisation: the host has
   * received a whole, clean snapshot that started after the last such line, or a whole, clean
   * replay that covers the first one. False on timeout.
   */
  whenResynced(timeoutMs: number): Promise<boolean> {
    return this.resync.whenClean(timeoutMs);
  }

  /** The current boot id (§4); 0 before the first power-up. */
  boot(): number {
    return this.bootId;
  }

  /** The device's presence sets (copies), per reader. */
  presence(): string[][] {
    return this.bank.presence();
  }

  /** The tags lying on the table, per reader. */
  onTable(): string[][] {
    return this.bank.onTable();
  }

  // ---------------------------------------------------------------- the physical table

  /** A tag is laid on a reader's antenna. Returns false if it already lay there. */
  place(reader: number, uid: string): boolean {
    return this.bank.place(reader, uid, this.powered && this.firstPollDone);
  }

  /** A tag is taken off a reader. Returns false if it did not lie there. */
  lift(reader: number, uid: string): boolean {
    return this.bank.lift(reader, uid, this.powered);
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
    this.wire.write(withCrc(`0 hello ${this.fw} 9 ${this.readers} ${this.lastReset} ${this.bootId}`));
    // The host ignores the stream until it has a valid identity again, as if the lines after this
    // one were lost: a resynchronisation covering them is due.
    this.resync.markDirty(this.stats.linesSent, false, this.wire.abs + 1);
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
    this.bank.clear();
    this.wire.dropped = 0;
    this.splitter.reset();
    this.resync.powerOff();
  }

  private powerUp(cause: ResetCause, helloFault?: HelloFault): void {
    // A new boot id at once, never the previous one (§4): RAM starts over.
    let id: number;
    do id = 1 + this.bootRnd.int(BOOT_MAX); while (id === this.bootId);
    this.bootId = id;
    this.log.clear();
    this.later(this.bootMs, () => {
      this.powered = true;
      this.lastReset = cause;
      this.bootAt = Date.now();
      this.pollMs = 50;
      this.misses = 3;
      this.resync.sinceBoot = 0;
      this.send({ type: 'hello', fw: this.fw, proto: PROTOCOL_VERSION, readers: this.readers, reset: cause, boot: this.bootId }, { helloFault });
      this.send({ type: 'cfg', pollMs: this.pollMs, misses: this.misses });
      this.hbTimer = setInterval(() => this.heartbeat(), this.heartbeatMs);
      // The first poll re-sees what lies on the table; `misses` polls later the readers are settled.
      this.later(this.pollMs, () => {
        this.firstPollDone = true;
        this.bank.firstPoll();
      });
      this.later(this.pollMs * this.misses, () => this.settle());
    });
  }

  private settle(): void {
    this.bank.settle();
    if (this.pendingSnap) this.sendSnapshot();
    for (const w of this.readyWaiters.splice(0)) w();
  }

  private heartbeat(): void {
    if (!this.powered) return;
    this.send({
      type: 'hb',
      uptimeS: Math.floor((Date.now() - this.bootAt) / 1000),
      status: this.bank.statusWord(),
      tags: this.bank.tagCounts(),
      boot: this.bootId,
    });
  }

  // ---------------------------------------------------------------- sending

  /** An arrive or leave; the flicker fault sends it twice. */
  private sendEvent(type: 'arrive' | 'leave', reader: number, uid: string): void {
    this.send({ type, reader, uid });
    if (this.faults.flicker > 0 && this.rnd.chance(this.faults.flicker)) {
      this.stats.flickers++;
      this.send({ type, reader, uid });
    }
  }

  /** A line from the device: nothing while it is off; otherwise numbered, faulted and written by the wire. */
  private send(frame: OutFrame, o: SendOptions = {}): void {
    if (!this.powered) return;
    this.wire.send(frame, o);
  }

  /**
   * Wait until every line written so far has left this process: the stream's buffer is empty and,
   * on a serial port, the OS has sent it (tcdrain). A real bridge's USB link keeps up with its
   * events; without this, a fast play would run ahead of the wire.
   */
  flush(): Promise<void> {
    return this.wire.flush();
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
    const v = classifyHostLine(item);
    if (v.kind === 'command') return this.execute(v.frame);
    if (v.kind === 'nak') return this.nak(v.hseq, v.code);
    if (v.kind === 'line-error') return this.lineError(v.code);
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
        // `gone` for another boot (§11); the log decides for this one.
        const from = f.boot === this.bootId ? this.log.replayFrom(f.after as number, this.wire.abs, this.wire.seq) : undefined;
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
    const tags = this.bank.tracked();
    const faultsBefore = this.stats.lost + this.stats.corrupted;
    const wasDirty = this.resync.dirty;
    this.send({ type: 'snap', hseq: p.hseq, total: tags.length });
    for (const t of tags) this.send({ type: 'tag', reader: t.reader, uid: t.uid }, { inBlock: true });
    this.send({ type: 'snapend', hseq: p.hseq, total: tags.length, status: this.bank.statusWord() }, { inBlock: true });
    this.stats.snapshots++;
    // A snapshot sent whole and clean, after every earlier fault, resynchronises the host (§11).
    this.resync.resynced(wasDirty && this.stats.lost + this.stats.corrupted === faultsBefore);
  }

  /** The answer to `since`: every logged event after `from`, oldest first, as consecutive lines. */
  private sendReplay(hseq: number, from: number): void {
    const recs = this.log.after(from);
    const faultsBefore = this.stats.lost + this.stats.corrupted;
    const covers = this.resync.dirty && from < this.resync.faultAbs;
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
    if (!damagedAt && this.stats.corrupted !== before) damagedAt = this.wire.abs;
    if (covers && headClean && damagedAt) this.resync.faultAbs = damagedAt;
    this.stats.replays++;
    // A clean replay that starts before the first fault gives the host every event it missed.
    this.resync.resynced(covers && this.stats.lost + this.stats.corrupted === faultsBefore);
  }

  // ---------------------------------------------------------------- playing a table log

  /**
   * Play a table log: every `place` lays its card's tag on the reader under that seat, every `lift`
   * takes it off. `deal`, `claim`, `remedy`, `exchange` are not RFID and are skipped; `tray` events
   * go to `onTray` (a scanner emulator). Faults with `at=N` fire just before the N-th place/lift.
   */
  async play(events: readonly TableEvent[], opts: PlayOptions): Promise<PlayResult> {
    if (!this.link) throw new EmulatorError('start the emulator before playing');
    return playLog(this, () => this.resync.shown(this.stats.linesSent), events, opts);
  }
}
