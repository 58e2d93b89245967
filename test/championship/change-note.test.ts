// The note a group commit's NOTIFY carries (issue 18): which tables' results, and which other kinds, it stored, so the
// other instances read back only that. PostgreSQL drops a payload over 8,000 bytes: a note that would not fit is left
// out, and the instances read back everything, as they do for a notification of an instance without notes.
import { describe, expect, it } from 'vitest';
import { type ChangeNote, changePayload, parseChangePayload } from '../../src/club/director/store.js';
import { mergeWant } from '../../src/club/director/cluster.js';
import { enqueue } from '../../src/club/director/commit.js';
import type { DirectorState } from '../../src/club/director/state.js';

const note = (o: Partial<ChangeNote> = {}): ChangeNote => ({ results: new Set(), trays: false, assignments: false, alerts: false, decisions: false, ...o });

describe('the change note of a NOTIFY', () => {
  it('says the tables whose results were stored and the other kinds, and reads back as it was written', () => {
    const n = note({ results: new Set(['12', 'a7']), assignments: true, decisions: true });
    const p = changePayload('s1', 'dir-2', n);
    expect(p).toBe('s1\tdir-2\tad\t12,a7');
    expect(parseChangePayload(p)).toEqual({ session: 's1', instance: 'dir-2', note: n });
    expect(parseChangePayload(changePayload('s1', 'dir-2', note({ trays: true, alerts: true })))?.note).toEqual(note({ trays: true, alerts: true }));
  });

  it('is left out when it would not fit in PostgreSQL\'s 8,000 bytes, and a payload without one asks for everything', () => {
    const many = note({ results: new Set(Array.from({ length: 2000 }, (_, i) => `table-${i}`)) });
    const p = changePayload('s1', 'dir-1', many);
    expect(p).toBe('s1\tdir-1');
    expect(parseChangePayload(p)).toEqual({ session: 's1', instance: 'dir-1' });
    expect(parseChangePayload('')).toBeNull();
  });

  it('carries the results stored where they fit, in commit order, and then names no table to read back', () => {
    const r = (table: string, board: number, toSeq: number) => ({ table, fromSeq: 1, toSeq, traveller: { board, ns: `${table}NS`, ew: `${table}EW`, table: Number(table), round: 1, tricks: { NS: 7, EW: 6 } } });
    const carried = [r('12', 3, 40), r('7', 5, 41)];
    const p = changePayload('s1', 'dir-2', note({ results: new Set(['12', '7']), carried }));
    expect(p.split('\t').slice(0, 4)).toEqual(['s1', 'dir-2', '', '12,7']);
    expect(parseChangePayload(p)?.note).toEqual(note({ carried }));
    // Too many to carry: the tables alone, read back.
    const many = Array.from({ length: 80 }, (_, i) => r(String(i + 1), i + 1, 40));
    const tablesOnly = changePayload('s1', 'dir-2', note({ results: new Set(many.map((x) => x.table)), carried: many }));
    expect(Buffer.byteLength(tablesOnly)).toBeLessThan(8000);
    expect(parseChangePayload(tablesOnly)?.note).toEqual(note({ results: new Set(many.map((x) => x.table)) }));
    // What is not results as written is not taken: the tables are read back instead.
    expect(parseChangePayload('s1\tdir-2\t\t12\t[{"table":12}]')?.note).toEqual(note({ results: new Set(['12']) }));
    expect(parseChangePayload('s1\tdir-2\t\t12\tnot json')?.note).toEqual(note({ results: new Set(['12']) }));
    // Two notes merged keep their results in the order committed: the later of a key is applied last.
    const m = mergeWant(mergeWant(null, note({ carried: [carried[0]] })), note({ results: new Set(['9']), carried: [carried[1], r('12', 3, 44)] }));
    expect(m).toEqual(note({ results: new Set(['9']), carried: [carried[0], carried[1], r('12', 3, 44)] }));
  });

  it('two read-backs asked for are one: everything if either is, else what either names', () => {
    expect(mergeWant(null, 'all')).toBe('all');
    expect(mergeWant(note({ trays: true }), 'all')).toBe('all');
    expect(mergeWant('all', note())).toBe('all');
    const m = mergeWant(mergeWant(null, note({ results: new Set(['1']), trays: true })), note({ results: new Set(['2']), alerts: true }));
    expect(m).toEqual(note({ results: new Set(['1', '2']), trays: true, alerts: true }));
  });

  it('results carried go in at the serial chain\'s next step, ahead of the messages already queued', async () => {
    const st = { chain: Promise.resolve(), urgent: [], failed: false } as unknown as DirectorState;
    const order: string[] = [];
    const step = (name: string) => enqueue(st, async () => {
      order.push(name);
      await new Promise((r) => setTimeout(r, 5));
    });
    const queued = [step('message 1'), step('message 2'), step('message 3')];
    await new Promise((r) => setTimeout(r, 1));
    st.urgent.push(() => order.push('carried'));
    await Promise.all(queued);
    expect(order).toEqual(['message 1', 'carried', 'message 2', 'message 3']);
  });
});
