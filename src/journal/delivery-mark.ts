// The MQTT outbox's bookmark: the last seq of a session that the broker acknowledged. The journal is the outbox;
// this mark says where in it to resume. It is replaced atomically (write-temp, fsync, rename), so after a power
// cut it is either the old value or the new one. An old value only means some events are sent twice, which
// subscribers drop by seq; it can never make an event be skipped.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Log, silentLog } from '../config/log.js';
import { writeFileAtomic } from './atomic.js';
import { SESSION_NAME } from './file.js';

export const DELIVERED_EXT = '.delivered';

/** The last seq of one session delivered to the broker, kept in `<dir>/<session>.delivered`. */
export class DeliveryMark {
  readonly path: string;
  readonly session: string;
  private durable: number;
  private target: number;
  private writing: Promise<void> | null = null;

  private constructor(path: string, session: string, seq: number) {
    this.path = path;
    this.session = session;
    this.durable = seq;
    this.target = seq;
  }

  /** Read the mark of `session` in `dir`; 0 when nothing was delivered yet (or the mark is unreadable). */
  static async load(dir: string, session: string, log: Log = silentLog): Promise<DeliveryMark> {
    if (!SESSION_NAME.test(session)) throw new Error(`session name ${JSON.stringify(session)} cannot be a file name`);
    const path = join(dir, session + DELIVERED_EXT);
    // Journal seqs start at 1, so 0 means nothing delivered.
    let seq = 0;
    try {
      const o = JSON.parse(await readFile(path, 'utf8')) as { seq?: unknown };
      if (Number.isInteger(o.seq) && (o.seq as number) >= 0) seq = o.seq as number;
      else throw new Error('no integer "seq"');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        // Starting from the beginning resends the session, which subscribers de-duplicate: safe, if wasteful.
        log.warn({ file: path, err: e }, 'delivery mark unreadable; resending the session from its start');
      }
    }
    return new DeliveryMark(path, session, seq);
  }

  /** The last seq known durable on disk. */
  get seq(): number {
    return this.durable;
  }

  /**
   * Record that everything up to `seq` was delivered; resolves once a mark at least that high is durable. Calls
   * made while a write is in flight are folded into one more write, so one call per PUBACK is fine.
   */
  advance(seq: number): Promise<void> {
    if (!Number.isInteger(seq)) return Promise.reject(new Error(`delivery mark: seq must be an integer, not ${seq}`));
    if (seq > this.target) this.target = seq;
    if (this.durable >= seq) return this.writing ?? Promise.resolve();
    if (!this.writing) this.writing = this.writeLoop();
    return this.writing;
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.durable < this.target) {
        const s = this.target;
        await writeFileAtomic(this.path, JSON.stringify({ session: this.session, seq: s }) + '\n');
        this.durable = s;
      }
    } catch (e) {
      // Forget the unwritten target so that the next advance() writes again.
      this.target = this.durable;
      throw e;
    } finally {
      this.writing = null;
    }
  }
}
