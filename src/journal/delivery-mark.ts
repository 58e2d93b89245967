// The MQTT outbox's bookmark: the last seq of a session that the broker acknowledged. The journal is the outbox;
// this mark says where in it to resume. Each advance appends one line `{"session","seq"}`; the last complete line is
// the mark. The appends are flushed (fdatasync) at most once in FLUSH_EVERY_MS: a burst of PUBACKs (a trick's four
// lifts) costs the SD card one flush, not one each, and a mark flushed a second late only resends that second.
// After a power cut the file holds the old value or the new one, possibly with a torn last line, which load()
// ignores and cuts off by rewriting the file atomically, as it does once the file has grown past COMPACT_BYTES. An
// old value only means some events are sent twice, which subscribers drop by seq; it can never make an event be
// skipped.
import { type FileHandle, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Log, silentLog } from '../config/log.js';
import { fsyncDir, writeFileAtomic } from './atomic.js';
import { SESSION_NAME } from './file.js';

export const DELIVERED_EXT = '.delivered';
/** A mark file longer than this is rewritten as its last line (about 3,000 advances). */
const COMPACT_BYTES = 128 * 1024;
/** The appends are flushed at most once in this many ms: the first after a quiet second at once, the rest together. */
export const FLUSH_EVERY_MS = 1000;

/** The seq of the last complete, valid line of a mark file's text, or null when it has none. */
function lastMark(text: string): number | null {
  const lines = text.split('\n');
  // The text after the last newline is a torn append (or empty): never a mark.
  for (let i = lines.length - 2; i >= 0; i--) {
    try {
      const o = JSON.parse(lines[i]) as { seq?: unknown };
      if (Number.isInteger(o.seq) && (o.seq as number) >= 0) return o.seq as number;
    } catch {
      // a line damaged by a crash: look further back
    }
  }
  return null;
}

/** The last seq of one session delivered to the broker, kept in `<dir>/<session>.delivered`. */
export class DeliveryMark {
  readonly path: string;
  readonly session: string;
  private durable: number;
  private target: number;
  private writing: Promise<void> | null = null;
  /** performance.now() of the last flush; a flush due later waits on flushTimer. */
  private lastFlush = -Infinity;
  private flushTimer: NodeJS.Timeout | null = null;
  /**
   * The file, opened for appending at the first advance and kept open: an open and a close for each advance were two
   * more trips to the thread pool (issue 20). Null before the first append, after a rewrite (which replaces the
   * file) and after close().
   */
  private fh: FileHandle | null = null;

  /** Bytes in the file, as far as this instance wrote it: past COMPACT_BYTES the next advance rewrites it. */
  private bytes: number;

  private constructor(path: string, session: string, seq: number, bytes: number) {
    this.bytes = bytes;
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
    let text: string | null = null;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      // Starting from the beginning resends the session, which subscribers de-duplicate: safe, if wasteful.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        log.warn({ file: path, err: e }, 'delivery mark unreadable; resending the session from its start');
        // Replace it whole at the first advance, as a file we could not read may not take an append either.
        return new DeliveryMark(path, session, seq, Infinity);
      }
    }
    if (text !== null) {
      const last = lastMark(text);
      if (last === null) {
        log.warn({ file: path, err: new Error('no line with an integer "seq"') }, 'delivery mark unreadable; resending the session from its start');
      } else {
        seq = last;
      }
      // One clean line again: a torn tail must not prefix the next append, and the file must not grow for ever.
      const clean = `${JSON.stringify({ session, seq })}\n`;
      if (text !== clean) await writeFileAtomic(path, clean);
      return new DeliveryMark(path, session, seq, clean.length);
    }
    return new DeliveryMark(path, session, seq, 0);
  }

  /** The last seq written to the file (flushed, or to be within FLUSH_EVERY_MS). */
  get seq(): number {
    return this.durable;
  }

  /**
   * Record that everything up to `seq` was delivered; resolves once a mark at least that high is written (and
   * flushed, or to be flushed within FLUSH_EVERY_MS). Calls made while a write is in flight are folded into one more
   * write, so one call per PUBACK is fine.
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
        await this.append(JSON.stringify({ session: this.session, seq: s }) + '\n');
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

  /** Flush what was appended since the last flush, in `ms`; a flush that fails is left to the next append's. */
  private flushLater(ms: number): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush().catch(() => undefined);
    }, ms);
    // A process on its way out leaves the appends to the kernel's writeback: a lag resends, it never skips.
    this.flushTimer.unref();
  }

  /** Flush the appends now (the timer; or a caller that wants the mark on disk at once). */
  async flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    // No handle: nothing appended since the file was last written whole, and writeFileAtomic flushed that.
    if (!this.fh) return;
    await this.fh.datasync();
    this.lastFlush = performance.now();
  }

  /**
   * Flush what was appended and close the file (the daemon stopping); a later advance opens it again. A flush that
   * fails is not the stop's failure: the mark only lags, and the events after it are sent again at the next start.
   */
  async close(): Promise<void> {
    await this.writing?.catch(() => undefined);
    await this.flush().catch(() => undefined);
    const fh = this.fh;
    this.fh = null;
    await fh?.close();
  }

  /**
   * Append one line and flush it, now or within FLUSH_EVERY_MS; the file is created (and its folder flushed) on the
   * first one.
   */
  private async append(line: string): Promise<void> {
    if (this.bytes + line.length > COMPACT_BYTES) {
      // The rename replaces the file: the handle on the old one is closed first (close waits for a flush in flight).
      const old = this.fh;
      this.fh = null;
      await old?.close();
      await writeFileAtomic(this.path, line);
      this.bytes = line.length;
      return;
    }
    const created = this.bytes === 0;
    this.fh ??= await open(this.path, 'a', 0o644);
    await this.fh.write(line);
    const since = performance.now() - this.lastFlush;
    if (since >= FLUSH_EVERY_MS) {
      await this.fh.datasync();
      this.lastFlush = performance.now();
    } else this.flushLater(FLUSH_EVERY_MS - since);
    this.bytes += line.length;
    // The new file's name made durable; should the folder refuse a flush, the mark only lags (events resent).
    if (created) await fsyncDir(dirname(this.path)).catch(() => undefined);
  }
}
