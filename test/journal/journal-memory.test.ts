// The journal keeps at most `memoryEvents` of the current session's events in memory (issue 20): an outbox far behind
// the cards (a broker down all evening) must not hold its whole backlog on a Pi with 512 MB for everything. Older
// events are read back from the file, a chunk at a time, and a reader that goes on where it stopped (the outbox) starts
// at the offset where the last read ended instead of at the top of the file.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import * as file from '../../src/journal/file.js';
import { Journal, type UnstampedEvent } from '../../src/journal/journal.js';

vi.mock('../../src/journal/file.js', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../src/journal/file.js')>();
  return { ...orig, readJournalEvents: vi.fn(orig.readJournalEvents) };
});

const base = mkdtempSync(join(tmpdir(), 'tenace-journal-memory-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(base, `j${++n}`);
const CARDS = ['2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C', 'TC', 'JC', 'QC', 'KC', 'AC'];
const place = (i: number): UnstampedEvent => ({ type: 'place', seat: 'NESW'[i % 4] as 'N', card: CARDS[i % 13] });
const inMemory = (j: Journal) => (j as unknown as { current: TableEvent[] }).current.length;
const reads = vi.mocked(file.readJournalEvents);

async function filled(count: number, memoryEvents: number): Promise<{ j: Journal; appended: TableEvent[] }> {
  const j = await Journal.open(freshDir(), { session: 's', fsync: 'group', groupCommitMs: 1, memoryEvents });
  const appended = await Promise.all(Array.from({ length: count }, (_, i) => j.append(place(i))));
  return { j, appended };
}

describe('the journal\'s events in memory are bounded', () => {
  it('holds at most memoryEvents (and a chunk) however many are appended; every read gives back what was appended', async () => {
    const { j, appended } = await filled(1500, 100);
    expect(inMemory(j)).toBeLessThanOrEqual(100 + 256);
    expect(inMemory(j)).toBeGreaterThanOrEqual(100);
    expect(j.events(-1)).toEqual(appended);
    for (const after of [0, 1, 99, 700, 1100, 1250, 1499, 1500]) expect(j.events(after), `after ${after}`).toEqual(appended.slice(after));
    expect([...j.eventsAfter(640)]).toEqual(appended.slice(640));
    expect(Object.isFrozen(j.events(3)[0])).toBe(true);
    const more = await j.append(place(7));
    expect(j.events(1498)).toEqual([appended[1498], appended[1499], more]);
    await j.close();
  });

  it('an outbox reading on from where it stopped starts at the offset of its last read, not at the top of the file', async () => {
    const { j, appended } = await filled(1200, 50);
    reads.mockClear();
    let folded = 0;
    const got: TableEvent[] = [];
    for (;;) {
      const batch: TableEvent[] = [];
      for (const ev of j.eventsAfter(folded)) {
        batch.push(ev);
        if (batch.length === 64) break;
      }
      if (batch.length === 0) break;
      got.push(...batch);
      folded = batch.at(-1)!.seq!;
    }
    expect(got).toEqual(appended);
    const froms = reads.mock.calls.map((c) => c[1]);
    expect(froms[0], 'the first read starts at the top').toBe(0);
    expect(froms.slice(1).every((f) => f > 0), 'every later read starts past the top').toBe(true);
    expect(froms.slice(1)).toEqual([...froms.slice(1)].sort((a, b) => a - b));
    // A reader that goes back (a query for old events) reads from the top again, and still gets them right.
    expect(j.events(10)).toEqual(appended.slice(10));
    expect(reads.mock.calls.at(-1)![1]).toBe(0);
    await j.close();
  });

  it('lines of the file that are not events are skipped when read back, as on open', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, { session: 's', fsync: 'group', groupCommitMs: 1, memoryEvents: 10 });
    const first = await Promise.all(Array.from({ length: 5 }, (_, i) => j.append(place(i))));
    // A line from a newer version, then a blank one: kept in the file, not events.
    appendFileSync(join(dir, 's.ndjson'), '{"type":"from-the-future","seq":6}\n\n');
    (j as unknown as { durableBytes: number }).durableBytes += '{"type":"from-the-future","seq":6}\n\n'.length;
    const rest = await Promise.all(Array.from({ length: 400 }, (_, i) => j.append(place(i + 5))));
    expect(inMemory(j)).toBeLessThan(300);
    expect(j.events(0)).toEqual([...first, ...rest]);
    await j.close();
  });

  it('reads a line longer than its chunk whole (here 100 KB of spaces), and gives each event the offset past its line', () => {
    const path = join(base, 'long.ndjson');
    const a = '{"type":"place","seat":"N","card":"2C","seq":1,"at":"2025-03-14T19:00:01.000Z"}\n';
    const long = `${' '.repeat(100_000)}\n`;
    const b = '{"type":"place","seat":"E","card":"3C","seq":2,"at":"2025-03-14T19:00:02.000Z"}\n';
    appendFileSync(path, a + long + b);
    const got = [...reads.getMockImplementation()!(path, 0, a.length + long.length + b.length)];
    expect(got.map((g) => [g.event.seq, g.next])).toEqual([[1, a.length], [2, a.length + long.length + b.length]]);
    const tail = [...reads.getMockImplementation()!(path, a.length, a.length + long.length + b.length)];
    expect(tail.map((g) => g.event.seq)).toEqual([2]);
  });

  it('refuses a bound that is not a whole number of events', async () => {
    await expect(Journal.open(freshDir(), { memoryEvents: 0 })).rejects.toThrow(/memoryEvents must be a whole number of events, at least 1, not 0/);
  });
});
