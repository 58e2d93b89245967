// Invariants of every movement in the registry (issue 7), as property tests over the table counts, trays a round and
// named options each movement's check() accepts: no pair meets itself, no pair plays a tray twice, every tray is at
// one table at a time, every tray is dealt once and played at least twice, and the round robins meet every pair.
// The checker itself is tested on hand-built broken schedules, so a checker that finds nothing cannot pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MOVEMENTS, movementByName } from '../../src/club/movements/index.js';
import { checkSchedule, directedMeetings, meetings, playedOnce, teamOf } from '../../src/club/movements/invariants.js';
import type { Movement, MovementOptions, Schedule } from '../../src/club/types.js';

const MAX_TABLES = 20;
/** Named choices the movements take; "phantom" stands for a howell's pairs = 2 × tables + 1. */
const OPTION_SETS: (Record<string, string | number | boolean> | 'phantom' | undefined)[] = [
  undefined, { even: 'skip' }, { even: 'relay' }, { even: 'gilman' }, { form: 'pairs' }, { form: 'individuals' },
  { method: 'regular' }, { method: 1 }, { method: 2 }, 'phantom',
];

const optionsFor = (o: (typeof OPTION_SETS)[number], tables: number): MovementOptions['options'] =>
  (o === 'phantom' ? { pairs: 2 * tables + 1 } : o);

/** Every (tables, options) in range that the movement accepts with its default trays a round. */
function accepted(m: Movement): { tables: number; options: MovementOptions['options'] }[] {
  const out: { tables: number; options: MovementOptions['options'] }[] = [];
  for (let tables = 1; tables <= MAX_TABLES; tables++) {
    for (const o of OPTION_SETS) {
      const options = optionsFor(o, tables);
      if (m.check({ tables, options }) === null) out.push({ tables, options });
    }
  }
  return out;
}

const ACCEPTED = Object.fromEntries(Object.entries(MOVEMENTS).map(([name, m]) => [name, accepted(m)]));
const WRITTEN = Object.keys(MOVEMENTS).filter((n) => ACCEPTED[n].length > 0);
const REFUSING = Object.keys(MOVEMENTS).filter((n) => ACCEPTED[n].length === 0);

/** A schedule of one table and two pairs, for the checker's own tests. */
function tiny(tables: Schedule['rounds'][number]['tables'][], extra: Partial<Schedule> = {}): Schedule {
  return {
    movement: 'test', tables: 2, kind: 'pairs', boardsPerRound: 2, trays: 2,
    rounds: tables.map((t, i) => ({ round: i + 1, tables: t })), participants: ['1NS', '1EW', '2NS', '2EW'], ...extra,
  };
}

describe('checkSchedule finds what is wrong', () => {
  const good = (): Schedule => tiny([
    [{ table: 1, ns: '1NS', ew: '1EW', trays: [1, 2] }, { table: 2, ns: '2NS', ew: '2EW', trays: [2, 1] }],
  ]);

  it('a sound schedule has no problems', () => {
    expect(checkSchedule(good())).toEqual([]);
  });

  it('a pair that meets itself', () => {
    const s = good();
    s.rounds[0].tables[1].ew = '2NS';
    expect(checkSchedule(s).join('\n')).toMatch(/2NS meets itself/);
  });

  it('a tray at two tables at once', () => {
    const s = good();
    s.rounds[0].tables[1].trays = [1, 2];
    expect(checkSchedule(s).join('\n')).toMatch(/tray 1 is also at table 1 in slot 1: a tray is at one table at a time/);
  });

  it('a pair that plays a tray twice, and one that holds the same hands twice', () => {
    const s = tiny([
      [{ table: 1, ns: '1NS', ew: '1EW', trays: [1] }, { table: 2, ns: '2NS', ew: '2EW', trays: [2] }],
      [{ table: 1, ns: '1NS', ew: '2EW', trays: [2] }, { table: 2, ns: '2NS', ew: '1EW', trays: [1] }],
    ]);
    expect(checkSchedule(s).join('\n')).toMatch(/1EW holds the same EW hands of tray 1 twice/);
    s.rounds[1].tables[1] = { table: 2, ns: '1EW', ew: '2NS', trays: [1] };
    expect(checkSchedule(s).join('\n')).toMatch(/1EW plays tray 1 twice \(round 1 and round 2\)/);
    // Memory duplicate replays on purpose, holding the other side's cards.
    expect(checkSchedule({ ...s, movement: 'memory-duplicate' }).join('\n')).not.toMatch(/1EW plays tray 1 twice/);
  });

  it('a pair at two tables in one round, an unknown pair, a pair that never plays, a tray never played', () => {
    const s = tiny([[{ table: 1, ns: '1NS', ew: '1EW', trays: [1] }, { table: 2, ns: '1NS', ew: '9EW', trays: [null] }]], { trays: 3 });
    const p = checkSchedule(s).join('\n');
    expect(p).toMatch(/1NS is also at table 1 this round/);
    expect(p).toMatch(/9EW is not one of the participants/);
    expect(p).toMatch(/participants: 2NS never sits at a table/);
    expect(p).toMatch(/tray 2 is never played/);
  });

  it('an overplay before the deal, and a tray dealt twice', () => {
    const s = tiny([
      [{ table: 1, ns: '1NS', ew: '1EW', trays: [1, 2], original: [false, true] }, { table: 2, ns: '2NS', ew: '2EW', trays: [2, 1], original: [false, true] }],
    ]);
    expect(checkSchedule(s).join('\n')).toMatch(/tray 1: overplayed at table 1 \(round 1\) before it is dealt at table 2/);
    s.rounds[0].tables[0].original = [true, true];
    expect(checkSchedule(s).join('\n')).toMatch(/tray 1: 2 original deals; a tray is dealt once/);
  });

  it('a table out of range, a round out of order', () => {
    const s = good();
    s.rounds[0].round = 2;
    s.rounds[0].tables[1].table = 3;
    const p = checkSchedule(s).join('\n');
    expect(p).toMatch(/round 2: rounds must be numbered 1, 2, ... in order/);
    expect(p).toMatch(/table 3: no such table/);
  });

  it('playedOnce names the trays nobody compares', () => {
    const s = tiny([[{ table: 1, ns: '1NS', ew: '1EW', trays: [1, 2] }, { table: 2, ns: '2NS', ew: '2EW', trays: [null, 1] }]]);
    expect(playedOnce(s)).toEqual([2]);
  });
});

describe('the registry', () => {
  it(`every name resolves to the movement of that name; refusing every count in 1..${MAX_TABLES} (not written yet): ${REFUSING.join(', ') || 'none'}`, () => {
    for (const [name, m] of Object.entries(MOVEMENTS)) {
      expect(movementByName(name)).toBe(m);
      expect(m.name).toBe(name);
      expect(m.summary.length).toBeGreaterThan(0);
    }
    expect(movementByName('toString')).toBeUndefined();
    // The seed's team and pair movements are written: they must be among the accepting ones.
    for (const n of ['compass', 'gilman', 'howell-teams', 'four-pairs', 'six-pairs', 'memory-duplicate']) expect(WRITTEN).toContain(n);
  });
});

describe.each(WRITTEN)('%s keeps the invariants at every count it accepts', (name) => {
  const m = MOVEMENTS[name];
  const cases = ACCEPTED[name];

  it(`generate agrees with check, and every schedule it makes is sound (${cases.length} table counts and options, trays a round 1-8)`, () => {
    fc.assert(fc.property(fc.constantFrom(...cases), fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }), ({ tables, options }, boardsPerRound) => {
      const opts: MovementOptions = { tables, ...(boardsPerRound !== undefined ? { boardsPerRound } : {}), ...(options ? { options } : {}) };
      const problem = m.check(opts);
      if (problem !== null) {
        expect(() => m.generate(opts)).toThrow(problem);
        return;
      }
      const s = m.generate(opts);
      expect([s.movement, s.tables, s.kind === m.kind || m.name === 'memory-duplicate']).toEqual([name, tables, true]);
      if (boardsPerRound !== undefined) expect(s.boardsPerRound).toBe(boardsPerRound);
      expect(checkSchedule(s)).toEqual([]);
      // Duplicate means every deal is compared: dealt once, played again.
      expect(playedOnce(s)).toEqual([]);
      // Plain JSON: it travels on MQTT and out of --json unchanged.
      expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    }), { numRuns: 60 });
  });
});

/** For a team movement: N-S a against E-W b, and N-S b against E-W a, on the same trays, for every two teams. */
function everyMatchBothWays(s: Schedule): void {
  const m = directedMeetings(s);
  for (let a = 1; a <= s.tables; a++) {
    for (let b = 1; b <= s.tables; b++) {
      if (a === b) continue;
      // The same trays, in whatever order the relay hands them round.
      const there = [...(m.get(`${a}NS>${b}EW`) ?? [])].sort((x, y) => x - y);
      expect(there, `${a}NS against ${b}EW`).toHaveLength(s.boardsPerRound);
      expect([...(m.get(`${b}NS>${a}EW`) ?? [])].sort((x, y) => x - y)).toEqual(there);
    }
  }
}

describe('round robins meet every pair', () => {
  const per = fc.integer({ min: 1, max: 6 });

  it('howell-teams, odd numbers: every team meets every other both ways on the same trays, and never itself', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), per, (k, b) => {
      const s = MOVEMENTS['howell-teams'].generate({ tables: 2 * k + 1, boardsPerRound: b });
      everyMatchBothWays(s);
      for (const r of s.rounds) for (const t of r.tables) expect(teamOf(t.ns!)).not.toBe(teamOf(t.ew!));
    }), { numRuns: 30 });
  });

  it('gilman and howell-teams (even, by Gilman\'s), odd and even: every match both ways on the same trays; a team meets itself only in round 1 ("at its own table first")', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 20 }), per, fc.constantFrom('gilman', 'howell-teams'), (n, b, name) => {
      if (name === 'howell-teams' && n % 2 === 1) return;
      const s = MOVEMENTS[name].generate({ tables: n, boardsPerRound: b });
      everyMatchBothWays(s);
      s.rounds.forEach((r, i) => { for (const t of r.tables) expect(teamOf(t.ns!) === teamOf(t.ew!)).toBe(i === 0); });
    }), { numRuns: 40 });
  });

  it('four-pairs: every pair meets every other pair, for as many hands as any other', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), (h) => {
      const s = MOVEMENTS['four-pairs'].generate({ tables: 2, boardsPerRound: 2 * h });
      const m = meetings(s);
      expect([...m.keys()].sort()).toEqual(['1EW|1NS', '1EW|2EW', '1EW|2NS', '1NS|2EW', '1NS|2NS', '2EW|2NS']);
      expect(new Set(m.values())).toEqual(new Set([2 * h]));
    }));
  });

  it('compass: every E-W pair meets every N-S pair once (odd tables), all but one (even tables, the skip)', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 20 }), per, (n, b) => {
      const m = directedMeetings(MOVEMENTS.compass.generate({ tables: n, boardsPerRound: b }));
      for (let e = 1; e <= n; e++) {
        const met = Array.from({ length: n }, (_, i) => m.get(`${i + 1}NS>${e}EW`)?.length ?? 0);
        expect(met.filter((x) => x === b)).toHaveLength(n % 2 === 1 ? n : n - 1);
        expect(met.filter((x) => x !== b && x !== 0)).toEqual([]);
      }
    }), { numRuns: 40 });
  });
});
