// The journal on a real filesystem: durable appends, restored seq, torn-tail repair, group commit, rotation,
// replay through the engine, write failures, the folder lock and the delivery mark.
import { spawnSync } from 'node:child_process';
import { appendFileSync, fdatasyncSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Log } from '../../src/config/log.js';
import { type TableEvent, parseTableLog } from '../../src/formats/table-log.js';
import { DeliveryMark } from '../../src/journal/delivery-mark.js';
import { Journal, type JournalFs, type UnstampedEvent } from '../../src/journal/journal.js';
import { replay } from '../../src/laws/engine.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const base = mkdtempSync(join(tmpdir(), 'tenace-journal-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(base, `j${++n}`);

const place = (seat: 'N' | 'E' | 'S' | 'W', card: string): UnstampedEvent => ({ type: 'place', seat, card });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A clock that ticks one second per call, so `at` values are predictable. */
function fakeClock(start = Date.parse('2025-03-14T19:00:00Z')) {
  let t = start;
  return () => new Date((t += 1000));
}

/** A Log that records what it is told. */
function recordingLog() {
  const entries: { level: string; obj: object; msg?: string }[] = [];
  const rec = (level: string) => (obj: object, msg?: string) => { entries.push({ level, obj, msg }); };
  const log: Log = { debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') };
  return { log, entries, warnings: () => entries.filter((e) => e.level === 'warn') };
}

/** Wrap real file handles to count write and fdatasync calls, hold fdatasync at a gate, or fail a write. */
function instrumentedFs() {
  const counts = { writes: 0, datasyncs: 0 };
  let gate: Promise<void> | null = null;
  let failNextWrite = false;
  const fs: JournalFs = {
    async open(path, flags, mode) {
      const fh = await fsp.open(path, flags, mode);
      return new Proxy(fh, {
        get(target, prop) {
          if (prop === 'datasync') {
            return async () => {
              counts.datasyncs++;
              if (gate) await gate;
              return target.datasync();
            };
          }
          if (prop === 'write') {
            return async (buf: Buffer, off = 0, len = buf.length - off) => {
              counts.writes++;
              if (failNextWrite) {
                failNextWrite = false;
                // Half the bytes reach the file, then the device fails: the journal must not leave them there.
                await target.write(buf, off, Math.floor(len / 2));
                throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
              }
              return target.write(buf, off, len);
            };
          }
          const v = Reflect.get(target, prop, target) as unknown;
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    },
    // `fsync: always` writes and flushes synchronously, through these.
    writeSync(fd, buf, off, len) {
      counts.writes++;
      if (failNextWrite) {
        failNextWrite = false;
        writeSync(fd, buf, off, Math.floor(len / 2));
        throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      }
      return writeSync(fd, buf, off, len);
    },
    fdatasyncSync(fd) {
      counts.datasyncs++;
      fdatasyncSync(fd);
    },
  };
  return {
    fs,
    counts,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((r) => { release = r; });
      return () => { gate = null; release(); };
    },
    failNextWrite() { failNextWrite = true; },
  };
}

/** Every line of the file is complete JSON and the file ends with a newline. */
function expectCleanFile(path: string): object[] {
  const text = readFileSync(path, 'utf8');
  if (text === '') return [];
  expect(text.endsWith('\n'), 'file must end with a newline').toBe(true);
  return text.slice(0, -1).split('\n').map((l) => JSON.parse(l) as object);
}

describe('append and reopen', () => {
  it('stamps seq from 1 and at from the clock, and a reopen restores lastSeq and the events', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, { session: 's1', now: fakeClock() });
    expect(j.lastSeq).toBe(0);
    const a = await j.append(place('N', 'SA'));
    const b = await j.append({ type: 'lift', seat: 'N', card: 'SA' });
    expect(a).toEqual({ seq: 1, at: '2025-03-14T19:00:01.000Z', type: 'place', seat: 'N', card: 'SA' });
    expect(b.seq).toBe(2);
    expect(j.lastSeq).toBe(2);
    await j.close();
    await expect(j.append(place('E', 'H2'))).rejects.toMatchObject({ code: 'closed' });

    const lines = expectCleanFile(join(dir, 's1.ndjson'));
    expect(lines).toEqual([a, b]);

    const again = await Journal.open(dir, { now: fakeClock() });
    expect(again.session).toBe('s1');
    expect(again.lastSeq).toBe(2);
    expect(again.events()).toEqual([a, b]);
    expect(again.events(1)).toEqual([b]);
    const c = await again.append(place('E', 'H2'));
    expect(c.seq).toBe(3);
    await again.close();
  });

  it('rejects an invalid event with a message naming the field, without using up a seq', async () => {
    const j = await Journal.open(freshDir(), { session: 's' });
    await expect(j.append({ type: 'place', seat: 'X', card: 'SA' } as unknown as UnstampedEvent))
      .rejects.toThrow('journal: event not written: "seat" must be one of N, E, S, W (got "X")');
    await expect(j.append({ type: 'claim', seat: 'S', tricks: 14 })).rejects.toMatchObject({ code: 'invalid-event', message: expect.stringContaining('"tricks"') });
    expect((await j.append(place('S', 'D3'))).seq).toBe(1);
    await j.close();
  });

  it('replaces a caller\'s own seq and at', async () => {
    const j = await Journal.open(freshDir(), { session: 's', now: fakeClock() });
    const ev = await j.append({ ...place('W', 'C2'), seq: 99, at: '1999-01-01T00:00:00Z' } as unknown as UnstampedEvent);
    expect(ev.seq).toBe(1);
    expect(ev.at).toBe('2025-03-14T19:00:01.000Z');
    await j.close();
  });

  it('refuses, without throwing, an event it cannot stamp or serialise, and a session name that is not a file name', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, { session: 's', now: () => new Date(Number.NaN) });
    await expect(j.append(place('N', 'SA'))).rejects.toMatchObject({ code: 'invalid-event' });
    await j.close();
    const k = await Journal.open(dir, { session: 's' });
    await expect(k.append({ type: 'tray', code: '7', extra: 1n } as unknown as UnstampedEvent)).rejects.toMatchObject({ code: 'invalid-event' });
    expect((await k.append(place('N', 'SA'))).seq).toBe(1);
    await k.close();
    await expect(Journal.open(dir, { session: '../x' })).rejects.toMatchObject({ code: 'session' });
  });

  it('names a new journal\'s session after the clock\'s date', async () => {
    const j = await Journal.open(freshDir(), { now: () => new Date(2025, 2, 14, 19, 30) });
    expect(j.session).toBe('2025-03-14');
    await j.close();
  });
});

describe('torn last line', () => {
  async function journalWith3(dir: string): Promise<{ bytes: number; events: TableEvent[] }> {
    const j = await Journal.open(dir, { session: 's', now: fakeClock() });
    const events = [await j.append(place('N', 'SA')), await j.append(place('E', 'S2')), await j.append(place('S', 'S3'))];
    await j.close();
    return { bytes: statSync(join(dir, 's.ndjson')).size, events };
  }

  it('cuts half a JSON line, warns, counts it, keeps the rest and continues the seq', async () => {
    const dir = freshDir();
    const { bytes, events } = await journalWith3(dir);
    appendFileSync(join(dir, 's.ndjson'), '{"seq":4,"at":"2025-03-14T19:00:04.000Z","type":"pla');
    const rec = recordingLog();
    const j = await Journal.open(dir, { log: rec.log });
    expect(j.stats.tornLinesTruncated).toBe(1);
    expect(rec.warnings()).toHaveLength(1);
    expect(rec.warnings()[0].msg).toMatch(/torn last line/);
    expect(rec.warnings()[0].obj).toMatchObject({ file: join(dir, 's.ndjson'), lastSeq: 3 });
    expect(statSync(join(dir, 's.ndjson')).size).toBe(bytes);
    expect(j.lastSeq).toBe(3);
    expect(j.events()).toEqual(events);
    expect((await j.append(place('W', 'S4'))).seq).toBe(4);
    await j.close();
    expect(expectCleanFile(join(dir, 's.ndjson')).map((e) => (e as TableEvent).seq)).toEqual([1, 2, 3, 4]);
  });

  it('cuts a complete JSON line that lacks its newline: that write never finished', async () => {
    const dir = freshDir();
    const { bytes } = await journalWith3(dir);
    appendFileSync(join(dir, 's.ndjson'), '{"seq":4,"at":"2025-03-14T19:00:04.000Z","type":"tray","code":"7"}');
    const rec = recordingLog();
    const j = await Journal.open(dir, { log: rec.log });
    expect(j.stats.tornLinesTruncated).toBe(1);
    expect(rec.warnings()).toHaveLength(1);
    expect(j.lastSeq).toBe(3);
    expect(statSync(join(dir, 's.ndjson')).size).toBe(bytes);
    await j.close();
  });

  it('cuts NUL-filled blocks left by a power cut, and a torn batch down to its last complete line', async () => {
    const dir = freshDir();
    await journalWith3(dir);
    appendFileSync(join(dir, 's.ndjson'), '{"seq":4,"at":"2025-03-14T19:00:04.000Z","type":"tray","code":"7"}\n\0\0\0\0\0\0\n{"seq":6,"a');
    const j = await Journal.open(dir, { log: recordingLog().log });
    expect(j.stats.tornLinesTruncated).toBe(2);
    // seq 4 was written whole by the interrupted batch: it is an event the table saw, and it is kept.
    expect(j.lastSeq).toBe(4);
    expect((await j.append(place('E', 'H4'))).seq).toBe(5);
    await j.close();
    expect(expectCleanFile(join(dir, 's.ndjson'))).toHaveLength(5);
  });

  it('keeps (and skips) a bad line in the middle rather than cut acknowledged events after it', async () => {
    const dir = freshDir();
    const path = join(dir, 's.ndjson');
    await journalWith3(dir);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(1, 0, 'this is not json');
    writeFileSync(path, lines.join('\n'));
    const before = readFileSync(path);
    const rec = recordingLog();
    const j = await Journal.open(dir, { log: rec.log });
    expect(j.stats.tornLinesTruncated).toBe(0);
    expect(j.stats.badLines).toBe(1);
    expect(rec.entries.some((e) => e.level === 'error' && JSON.stringify(e.obj).includes('"line":2'))).toBe(true);
    expect(j.events().map((e) => e.seq)).toEqual([1, 2, 3]);
    await j.close();
    expect(readFileSync(path)).toEqual(before);
  });

  it('repairs a torn tail in an older session too, and seq continues past it', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, { session: 'old' });
    for (let i = 0; i < 3; i++) await j.append(place('N', 'SA'));
    await j.close();
    appendFileSync(join(dir, 'old.ndjson'), '{"seq":4,"at":"20');
    const k = await Journal.open(dir, { session: 'new' });
    expect(k.stats.tornLinesTruncated).toBe(1);
    expect(k.lastSeq).toBe(3);
    expect((await k.append(place('E', 'S2'))).seq).toBe(4);
    await k.close();
    expectCleanFile(join(dir, 'old.ndjson'));
  });
});

describe('group commit', () => {
  it('writes the appends of one window with one write and one fdatasync, and resolves none before it', async () => {
    const io = instrumentedFs();
    const j = await Journal.open(freshDir(), { session: 's', fsync: 'group', groupCommitMs: 100, fs: io.fs });
    const release = io.hold();
    const resolved: number[] = [];
    const first = [0, 1, 2, 3, 4].map(() => j.append(place('N', 'SA')).then((e) => { resolved.push(e.seq!); return e; }));
    await sleep(10);
    // Still inside the window: these join the same batch.
    const second = [0, 1, 2, 3, 4].map(() => j.append(place('E', 'HA')).then((e) => { resolved.push(e.seq!); return e; }));
    for (let t = 0; io.counts.datasyncs === 0 && t < 100; t++) await sleep(10);
    expect(io.counts).toEqual({ writes: 1, datasyncs: 1 });
    await sleep(30);
    expect(resolved, 'no append may resolve before its batch is flushed').toEqual([]);
    expect(j.lastSeq).toBe(0);
    expect(j.events()).toEqual([]);
    release();
    const all = await Promise.all([...first, ...second]);
    expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(resolved).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(io.counts).toEqual({ writes: 1, datasyncs: 1 });
    expect(j.stats).toMatchObject({ appended: 10, writes: 1, fsyncs: 1 });

    // A later window is a second batch.
    await Promise.all([j.append(place('S', 'DA')), j.append(place('W', 'CA'))]);
    expect(io.counts).toEqual({ writes: 2, datasyncs: 2 });
    await j.close();
  });

  it('"always" gives each append its own write and fdatasync', async () => {
    const io = instrumentedFs();
    const j = await Journal.open(freshDir(), { session: 's', fsync: 'always', fs: io.fs });
    const evs = await Promise.all([0, 1, 2, 3, 4].map(() => j.append(place('N', 'SA'))));
    expect(evs.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(io.counts).toEqual({ writes: 5, datasyncs: 5 });
    await j.close();
  });

  it('"always" writes and flushes on the event loop, and resolves each append only after its own flush', async () => {
    const order: string[] = [];
    const fs: JournalFs = {
      open: (p, f, m) => fsp.open(p, f, m),
      writeSync: (fd, buf, off, len) => { order.push(`write ${buf.toString('utf8', off, off + len).match(/"seq":(\d+)/)![1]}`); return writeSync(fd, buf, off, len); },
      fdatasyncSync: (fd) => { order.push('flush'); fdatasyncSync(fd); },
    };
    const j = await Journal.open(freshDir(), { session: 's', fsync: 'always', fs });
    const done = [1, 2].map(() => j.append(place('N', 'SA')).then((e) => { order.push(`resolved ${e.seq}`); }));
    // Written and flushed within the microtasks of the call: no thread-pool round trip before the flush.
    await Promise.resolve();
    await Promise.resolve();
    expect(order.slice(0, 2)).toEqual(['write 1', 'flush']);
    await Promise.all(done);
    expect(order).toEqual(['write 1', 'flush', 'resolved 1', 'write 2', 'flush', 'resolved 2']);
    await j.close();
  });

  it('close() flushes a batch still waiting for its timer', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, { session: 's', fsync: 'group', groupCommitMs: 1000 });
    const p = j.append(place('N', 'SA'));
    await j.close();
    await expect(p).resolves.toMatchObject({ seq: 1 });
    expect(expectCleanFile(join(dir, 's.ndjson'))).toHaveLength(1);
  });
});

describe('write failures', () => {
  it('rejects the batch, cuts the half-written bytes, and the next append lands on a clean line', async () => {
    const dir = freshDir();
    const io = instrumentedFs();
    const rec = recordingLog();
    const j = await Journal.open(dir, { session: 's', fs: io.fs, log: rec.log });
    await j.append(place('N', 'SA'));
    io.failNextWrite();
    await expect(j.append(place('E', 'S2'))).rejects.toMatchObject({ code: 'io', message: expect.stringContaining('EIO') });
    const c = await j.append(place('S', 'S3'));
    await j.close();
    expect(j.stats.failedWrites).toBe(1);
    expect(rec.entries.some((e) => e.level === 'error')).toBe(true);
    // The failed event's seq is not reused: seqs stay strictly increasing, with a gap where nothing was acknowledged.
    expect(c.seq).toBe(3);
    expect(expectCleanFile(join(dir, 's.ndjson')).map((e) => (e as TableEvent).seq)).toEqual([1, 3]);
  });
});

describe('rotation', () => {
  it('continues seq across sessions, and every session file replays on its own', async () => {
    const dir = freshDir();
    // A group window long enough that the append just before rotate() is still waiting when rotate() is called.
    const j = await Journal.open(dir, { session: 'afternoon', now: fakeClock(), fsync: 'group', groupCommitMs: 50 });
    await j.append({ type: 'deal', board: 1, variant: 'duplicate-whist', dealer: 'W' });
    await j.append(place('N', 'SA'));
    // Appends made before rotate() go to the old session even though they are still waiting to be written.
    const pending = j.append(place('E', 'S2'));
    const rotated = j.rotate('evening');
    const after = j.append({ type: 'deal', board: 2, variant: 'duplicate-whist', dealer: 'N' });
    expect(await rotated).toBe('evening');
    expect((await pending).seq).toBe(3);
    expect((await after).seq).toBe(4);
    expect(j.session).toBe('evening');
    expect(j.events().map((e) => e.seq)).toEqual([4]);
    expect((await j.readSession('afternoon')).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await j.sessions()).map((s) => [s.session, s.current, s.lastSeq])).toEqual([['afternoon', false, 3], ['evening', true, 4]]);
    await expect(j.rotate('evening')).rejects.toMatchObject({ code: 'session' });
    await expect(j.rotate('../etc/passwd')).rejects.toMatchObject({ code: 'session' });
    await j.close();

    // The old session is a plain table log.
    const old = parseTableLog(readFileSync(join(dir, 'afternoon.ndjson'), 'utf8'));
    expect(old.errors).toEqual([]);
    expect(old.events.map((e) => e.seq)).toEqual([1, 2, 3]);

    // A restart continues the session it was in; naming an older one continues that, with seq still rising.
    const k = await Journal.open(dir, { now: fakeClock() });
    expect([k.session, k.lastSeq]).toEqual(['evening', 4]);
    await k.close();
    const m = await Journal.open(dir, { session: 'afternoon', now: fakeClock() });
    expect((await m.append(place('W', 'C2'))).seq).toBe(5);
    await m.close();
    expect(parseTableLog(readFileSync(join(dir, 'afternoon.ndjson'), 'utf8')).errors).toEqual([]);
  });

  it('names an unnamed new session after the date, made unique', async () => {
    const dir = freshDir();
    const now = () => new Date(2025, 2, 14, 20, 0);
    const j = await Journal.open(dir, { now });
    expect(j.session).toBe('2025-03-14');
    expect(await j.rotate()).toBe('2025-03-14-2');
    await j.close();
  });
});

describe('replay', () => {
  it('a journal file replays through the engine to the same result as the events appended', async () => {
    const dir = freshDir();
    const seed = parseTableLog(readFileSync(join(root, 'test/fixtures/seed-hands/hand1.ndjson'), 'utf8'));
    expect(seed.errors).toEqual([]);
    const j = await Journal.open(dir, { session: 'hand1', fsync: 'group', groupCommitMs: 1 });
    // Appended concurrently, as a burst from the hardware would be; seq order is call order.
    const appended = await Promise.all(seed.events.map((ev) => {
      const { seq: _s, at: _a, ...body } = ev;
      return j.append(body as UnstampedEvent);
    }));
    await j.close();
    expect(appended.map((e) => e.seq)).toEqual(seed.events.map((_, i) => i + 1));

    const fromFile = parseTableLog(readFileSync(join(dir, 'hand1.ndjson'), 'utf8'));
    expect(fromFile.errors).toEqual([]);
    const fromJournal = replay(fromFile.events);
    expect(fromJournal).toEqual(replay(appended));
    // And the play itself is the seed hand's: same tricks, same result.
    const original = replay(seed.events);
    expect(fromJournal.deals.map((d) => [d.tricks, d.tricksWon, d.scored])).toEqual(original.deals.map((d) => [d.tricks, d.tricksWon, d.scored]));
    expect(fromJournal.deals[0].tricks).toHaveLength(13);

    // The deal in progress is rebuilt from events() after a restart.
    const k = await Journal.open(dir);
    expect(replay(k.events())).toEqual(fromJournal);
    await k.close();
  });
});

describe('folder lock', () => {
  it('refuses a second writer while the first is open, and frees the folder on close', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, { session: 's' });
    await expect(Journal.open(dir, { session: 's' })).rejects.toThrow(/is in use by process \d+/);
    await j.close();
    const k = await Journal.open(dir, { session: 's' });
    await k.close();
  });

  it('takes over the lock of a process that is gone (after a crash)', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, { session: 's' });
    await j.append(place('N', 'SA'));
    await j.close();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(dir, 'LOCK'), JSON.stringify({ pid: dead }) + '\n');
    const k = await Journal.open(dir, { session: 's' });
    expect(k.lastSeq).toBe(1);
    await k.close();
    expect(readdirSync(dir)).not.toContain('LOCK');
  });
});

describe('DeliveryMark', () => {
  it('starts at 0, advances durably and atomically, and reloads', async () => {
    const dir = freshDir();
    await fsp.mkdir(dir, { recursive: true });
    const m = await DeliveryMark.load(dir, 'evening');
    expect(m.seq).toBe(0);
    await m.advance(7);
    expect(m.seq).toBe(7);
    expect(JSON.parse(readFileSync(join(dir, 'evening.delivered'), 'utf8'))).toEqual({ session: 'evening', seq: 7 });
    // Going back is ignored: a late PUBACK never moves the mark backwards.
    await m.advance(3);
    await m.close();
    expect((await DeliveryMark.load(dir, 'evening')).seq).toBe(7);
  });

  it('folds a burst of advances into few writes and ends at the highest', async () => {
    const dir = freshDir();
    await fsp.mkdir(dir, { recursive: true });
    const m = await DeliveryMark.load(dir, 's');
    await Promise.all(Array.from({ length: 50 }, (_, i) => m.advance(i + 1)));
    expect(m.seq).toBe(50);
    await m.close();
    expect((await DeliveryMark.load(dir, 's')).seq).toBe(50);
    expect(readdirSync(dir)).toEqual(['s.delivered']);
  });

  it('reads an unreadable mark as 0 (resend all; subscribers de-duplicate by seq), with a warning', async () => {
    const dir = freshDir();
    await fsp.mkdir(dir, { recursive: true });
    writeFileSync(join(dir, 's.delivered'), '{"seq":');
    const rec = recordingLog();
    expect((await DeliveryMark.load(dir, 's', rec.log)).seq).toBe(0);
    expect(rec.warnings()).toHaveLength(1);
  });
});

describe('release', () => {
  it('forgets released events from memory only: events() reads them back from the file, equal to what was appended', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, { session: 's', now: fakeClock(), fsync: 'group', groupCommitMs: 1 });
    const cards = ['2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C'];
    const appended = await Promise.all(Array.from({ length: 700 }, (_, i) => j.append(place('NESW'[i % 4] as 'N', cards[i % 8]))));
    const memory = () => (j as unknown as { current: TableEvent[] }).current.length;
    // Nothing released yet: every read is from memory, even one from before the first seq.
    const lazy = j as unknown as { eventsAfter: (after: number) => Generator<TableEvent> };
    const read = lazy.eventsAfter.bind(j);
    let fileReads = 0;
    lazy.eventsAfter = (after) => { fileReads++; return read(after); };
    expect(j.events(-1)).toEqual(appended);
    expect(fileReads).toBe(0);
    // Fewer than a chunk to forget: kept.
    j.release(100);
    expect(memory()).toBe(700);
    j.release(500);
    expect(memory()).toBe(200);
    expect(j.events()).toEqual(appended);
    expect(fileReads).toBe(1);
    expect(j.events(450)).toEqual(appended.slice(450));
    expect(j.events(500)).toEqual(appended.slice(500));
    expect(j.events(650)).toEqual(appended.slice(650));
    expect(Object.isFrozen(j.events(10)[0])).toBe(true);
    expect(await j.readSession('s', 0)).toEqual(appended);
    // Appends after the release land in memory and in the file alike.
    const more = await j.append(place('N', 'AS'));
    expect(j.events(698)).toEqual([appended[698], appended[699], more]);
    expect(j.events(0).at(-1)).toEqual(more);
    await j.close();
  });
});
