// Host commands to the bridge and their answers (PROTOCOL.md §6): each command gets a fresh host
// seq (hseq), waits for the `ack`/`nak` that names it, and is sent again with a new hseq when no
// answer comes in time. Bounded: at most MAX_PENDING commands wait at once (a silent device must
// not grow the map), and every wait has a timer.
import { CommandError, type DriverStats } from './driver-types.js';
import { encodeFrame, type Frame, type HostType, nextHostSeq } from './protocol.js';

/** Commands waiting for an answer at most. */
const MAX_PENDING = 64;

interface Pending {
  type: HostType;
  resolve: (f: Frame) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** What a CommandChannel needs from its driver. */
export interface CommandHost {
  readonly stats: DriverStats;
  /** True while the port is open (a command on a closed port fails at once). */
  isOpen(): boolean;
  /** Writes a line (with its terminator) to the port. */
  write(line: string): void;
}

/** The commands of one driver that wait for an answer. */
export class CommandChannel {
  private hseq = -1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly host: CommandHost,
    private readonly timeoutMs: number,
    private readonly attempts: number,
  ) {}

  /**
   * Sends a command and resolves with its `ack` (rejects with CommandError on `nak`, on timeout
   * after `attempts` tries with fresh hseqs, or when the port closes).
   */
  async send(type: HostType, fields: Record<string, unknown> = {}): Promise<Frame> {
    let last: Error = new CommandError(`${type}: no answer`, 'timeout');
    for (let i = 0; i < this.attempts; i++) {
      try {
        return await this.sendOnce(type, fields);
      } catch (e) {
        last = e as Error;
        if (!(e instanceof CommandError) || e.code !== 'timeout') throw e;
      }
    }
    throw last;
  }

  /** An `ack`/`nak` line: settles the command it names; its type, or undefined when none waits. */
  answer(f: Frame): HostType | undefined {
    const p = this.take(f.hseq as number);
    if (!p) return undefined;
    if (f.type === 'ack') p.resolve(f);
    else p.reject(new CommandError(`${p.type}: refused by the bridge (${String(f.code)})`, 'nak', f.code as string));
    return p.type;
  }

  /** Settles the command of `type` under `hseq`, if that one waits, as acked by `ack`. */
  acked(hseq: number, type: HostType, ack: Frame): boolean {
    const p = this.pending.get(hseq);
    if (p?.type !== type) return false;
    this.take(hseq);
    p.resolve(ack);
    return true;
  }

  /** Rejects the waiting commands of `type` (superseded by a newer one). */
  cancel(type: HostType, why: string): void {
    for (const [h, p] of this.pending) {
      if (p.type !== type) continue;
      this.take(h);
      p.reject(new CommandError(`${type}: ${why}`, 'closed'));
    }
  }

  /** Rejects every waiting command (the port closed, the driver stopped). */
  rejectAll(why: string): void {
    for (const [h, p] of this.pending) {
      this.take(h);
      p.reject(new CommandError(`${p.type}: ${why}`, 'closed'));
    }
  }

  private take(hseq: number): Pending | undefined {
    const p = this.pending.get(hseq);
    if (!p) return undefined;
    clearTimeout(p.timer);
    this.pending.delete(hseq);
    return p;
  }

  private nextHseq(): number {
    do this.hseq = nextHostSeq(this.hseq);
    while (this.pending.has(this.hseq));
    return this.hseq;
  }

  private sendOnce(type: HostType, fields: Record<string, unknown>): Promise<Frame> {
    return new Promise<Frame>((resolve, reject) => {
      if (!this.host.isOpen()) {
        reject(new CommandError(`${type}: the port is not open`, 'closed'));
        return;
      }
      if (this.pending.size >= MAX_PENDING) {
        reject(new CommandError(`${type}: ${MAX_PENDING} commands are already waiting for an answer`, 'closed'));
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
        this.host.stats.commandTimeouts++;
        reject(new CommandError(`${type}: no answer within ${this.timeoutMs} ms`, 'timeout'));
      }, this.timeoutMs);
      this.pending.set(h, { type, resolve, reject, timer });
      this.host.write(`${line}\n`);
    });
  }
}
