// The emulated device's lines out: each line gets the next seq (PROTOCOL.md §4), an arrive/leave is
// put in the event log (§11), the fault plan's line faults are applied (lose, crc, a hello's fault),
// lines dropped are reported with `err overflow` (§5), and the line is written to the stream.
//
// Apart from the device class because it is the wire format and the line faults: the device decides
// what to send and when; this decides how it reaches (or fails to reach) the host.
import type { Duplex } from 'node:stream';
import type { SerialPortStream } from '@serialport/stream';
import type { EventLog } from './emulator-event-log.js';
import { type FaultPlan, type FaultRandom, type HelloFault, corruptLine } from './emulator-faults.js';
import type { ResyncState } from './emulator-resync.js';
import type { EmulatorStats } from './emulator-types.js';
import { type Frame, SEQ_MAX, encodeFrame, nextDeviceSeq } from './protocol.js';

/** A timeout for Promise.race that does not keep the process alive. */
const bound = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** A frame to send, without its seq (the wire numbers it). */
export type OutFrame = { type: string; [k: string]: unknown };

/** `inBlock`: a line inside a snapshot or replay; `helloFault`: what happens to this hello. */
export interface SendOptions { inBlock?: boolean; helloFault?: HelloFault }

/** The device's state the wire writes into or reads; the device owns it all. */
export interface WireParts {
  readonly stats: EmulatorStats;
  readonly faults: FaultPlan;
  /** The fault stream shared with the device (flicker): the order of draws is the seed's. */
  readonly rnd: FaultRandom;
  readonly log: EventLog;
  readonly resync: ResyncState;
  /** The stream plugged in now, if any. */
  stream(): Duplex | undefined;
  /** Each line as written, after faults (the emulator's `tx` event). */
  tx(line: string): void;
}

/** The transmit side of one emulated bridge. */
export class DeviceWire {
  /** The last seq used. */
  seq = 0;
  /** The boot's line count, not wrapping: `seq` is its image on 0..65535 (§4). */
  abs = 0;
  /** Lines dropped since the last `err overflow`. */
  dropped = 0;
  /** Completes when the last line written has been handed to the OS. */
  private written: Promise<void> = Promise.resolve();

  constructor(private readonly p: WireParts) {}

  /**
   * Create a line (using up a seq), log it if it is an arrive/leave, apply faults, and write it.
   * `inBlock`: a line inside a snapshot or replay (tag, snapend, rec, replayend), which nothing
   * may precede. Snapshot and replay lines are never dropped (the device waits for room).
   */
  send(frame: OutFrame, o: SendOptions = {}): void {
    const hello = frame.type === 'hello';
    const blockLine = o.inBlock || frame.type === 'snap' || frame.type === 'replay';
    // Lines were dropped: say so before the next line (§5 `err overflow`), never inside a block.
    if (!hello && !o.inBlock && this.dropped > 0) this.reportOverflow();
    this.nextSeq(hello);
    if (frame.type === 'arrive' || frame.type === 'leave') {
      this.p.log.append({ abs: this.abs, seq: this.seq, kind: frame.type, reader: frame.reader as number, uid: frame.uid as string });
    }
    let line = encodeFrame({ ...frame, seq: this.seq } as Frame);
    if (o.helloFault) {
      this.p.stats.helloFaults++;
      if (o.helloFault === 'lost') return;
      line = corruptLine(line, this.p.rnd);
    }
    if (!hello && !blockLine && this.p.rnd.chance(this.p.faults.lose)) {
      this.p.stats.lost++;
      this.dropped = Math.min(SEQ_MAX, this.dropped + 1);
      this.p.resync.markDirty(this.p.stats.linesSent, false, this.abs);
      return;
    }
    if (!hello && this.p.rnd.chance(this.p.faults.crc)) {
      this.p.stats.corrupted++;
      line = corruptLine(line, this.p.rnd);
      this.p.resync.markDirty(this.p.stats.linesSent, true, this.abs);
    }
    this.write(line);
  }

  /** The next line's seq and abs; a hello starts both over at 0 (§4). */
  private nextSeq(hello = false): void {
    this.abs = hello ? 0 : this.abs + 1;
    this.seq = hello ? 0 : nextDeviceSeq(this.seq);
  }

  /** `err overflow <n>` for the lines dropped since the last one (§5); it uses up a seq. */
  private reportOverflow(): void {
    const n = this.dropped;
    this.dropped = 0;
    this.nextSeq();
    this.write(encodeFrame({ seq: this.seq, type: 'err', kind: 'overflow', dropped: n }));
  }

  /** Count a finished line, report it as `tx`, and write it if a stream is plugged in. */
  write(line: string): void {
    this.p.stats.linesSent++;
    this.p.tx(line);
    const s = this.p.stream();
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
    const s = this.p.stream();
    if (!s) return;
    await Promise.race([this.written, bound(2000)]);
    const port = s as Partial<SerialPortStream>;
    if (this.p.stream() === s && typeof port.drain === 'function' && port.isOpen) {
      await Promise.race([new Promise<void>((r) => port.drain!(() => r())), bound(2000)]);
    }
  }
}
