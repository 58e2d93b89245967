// The seed's team and pair movements (Foster's Complete Hoyle, 1914, Duplicate Whist: Team against Team, Teams
// against Teams, Pair against Pair, Compass Whist), sentence by sentence: each test names the text it checks.
import { describe, expect, it } from 'vitest';
import { movement as compass } from '../../src/club/movements/compass.js';
import { FOUR_PAIRS, movement as fourPairs } from '../../src/club/movements/four-pairs.js';
import { movement as gilman } from '../../src/club/movements/gilman.js';
import { movement as howellTeams } from '../../src/club/movements/howell-teams.js';
import { comparisons, directedMeetings, meetings } from '../../src/club/movements/invariants.js';
import { movement as memory } from '../../src/club/movements/memory-duplicate.js';
import { SIX_PAIRS, movement as sixPairs } from '../../src/club/movements/six-pairs.js';
import type { MovementTable, Schedule } from '../../src/club/types.js';

const at = (s: Schedule, round: number, table: number): MovementTable => s.rounds[round - 1].tables.find((t) => t.table === table)!;
const played = (t: MovementTable): number[] => t.trays.filter((b): b is number => b !== null);
/** "1 to 4" → [1, 2, 3, 4]. */
const hands = (text: string): number[][] => [...text.matchAll(/(\d+) to (\d+)/g)].map((m) => Array.from({ length: +m[2] - +m[1] + 1 }, (_, k) => +m[1] + k));
/** The seed's team letters are the teams that start at tables 1, 2, ...: "d" is team 4. */
const team = (letter: string): number => 'abcdefghijk'.indexOf(letter) + 1;
const key = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

describe('howell-teams, odd numbers of teams (Teams against Teams: "Howell\'s system")', () => {
  const s = howellTeams.generate({ tables: 5 });
  // The seed's four sets for five teams: N & S letters by table, and the hands at each table.
  const printed: [string, string][] = [
    ['e a b c d', 'Hands:— 1 to 4 5 to 8 9 to 12 13 to 16 17 to 20'],
    ['d e a b c', 'Hands:— 9 to 12 13 to 16 17 to 20 1 to 4 5 to 8'],
    ['c d e a b', 'Hands:— 17 to 20 1 to 4 5 to 8 9 to 12 13 to 16'],
    ['b c d e a', 'Hands:— 5 to 8 9 to 12 13 to 16 17 to 20 1 to 4'],
  ];

  it.each(printed.map(([ns, h], k) => [k + 1, ns, h] as const))('set %i comes out as printed: N & S "%s", %s; E & W a b c d e keep their tables', (set, ns, h) => {
    const round = s.rounds[set - 1];
    expect(round.tables.map((t) => t.ns)).toEqual(ns.split(' ').map((l) => `${team(l)}NS`));
    expect(round.tables.map((t) => t.ew)).toEqual(['1EW', '2EW', '3EW', '4EW', '5EW']);
    expect(round.tables.map((t) => t.trays)).toEqual(hands(h));
  });

  it('"This movement of the trays and players is continued for two more sets, which completes the round": four sets of four hands, 20 in all', () => {
    expect([s.rounds.length, s.boardsPerRound, s.trays, s.kind]).toEqual([4, 4, 20, 'teams']);
  });

  it('"each table dealing and playing four hands, afterwards putting them away in trays": only the first set is dealt', () => {
    expect(s.rounds[0].tables.every((t) => t.original!.every(Boolean))).toBe(true);
    expect(s.rounds.slice(1).every((r) => r.tables.every((t) => t.original!.every((o) => !o)))).toBe(true);
  });

  it('"E & W a and the N & S d pairs ... have played hands 9 to 12 at table 1, in the 2nd set; and ... N & S a and E & W d pairs have overplayed the same hands at table 4, in the 3rd set"', () => {
    expect(at(s, 2, 1)).toMatchObject({ ns: '4NS', ew: '1EW', trays: [9, 10, 11, 12] });
    expect(at(s, 3, 4)).toMatchObject({ ns: '1NS', ew: '4EW', trays: [9, 10, 11, 12] });
  });

  it('"we have really been carrying out a number of matches simultaneously": for 3 to 11 teams every team meets every other both ways, on the same hands', () => {
    for (const n of [3, 5, 7, 9, 11]) {
      const m = directedMeetings(howellTeams.generate({ tables: n }));
      for (let a = 1; a <= n; a++) {
        for (let b = 1; b <= n; b++) {
          if (a === b) { expect(m.has(`${a}NS>${a}EW`)).toBe(false); continue; }
          expect(m.get(`${a}NS>${b}EW`)).toHaveLength(4);
          expect(m.get(`${a}NS>${b}EW`)).toEqual(m.get(`${b}NS>${a}EW`));
        }
      }
    }
  });

  it.each([[5, 2], [7, 3], [9, 4], [11, 5]])('"If there are 5, 7, 9 or 11 tables in play, the movement of the trays must be 2, 3, 4 or 5 tables at a time; but the movement of the players ... one table at a time, in the direction opposite to the trays": %i tables, trays %i at a time', (n, step) => {
    const g = howellTeams.generate({ tables: n });
    const middle = (n + 1) / 2;
    for (let r = 1; r < g.rounds.length; r++) {
      for (let t = 1; t <= n; t++) {
        const to = ((t - 1 - step + n) % n) + 1;
        expect(at(g, r + 1, to).trays).toEqual(at(g, r, t).trays);
        // N & S move one table East (up); those at the last table go to 1.
        expect(at(g, r + 1, (t % n) + 1).ns).toBe(at(g, r, t).ns);
      }
      // "those at the middle table always going to the extreme West of the line"
      expect(at(g, r + 1, 1).trays).toEqual(at(g, r, middle).trays);
    }
  });

  it('"The present method of arranging even numbers of teams is also Gilman\'s": an even count gives Gilman\'s rounds', () => {
    const even = howellTeams.generate({ tables: 6 });
    expect(even.rounds.map((r) => r.tables)).toEqual(gilman.generate({ tables: 6 }).rounds.map((r) => r.tables));
    expect(even.options).toEqual({ even: 'gilman' });
    expect(howellTeams.check({ tables: 1 })).toMatch(/tables: 1 is too few/);
  });
});

describe('gilman ("Gilman\'s System" and "Even Numbers of Teams")', () => {
  it('"have each team play at its own table first, so as to get an individual score"', () => {
    for (const n of [5, 10]) expect(gilman.generate({ tables: n }).rounds[0].tables.every((t) => t.ns === `${t.table}NS` && t.ew === `${t.table}EW`)).toBe(true);
  });

  it('"The E & W players then move to the next table but one ... going from 11 to 9; from 9 to 7, etc., the N & S players sitting still ... until the E & W players have gone twice round"', () => {
    const s = gilman.generate({ tables: 11 });
    expect(s.rounds).toHaveLength(11);
    for (let r = 1; r < 11; r++) {
      expect(at(s, r + 1, 9).ew).toBe(at(s, r, 11).ew);
      expect(at(s, r + 1, 7).ew).toBe(at(s, r, 9).ew);
      for (let t = 1; t <= 11; t++) expect(at(s, r, t).ns).toBe(`${t}NS`);
    }
    // Twice round: every E & W pair has sat at every table once.
    for (let e = 1; e <= 11; e++) expect(new Set(s.rounds.map((r) => r.tables.find((t) => t.ew === `${e}EW`)!.table)).size).toBe(11);
  });

  it('"The trays move in the same direction as the players, but only one table at a time; going from 11 to 10, 9 to 8, etc."', () => {
    const s = gilman.generate({ tables: 11 });
    for (let r = 1; r < 11; r++) {
      expect(at(s, r + 1, 10).trays).toEqual(at(s, r, 11).trays);
      expect(at(s, r + 1, 8).trays).toEqual(at(s, r, 9).trays);
      expect(at(s, r + 1, 11).trays).toEqual(at(s, r, 1).trays);
    }
  });

  it('"This brings about the same result as the Howell\'s system": every team against every other both ways on the same hands (odd numbers)', () => {
    for (const n of [3, 5, 7, 11]) {
      const m = directedMeetings(gilman.generate({ tables: n }));
      for (let a = 1; a <= n; a++) for (let b = 1; b <= n; b++) if (a !== b) expect(m.get(`${a}NS>${b}EW`)).toEqual(m.get(`${b}NS>${a}EW`));
    }
  });

  describe('even: "Suppose we have ten tables, arranged in two rows ... Taking 30 deals as the number to be played"', () => {
    const s = gilman.generate({ tables: 10 });
    const set = (t: MovementTable): number[] => [...played(t)].sort((x, y) => x - y);

    it('three deals a round, 30 trays, ten rounds', () => {
      expect([s.boardsPerRound, s.trays, s.rounds.length]).toEqual([3, 30, 10]);
    });

    it('"trays No. 1, 2, 3, to be played and overplayed by tables 1 and 6 ... Trays 4, 5, 6, we lay aside. Trays 7, 8, 9 ... by tables 2 and 7 ... tables 5 and 10, which play and overplay trays 25, 26, 27"', () => {
      expect([set(at(s, 1, 1)), set(at(s, 1, 6))]).toEqual([[1, 2, 3], [1, 2, 3]]);
      expect([set(at(s, 1, 2)), set(at(s, 1, 7))]).toEqual([[7, 8, 9], [7, 8, 9]]);
      expect([set(at(s, 1, 5)), set(at(s, 1, 10))]).toEqual([[25, 26, 27], [25, 26, 27]]);
      expect(s.rounds[0].tables.flatMap(played)).not.toContain(4);
    });

    it('"give tray No. 2 to table 6, while tray 1 is at table 1, and then to let table 1 take tray 2, while table 6 plays tray 3. Then table 1 will get tray 3, while table 6 overplays tray 1"', () => {
      expect(at(s, 1, 1).trays).toEqual([1, 2, 3]);
      expect(at(s, 1, 6).trays).toEqual([2, 3, 1]);
    });

    it('"the E & W players all move one table, 2 going to 1, 3 to 2, etc."', () => {
      for (let r = 1; r < 10; r++) for (let t = 2; t <= 10; t++) expect(at(s, r + 1, t - 1).ew).toBe(at(s, r, t).ew);
    });

    it('"giving trays 4, 5, 6, to tables 1 and 6; trays 10, 11, 12, to tables 2 and 7 ... all the trays that were used in the first round lying idle"', () => {
      expect([set(at(s, 2, 1)), set(at(s, 2, 6)), set(at(s, 2, 2)), set(at(s, 2, 7))]).toEqual([[4, 5, 6], [4, 5, 6], [10, 11, 12], [10, 11, 12]]);
      const first = new Set(s.rounds[0].tables.flatMap(played));
      expect(s.rounds[1].tables.flatMap(played).some((b) => first.has(b))).toBe(false);
    });

    it('"now table 1 gets the 7, 8, 9 set of trays to overplay with table 6 ... table 1 will get all the trays from 1 to 30 in order"', () => {
      expect([set(at(s, 3, 1)), set(at(s, 3, 6))]).toEqual([[7, 8, 9], [7, 8, 9]]);
      expect(s.rounds.flatMap((r) => played(r.tables[0]))).toEqual(Array.from({ length: 30 }, (_, k) => k + 1));
    });

    it('"half of them lie idle during each round": 15 of the 30 trays in play each round', () => {
      for (const r of s.rounds) expect(new Set(r.tables.flatMap(played)).size).toBe(15);
    });
  });
});

describe('compass ("Compass Whist")', () => {
  it('"All the N & S players sit still, and at the end of each round ... all the E & W players move up one table, 2 going to 1, 3 to 2, etc."', () => {
    const s = compass.generate({ tables: 5 });
    for (let r = 1; r < s.rounds.length; r++) {
      for (let t = 1; t <= 5; t++) expect(at(s, r, t).ns).toBe(`${t}NS`);
      expect(at(s, r + 1, 1).ew).toBe(at(s, r, 2).ew);
      expect(at(s, r + 1, 2).ew).toBe(at(s, r, 3).ew);
      expect(at(s, r + 1, 5).ew).toBe(at(s, r, 1).ew);
    }
  });

  it('"the number of the pair played against, which is always the number of the table at which they started; one ... being No. 3 N & S, the other ... No. 3 E & W"', () => {
    const s = compass.generate({ tables: 5 });
    expect(at(s, 1, 3)).toMatchObject({ ns: '3NS', ew: '3EW' });
    expect(s.participants).toEqual(['1NS', '2NS', '3NS', '4NS', '5NS', '1EW', '2EW', '3EW', '4EW', '5EW']);
  });

  it('"they play a minimum of 24 trays ... If there are 14 tables, they play two deals at each. If there are only 10 tables, they play 30 trays"', () => {
    expect(compass.generate({ tables: 14 }).boardsPerRound).toBe(2);
    expect(compass.generate({ tables: 10 }).trays).toBe(30);
    expect(compass.generate({ tables: 3 }).trays).toBeGreaterThanOrEqual(24);
  });

  it('"a game in which five tables took part, playing 30 deals": every E-W pair meets every N-S pair and holds every tray once', () => {
    const s = compass.generate({ tables: 5, boardsPerRound: 6 });
    expect([s.trays, s.rounds.length]).toEqual([30, 5]);
    const m = directedMeetings(s);
    for (let a = 1; a <= 5; a++) for (let b = 1; b <= 5; b++) expect(m.get(`${a}NS>${b}EW`)).toHaveLength(6);
    for (let e = 1; e <= 5; e++) expect(new Set(s.rounds.flatMap((r) => played(r.tables.find((t) => t.ew === `${e}EW`)!))).size).toBe(30);
  });

  it('"place on each table an equal number of trays": the trays move down one table, against the E-W pairs', () => {
    const s = compass.generate({ tables: 7 });
    for (let r = 1; r < s.rounds.length; r++) for (let t = 1; t <= 7; t++) expect(at(s, r + 1, (t % 7) + 1).trays).toEqual(at(s, r, t).trays);
  });

  it('even tables: the E-W pairs skip a table half way round ("This skip enables each to finish the round without playing any of the hands twice")', () => {
    const s = compass.generate({ tables: 4, boardsPerRound: 2 });
    expect(s.rounds).toHaveLength(3);
    expect(s.options).toEqual({ even: 'skip' });
    expect(s.rounds[1].notes?.[0]).toMatch(/skip a table/);
    for (let e = 1; e <= 4; e++) {
      const mine = s.rounds.flatMap((r) => played(r.tables.find((t) => t.ew === `${e}EW`)!));
      expect(new Set(mine).size).toBe(mine.length);
    }
  });

  it('two tables are refused with the fix: each tray would be played once', () => {
    expect(compass.check({ tables: 2 })).toBe('tables: 2 is too few for a compass; give 3 or more tables (for 4 pairs at two tables use four-pairs, for two pairs memory-duplicate)');
    expect(() => compass.generate({ tables: 2 })).toThrow(/too few for a compass/);
  });
});

describe('four-pairs ("Four Pairs")', () => {
  const s = fourPairs.generate({ tables: 2 });
  const L = FOUR_PAIRS;
  // "1st set 2nd set 3rd set / b c d / a a a a a a / b c d / Hands:— 1 to 8 9 to 16 17 to 24 / d b c / c c d d b b / d b c"
  it('the printed sets: table 1 "b c d" N & S against a; table 2 "d b c" N & S against "c d b"; "Hands:— 1 to 8 9 to 16 17 to 24"', () => {
    expect(s.rounds.map((r) => [r.tables[0].ns, r.tables[0].ew])).toEqual([[L.b, L.a], [L.c, L.a], [L.d, L.a]]);
    expect(s.rounds.map((r) => [r.tables[1].ns, r.tables[1].ew])).toEqual([[L.d, L.c], [L.b, L.d], [L.c, L.b]]);
    expect(s.rounds.map((r) => played(r.tables[0]).sort((x, y) => x - y))).toEqual(hands('1 to 8 9 to 16 17 to 24'));
  });

  it('"Four hands are dealt at each table in each set, and then exchanged ... The pairs at the second table should begin scoring with hands Nos. 5, 13 and 21"', () => {
    expect(s.rounds.map((r) => r.tables[1].trays[0])).toEqual([5, 13, 21]);
    expect(at(s, 1, 1)).toMatchObject({ trays: [1, 2, 3, 4, 5, 6, 7, 8], original: [true, true, true, true, false, false, false, false] });
    expect(at(s, 1, 2)).toMatchObject({ trays: [5, 6, 7, 8, 1, 2, 3, 4], original: [true, true, true, true, false, false, false, false] });
  });

  it('"The third set will exhaust the combinations ... each pair has played and overplayed an equal number of hands against every other pair"', () => {
    const m = meetings(s);
    const ids = Object.values(L);
    for (const a of ids) for (const b of ids) if (a < b) expect(m.get(key(a, b))).toBe(8);
    const c = comparisons(s);
    for (const a of ids) for (const b of ids) if (a < b) expect(c.get(key(a, b))).toBe(8);
  });

  it('"arranged at two tables": other counts are refused with the fix', () => {
    expect(fourPairs.check({ tables: 3 })).toMatch(/give --tables 2/);
  });
});

describe('six-pairs ("Six Pairs")', () => {
  const s = sixPairs.generate({ tables: 3 });
  const P = SIX_PAIRS;
  const pos = (r: number): (string | undefined)[][] => s.rounds[r - 1].tables.map((t) => [t.ns, t.ew]);

  it('"This is the first position: b d f / a 1 a c 2 c e 3 e": tables 1 and 2 exchange two hands; "At table 3, two hands are dealt and played, both being left in the trays"', () => {
    expect(pos(1)).toEqual([[P.b, P.a], [P.d, P.c], [P.f, P.e]]);
    expect([at(s, 1, 1).trays, at(s, 1, 2).trays, at(s, 1, 3).trays]).toEqual([[1, 2], [2, 1], [3, 4]]);
    expect(at(s, 1, 3).original).toEqual([true, true]);
  });

  it('"c d f / a 1 a b 2 b e 3 e ... Hands 5 and 6 played and exchanged. None."', () => {
    expect(pos(2)).toEqual([[P.c, P.a], [P.d, P.b], [P.f, P.e]]);
    expect([at(s, 2, 1).trays, at(s, 2, 2).trays, at(s, 2, 3).trays]).toEqual([[5, 6], [6, 5], [null, null]]);
  });

  it('"The b and c pairs now give way to e and f: e d b / a 1 a f 2 f c 3 c ... Hands 7 and 8 played and exchanged. 3 and 4."', () => {
    expect(pos(3)).toEqual([[P.e, P.a], [P.d, P.f], [P.b, P.c]]);
    expect([at(s, 3, 1).trays, at(s, 3, 3).trays]).toEqual([[7, 8], [3, 4]]);
    // "which makes a match between them and the e and f pairs"
    const c = comparisons(s);
    expect([c.get(key(P.b, P.f)), c.get(key(P.c, P.e))]).toEqual([2, 2]);
  });

  it('"f d b / a 1 a e 2 e c 3 c ... Hands 9 and 10 played and exchanged. None."', () => {
    expect(pos(4)).toEqual([[P.f, P.a], [P.d, P.e], [P.b, P.c]]);
    expect([at(s, 4, 1).trays, at(s, 4, 3).trays]).toEqual([[9, 10], [null, null]]);
  });

  it('"the b c e f pairs play two hands and exchange them; then change adversaries for two more hands; a and d remaining idle all the time"', () => {
    for (const r of [5, 6]) {
      const seated = s.rounds[r - 1].tables.flatMap((t) => (played(t).length ? [t.ns, t.ew] : []));
      expect(seated.sort()).toEqual([P.b, P.c, P.e, P.f].sort());
    }
  });

  it('"any any / a 1 a d 2 d / any any": the last set is a against d, N & S filled by any of the other players', () => {
    expect(pos(7).slice(0, 2)).toEqual([['any', P.a], ['any', P.d]]);
    expect(comparisons(s).get(key(P.a, P.d))).toBe(2);
  });

  it('"Each pair against each is considered a match": every pair holds the same cards as every other at some table', () => {
    const c = comparisons(s);
    const ids = Object.values(P);
    for (const a of ids) for (const b of ids) if (a < b) expect(c.get(key(a, b)), `${a} v ${b}`).toBeGreaterThan(0);
  });

  it('"three tables, two of which are constantly in play, the third only half the time"', () => {
    expect(s.rounds.every((r) => played(r.tables[0]).length > 0 && played(r.tables[1]).length > 0)).toBe(true);
    expect(s.rounds.slice(0, 4).filter((r) => played(r.tables[2]).length > 0)).toHaveLength(2);
  });
});

describe('memory-duplicate ("Two Pairs" and four individuals)', () => {
  it('"When only four players are engaged at a single table ... The players retain their seats until they have played an agreed number of hands, which are laid aside one by one in trays"', () => {
    const s = memory.generate({ tables: 1, boardsPerRound: 8 });
    expect(s.rounds).toHaveLength(2);
    expect(at(s, 1, 1)).toMatchObject({ ns: '1NS', ew: '1EW', trays: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect(at(s, 1, 1).original!.every(Boolean)).toBe(true);
    expect(memory.check({ tables: 2 })).toMatch(/single table; give --tables 1/);
  });

  it('"Instead of the players changing positions for the overplay, the trays are reversed": the E-W pair holds the hands dealt N & S', () => {
    const s = memory.generate({ tables: 1 });
    expect(at(s, 2, 1)).toMatchObject({ ns: '1EW', ew: '1NS', trays: at(s, 1, 1).trays });
    expect(s.trays).toBe(12);
  });

  it('individuals: "c b a / a b a c c b / S S S / Hands:— 1 to 4 5 to 8 9 to 12", S keeps his seat and partners each of the others for four hands', () => {
    const s = memory.generate({ tables: 1, options: { form: 'individuals' } });
    expect(s.kind).toBe('individuals');
    expect(s.rounds.slice(0, 3).map((r) => r.tables[0].players)).toEqual([
      { N: 'c', W: 'a', E: 'b', S: 'S' }, { N: 'b', W: 'a', E: 'c', S: 'S' }, { N: 'a', W: 'c', E: 'b', S: 'S' },
    ].map((p) => expect.objectContaining(p)));
    expect(s.rounds.slice(0, 3).map((r) => r.tables[0].trays)).toEqual(hands('1 to 4 5 to 8 9 to 12'));
  });

  it('individuals: "For the overplay, the trays are reversed ... This brings the same partners together, but on different sides of the table"', () => {
    const s = memory.generate({ tables: 1, options: { form: 'individuals' } });
    for (let k = 0; k < 3; k++) {
      const o = s.rounds[k].tables[0];
      const v = s.rounds[k + 3].tables[0];
      expect(v.trays).toEqual(o.trays);
      const partner = (p: typeof o.players, of: string): string => {
        const seat = Object.entries(p!).find(([, id]) => id === of)![0];
        return p![({ N: 'S', S: 'N', E: 'W', W: 'E' } as const)[seat as 'N']]!;
      };
      const side = (p: typeof o.players, of: string): string => ('NS'.includes(Object.entries(p!).find(([, id]) => id === of)![0]) ? 'NS' : 'EW');
      expect(partner(v.players, 'S')).toBe(partner(o.players, 'S'));
      expect(side(v.players, 'S')).not.toBe(side(o.players, 'S'));
    }
  });
});
