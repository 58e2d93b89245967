// Splits a byte stream into protocol lines, like @serialport/parser-readline but with a hard cap.
//
// ReadlineParser buffers without limit, so a device that never sends "\n" (a baud mismatch, a
// bootloader, noise) grows the daemon's memory forever. Here a line holds at most MAX_LINE + 1
// bytes (96 plus a tolerated "\r", PROTOCOL.md §3). Bytes beyond that are discarded up to the next
// "\n" and the line is reported once as `{ error: 'too-long' }`. Memory is constant.
//
// Lines are delivered as strings with one char per byte (Latin-1), without the "\n" but with any
// "\r" (decodeLine removes it), so `decodeLine` sees exactly the received bytes. ByteLineSplitter
// hands the same lines over as byte ranges instead, for a reader that decodes bytes in place. A
// partial line left when the stream ends is not a line: it is counted in `stats.partialDropped`
// and discarded.
import { Transform, type TransformCallback } from 'node:stream';
import { MAX_LINE } from './protocol.js';

export interface TooLongLine {
  error: 'too-long';
  /** Bytes received for the line, terminator excluded. */
  length: number;
}
export type SplitItem = string | TooLongLine;

export interface SplitterStats {
  lines: number;
  tooLong: number;
  partialDropped: number;
}

const LF = 0x0a;

/** Buffer's own latin1 decoder (Node's `buf.toString('latin1', …)` without the argument checks), when present. */
type Latin1Buffer = Buffer & { latin1Slice(start: number, end: number): string };
const HAS_LATIN1_SLICE = typeof (Buffer.prototype as Partial<Latin1Buffer>).latin1Slice === 'function';
/** buf[start, end) as a string of one char per byte: the line exactly as received. */
export function latin1(buf: Buffer, start: number, end: number): string {
  return HAS_LATIN1_SLICE ? (buf as Latin1Buffer).latin1Slice(start, end) : buf.toString('latin1', start, end);
}

/**
 * The splitting core on bytes: a line is handed over as `buf[start, end)` (no "\n", any "\r" kept),
 * valid only during the call, so a caller that can decode bytes in place never makes a string.
 */
export class ByteLineSplitter {
  /** Capacity of the line buffer: 96 bytes + "\r". */
  static readonly CAPACITY = MAX_LINE + 1;
  readonly stats: SplitterStats = { lines: 0, tooLong: 0, partialDropped: 0 };
  private readonly buf = Buffer.alloc(ByteLineSplitter.CAPACITY);
  private len = 0;
  /** Bytes of the current line beyond the buffer (discarding when > 0). */
  private over = 0;

  constructor(
    private readonly onLine: (buf: Buffer, start: number, end: number) => void,
    private readonly onTooLong: (length: number) => void,
  ) {}

  /** Feeds received bytes: every line they complete is handed over before this returns. */
  push(chunk: Buffer): void {
    let start = 0;
    const n = chunk.length;
    while (start < n) {
      const nl = chunk.indexOf(LF, start);
      if (nl < 0) {
        this.append(chunk, start, n);
        return;
      }
      // A whole line inside this chunk, the common case: handed over in place, no copy.
      if (this.len === 0 && this.over === 0 && nl - start <= ByteLineSplitter.CAPACITY) {
        this.stats.lines++;
        this.onLine(chunk, start, nl);
      } else {
        this.append(chunk, start, nl);
        this.endLine();
      }
      start = nl + 1;
    }
  }

  /** Discards a partial line (the port closed, or the host resynchronised on purpose). */
  reset(): void {
    if (this.len > 0 || this.over > 0) this.stats.partialDropped++;
    this.len = 0;
    this.over = 0;
  }

  /** Bytes currently held (never more than CAPACITY). */
  get buffered(): number {
    return this.len;
  }

  private append(chunk: Buffer, start: number, end: number): void {
    if (this.over > 0) {
      this.over += end - start;
      return;
    }
    const room = ByteLineSplitter.CAPACITY - this.len;
    const take = Math.min(room, end - start);
    // By hand: Buffer#copy's argument checks cost more than copying a few dozen bytes.
    const buf = this.buf;
    let len = this.len;
    for (let i = start; i < start + take; i++) buf[len++] = chunk[i];
    this.len = len;
    if (end - start > take) this.over = end - start - take;
  }

  private endLine(): void {
    if (this.over > 0) {
      const length = this.len + this.over;
      this.len = 0;
      this.over = 0;
      this.stats.tooLong++;
      this.onTooLong(length);
      return;
    }
    const len = this.len;
    // Cleared before the call: the callback may push more bytes (a listener feeding the driver).
    this.len = 0;
    this.stats.lines++;
    this.onLine(this.buf, 0, len);
  }
}

/** The splitting core, without streams: push chunks, get lines as strings through a callback. */
export class LineSplitter extends ByteLineSplitter {
  constructor(onItem: (item: SplitItem) => void) {
    super(
      (buf, start, end) => onItem(latin1(buf, start, end)),
      (length) => onItem({ error: 'too-long', length }),
    );
  }
}

/**
 * The splitter as a Transform stream (object mode out): pipe a SerialPort into it and read
 * strings (lines) and `{ error: 'too-long' }` objects.
 */
export class LineSplitterStream extends Transform {
  readonly splitter: LineSplitter;

  constructor() {
    super({ readableObjectMode: true });
    this.splitter = new LineSplitter((item) => this.push(item));
  }

  override _transform(chunk: Buffer | string, _enc: BufferEncoding, cb: TransformCallback): void {
    this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk);
    cb();
  }

  override _flush(cb: TransformCallback): void {
    this.splitter.reset();
    cb();
  }
}
