// The individual movements of Foster's Complete Hoyle (1914, seed 001, Duplicate Whist): Safford's System for eight
// individuals, Mitchell's movement for large numbers of individuals, Safford's schedule for eight married couples.
// Each sentence the seed states is a test, quoted in its name; the invariants of every movement (no player meets a
// tray twice, a tray is at one table at a time, a tray's original is its first play) are property tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seat } from '../../src/cards/seat.js';
import { checkSchedule } from '../../src/club/movements/invariants.js';
import { movement as mitchellIndividuals } from '../../src/club/movements/mitchell-individuals.js';
import { movement as saffordCouples } from '../../src/club/movements/safford-couples.js';
import { movement as saffordIndividuals } from '../../src/club/movements/safford-individuals.js';
import type { MovementOptions, Schedule } from '../../src/club/types.js';
import { refused, trayProblems } from './schedule-checks.js';
import { dealerOfBoard } from '../../src/sim/simulate.js';

const SEATS: Seat[] = ['N', 'E', 'S', 'W'];
const side = (s: Seat): string => (s === 'N' || s === 'S' ? 'NS' : 'EW');
const pairKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** Where each player sits in a round: id → table and seat. */
function seating(s: Schedule, round: number): Map<string, { table: number; seat: Seat }> {
  const out = new Map<string, { table: number; seat: Seat }>();
  for (const t of s.rounds[round].tables) for (const seat of SEATS) out.set(t.players![seat]!, { table: t.table, seat });
  return out;
}

/** Every broken invariant of an individual movement's schedule, as sentences (empty when sound). */
function problems(s: Schedule): string[] {
  const out: string[] = [];
  const played = new Map<string, Set<number>>();
  const plays = new Map<number, number>();
  for (const r of s.rounds) {
    const seen = new Set<string>();
    for (const t of r.tables) {
      const ids = SEATS.map((seat) => t.players?.[seat]);
      if (ids.some((id) => id === undefined || !s.participants.includes(id))) out.push(`round ${r.round} table ${t.table}: a seat has no participant`);
      for (const id of ids) {
        if (id === undefined) continue;
        if (seen.has(id)) out.push(`round ${r.round}: ${id} sits at two places`);
        seen.add(id);
      }
      if (t.original?.length !== t.trays.length) out.push(`round ${r.round} table ${t.table}: original[] does not match trays`);
      t.trays.forEach((tray) => {
        if (tray === null) return;
        plays.set(tray, (plays.get(tray) ?? 0) + 1);
        for (const id of ids) {
          if (id === undefined) continue;
          const mine = played.get(id) ?? new Set<number>();
          if (mine.has(tray)) out.push(`round ${r.round}: ${id} meets tray ${tray} twice`);
          mine.add(tray);
          played.set(id, mine);
        }
      });
    }
  }
  out.push(...trayProblems(s));
  if (plays.size !== s.trays) out.push(`${plays.size} trays are played, the schedule says ${s.trays}`);
  return out;
}

/** How often each pair of players met as partners and as opponents, and how many hands each pair played as such. */
function meetings(s: Schedule): { partners: Map<string, number>; opponents: Map<string, number>; opponentHands: Map<string, number> } {
  const partners = new Map<string, number>();
  const opponents = new Map<string, number>();
  const opponentHands = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string, by = 1): void => { m.set(k, (m.get(k) ?? 0) + by); };
  for (const r of s.rounds) {
    for (const t of r.tables) {
      const hands = t.trays.filter((x) => x !== null).length;
      for (let i = 0; i < 4; i++) {
        for (let j = i + 1; j < 4; j++) {
          const k = pairKey(t.players![SEATS[i]]!, t.players![SEATS[j]]!);
          if (side(SEATS[i]) === side(SEATS[j])) bump(partners, k);
          else { bump(opponents, k); bump(opponentHands, k, hands); }
        }
      }
    }
  }
  return { partners, opponents, opponentHands };
}

/** Hands each pair of players held alike: the same tray, the same seat, at different tables. */
function sameCards(s: Schedule): Map<string, number> {
  const holder = new Map<string, string[]>(); // tray+seat → players
  for (const r of s.rounds) {
    for (const t of r.tables) {
      for (const tray of t.trays) {
        if (tray === null) continue;
        for (const seat of SEATS) {
          const k = `${tray}${seat}`;
          holder.set(k, [...(holder.get(k) ?? []), t.players![seat]!]);
        }
      }
    }
  }
  const out = new Map<string, number>();
  for (const ids of holder.values()) {
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) {
      const k = pairKey(ids[i], ids[j]);
      out.set(k, (out.get(k) ?? 0) + 1);
    }
  }
  return out;
}

const allPairs = (ids: string[]): string[] => ids.flatMap((a, i) => ids.slice(i + 1).map((b) => pairKey(a, b)));


describe("safford-individuals: Eight Individuals, Safford's System", () => {
  const s = saffordIndividuals.generate({ tables: 2 });

  it('keeps every invariant: no player meets a tray twice, a tray at one table per slot, originals first', () => {
    expect(problems(s)).toEqual([]);
    expect(s.kind).toBe('individuals');
    expect(s.participants).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });

  it('"It would require seven sets ... This would require 28 hands to complete the match": 7 sets of 4 hands', () => {
    expect(s.rounds).toHaveLength(7);
    expect(s.trays).toBe(28);
    // 28 hands dealt (7 sets × 2 tables × 2), each overplayed once at the other table: every player plays all 28.
    const trays = new Set(s.rounds.flatMap((r) => r.tables.flatMap((t) => t.trays)));
    expect(trays.size).toBe(28);
  });

  it('"at each table two hands should be dealt, played, and exchanged with the other table in the set"', () => {
    for (const r of s.rounds) {
      const [a, b] = r.tables;
      const dealt = (t: typeof a): number[] => t.trays.filter((_, k) => t.original![k]) as number[];
      expect(dealt(a)).toHaveLength(2);
      expect(dealt(b)).toHaveLength(2);
      // Exchanged: what one table deals the other overplays, and after.
      const overplayed = (t: typeof a): number[] => t.trays.filter((_, k) => !t.original![k]) as number[];
      expect([...overplayed(b)].sort()).toEqual([...dealt(a)].sort());
      expect([...overplayed(a)].sort()).toEqual([...dealt(b)].sort());
      for (const tray of dealt(a)) expect(b.trays.indexOf(tray)).toBeGreaterThan(a.trays.indexOf(tray));
    }
  });

  it('"It would require seven sets to exhaust the combinations": every player partners every other exactly once', () => {
    const { partners } = meetings(s);
    for (const k of allPairs(s.participants)) expect(partners.get(k), k).toBe(1);
    expect(partners.size).toBe(28);
  });

  it('"they go to the next higher number; 8 keeping his seat, and 7 going to 1" (places read from the first set)', () => {
    // "The players take their seats in any order for the first set": player k sits at place k in set 1.
    const place = seating(s, 0);
    for (let set = 0; set < 6; set++) {
      const now = seating(s, set);
      const next = seating(s, set + 1);
      for (let p = 1; p <= 8; p++) {
        const here = place.get(String(p))!;
        const who = [...now].find(([, at]) => at.table === here.table && at.seat === here.seat)![0];
        const to = p === 8 ? 8 : p === 7 ? 1 : p + 1;
        expect(next.get(who), `set ${set + 1}: the player at place ${p} goes to place ${to}`).toEqual(place.get(String(to)));
      }
      expect(next.get('8')).toEqual(place.get('8'));
    }
  });

  it('the derived diagram also meets everyone twice as an opponent and once at the same seat of the other table', () => {
    // Not a sentence of the seed: the search prefers this balance, and finds it.
    const { opponents } = meetings(s);
    const same = sameCards(s);
    for (const k of allPairs(s.participants)) {
      expect(opponents.get(k), k).toBe(2);
      expect(same.get(k), k).toBe(4); // one set: four hands
    }
  });

  it('the derived diagram is the one the module comment states (the first set: player k sits at place k)', () => {
    const seats = s.rounds[0].tables.map((t) => SEATS.map((seat) => `${seat} ${t.players![seat]}`).join(', '));
    expect(seats).toEqual(['N 1, E 2, S 3, W 5', 'N 4, E 7, S 8, W 6']);
  });

  it('refuses what it cannot do, naming the fix', () => {
    refused(saffordIndividuals, { tables: 3 }, /tables: 3 .*give --tables 2/);
    refused(saffordIndividuals, { tables: 2, boardsPerRound: 3 }, /boardsPerRound: 3 .*even/);
    refused(saffordIndividuals, { tables: 2, options: { even: 'skip' } }, /option even: .*takes no options/);
    expect(saffordIndividuals.check({ tables: 2, boardsPerRound: 6 })).toBeNull();
  });

  it('property: any even number of boards a set keeps the invariants and the exchange', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), (half) => {
      const g = saffordIndividuals.generate({ tables: 2, boardsPerRound: 2 * half });
      expect(problems(g)).toEqual([]);
      expect(g.trays).toBe(14 * half);
      for (const r of g.rounds) for (const t of r.tables) expect(t.original!.filter(Boolean)).toHaveLength(half);
    }), { numRuns: 20 });
  });
});

describe('safford-couples: MARRIED COUPLES, Safford\'s schedule for eight married couples', () => {
  const s = saffordCouples.generate({ tables: 4 });
  const ladies = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  const men = ['1', '2', '3', '4', '5', '6', '7', '8'];
  const husband = (lady: string): string => men[ladies.indexOf(lady)];

  it('keeps every invariant; seven sets at four tables, 28 hands', () => {
    expect(problems(s)).toEqual([]);
    expect(s.rounds).toHaveLength(7);
    expect(s.trays).toBe(28);
    expect([...s.participants].sort()).toEqual([...men, ...ladies].sort());
  });

  it('"One hand is dealt at each table, and overplayed at each of the others"', () => {
    for (const r of s.rounds) {
      const set = new Set(r.tables.flatMap((t) => t.trays));
      expect(set.size).toBe(4);
      for (const t of r.tables) {
        expect(t.original!.filter(Boolean)).toHaveLength(1);
        expect(new Set(t.trays)).toEqual(set);
      }
    }
  });

  it('"A different point of the compass should deal at each table, in order to equalise the lead"', () => {
    for (const r of s.rounds) {
      const dealers = r.tables.map((t) => dealerOfBoard(t.trays.find((_, k) => t.original![k])!));
      expect(new Set(dealers).size).toBe(4);
    }
  });

  it('"The couple a-1 always sit still"', () => {
    const first = seating(s, 0);
    for (let set = 1; set < 7; set++) {
      expect(seating(s, set).get('a')).toEqual(first.get('a'));
      expect(seating(s, set).get('1')).toEqual(first.get('1'));
    }
  });

  it('"the ladies go to the next higher letter of the alphabet, and the men to the next higher number; h going to b, as a sits still; and 8 to 2"', () => {
    // The places are named by whoever sits there in the first set (couple a-1 at a and 1, and so on).
    const place = seating(s, 0);
    const nextOf = (id: string): string => {
      const row = ladies.includes(id) ? ladies : men;
      const i = row.indexOf(id);
      return i === 0 ? id : row[i === 7 ? 1 : i + 1];
    };
    for (let set = 0; set < 6; set++) {
      const now = seating(s, set);
      const next = seating(s, set + 1);
      for (const label of [...ladies, ...men]) {
        const here = place.get(label)!;
        const who = [...now].find(([, at]) => at.table === here.table && at.seat === here.seat)![0];
        expect(next.get(who), `set ${set + 1}: ${who} at place ${label} goes to ${nextOf(label)}`).toEqual(place.get(nextOf(label)));
      }
    }
  });

  it('"no husband and wife are ever in the same set at the same time" (the two sets: tables 1-2 and 3-4)', () => {
    for (let set = 0; set < 7; set++) {
      const at = seating(s, set);
      for (const lady of ladies) {
        const half = (id: string): number => (at.get(id)!.table <= 2 ? 0 : 1);
        expect(half(lady), `set ${set + 1}: ${lady}`).not.toBe(half(husband(lady)));
      }
    }
  });

  it('"every lady will have overplayed four hands against every other lady and gentleman": each non-spouse pair opposes in exactly one set of four hands', () => {
    const { opponents, opponentHands } = meetings(s);
    for (const k of allPairs(s.participants)) {
      const [x, y] = k.split('|');
      const spouses = (ladies.includes(x) && husband(x) === y) || (ladies.includes(y) && husband(y) === x);
      expect(opponents.get(k) ?? 0, k).toBe(spouses ? 0 : 1);
      expect(opponentHands.get(k) ?? 0, k).toBe(spouses ? 0 : 4);
    }
  });

  it('"including four held by her husband. The same will be true of every man": she holds his seat of his four hands at another table', () => {
    const same = sameCards(s);
    for (const lady of ladies) {
      const n = same.get(pairKey(lady, husband(lady))) ?? 0;
      // a and 1 sit still, so they hold alike in every set or never; the derived diagram seats them alike.
      expect(n, lady).toBe(lady === 'a' ? 28 : 4);
    }
  });

  it('every player plays 28 hands, one seat a set', () => {
    const hands = new Map<string, number>();
    for (const r of s.rounds) for (const t of r.tables) for (const seat of SEATS) hands.set(t.players![seat]!, (hands.get(t.players![seat]!) ?? 0) + t.trays.length);
    expect([...hands.values()]).toEqual(new Array(16).fill(28));
  });

  it('the derived diagram is the one the module comment states (the first set: everyone at his own place)', () => {
    const seats = s.rounds[0].tables.map((t) => SEATS.map((seat) => `${seat} ${t.players![seat]}`).join(', '));
    expect(seats).toEqual(['N a, E b, S c, W 4', 'N e, E 7, S 6, W 8', 'N f, E h, S d, W 3', 'N 1, E g, S 5, W 2']);
  });

  it('refuses what it cannot do, naming the fix', () => {
    refused(saffordCouples, { tables: 3 }, /tables: 3 .*give --tables 4/);
    refused(saffordCouples, { tables: 4, boardsPerRound: 2 }, /boardsPerRound: 2 .*give 4/);
  });
});

describe('mitchell-individuals: Large Numbers of Individuals (Mitchell)', () => {
  const gentlemanTable = (s: Schedule, round: number, id: string): number => seating(s, round).get(id)!.table;

  it('"all the ladies sitting N & E; the gentlemen S and W ... the ladies sitting still ... each gentleman keeps to his original point of the compass"', () => {
    for (const [tables, method] of [[5, undefined], [7, undefined], [6, 1], [6, 2], [6, 'regular'], [8, 1], [8, 2]] as const) {
      const s = mitchellIndividuals.generate({ tables, options: method === undefined ? undefined : { method } });
      for (let r = 0; r < s.rounds.length; r++) {
        for (const t of s.rounds[r].tables) {
          expect(t.players!.N).toBe(`${t.table}N`);
          expect(t.players!.E).toBe(`${t.table}E`);
          expect(t.players!.S!.endsWith('S')).toBe(true);
          expect(t.players!.W!.endsWith('W')).toBe(true);
          expect(parseInt(t.players!.S!, 10)).toBe(parseInt(t.players!.W!, 10)); // the two gentlemen travel together
        }
      }
    }
  });

  it('"The trays ... are passed to the West, and all the gentlemen move one table to the East" (odd tables)', () => {
    for (const n of [3, 5, 7, 9]) {
      const s = mitchellIndividuals.generate({ tables: n, boardsPerRound: 2 });
      for (let r = 0; r + 1 < s.rounds.length; r++) {
        for (let t = 1; t <= n; t++) {
          const id = `${t}S`;
          expect(gentlemanTable(s, r + 1, id)).toBe((gentlemanTable(s, r, id) % n) + 1);
          const here = s.rounds[r].tables.find((x) => x.table === t)!.trays;
          const west = s.rounds[r + 1].tables.find((x) => x.table === (t === 1 ? n : t - 1))!.trays;
          expect(west).toEqual(here);
        }
      }
    }
  });

  it('"When he arrives at the table he started from, the round is finished" (regular order and method 2)', () => {
    for (const [n, method] of [[3, 'regular'], [7, 'regular'], [4, 2], [6, 2], [10, 2]] as const) {
      const s = mitchellIndividuals.generate({ tables: n, options: { method } });
      for (let t = 1; t <= n; t++) {
        const visited = s.rounds.map((_, r) => gentlemanTable(s, r, `${t}W`));
        expect(new Set(visited).size, `${t}W visits each table once`).toBe(visited.length);
        expect(visited[0]).toBe(t);
        // His next move (one table East) would bring him home.
        expect((visited[visited.length - 1] % n) + 1).toBe(t);
      }
      expect(s.rounds).toHaveLength(n % 2 === 1 ? n : n - 1);
    }
  });

  it('"If an odd number of tables are engaged in play, the changes may take place in regular order to the end": everyone meets every tray once', () => {
    for (const n of [3, 5, 7, 9, 11]) {
      const s = mitchellIndividuals.generate({ tables: n, boardsPerRound: 2 });
      expect(problems(s)).toEqual([]);
      for (const id of s.participants) {
        const met = s.rounds.flatMap((r) => r.tables.filter((t) => Object.values(t.players!).includes(id)).flatMap((t) => t.trays));
        expect(new Set(met).size, id).toBe(2 * n);
      }
    }
  });

  it('"1st Method. Some table ..., which must not be either the first or the last, deals no original hands, but overplays all the hands coming from the other tables to the East of it. The four players sit still"', () => {
    for (const n of [4, 6, 8, 10, 12]) {
      const s = mitchellIndividuals.generate({ tables: n, boardsPerRound: 3, options: { method: 1 } });
      expect(problems(s)).toEqual([]);
      const still = s.rounds[0].tables.filter((t) => t.original!.every((o) => !o));
      expect(still).toHaveLength(1);
      const x = still[0].table;
      expect(x).toBeGreaterThan(1);
      expect(x).toBeLessThan(n);
      const trays = new Set<number>();
      for (const r of s.rounds) {
        const here = r.tables.find((t) => t.table === x)!;
        expect(here.original!.some(Boolean)).toBe(false);
        expect(Object.values(here.players!)).toEqual([`${x}N`, `${x}E`, `${x}S`, `${x}W`]);
        // Each tray comes from the table East of it, played there in an earlier slot of the same set.
        const east = r.tables.find((t) => t.table === x + 1)!;
        for (const [k, tray] of here.trays.entries()) {
          if (tray === null) continue;
          trays.add(tray);
          expect(east.trays.indexOf(tray), `tray ${tray}`).toBeGreaterThanOrEqual(0);
          expect(east.trays.indexOf(tray)).toBeLessThan(k);
        }
      }
      expect(trays.size).toBe(s.trays); // "overplays all the hands"
      // "thus obliging those whose turn it would be to play at their table to pass on to the next"
      for (let r = 0; r + 1 < s.rounds.length; r++) {
        for (let t = 1; t <= n; t++) {
          if (t === x) continue;
          const from = gentlemanTable(s, r, `${t}S`);
          const to = gentlemanTable(s, r + 1, `${t}S`);
          const step = (from % n) + 1;
          expect(to).toBe(step === x ? (x % n) + 1 : step);
        }
      }
    }
  });

  it('"2nd Method ... all the gentlemen must meet their original hands at the same time. Instead of stopping at the table at which this tray is encountered, all the gentlemen move on to the next"', () => {
    for (const n of [4, 6, 8, 10, 12]) {
      const s = mitchellIndividuals.generate({ tables: n, boardsPerRound: 2, options: { method: 2 } });
      expect(problems(s)).toEqual([]);
      const dealtAt = (t: number): number[] => s.rounds[0].tables.find((x) => x.table === t)!.trays as number[];
      const skipRounds = new Set<number>();
      for (let t = 1; t <= n; t++) {
        const id = `${t}S`;
        for (let r = 0; r + 1 < s.rounds.length; r++) {
          const from = gentlemanTable(s, r, id);
          const to = gentlemanTable(s, r + 1, id);
          if (to === (from % n) + 1) continue;
          // The skip: the table one East holds his original hand, so he goes on to the next.
          skipRounds.add(r);
          const passed = (from % n) + 1;
          expect(s.rounds[r + 1].tables.find((x) => x.table === passed)!.trays, id).toEqual(dealtAt(t));
          expect(to).toBe((passed % n) + 1);
        }
      }
      expect([...skipRounds]).toEqual([n / 2 - 1]); // every gentleman skips, all at the same change
    }
  });

  it('"unless half the number of tables is an odd number, when the method already described may be used": two odd sections', () => {
    for (const n of [6, 10, 14]) {
      const s = mitchellIndividuals.generate({ tables: n, options: { method: 'regular' } });
      expect(problems(s)).toEqual([]);
      expect(s.rounds).toHaveLength(n / 2);
      for (let t = 1; t <= n; t++) {
        const visits = s.rounds.map((_, r) => gentlemanTable(s, r, `${t}S`));
        const section = t <= n / 2 ? [1, n / 2] : [n / 2 + 1, n];
        for (const v of visits) expect(v >= section[0] && v <= section[1]).toBe(true);
        expect(new Set(visits).size).toBe(n / 2);
      }
    }
    refused(mitchellIndividuals, { tables: 8, options: { method: 'regular' } }, /method: regular .*8 tables.*method=1 or method=2/);
  });

  it('refuses what it cannot do, naming the fix', () => {
    refused(mitchellIndividuals, { tables: 2 }, /tables: 2 is too few .*give 3 or more/);
    refused(mitchellIndividuals, { tables: 5, options: { method: 1 } }, /method: 1 is for an even number/);
    refused(mitchellIndividuals, { tables: 6, options: { method: 3 } }, /method: "3" .*method=regular, method=1 or method=2/);
    refused(mitchellIndividuals, { tables: 6, options: { skip: 1 } }, /option skip: .*--option method=/);
    refused(mitchellIndividuals, { tables: 6, boardsPerRound: 0 }, /boardsPerRound: 0/);
    expect(mitchellIndividuals.check({ tables: 6, options: { method: '2' } })).toBeNull();
  });

  it('property: every accepted table count, method and boards a round keeps the invariants; nobody meets a tray twice', () => {
    const methods = [undefined, 1, 2, 'regular'] as const;
    fc.assert(fc.property(fc.integer({ min: 1, max: 16 }), fc.constantFrom(...methods), fc.integer({ min: 1, max: 4 }), (tables, method, b) => {
      const opts: MovementOptions = { tables, boardsPerRound: b, ...(method === undefined ? {} : { options: { method } }) };
      const why = mitchellIndividuals.check(opts);
      if (why !== null) {
        expect(() => mitchellIndividuals.generate(opts)).toThrow(why);
        return;
      }
      const s = mitchellIndividuals.generate(opts);
      expect(problems(s)).toEqual([]);
      expect(s.participants).toHaveLength(4 * tables);
      for (const r of s.rounds) expect(r.tables).toHaveLength(tables);
    }), { numRuns: 150 });
  });
});

describe('the shared schedule invariants (invariants.ts) hold for the individual movements', () => {
  it('safford-individuals, safford-couples, and mitchell-individuals at every accepted count from 3 to 16 tables', () => {
    expect(checkSchedule(saffordIndividuals.generate({ tables: 2 }))).toEqual([]);
    expect(checkSchedule(saffordCouples.generate({ tables: 4 }))).toEqual([]);
    fc.assert(fc.property(fc.integer({ min: 3, max: 16 }), fc.constantFrom(1, 2, 'regular'), fc.integer({ min: 1, max: 3 }), (tables, method, b) => {
      const opts: MovementOptions = { tables, boardsPerRound: b, options: { method } };
      if (mitchellIndividuals.check(opts) !== null) return;
      expect(checkSchedule(mitchellIndividuals.generate(opts))).toEqual([]);
    }), { numRuns: 80 });
  });
});
