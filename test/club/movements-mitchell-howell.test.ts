// The pair movements clubs run today: the Mitchell (skip and relay-and-bye-stand for even tables) and the complete
// Howell (Room squares from 8 pairs; 4 and 6 pairs share a set in turn; a phantom pair for odd numbers). The seed
// (Foster 1914) names the "Howell Pair System" and states what it promises: "at the end of the game he will have
// had every other pair in the game for an adversary once, and will have played all the hands dealt".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { movement as howell } from '../../src/club/movements/howell.js';
import { checkSchedule } from '../../src/club/movements/invariants.js';
import { movement as mitchell } from '../../src/club/movements/mitchell.js';
import { howellFrame, starterAdder } from '../../src/club/movements/room-square.js';
import type { Schedule } from '../../src/club/types.js';
import { refused, trayProblems } from './schedule-checks.js';

const pairKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** Every broken invariant of a pair movement's schedule, as sentences (empty when sound). */
function problems(s: Schedule): string[] {
  const out: string[] = [];
  const played = new Map<string, Set<number>>();
  for (const r of s.rounds) {
    const seen = new Set<string>();
    const tables = new Set<number>();
    for (const t of r.tables) {
      if (tables.has(t.table)) out.push(`round ${r.round}: table ${t.table} twice`);
      tables.add(t.table);
      if (t.ns === undefined || t.ew === undefined) { out.push(`round ${r.round} table ${t.table}: a side is missing`); continue; }
      if (t.ns === t.ew) out.push(`round ${r.round} table ${t.table}: ${t.ns} meets itself`);
      for (const id of [t.ns, t.ew]) {
        if (!s.participants.includes(id)) out.push(`round ${r.round}: ${id} is not a participant`);
        if (seen.has(id)) out.push(`round ${r.round}: ${id} sits at two tables`);
        seen.add(id);
      }
      if (t.original?.length !== t.trays.length) out.push(`round ${r.round} table ${t.table}: original[] does not match trays`);
      for (const tray of t.trays) {
        if (tray === null) continue;
        for (const id of [t.ns, t.ew]) {
          const mine = played.get(id) ?? new Set<number>();
          if (mine.has(tray)) out.push(`round ${r.round}: ${id} plays tray ${tray} twice`);
          mine.add(tray);
          played.set(id, mine);
        }
      }
    }
  }
  out.push(...trayProblems(s));
  return out;
}

/** How many times each pair of pairs met. */
function meetings(s: Schedule): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of s.rounds) for (const t of r.tables) out.set(pairKey(t.ns!, t.ew!), (out.get(pairKey(t.ns!, t.ew!)) ?? 0) + 1);
  return out;
}

/** The board sets (by first tray) each pair played. */
function setsOf(s: Schedule): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of s.rounds) {
    for (const t of r.tables) {
      const set = Math.ceil(Math.min(...(t.trays.filter((x) => x !== null) as number[])) / s.boardsPerRound);
      for (const id of [t.ns!, t.ew!]) out.set(id, [...(out.get(id) ?? []), set]);
    }
  }
  return out;
}


describe('mitchell (modern club practice)', () => {
  const ewTable = (s: Schedule, r: number, id: string): number => s.rounds[r].tables.find((t) => t.ew === id)!.table;

  it('odd tables: N-S sit still, E-W move up one table, boards down one table; every pair meets every opposite pair and set once', () => {
    for (const n of [3, 5, 7, 9]) {
      const s = mitchell.generate({ tables: n, boardsPerRound: 3 });
      expect(problems(s)).toEqual([]);
      expect(s.rounds).toHaveLength(n);
      expect(s.options).toBeUndefined();
      for (let r = 0; r < n; r++) {
        for (const t of s.rounds[r].tables) expect(t.ns).toBe(`${t.table}NS`);
        if (r + 1 === n) continue;
        for (let p = 1; p <= n; p++) expect(ewTable(s, r + 1, `${p}EW`)).toBe((ewTable(s, r, `${p}EW`) % n) + 1);
        for (const t of s.rounds[r].tables) {
          const down = s.rounds[r + 1].tables.find((x) => x.table === (t.table === 1 ? n : t.table - 1))!;
          expect(down.trays).toEqual(t.trays);
        }
      }
      const met = meetings(s);
      expect(met.size).toBe(n * n);
      expect([...met.values()].every((v) => v === 1)).toBe(true);
      for (const sets of setsOf(s).values()) expect(new Set(sets).size).toBe(n);
    }
  });

  it('even=skip (the default): E-W skip a table after half the rounds; tables - 1 rounds, nobody meets a pair or a board twice', () => {
    for (const n of [4, 6, 8, 10]) {
      const s = mitchell.generate({ tables: n });
      expect(s.options).toEqual({ even: 'skip' });
      expect(problems(s)).toEqual([]);
      expect(s.rounds).toHaveLength(n - 1);
      for (let r = 0; r + 1 < s.rounds.length; r++) {
        const step = r === n / 2 - 1 ? 2 : 1;
        for (let p = 1; p <= n; p++) expect(ewTable(s, r + 1, `${p}EW`)).toBe(((ewTable(s, r, `${p}EW`) - 1 + step) % n) + 1);
      }
      expect([...meetings(s).values()].every((v) => v === 1)).toBe(true);
    }
  });

  it('even=relay: a bye stand between tables N/2 and N/2+1, tables 1 and N share a set in turn; everyone meets everyone and every set', () => {
    for (const n of [2, 4, 6, 8, 10, 12]) {
      const s = mitchell.generate({ tables: n, boardsPerRound: 2, options: { even: 'relay' } });
      expect(problems(s)).toEqual([]);
      expect(s.rounds).toHaveLength(n);
      for (const r of s.rounds) {
        const first = r.tables.find((t) => t.table === 1)!.trays;
        const last = r.tables.find((t) => t.table === n)!.trays;
        expect([...first].sort()).toEqual([...last].sort());
        expect(first).not.toEqual(last);
        const inPlay = new Set(r.tables.flatMap((t) => t.trays));
        expect(inPlay.size).toBe((n - 1) * 2); // one set of the n is on the bye stand
      }
      const met = meetings(s);
      expect(met.size).toBe(n * n);
      for (const [id, sets] of setsOf(s)) if (id.endsWith('EW')) expect(new Set(sets).size, id).toBe(n);
    }
    // One board a round: the relay waits a slot rather than hold a tray at two tables at once.
    expect(problems(mitchell.generate({ tables: 4, boardsPerRound: 1, options: { even: 'relay' } }))).toEqual([]);
  });

  it('refuses what it cannot do, naming the fix', () => {
    refused(mitchell, { tables: 1 }, /tables: 1 is too few for a mitchell; give 2 or more tables/);
    refused(mitchell, { tables: 4, options: { even: 'bye' } }, /option even: "bye" .*even=skip or even=relay/);
    refused(mitchell, { tables: 4, options: { method: 1 } }, /option method: .*--option even=/);
    refused(mitchell, { tables: 2.5 }, /tables: 2.5 is not a number of tables/);
    refused(mitchell, { tables: 2 }, /a single round in which no board is overplayed; give --option even=relay/);
  });

  it('property: every table count from 2 to 16, both even forms, 1-4 boards a round keeps the invariants', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 16 }), fc.constantFrom('skip', 'relay'), fc.integer({ min: 1, max: 4 }), (n, even, b) => {
      fc.pre(n > 2 || even === 'relay');
      const s = mitchell.generate({ tables: n, boardsPerRound: b, options: { even } });
      expect(problems(s)).toEqual([]);
      expect([...meetings(s).values()].every((v) => v === 1)).toBe(true);
      for (const sets of setsOf(s).values()) expect(new Set(sets).size).toBe(sets.length);
    }), { numRuns: 120 });
  });
});

describe('howell: "he will have had every other pair in the game for an adversary once, and will have played all the hands dealt"', () => {
  it('Room squares: every side from 7 to 41 has a starter and adder, and the frame is a Room square', () => {
    for (let n = 7; n <= 41; n += 2) {
      expect(starterAdder(n), `side ${n}`).not.toBeNull();
      const f = howellFrame(n);
      expect(f.rounds).toHaveLength(n);
      const pairs = new Set<string>();
      const columns = Array.from({ length: n }, () => new Set<number>());
      for (const round of f.rounds) {
        const symbols = new Set<number>();
        const sets = new Set<number>();
        for (const m of round) {
          symbols.add(m.a).add(m.b);
          sets.add(m.set);
          pairs.add(`${Math.min(m.a, m.b)}-${Math.max(m.a, m.b)}`);
          for (const x of [m.a, m.b]) {
            expect(columns[m.set].has(x)).toBe(false);
            columns[m.set].add(x);
          }
        }
        expect(symbols.size).toBe(n + 1); // a round is a perfect matching
        expect(sets.size).toBe(round.length); // no set twice in a round
      }
      expect(pairs.size).toBe(((n + 1) * n) / 2); // every pair once
      for (const c of columns) expect(c.size).toBe(n + 1); // every set meets every symbol once
    }
  });

  it('the frame is deterministic: the same side gives the same square', () => {
    expect(JSON.stringify(howell.generate({ tables: 5 }))).toEqual(JSON.stringify(howell.generate({ tables: 5 })));
    expect(starterAdder(9)).toEqual(starterAdder(9));
  });

  it('4 pairs (2 tables) and 6 pairs (3 tables): no Room square exists, so tables share a set and play it in turn', () => {
    const four = howell.generate({ tables: 2, boardsPerRound: 2 });
    expect(problems(four)).toEqual([]);
    expect(four.rounds).toHaveLength(3);
    for (const r of four.rounds) {
      expect(new Set(r.tables.flatMap((t) => t.trays))).toEqual(new Set(r.tables[0].trays));
      expect(r.notes?.join(' ')).toMatch(/Tables 1 and 2 share set/);
    }
    const six = howell.generate({ tables: 3, boardsPerRound: 2 });
    expect(problems(six)).toEqual([]);
    const shared = six.rounds.filter((r) => new Set(r.tables.map((t) => Math.min(...(t.trays.filter((x) => x !== null) as number[])))).size < 3);
    expect(shared.length).toBeGreaterThanOrEqual(1);
    expect(shared.length).toBeLessThan(5);
  });

  it('from 8 pairs on, no board set is at two tables in a round', () => {
    for (let t = 4; t <= 12; t++) {
      const s = howell.generate({ tables: t, boardsPerRound: 1 });
      for (const r of s.rounds) {
        const sets = r.tables.map((x) => x.trays[0]);
        expect(new Set(sets).size).toBe(t);
        expect(r.tables.every((x) => x.trays.length === 1)).toBe(true);
      }
    }
  });

  it('even pairs: every pair meets every other once and plays every set once; arrows balanced (N-S in T-1 or T rounds)', () => {
    for (let t = 2; t <= 20; t++) {
      const s = howell.generate({ tables: t });
      expect(problems(s), `${t} tables`).toEqual([]);
      expect(s.participants).toHaveLength(2 * t);
      expect(s.rounds).toHaveLength(2 * t - 1);
      const met = meetings(s);
      expect(met.size).toBe(t * (2 * t - 1));
      expect([...met.values()].every((v) => v === 1)).toBe(true);
      for (const sets of setsOf(s).values()) expect(new Set(sets).size).toBe(2 * t - 1);
      const ns = new Map<string, number>();
      for (const r of s.rounds) for (const x of r.tables) ns.set(x.ns!, (ns.get(x.ns!) ?? 0) + 1);
      for (const id of s.participants) expect(ns.get(id) ?? 0).toBeGreaterThanOrEqual(t - 1);
      for (const id of s.participants) expect(ns.get(id) ?? 0).toBeLessThanOrEqual(t);
      // Pairs change direction, so they are numbered (not named 1NS, 1EW): 2t - 1 and 2t start at table t.
      for (const x of s.rounds[0].tables) expect([x.ns, x.ew]).toEqual([String(2 * x.table - 1), String(2 * x.table)]);
      expect(s.participants).toEqual(Array.from({ length: 2 * t }, (_, i) => String(i + 1)));
      // And every pair does sit both ways (the reason a direction in its name would mislead).
      for (const id of s.participants) expect(s.rounds.some((r) => r.tables.some((x) => x.ew === id)), id).toBe(true);
    }
  });

  it('odd pairs (a phantom): one pair sits out each round, named in the notes; every real pair meets every other once', () => {
    for (let t = 2; t <= 20; t++) {
      const pairs = 2 * t + 1;
      const s = howell.generate({ tables: t, options: { pairs } });
      expect(problems(s), `${pairs} pairs`).toEqual([]);
      expect(s.options).toEqual({ pairs });
      expect(s.participants).toHaveLength(pairs);
      expect(s.rounds).toHaveLength(pairs);
      const met = meetings(s);
      expect(met.size).toBe((pairs * (pairs - 1)) / 2);
      expect([...met.values()].every((v) => v === 1)).toBe(true);
      const out = new Map<string, number>();
      for (const r of s.rounds) {
        expect(r.tables).toHaveLength(t);
        const playing = new Set(r.tables.flatMap((x) => [x.ns!, x.ew!]));
        const idle = s.participants.filter((p) => !playing.has(p));
        expect(idle).toHaveLength(1);
        expect(r.notes?.[0]).toMatch(new RegExp(`^Pair ${idle[0]} sits out`));
        out.set(idle[0], (out.get(idle[0]) ?? 0) + 1);
      }
      expect([...out.values()].every((v) => v === 1)).toBe(true);
      expect(out.size).toBe(pairs);
      // The set of its sit-out round is the only one a pair misses.
      for (const sets of setsOf(s).values()) expect(new Set(sets).size).toBe(pairs - 1);
    }
  });

  it('refuses what it cannot do, naming the fix', () => {
    refused(howell, { tables: 1 }, /tables: 1 is too few for a howell; give 2 or more tables \(4\+ pairs\)/);
    refused(howell, { tables: 21 }, /tables: 21 is more than a howell .*give 20 or fewer/);
    refused(howell, { tables: 3, options: { pairs: 9 } }, /option pairs: 9 does not fit 3 tables; give pairs=6 or pairs=7 .*--tables 4 for 9 pairs/);
    refused(howell, { tables: 3, options: { pairs: 'many' } }, /option pairs: many does not fit 3 tables; give pairs=6 or pairs=7 \(a phantom pair: one pair sits out each round\)$/);
    refused(howell, { tables: 3, options: { even: 'skip' } }, /option even: .*--option pairs=/);
  });

  it('property: 4 to 41 pairs, 1-3 boards a round: the invariants hold and every pair meets every other exactly once', () => {
    fc.assert(fc.property(fc.integer({ min: 4, max: 41 }), fc.integer({ min: 1, max: 3 }), (pairs, b) => {
      const s = howell.generate({ tables: Math.floor(pairs / 2), boardsPerRound: b, options: { pairs } });
      expect(problems(s)).toEqual([]);
      const met = meetings(s);
      expect(met.size).toBe((pairs * (pairs - 1)) / 2);
      expect([...met.values()].every((v) => v === 1)).toBe(true);
    }), { numRuns: 60 });
  });
});

describe('the shared schedule invariants (invariants.ts) hold for mitchell and howell', () => {
  it('mitchell at 2-16 tables (skip and relay) and howell at 4-41 pairs', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 16 }), fc.constantFrom('skip', 'relay'), fc.integer({ min: 1, max: 3 }), (n, even, b) => {
      fc.pre(n > 2 || even === 'relay');
      expect(checkSchedule(mitchell.generate({ tables: n, boardsPerRound: b, options: { even } }))).toEqual([]);
    }), { numRuns: 60 });
    fc.assert(fc.property(fc.integer({ min: 4, max: 41 }), fc.integer({ min: 1, max: 3 }), (pairs, b) => {
      expect(checkSchedule(howell.generate({ tables: Math.floor(pairs / 2), boardsPerRound: b, options: { pairs } }))).toEqual([]);
    }), { numRuns: 60 });
  });
});
