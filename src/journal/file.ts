// Reading journal files: plain table logs (DESIGN §4) whose every line carries `seq` and `at`. The one kind of
// damage a journal can suffer from a power cut is a torn tail: the last write reached the disk only in part, so the
// file ends without "\n", or its last lines are not JSON (ext4 can leave the unwritten part of a block as NULs).
// That tail was never acknowledged (append resolves only after fdatasync), so cutting it loses nothing.
import { closeSync, openSync, readSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { type TableEvent, validateTableEvent } from '../formats/table-log.js';

export const SESSION_EXT = '.ndjson';
export const SESSION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** A line the reader had to leave out. */
export interface BadLine {
  /** 1-based line number. */
  line: number;
  reason: string;
}

/** A torn tail line: what was cut, for the warning. */
export interface TornLine {
  /** Byte offset where the cut line started. */
  offset: number;
  bytes: number;
  /** The start of the line, printable, for the log. */
  preview: string;
}

export interface JournalFileContents {
  events: TableEvent[];
  /** Length in bytes of the intact part: everything up to and including the last complete JSON line. */
  intactBytes: number;
  /** File length as read. */
  fileBytes: number;
  /** Lines of the torn tail, last one first; empty when the file is intact. */
  torn: TornLine[];
  /** Complete lines in the intact part that are not journal events (kept in the file, left out of `events`). */
  bad: BadLine[];
}

const NL = 0x0a;

function preview(buf: Buffer, start: number, end: number): string {
  const text = buf.toString('utf8', start, Math.min(end, start + 80));
  // NULs and other control bytes would garble the log line; show them as escapes.
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) + (end - start > 80 ? '...' : '');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Split journal bytes into events, the torn tail (to cut) and bad complete lines (to keep but skip). */
export function parseJournal(buf: Buffer): JournalFileContents {
  let end = buf.length;
  const torn: TornLine[] = [];
  // An unfinished last line: the bytes after the last newline.
  const lastNl = buf.lastIndexOf(NL, end - 1);
  if (lastNl !== end - 1) {
    const start = lastNl + 1;
    torn.push({ offset: start, bytes: end - start, preview: preview(buf, start, end) });
    end = start;
  }
  // Complete lines at the end that are not JSON belong to the same torn write (a batch of lines is one write).
  // A line that is JSON but not an event we know is kept: it may come from a newer version, and cutting it
  // would lose data that was acknowledged.
  while (end > 0) {
    const start = buf.lastIndexOf(NL, end - 2) + 1;
    const text = buf.toString('utf8', start, end - 1);
    if (text.trim() !== '' && isJson(text)) break;
    torn.push({ offset: start, bytes: end - start, preview: preview(buf, start, end - 1) });
    end = start;
  }

  const events: TableEvent[] = [];
  const bad: BadLine[] = [];
  let lastSeq = -1;
  let lineNo = 0;
  let pos = 0;
  while (pos < end) {
    const nl = buf.indexOf(NL, pos);
    const text = buf.toString('utf8', pos, nl);
    pos = nl + 1;
    lineNo++;
    if (text.trim() === '') continue;
    const ev = parseJournalLine(text);
    if (typeof ev === 'string') {
      bad.push({ line: lineNo, reason: ev });
      continue;
    }
    if (ev.seq! <= lastSeq) {
      bad.push({ line: lineNo, reason: `"seq" ${ev.seq} is not greater than the previous ${lastSeq}` });
      continue;
    }
    lastSeq = ev.seq!;
    events.push(ev);
  }
  return { events, intactBytes: end, fileBytes: buf.length, torn, bad };
}

/** One complete line of a journal file as its event, or why it is not one (a line of only spaces is not asked). */
export function parseJournalLine(text: string): TableEvent | string {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${(e as Error).message}`;
  }
  const problem = validateTableEvent(obj);
  if (problem) return problem;
  if ((obj as TableEvent).seq === undefined) return 'no "seq": the journal writes one on every line';
  return obj as TableEvent;
}

/** Bytes read at a time by readJournalEvents; a longer line is read whole all the same. */
const READ_CHUNK = 1 << 16;

/**
 * The events of a journal file's complete lines from byte `from` to byte `end`, read synchronously a chunk at a time
 * and parsed as parseJournal parses them (lines that are not events are skipped), each with the offset just past its
 * line. What is read stays bounded by the chunk, however long the file: the journal reads back this way the events
 * it no longer holds in memory.
 */
export function* readJournalEvents(path: string, from: number, end: number): Generator<{ event: TableEvent; next: number }> {
  if (from >= end) return;
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, end - from));
    let pos = from;
    while (pos < end) {
      const want = Math.min(buf.length, end - pos);
      let got = 0;
      while (got < want) {
        const n = readSync(fd, buf, got, want - got, pos + got);
        if (n <= 0) return;
        got += n;
      }
      const lastNl = buf.lastIndexOf(NL, got - 1);
      if (lastNl < 0) {
        // A line longer than the buffer: read it again with room for it.
        if (got < buf.length) return;
        buf = Buffer.allocUnsafe(buf.length * 2);
        continue;
      }
      let start = 0;
      while (start <= lastNl) {
        const nl = buf.indexOf(NL, start);
        const text = buf.toString('utf8', start, nl);
        const next = pos + nl + 1;
        start = nl + 1;
        if (text.trim() === '') continue;
        const ev = parseJournalLine(text);
        if (typeof ev !== 'string') yield { event: ev, next };
      }
      pos += lastNl + 1;
    }
  } finally {
    closeSync(fd);
  }
}

/** Read a journal file without changing it; a missing file reads as empty. */
export async function readJournalFile(path: string): Promise<JournalFileContents> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') buf = Buffer.alloc(0);
    else throw e;
  }
  return parseJournal(buf);
}

/** Cut a file back to `length` bytes and make the cut durable. */
export async function truncateDurably(path: string, length: number): Promise<void> {
  const fh = await open(path, 'r+');
  try {
    await fh.truncate(length);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** Whether the end of a file looks torn, and its last seq, from its last bytes only (cheap for old sessions);
 *  lastSeq is -1 when the tail alone cannot tell. */
export async function tailLooksTorn(path: string): Promise<{ torn: boolean; lastSeq: number }> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size === 0) return { torn: false, lastSeq: 0 };
    // 64 KiB holds hundreds of events; a journal line is about 80 bytes.
    const len = Math.min(size, 64 * 1024);
    const buf = Buffer.alloc(len);
    await fh.read(buf, 0, len, size - len);
    if (buf[len - 1] !== NL) return { torn: true, lastSeq: -1 };
    const start = buf.lastIndexOf(NL, len - 2) + 1;
    if (start === 0 && len < size) return { torn: false, lastSeq: -1 }; // one enormous line: let the full read decide
    const text = buf.toString('utf8', start, len - 1);
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      return { torn: true, lastSeq: -1 };
    }
    const seq = (obj as { seq?: unknown })?.seq;
    return { torn: false, lastSeq: Number.isInteger(seq) ? (seq as number) : -1 };
  } finally {
    await fh.close();
  }
}
