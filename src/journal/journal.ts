// The journal: the table's source of truth (DESIGN §1). One append-only table log per session,
// `<dir>/<session>.ndjson`, one TableEvent a line with `seq` and `at`, so any session file is also a valid input
// for `tenace replay`.
//
// Guarantees:
// - append() resolves only after the event's bytes are written and fdatasync'ed; nothing may be published before.
// - `seq` strictly increases across restarts and rotations (it continues from the highest in any session file).
// - The only partial line a journal can hold is the torn tail of a write interrupted by a power cut; open() cuts it
//   off with a warning. Those bytes were never acknowledged, so no acknowledged event is lost.
// - A failed write (EIO, ENOSPC) is cut back to the last durable byte, so later appends never follow garbage.
//
// Files in the folder: `<session>.ndjson` (the logs), `<session>.delivered` (DeliveryMark), `CURRENT` (the
// session appended to, so a restart continues it) and `LOCK` (one writer at a time).
import type { FileHandle } from 'node:fs/promises';
import { fdatasyncSync, writeSync } from 'node:fs';
import { mkdir, open as fsOpen, readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Log, silentLog } from '../config/log.js';
import { type TableEvent, validateTableEvent } from '../formats/table-log.js';
import { fsyncDir, writeFileAtomic } from './atomic.js';
import { type JournalFileContents, SESSION_EXT, SESSION_NAME, readJournalEvents, readJournalFile, tailLooksTorn, truncateDurably } from './file.js';
import { type JournalLock, lockJournalDir } from './lock.js';
import { isoTime } from '../formats/iso-time.js';

/** A TableEvent before the journal stamps it: every field but `seq` and `at`. */
export type UnstampedEvent = TableEvent extends infer T ? (T extends TableEvent ? Omit<T, 'seq' | 'at'> : never) : never;

/** The file operations the journal uses to append; tests inject a wrapper to count or delay fdatasync calls. */
export interface JournalFs {
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
  /** `fsync: always` writes and flushes on the event loop, as node:fs's writeSync and fdatasyncSync do (the default). */
  writeSync?(fd: number, buf: Buffer, off: number, len: number): number;
  fdatasyncSync?(fd: number): void;
}

export interface JournalOptions {
  /** Session to append to. Default: the one in CURRENT, else the newest session file, else today's date. */
  session?: string;
  /**
   * `always`: each event gets its own write and fdatasync, made synchronously: a card then waits for no thread-pool
   * round trip (two of them cost more than the flush itself on a busy Pi, issue 20). `group`: events within
   * groupCommitMs share one write and fdatasync, made on the thread pool so that the event loop runs meanwhile.
   */
  fsync?: 'always' | 'group';
  groupCommitMs?: number;
  /** Clock for `at` and default session names. */
  now?: () => Date;
  log?: Log;
  fs?: JournalFs;
  /** Take the folder's LOCK (default true); only tools that know no daemon runs may skip it. */
  lock?: boolean;
  /**
   * The most events of the current session kept in memory (default 2,048). Past that the oldest are read back from
   * the file when asked for, so an outbox far behind the cards (a broker down all evening) does not hold its whole
   * backlog on a Pi with 512 MB for everything (issue 20).
   */
  memoryEvents?: number;
}

export interface JournalStats {
  /** Events made durable by this instance. */
  appended: number;
  /** write batches and fdatasync calls made for appends. */
  writes: number;
  fsyncs: number;
  /** Torn tail lines cut off when opening (this session and any other). */
  tornLinesTruncated: number;
  /** Complete lines of the current session that are not journal events (kept in the file, skipped). */
  badLines: number;
  /** Batches that failed to write; their appends were rejected. */
  failedWrites: number;
}

/** A session file in the journal folder. */
export interface SessionInfo {
  session: string;
  path: string;
  current: boolean;
  /** Highest seq in the file, 0 when it holds no event. */
  lastSeq: number;
}

/** Why an append or rotation was refused. */
export class JournalError extends Error {
  constructor(readonly code: 'invalid-event' | 'closed' | 'io' | 'session', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JournalError';
  }
}

interface Pending {
  event: TableEvent;
  line: string;
  resolve: (ev: TableEvent) => void;
  reject: (e: Error) => void;
}

const CURRENT_FILE = 'CURRENT';
/** release() forgets events this many at a time at least: shifting the array for each one would cost more than it saves. */
const RELEASE_CHUNK = 256;
const MEMORY_EVENTS = 2048;
const DEFAULT_FS: JournalFs = { open: (p, f, m) => fsOpen(p, f, m), writeSync: (fd, b, o, l) => writeSync(fd, b, o, l), fdatasyncSync: (fd) => fdatasyncSync(fd) };

function localDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function checkSessionName(name: string): void {
  if (!SESSION_NAME.test(name)) {
    throw new JournalError('session', `session name ${JSON.stringify(name)} cannot be a file name: use 1-100 letters, digits, "-", "_" or ".", starting with a letter or digit`);
  }
}

/** The append-only, crash-safe log of one table's TableEvents, rotated per session. */
export class Journal {
  readonly dir: string;
  readonly stats: JournalStats = { appended: 0, writes: 0, fsyncs: 0, tornLinesTruncated: 0, badLines: 0, failedWrites: 0 };
  private sessionName: string;
  private fh: FileHandle;
  /** Highest seq handed out (durable or pending). */
  private seqIssued: number;
  /** Highest seq made durable. */
  private seqDurable: number;
  /** Bytes of the current file known durable: a failed write is cut back to here. */
  private durableBytes: number;
  /** Durable events of the current session with seq above `droppedThrough`, in seq order. */
  private current: TableEvent[];
  /** Highest seq let go of from memory (0: none): events up to it are read back from the file when asked for. */
  private droppedThrough = 0;
  /** Where the last read from the file stopped: the event's seq and the offset past its line. */
  private cursor: { seq: number; offset: number } | null = null;
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  /** Set when the file could not be repaired after a failed write: appends are refused from then on. */
  private broken: Error | null = null;
  private readonly opts: Required<Omit<JournalOptions, 'session'>>;
  private readonly lock: JournalLock | null;

  private constructor(dir: string, state: { session: string; fh: FileHandle; lastSeq: number; bytes: number; events: TableEvent[]; lock: JournalLock | null }, opts: Required<Omit<JournalOptions, 'session'>>) {
    this.dir = dir;
    this.sessionName = state.session;
    this.fh = state.fh;
    this.seqIssued = state.lastSeq;
    this.seqDurable = state.lastSeq;
    this.durableBytes = state.bytes;
    this.current = state.events;
    this.lock = state.lock;
    this.opts = opts;
  }

  /** Open (creating if needed) the journal in `dir`: repair torn tails, restore lastSeq, continue the session. */
  static async open(dir: string, options: JournalOptions = {}): Promise<Journal> {
    const opts: Required<Omit<JournalOptions, 'session'>> = {
      fsync: options.fsync ?? 'always',
      groupCommitMs: options.groupCommitMs ?? 10,
      now: options.now ?? (() => new Date()),
      log: options.log ?? silentLog,
      fs: options.fs ?? DEFAULT_FS,
      lock: options.lock ?? true,
      memoryEvents: options.memoryEvents ?? MEMORY_EVENTS,
    };
    if (!Number.isInteger(opts.memoryEvents) || opts.memoryEvents < 1) throw new RangeError(`memoryEvents must be a whole number of events, at least 1, not ${opts.memoryEvents}`);
    if (!Number.isInteger(opts.groupCommitMs) || opts.groupCommitMs < 0) throw new RangeError(`groupCommitMs must be a whole number of milliseconds, not ${opts.groupCommitMs}`);
    if (options.session !== undefined) checkSessionName(options.session);
    await mkdir(dir, { recursive: true });
    const lock = opts.lock ? await lockJournalDir(dir) : null;
    try {
      const stats: JournalStats = { appended: 0, writes: 0, fsyncs: 0, tornLinesTruncated: 0, badLines: 0, failedWrites: 0 };
      // Every session's last seq (repairing torn tails on the way), because seq continues across sessions.
      const names = await listSessions(dir);
      const lastSeqs = new Map<string, number>();
      for (const name of names) lastSeqs.set(name, await scanSession(dir, name, opts.log, stats));
      const session = options.session ?? (await readCurrent(dir, names)) ?? newestSession(lastSeqs) ?? localDate(opts.now());
      const path = join(dir, session + SESSION_EXT);
      const loaded = await loadSession(path, opts.log, stats);
      const loadedLast = loaded.events.length ? loaded.events[loaded.events.length - 1].seq! : 0;
      // The first event of a journal gets seq 1, so 0 can mean "nothing yet" (a DeliveryMark starts there too).
      const lastSeq = Math.max(0, loadedLast, ...lastSeqs.values());
      const { fh, created } = await openForAppend(opts.fs, path);
      const j = new Journal(dir, { session, fh, lastSeq, bytes: loaded.bytes, events: loaded.events, lock }, opts);
      Object.assign(j.stats, stats);
      try {
        if (created) await fsyncDir(dir);
        await j.writeCurrent();
      } catch (e) {
        await fh.close().catch(() => {});
        throw e;
      }
      opts.log.info({ dir, session, lastSeq, events: loaded.events.length }, 'journal opened');
      return j;
    } catch (e) {
      await lock?.release();
      throw e;
    }
  }

  /** The session being appended to. */
  get session(): string {
    return this.sessionName;
  }

  /** The path of the current session file. */
  get path(): string {
    return join(this.dir, this.sessionName + SESSION_EXT);
  }

  /** The highest seq made durable; 0 for an empty journal, since the first event gets seq 1. */
  get lastSeq(): number {
    return this.seqDurable;
  }

  /** Stamp the event with the next seq and the clock's time, write it durably, and resolve with it. */
  append(ev: UnstampedEvent): Promise<TableEvent> {
    if (this.closed) return Promise.reject(new JournalError('closed', 'journal is closed: the event was not written'));
    if (this.broken) return Promise.reject(new JournalError('io', `journal cannot write since an earlier failure (${this.broken.message}): the event was not written`, { cause: this.broken }));
    // seq and at are the journal's to give; a caller's own values (say, from a replayed log) are replaced.
    const { seq: _s, at: _a, ...body } = ev as UnstampedEvent & { seq?: unknown; at?: unknown };
    let event: TableEvent;
    let line: string;
    try {
      event = { seq: this.seqIssued + 1, at: isoTime(this.opts.now().getTime()), ...body } as TableEvent;
      const problem = validateTableEvent(event);
      if (problem) return Promise.reject(new JournalError('invalid-event', `journal: event not written: ${problem}`));
      line = JSON.stringify(event) + '\n';
    } catch (e) {
      // A clock returning an invalid date, or a value JSON cannot hold (a BigInt, a cycle): refuse, never throw.
      return Promise.reject(new JournalError('invalid-event', `journal: event not written: ${(e as Error).message}`));
    }
    this.seqIssued = event.seq!;
    Object.freeze(event);
    return new Promise<TableEvent>((resolve, reject) => {
      this.pending.push({ event, line, resolve, reject });
      if (this.opts.fsync === 'always') this.flushPending();
      else if (!this.timer) this.timer = setTimeout(() => this.flushPending(), this.opts.groupCommitMs);
    });
  }

  /** Write what is waiting for the group-commit timer now; resolves when everything appended so far is durable. */
  flush(): Promise<void> {
    this.flushPending();
    return this.chain;
  }

  /**
   * Durable events of the current session with seq greater than `afterSeq` (all of them by default). Those no longer
   * in memory (release(), or past memoryEvents) are read back from the file, synchronously: callers that ask for them
   * are rare (a query for old events, a remedy, an undo aimed at an earlier deal); the outbox reads eventsAfter().
   */
  events(afterSeq = 0): TableEvent[] {
    if (this.droppedThrough > 0 && afterSeq < this.droppedThrough) return [...this.eventsAfter(afterSeq)];
    return this.current.slice(this.inMemoryAfter(afterSeq));
  }

  /**
   * The same events as events(afterSeq), one at a time: those no longer in memory are read from the file a chunk at a
   * time, from where the last such read stopped when the caller goes on from there (the outbox, behind the cards, so
   * reads each line once), then the rest from memory. Consume it before the next append or rotation.
   */
  *eventsAfter(afterSeq = 0): Generator<TableEvent> {
    let last = afterSeq;
    const through = this.droppedThrough;
    if (through > 0 && afterSeq < through) {
      const c = this.cursor;
      for (const { event, next } of readJournalEvents(this.path, c && c.seq <= afterSeq ? c.offset : 0, this.durableBytes)) {
        const seq = event.seq!;
        if (seq > through) break;
        if (seq <= last) continue;
        last = seq;
        this.cursor = { seq, offset: next };
        yield Object.freeze(event);
      }
    }
    const ev = this.current;
    for (let i = this.inMemoryAfter(last); i < ev.length; i++) yield ev[i];
  }

  /** The index in memory of the first event with a seq above `seq` (binary search: the outbox asks for a short tail). */
  private inMemoryAfter(seq: number): number {
    const ev = this.current;
    let lo = 0;
    let hi = ev.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((ev[mid].seq ?? 0) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Let the journal forget, from memory only, the current session's events up to `seq` (the daemon: those delivered
   * and before the deal in progress). A session holds tens of thousands of events; keeping them all cost about 2 MB
   * of heap per 10,000 on a Pi with 512 MB for everything (issue 8). events() still returns them, from the file.
   */
  release(seq: number): void {
    const n = this.inMemoryAfter(seq);
    if (n >= RELEASE_CHUNK) this.forget(n);
  }

  /** Let go of the first `n` events in memory; events() reads them back from the file. */
  private forget(n: number): void {
    this.droppedThrough = this.current[n - 1].seq!;
    this.current = this.current.slice(n);
  }

  /** Events of any session (the current one from memory, others from disk), with seq greater than `afterSeq`. */
  async readSession(session: string, afterSeq = 0): Promise<TableEvent[]> {
    checkSessionName(session);
    if (session === this.sessionName) return this.events(afterSeq);
    const { events } = await readJournalFile(join(this.dir, session + SESSION_EXT));
    return events.filter((e) => (e.seq ?? 0) > afterSeq);
  }

  /** The session files in the folder: older sessions first by their last seq, the current one last. */
  async sessions(): Promise<SessionInfo[]> {
    const names = await listSessions(this.dir);
    const out: SessionInfo[] = [];
    for (const session of names) {
      const path = join(this.dir, session + SESSION_EXT);
      const current = session === this.sessionName;
      const lastSeq = current ? this.seqDurable : await lastSeqOfFile(path);
      out.push({ session, path, current, lastSeq });
    }
    return out.sort((a, b) => Number(a.current) - Number(b.current) || a.lastSeq - b.lastSeq || a.session.localeCompare(b.session));
  }

  /**
   * Close the current session file and continue in `newSession` (default: today's date, made unique). Events
   * appended before the call go to the old session, those after to the new one. Resolves with the new name.
   */
  rotate(newSession?: string): Promise<string> {
    if (this.closed) return Promise.reject(new JournalError('closed', 'journal is closed'));
    try {
      if (newSession !== undefined) checkSessionName(newSession);
    } catch (e) {
      return Promise.reject(e);
    }
    if (newSession === this.sessionName) return Promise.reject(new JournalError('session', `session "${newSession}" is already the current one`));
    // Whatever was appended before the call belongs to the old session: flush it there first.
    this.flushPending();
    const op = this.enqueue(async () => {
      const name = newSession ?? (await this.uniqueSessionName());
      const path = join(this.dir, name + SESSION_EXT);
      // Switching back to an existing session continues it, after the same repair as on open.
      const loaded = await loadSession(path, this.opts.log, this.stats);
      const { fh, created } = await openForAppend(this.opts.fs, path);
      if (created) await fsyncDir(this.dir);
      const old = this.fh;
      this.fh = fh;
      this.sessionName = name;
      this.durableBytes = loaded.bytes;
      this.current = loaded.events;
      this.droppedThrough = 0;
      this.cursor = null;
      await old.close();
      await this.writeCurrent();
      this.opts.log.info({ session: name, lastSeq: this.seqDurable }, 'journal rotated');
      return name;
    });
    return op;
  }

  /** Flush, close the file and release the folder; later appends are refused. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return this.chain;
    this.flushPending();
    this.closed = true;
    await this.enqueue(async () => {
      await this.fh.close();
    }).catch((e) => this.opts.log.error({ err: e }, 'journal close failed'));
    await this.lock?.release();
  }

  // ---- internals ----

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.chain.then(op);
    // The chain carries on after a failure; the failure goes to the caller of this operation only.
    this.chain = run.then(() => undefined, () => undefined);
    return run;
  }

  private flushPending(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    void this.enqueue(() => this.writeBatch(batch));
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    if (this.broken) {
      for (const p of batch) p.reject(new JournalError('io', `journal cannot write since an earlier failure (${this.broken.message}): the event was not written`, { cause: this.broken }));
      return;
    }
    const buf = Buffer.from(batch.length === 1 ? batch[0].line : batch.map((p) => p.line).join(''), 'utf8');
    try {
      let off = 0;
      const fs = this.opts.fs;
      const sync = this.opts.fsync === 'always' ? { write: fs.writeSync ?? writeSync, flush: fs.fdatasyncSync ?? fdatasyncSync } : null;
      // A regular-file write is rarely short, but a short one must not leave half a batch behind.
      while (off < buf.length) {
        off += sync ? sync.write(this.fh.fd, buf, off, buf.length - off) : (await this.fh.write(buf, off, buf.length - off)).bytesWritten;
      }
      this.stats.writes++;
      if (sync) sync.flush(this.fh.fd);
      else await this.fh.datasync();
      this.stats.fsyncs++;
    } catch (e) {
      this.stats.failedWrites++;
      const err = e as Error;
      this.opts.log.error({ err, seqs: [batch[0].event.seq, batch[batch.length - 1].event.seq] }, 'journal write failed; the events were not acknowledged');
      // Cut the file back to its durable length so that the next write starts on a clean line.
      try {
        await this.fh.truncate(this.durableBytes);
        await this.fh.datasync();
      } catch (e2) {
        this.broken = e2 as Error;
        this.opts.log.error({ err: e2 }, 'journal could not cut back a failed write; refusing further appends');
      }
      for (const p of batch) p.reject(new JournalError('io', `journal write failed: ${err.message}`, { cause: err }));
      return;
    }
    this.durableBytes += buf.length;
    for (const p of batch) this.current.push(p.event);
    // Bounded: past memoryEvents the oldest go back to the file (a chunk at a time, as release() does).
    if (this.current.length >= this.opts.memoryEvents + RELEASE_CHUNK) this.forget(this.current.length - this.opts.memoryEvents);
    this.seqDurable = batch[batch.length - 1].event.seq!;
    this.stats.appended += batch.length;
    for (const p of batch) p.resolve(p.event);
  }

  private async writeCurrent(): Promise<void> {
    const path = join(this.dir, CURRENT_FILE);
    const cur = await readFile(path, 'utf8').catch(() => '');
    if (cur.trim() !== this.sessionName) await writeFileAtomic(path, this.sessionName + '\n');
  }

  private async uniqueSessionName(): Promise<string> {
    const base = localDate(this.opts.now());
    const names = new Set(await listSessions(this.dir));
    if (!names.has(base)) return base;
    for (let i = 2; ; i++) if (!names.has(`${base}-${i}`)) return `${base}-${i}`;
  }
}

async function listSessions(dir: string): Promise<string[]> {
  const entries = await readdir(dir);
  return entries
    .filter((f) => f.endsWith(SESSION_EXT) && SESSION_NAME.test(f.slice(0, -SESSION_EXT.length)))
    .map((f) => f.slice(0, -SESSION_EXT.length))
    .sort();
}

async function readCurrent(dir: string, names: string[]): Promise<string | undefined> {
  const text = await readFile(join(dir, CURRENT_FILE), 'utf8').catch(() => '');
  const name = text.trim();
  // A CURRENT naming a file that is gone (deleted by hand) is ignored rather than resurrected.
  return SESSION_NAME.test(name) && names.includes(name) ? name : undefined;
}

function newestSession(lastSeqs: Map<string, number>): string | undefined {
  let best: string | undefined;
  let bestSeq = -Infinity;
  for (const [name, seq] of lastSeqs) if (seq > bestSeq) [best, bestSeq] = [name, seq];
  return best;
}

// The last seq of a session file, repairing a torn tail. Only the last 64 KiB are read unless the tail needs it.
async function scanSession(dir: string, name: string, log: Log, stats: JournalStats): Promise<number> {
  const path = join(dir, name + SESSION_EXT);
  const tail = await tailLooksTorn(path);
  if (!tail.torn && tail.lastSeq >= 0) return tail.lastSeq;
  const contents = await readJournalFile(path);
  if (contents.fileBytes === 0) return 0;
  await repairTail(path, contents, log, stats);
  const { events } = contents;
  return events.length ? events[events.length - 1].seq! : 0;
}

// The last seq of a session file, reading only its tail when that is enough; never modifies the file.
async function lastSeqOfFile(path: string): Promise<number> {
  const tail = await tailLooksTorn(path);
  if (!tail.torn && tail.lastSeq >= 0) return tail.lastSeq;
  const { events } = await readJournalFile(path);
  return events.length ? events[events.length - 1].seq! : 0;
}

// Read a session file to append to, cutting off a torn tail durably and reporting lines that are skipped.
async function loadSession(path: string, log: Log, stats: JournalStats): Promise<{ events: TableEvent[]; bytes: number }> {
  const contents = await readJournalFile(path);
  await repairTail(path, contents, log, stats);
  if (contents.bad.length > 0) {
    stats.badLines += contents.bad.length;
    log.error({ file: path, lines: contents.bad }, 'journal: lines that are not journal events were kept in the file but skipped');
  }
  return { events: contents.events, bytes: contents.intactBytes };
}

async function repairTail(path: string, contents: JournalFileContents, log: Log, stats: JournalStats): Promise<void> {
  if (contents.torn.length === 0) return;
  await truncateDurably(path, contents.intactBytes);
  stats.tornLinesTruncated += contents.torn.length;
  log.warn({
    file: path,
    bytesCut: contents.fileBytes - contents.intactBytes,
    lines: contents.torn.map((t) => ({ offset: t.offset, bytes: t.bytes, start: t.preview })),
    lastSeq: contents.events.length ? contents.events[contents.events.length - 1].seq : 0,
  }, 'journal: torn last line (an interrupted write, e.g. a power cut) cut off; it was never acknowledged');
}

async function openForAppend(fs: JournalFs, path: string): Promise<{ fh: FileHandle; created: boolean }> {
  let created = false;
  try {
    await stat(path);
  } catch {
    created = true;
  }
  return { fh: await fs.open(path, 'a', 0o644), created };
}
