// Duplicate whist scoring from Foster's Complete Hoyle (1914, seed 001) and the Laws of Duplicate Whist: the seed's
// examples are built as travellers and scored, and each law sentence applied at session level is tested by its text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScoringError, scoreTravellers } from '../../src/club/scoring/index.js';
import { type WhistReport, type WhistTraveller, rankStandings, scoreWhist } from '../../src/club/scoring/whist.js';
import type { PairStanding, Traveller } from '../../src/club/types.js';

const whist = (ts: WhistTraveller[], opts: Parameters<typeof scoreWhist>[1] = {}): WhistReport => scoreWhist(ts, opts);
const t = (board: number, ns: string, ew: string, NS: number, extra: Partial<WhistTraveller> = {}): WhistTraveller =>
  ({ board, ns, ew, tricks: { NS, EW: 13 - NS }, ...extra });
const pair = (r: WhistReport, id: string) => r.pairs.find((p) => p.pair === id)!;

/** Split `total` N-S tricks over `n` deals (each 0-13). */
function spread(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => base + (i < total - base * n ? 1 : 0));
}

/**
 * The seed's Compass game: five tables, 30 deals; N-S pairs a-e sit at tables 1-5, E-W pairs f, g, h, j, k start at
 * tables 1-5 and move one table down after each round of six deals ("2 going to 1"); the six trays of a round move so
 * that every pair holds every deal once. `cell[ns][ew]` is the N-S tricks where they meet.
 */
function compassTravellers(cell: number[][]): WhistTraveller[] {
  const NS = ['a', 'b', 'c', 'd', 'e'];
  const EW = ['f', 'g', 'h', 'j', 'k'];
  const out: WhistTraveller[] = [];
  for (let round = 0; round < 5; round++) {
    for (let table = 0; table < 5; table++) {
      const ew = (table + round) % 5; // the E-W pair at table t in round r started at table t + r
      const group = (table + 2 * round) % 5; // trays 6g+1 .. 6g+6
      spread(cell[table][ew], 6).forEach((ns, k) => out.push(t(group * 6 + k + 1, NS[table], EW[ew], ns, { table: table + 1, round: round + 1 })));
    }
  }
  return out;
}

describe('Compass Whist: plus and minus against the N & S and E & W averages', () => {
  // N & S a 201, b 204, c 211, d 207, e 212; E & W f 189, g 186, h 179, j 183, k 178. Each E-W pair's opponents took
  // 390 less its total, so the N-S tricks per meeting are 41 (6 deals), with the difference on the diagonal.
  const nsTotals = [201, 204, 211, 207, 212];
  const ewTotals = [189, 186, 179, 183, 178];
  const cell = nsTotals.map((n, i) => nsTotals.map((_, j) => 41 + (i === j ? n - 205 : 0)));
  const travellers = compassTravellers(cell);

  it('the travellers hold the seed\'s game: 30 deals, five tables, each pair\'s total as printed', () => {
    expect(new Set(travellers.map((x) => x.board)).size).toBe(30);
    for (const [i, id] of ['a', 'b', 'c', 'd', 'e'].entries()) {
      expect(travellers.filter((x) => x.ns === id).reduce((s, x) => s + (x.tricks as { NS: number }).NS, 0)).toBe(nsTotals[i]);
    }
    for (const [i, id] of ['f', 'g', 'h', 'j', 'k'].entries()) {
      expect(travellers.filter((x) => x.ew === id).reduce((s, x) => s + (x.tricks as { EW: number }).EW, 0)).toBe(ewTotals[i]);
      expect(new Set(travellers.filter((x) => x.ew === id).map((x) => x.board)).size).toBe(30);
    }
  });

  it('"Aver. 207, N & S. Aver. 183, E & W."; a 201 -6 ... k 178 -5; "the f pair ... would be the winners"', () => {
    const r = scoreTravellers(travellers) as WhistReport;
    expect(r.method).toBe('average');
    expect(r.averages).toEqual({ NS: 207, EW: 183 });
    const seed: [string, 'NS' | 'EW', number, number][] = [
      ['a', 'NS', 201, -6], ['b', 'NS', 204, -3], ['c', 'NS', 211, 4], ['d', 'NS', 207, 0], ['e', 'NS', 212, 5],
      ['f', 'EW', 189, 6], ['g', 'EW', 186, 3], ['h', 'EW', 179, -4], ['j', 'EW', 183, 0], ['k', 'EW', 178, -5],
    ];
    for (const [id, direction, total, vs] of seed) {
      expect(pair(r, id)).toMatchObject({ pair: id, direction, total, vsAverage: vs });
    }
    expect(r.pairs[0].pair).toBe('f');
    expect(r.pairs.map((p) => `${p.rankLabel} ${p.pair}`)).toEqual(['1 f', '2 e', '3 c', '4 g', '5= d', '5= j', '7 b', '8 h', '9 k', '10 a']);
    expect(r.boards).toHaveLength(30);
    expect(r.boards[0].results).toHaveLength(5);
  });

  it('"The e and f pairs make the best scores N & S and E & W respectively"', () => {
    const r = scoreTravellers(travellers) as WhistReport;
    const best = (d: 'NS' | 'EW') => r.pairs.filter((p) => p.direction === d)[0].pair;
    expect([best('NS'), best('EW')]).toEqual(['e', 'f']);
  });

  it('property: with every pair holding every deal, the plus and minus of each side add up to zero', () => {
    fc.assert(fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 78 }), { minLength: 5, maxLength: 5 }), { minLength: 5, maxLength: 5 }), (grid) => {
      const r = scoreWhist(compassTravellers(grid));
      for (const d of ['NS', 'EW'] as const) {
        const side = r.pairs.filter((p) => p.direction === d);
        expect(side).toHaveLength(5);
        expect(Math.abs(side.reduce((s, p) => s + p.vsAverage!, 0))).toBeLessThan(0.05);
        for (const p of side) expect(p.vsAverage).toBeCloseTo(p.total - r.averages![d], 1);
      }
    }), { numRuns: 50 });
  });
});

describe('club against club, team against team: trick majorities', () => {
  // One set of two tables. Table 1 deals boards 1-4, table 2 boards 5-8. Original: table 1 N-S O/1 v E-W X/1, table
  // 2 N-S X/2 v E-W O/2; the fours change places for the overplay: table 1 N-S X/2 v E-W O/2, table 2 N-S O/1 v
  // E-W X/1. O's E-W pair at table 1 takes one trick more than X's; X's at table 2 three more than O's.
  const travellers: WhistTraveller[] = [
    ...[7, 6, 8, 5].map((ns, k) => t(1 + k, 'O/1', 'X/1', ns, { table: 1, round: 1 })),
    ...[6, 7, 5, 8].map((ns, k) => t(5 + k, 'X/2', 'O/2', ns, { table: 2, round: 1 })),
    ...[7, 6, 7, 5].map((ns, k) => t(1 + k, 'X/2', 'O/2', ns, { table: 1, round: 2 })),
    ...[5, 6, 5, 7].map((ns, k) => t(5 + k, 'O/1', 'X/1', ns, { table: 2, round: 2 })),
  ];

  it('"the O team had a majority of one trick at table No. 1, while the X team had a majority of three tricks at table No. 2, leaving them the winners of the match by two tricks"', () => {
    const r = whist(travellers, { method: 'matches' });
    expect(r.method).toBe('team-matches');
    expect(r.matches).toHaveLength(1);
    const m = r.matches![0];
    expect(m.sides).toEqual(['O', 'X']);
    expect(m.tables!.find((x) => x.table === 1)!.plus).toEqual([1, -1]);
    expect(m.tables!.find((x) => x.table === 2)!.plus).toEqual([-3, 3]);
    expect(m.plus).toEqual([-2, 2]);
    expect(m.won).toEqual([0, 1]);
    expect(r.pairs.map((p) => [p.rankLabel, p.pair, p.matches, p.vsAverage])).toEqual([['1', 'X', 1, 2], ['2', 'O', 0, -2]]);
  });

  it('"If the total of the tricks taken by the same team on the N & S and the E & W hands is not 13, it must be a loss or a gain": each team holds all 52 cards', () => {
    const r = whist(travellers, { method: 'matches' });
    expect(r.matches![0].tricks[0] + r.matches![0].tricks[1]).toBe(2 * 8 * 13);
  });
});

/**
 * Howell's system for five teams a-e (the seed's four sets): E-W of team k stay at table k; N-S move one table East
 * each set; the trays of table 3 go to 1, the others up two tables. `gain[x][y]` is x's tricks over y in their match.
 */
function howellTeams(gain: Record<string, Record<string, number>>): WhistTraveller[] {
  const teams = ['a', 'b', 'c', 'd', 'e'];
  const out: WhistTraveller[] = [];
  for (let set = 1; set <= 4; set++) {
    for (let k = 1; k <= 5; k++) {
      const ns = teams[(k - 1 - set + 5) % 5];
      const ew = teams[k - 1];
      const group = (k - 1 + 2 * (set - 1)) % 5; // hands 4g+1 .. 4g+4
      // The N-S team's gain is put on the deal when it holds the N-S cards; 7 tricks on the rest.
      // The two meetings of a match: the gain goes on the one where the first-named team holds the N-S cards.
      const g = gain[ns]?.[ew] ?? 0;
      for (let h = 1; h <= 4; h++) out.push(t(group * 4 + h, `${ns}NS`, `${ew}EW`, h === 1 ? 7 + g : 7, { table: k, round: set }));
    }
  }
  return out;
}

describe('teams against teams (Howell): matches won, then tricks', () => {
  // a beats all; b-c and c-e tied; c and d two matches each, c one trick worse.
  const gain = { a: { b: 3, c: 2, d: 1, e: 1 }, b: { c: 0, e: 2 }, c: { d: 1, e: 0 }, d: { b: 1, e: 1 } };
  // Split the gain over the two meetings: the N-S team's own table holds it all; the other meeting is level.
  const travellers = howellTeams(gain).map((x) => x);

  it('the schedule is the seed\'s: "E & W a and the N & S d pairs ... have played hands 9 to 12 at table 1, in the 2nd set; and ... N & S a and E & W d pairs have overplayed the same hands at table 4, in the 3rd set"', () => {
    const at = (ns: string, ew: string) => travellers.filter((x) => x.ns === ns && x.ew === ew).map((x) => [x.table, x.round, x.board]);
    expect(at('dNS', 'aEW')).toEqual([[1, 2, 9], [1, 2, 10], [1, 2, 11], [1, 2, 12]]);
    expect(at('aNS', 'dEW')).toEqual([[4, 3, 9], [4, 3, 10], [4, 3, 11], [4, 3, 12]]);
  });

  it('"The winner is the team that wins the most matches; not the one that gains the most tricks. In case of ties, the number of tricks won must decide."', () => {
    const r = whist(travellers, { method: 'matches' });
    expect(r.matches).toHaveLength(10);
    expect(r.pairs.map((p) => [p.rankLabel, p.pair, p.matches])).toEqual([['1', 'a', 4], ['2', 'd', 2], ['3', 'c', 2], ['4', 'b', 1.5], ['5', 'e', 0.5]]);
    // "the c team takes third place, because it has lost one more trick than the d team"
    expect(pair(r, 'c').vsAverage).toBe(pair(r, 'd').vsAverage! - 1);
  });

  it('"If the number of tricks taken by each side is a tie in any match, the score is marked zero, and each team counts half a match won." (b-c, c-e)', () => {
    const r = whist(travellers, { method: 'matches' });
    const m = (x: string, y: string) => r.matches!.find((mm) => mm.sides.join() === `${x},${y}`)!;
    expect(m('b', 'c').won).toEqual([0.5, 0.5]);
    expect(m('b', 'c').plus).toEqual([0, 0]);
    expect(m('c', 'e').won).toEqual([0.5, 0.5]);
    expect(m('a', 'd')).toMatchObject({ plus: [1, -1], won: [1, 0] });
  });

  it('property: every match gives one match won in all (½ each for a tie), and the plus and minus add up to zero', () => {
    const g = fc.integer({ min: -3, max: 3 });
    fc.assert(fc.property(fc.record({ a: fc.record({ b: g, c: g, d: g, e: g }), b: fc.record({ c: g, d: g, e: g }), c: fc.record({ d: g, e: g }), d: fc.record({ e: g }) }), (gain) => {
      const r = whist(howellTeams(gain), { method: 'matches' });
      expect(r.matches).toHaveLength(10);
      for (const m of r.matches!) expect(m.won[0] + m.won[1]).toBe(1);
      expect(r.pairs.reduce((n, p) => n + p.matches!, 0)).toBe(10);
      expect(r.pairs.reduce((n, p) => n + p.vsAverage!, 0)).toBe(0);
      expect(pair(r, 'a').vsAverage).toBe(gain.a.b + gain.a.c + gain.a.d + gain.a.e);
    }), { numRuns: 50 });
  });

  it('the most tricks does not win: a team with fewer matches but more tricks ranks below', () => {
    // a wins two matches by a trick and halves two; e halves with a, gains 6 from b and loses two by a trick.
    const r = whist(howellTeams({ a: { b: 1, c: 1, d: 0, e: 0 }, e: { b: 6, c: -1, d: -1 }, b: { c: 0, d: 0 }, c: { d: 0 } }), { method: 'matches' });
    expect([pair(r, 'a').matches, pair(r, 'e').matches]).toEqual([3, 1.5]);
    expect(pair(r, 'e').vsAverage).toBeGreaterThan(pair(r, 'a').vsAverage!);
    expect(pair(r, 'a').rank).toBeLessThan(pair(r, 'e').rank);
  });
});

describe('pair against pair: four pairs and six pairs, each pair against each as a match', () => {
  // The seed's sets: 1st b v a at table 1, d v c at table 2 (hands 1-8); 2nd c v a, b v d (9-16); 3rd d v a, c v b
  // (17-24), N-S first. A pair's match is against the pair that held the same cards at the other table.
  const sets = [['b', 'a', 'd', 'c'], ['c', 'a', 'b', 'd'], ['d', 'a', 'c', 'b']];
  /**
   * `gain[s]`: in set s, table 2's N-S tricks over table 1's on the same cards (on its first deal). On one deal what
   * the N-S pair gains the E-W pair of the same table loses, so in set 1 d over b is also a over c.
   */
  function fourPairs(gain: number[]): WhistTraveller[] {
    const out: WhistTraveller[] = [];
    sets.forEach(([ns1, ew1, ns2, ew2], s) => {
      for (let h = 1; h <= 8; h++) {
        const board = s * 8 + h;
        out.push(t(board, ns1, ew1, 7, { table: 1, round: s + 1 }));
        out.push(t(board, ns2, ew2, h === 1 ? 7 + gain[s] : 7, { table: 2, round: s + 1 }));
      }
    });
    return out;
  }

  it('"Eight hands complete a match ... ties being decided by the majority of tricks won": "The a pair wins the tie with d, being 6 tricks plus."', () => {
    // a beats c by 4, loses to d by 1, beats b by 3: two matches, 6 tricks plus. d beats b by 4 and a by 1 and
    // loses to c by 3: two matches, 2 plus. c two matches, level; b none.
    const r = whist(fourPairs([4, -1, 3]), { method: 'matches' });
    expect(r.method).toBe('team-matches');
    expect(r.matches).toHaveLength(6);
    expect(r.pairs.map((p) => [p.rankLabel, p.pair, p.matches, p.vsAverage])).toEqual([['1', 'a', 2, 6], ['2', 'd', 2, 2], ['3', 'c', 2, 0], ['4', 'b', 0, -8]]);
  });

  it('pairs named as a schedule names them ("1NS" for b, who later sits E-W) are still pairs, not teams', () => {
    const ids: Record<string, string> = { a: '1EW', b: '1NS', c: '2EW', d: '2NS' };
    const r = whist(fourPairs([4, -1, 3]).map((x) => ({ ...x, ns: ids[x.ns], ew: ids[x.ew] })), { method: 'matches' });
    expect(r.pairs.map((p) => [p.pair, p.matches, p.vsAverage])).toEqual([['1EW', 2, 6], ['2NS', 2, 2], ['2EW', 2, 0], ['1NS', 0, -8]]);
  });

  it('a match between pairs that took the same tricks is halved, and equal pairs share a rank ("2=")', () => {
    const r = whist(fourPairs([0, 0, 0]), { method: 'matches' });
    expect(r.pairs.every((p) => p.matches === 1.5 && p.rankLabel === '1=')).toBe(true);
  });

  it('six pairs, last set: "No notice is taken of the scores made by the N & S hands in the last set; as it is simply a match between the a and d pairs."', () => {
    const r = whist([t(21, 'any', 'a', 6, { table: 1 }), t(21, 'any', 'd', 8, { table: 2 }), t(22, 'any', 'a', 7, { table: 1 }), t(22, 'any', 'd', 7, { table: 2 })], { method: 'matches' });
    expect(r.matches).toEqual([{ sides: ['a', 'd'], tricks: [13, 11], plus: [2, -2], won: [1, 0] }]);
    expect(r.pairs.map((p) => p.pair)).toEqual(['a', 'd']);
  });
});

describe('individuals', () => {
  // Memory duplicate: S (player 3) keeps his seat and partners c (4) on hands 1-4, b (1) on 5-8, a (2) on 9-12; for
  // the overplay "the trays are reversed", so the same partners hold the other side's cards. A traveller names the
  // players by the cards they held. The partnership with S gains 4, 1 and 1 tricks.
  const S = '3', a = '2', b = '1', c = '4';
  const memory: WhistTraveller[] = [];
  const parts: [string, string, string, string, number][] = [[c, b, S, a, 4], [b, c, S, a, 1], [a, b, S, c, 1]];
  parts.forEach(([n, e, s, w, gain], k) => {
    for (let h = 1; h <= 4; h++) {
      const board = k * 4 + h;
      memory.push(t(board, `${n}-${s}`, `${e}-${w}`, h === 1 ? 7 + gain : 7, { table: 1, round: k + 1, players: { N: n, E: e, S: s, W: w } }));
      memory.push(t(board, `${e}-${w}`, `${n}-${s}`, 7, { table: 1, round: k + 4, players: { N: e, E: n, S: w, W: s } }));
    }
  });

  it('four-player memory duplicate: "No. 3 finishes plus 6; No. 4 plus 2; No. 1 minus 4; and No. 2 minus 4."', () => {
    const r = whist(memory, { method: 'individuals' });
    expect(r.method).toBe('individuals');
    expect(Object.fromEntries(r.pairs.map((p) => [p.pair, p.vsAverage]))).toEqual({ 3: 6, 4: 2, 1: -4, 2: -4 });
    expect(r.pairs[0].pair).toBe('3');
  });

  it('eight individuals: "If a and c take 34 tricks E & W; e and g taking only 30 with the same cards ... we charge e and g with a loss of 4 each ... b and d must be charged with a loss of 4"', () => {
    const ew1 = [9, 9, 8, 8];
    const ew2 = [8, 8, 7, 7];
    const ts = [1, 2, 3, 4].flatMap((board, k) => [
      t(board, 'b-d', 'c-a', 13 - ew1[k], { table: 1, round: 1, players: { N: 'b', E: 'c', S: 'd', W: 'a' } }),
      t(board, 'f-h', 'g-e', 13 - ew2[k], { table: 2, round: 1, players: { N: 'f', E: 'g', S: 'h', W: 'e' } }),
    ]);
    const r = whist(ts, { method: 'individuals' });
    expect(Object.fromEntries(r.pairs.map((p) => [p.pair, p.lost]))).toEqual({ a: 0, c: 0, f: 0, h: 0, e: 4, g: 4, b: 4, d: 4 });
    expect(pair(r, 'a').total).toBe(34);
    // "The winner is the player who loses the fewest tricks."
    expect(r.pairs.filter((p) => p.rank === 1).map((p) => p.pair).sort()).toEqual(['a', 'c', 'f', 'h']);
    expect(pair(r, 'e').rankLabel).toBe('5=');
  });

  it('property: eight individuals, any tricks: the gains add up to zero and every set has a top score losing nothing', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 13 }), { minLength: 8, maxLength: 8 }), (ns) => {
      const ts = [0, 1, 2, 3].flatMap((k) => [
        t(k + 1, 'b-d', 'c-a', ns[k], { table: 1, round: 1, players: { N: 'b', E: 'c', S: 'd', W: 'a' } }),
        t(k + 1, 'f-h', 'g-e', ns[k + 4], { table: 2, round: 1, players: { N: 'f', E: 'g', S: 'h', W: 'e' } }),
      ]);
      const r = whist(ts, { method: 'individuals' });
      expect(r.pairs.reduce((n, p) => n + p.vsAverage!, 0)).toBe(0);
      for (const group of [['b', 'f'], ['a', 'e']]) expect(Math.min(...group.map((id) => pair(r, id).lost!))).toBe(0);
      expect(pair(r, 'b').lost! + pair(r, 'f').lost!).toBe(Math.abs(pair(r, 'b').vsAverage!));
    }), { numRuns: 100 });
  });

  it('individuals need every seat\'s player: the error names "players"', () => {
    expect(() => whist([t(1, '1-3', '2-4', 7)], { method: 'individuals' })).toThrow(/players: .*"players":\{"N":"1"/);
  });
});

describe('Dup. X.4 at session level (the revoke)', () => {
  // Board 5 at four tables: tables 2-4 made N-S 7, 8, 6 (average 7, E-W 6; E-W maximum 7, N-S minimum 6).
  const others = [t(5, 'b', 'g', 7, { table: 2 }), t(5, 'c', 'h', 8, { table: 3 }), t(5, 'd', 'j', 6, { table: 4 })];
  const result = (r: WhistReport, table: number) => r.boards[0].results.find((x) => x.table === table)!;

  it('"The penalty for a revoke is the transfer of two tricks": the table\'s penalty stands when no limit bites', () => {
    const rev = t(5, 'a', 'f', 5, { table: 1, made: { NS: 7, EW: 6 }, marks: { NS: '-R', EW: '+R' } });
    const r = whist([rev, ...others], { pairMatch: false });
    expect(result(r, 1).tricks).toEqual({ NS: 5, EW: 8 });
  });

  it('"The revoking players cannot score more, nor their adversaries less than the average on the deal in which the revoke occurs"', () => {
    // N-S made 10 and revoked: 8 after the penalty, still above the average 7; E-W 5, below their average 6.
    const rev = t(5, 'a', 'f', 8, { table: 1, made: { NS: 10, EW: 3 }, marks: { NS: '-R', EW: '+R' } });
    const r = whist([rev, ...others], { pairMatch: false });
    expect(result(r, 1).tricks).toEqual({ NS: 7, EW: 6 });
    expect(r.boards[0].results[0].notes!.join(' ')).toMatch(/Dup\. X\.4/);
    // In a pair match too, and the averages take the 7 (the full penalty is above the other tables' minimum 6).
    const pm = whist([rev, ...others]);
    expect(result(pm, 1).tricks).toEqual({ NS: 7, EW: 6 });
    expect(pm.averages).toEqual({ NS: 7, EW: 6 });
  });

  it('in a team match the pair-match sentences do not apply: only the first paragraph\'s average holds the revoke', () => {
    // E-W revoke: N-S made 7, 9 after the penalty; no maximum of the other tables (8) applies between teams.
    const rev = t(5, 'aNS', 'fEW', 9, { table: 1, made: { NS: 7, EW: 6 }, marks: { NS: '+R', EW: '-R' } });
    const teams = [t(5, 'bNS', 'gEW', 7, { table: 2 }), t(5, 'cNS', 'hEW', 8, { table: 3 }), t(5, 'dNS', 'jEW', 6, { table: 4 })];
    expect(result(whist([rev, ...teams], { method: 'matches' }), 1).tricks).toEqual({ NS: 9, EW: 4 });
  });

  it('"except that in no case shall the infliction of the revoke penalty deprive the revoking players of any tricks won by them before their first revoke occurs"', () => {
    const rev = t(5, 'a', 'f', 8, { table: 1, made: { NS: 10, EW: 3 }, marks: { NS: '-R', EW: '+R' }, wonBeforeRevoke: { NS: 8 } });
    expect(result(whist([rev, ...others], { pairMatch: false }), 1).tricks).toEqual({ NS: 8, EW: 6 });
  });

  it('"In Pair Matches the score shall be recorded as made, independently of the revoke penalty, which shall be separately indicated as plus or minus revoke": marks need "made"', () => {
    const bare: Traveller = t(5, 'a', 'f', 5, { table: 1, marks: { NS: '-R', EW: '+R' } });
    expect(() => whist([bare, ...others])).toThrow(ScoringError);
    expect(() => whist([bare, ...others])).toThrow(/marks: a revoke needs "made"/);
    const ok = t(5, 'a', 'f', 5, { table: 1, made: { NS: 7, EW: 6 }, marks: { NS: '-R', EW: '+R' } });
    expect(result(whist([ok, ...others]), 1)).toMatchObject({ made: { NS: 7, EW: 6 }, marks: { NS: '-R', EW: '+R' } });
  });

  it('"the penalty for a revoke shall not increase the score of the opponents of the revoking players above the maximum, as made at the other tables"', () => {
    // E-W revoke; N-S made 7, 9 with the penalty; the other tables' N-S maximum is 8.
    const rev = t(5, 'a', 'f', 9, { table: 1, made: { NS: 7, EW: 6 }, marks: { NS: '+R', EW: '-R' } });
    expect(result(whist([rev, ...others]), 1).tricks!.NS).toBe(8);
  });

  it('"provided, however, that if the opponents win more tricks than such maximum, independently of the revoke penalty, their score shall stand as made"', () => {
    const rev = t(5, 'a', 'f', 11, { table: 1, made: { NS: 9, EW: 4 }, marks: { NS: '+R', EW: '-R' } });
    expect(result(whist([rev, ...others]), 1).tricks!.NS).toBe(9);
  });

  it('"Nor shall the score of the revoking players be reduced ... below the minimum so made at the other tables until the averages for the match and the relative scores of the other players have been determined; the score of the revoking players shall then ... be further reduced"', () => {
    // E-W made 6 and revoked: 4 after the penalty. The other tables' E-W minimum is 5, so the E-W average of the deal
    // is made of 6, 5, 7 and 5 (5.75); then f takes 4, the full penalty.
    const rev = t(5, 'a', 'f', 9, { table: 1, made: { NS: 7, EW: 6 }, marks: { NS: '+R', EW: '-R' } });
    const r = whist([rev, ...others]);
    expect(result(r, 1).tricks!.EW).toBe(4);
    expect(r.averages!.EW).toBe(5.75);
    expect(pair(r, 'f')).toMatchObject({ total: 4, vsAverage: -1.75 });
    expect(pair(r, 'g').vsAverage).toBe(0.25); // 6 against 5.75: the other players' scores use the minimum
    // Without the pair-match sentences the average would take f's 4.
    expect(whist([rev, ...others], { pairMatch: false }).averages!.EW).toBe(5.5);
  });
});

describe('the average score for the deal and director adjustments', () => {
  it('Dup. IV.9: "the players at that table shall take the average score for the deal"', () => {
    const r = whist([t(3, 'a', 'f', 7, { table: 1 }), t(3, 'b', 'g', 8, { table: 2 }), { board: 3, ns: 'c', ew: 'h', table: 3, adjusted: 'average' }]);
    expect(r.boards[0].results[2].tricks).toEqual({ NS: 7.5, EW: 5.5 });
    expect(pair(r, 'c')).toMatchObject({ total: 7.5, vsAverage: 0 });
    expect(r.boards[0].results[2].notes![0]).toMatch(/Dup\. IV\.9, V\.1: the average score for the deal/);
  });

  it('with no other table there is no average: the error names the fix (a new deal, Dup. IV.9)', () => {
    expect(() => whist([{ board: 3, ns: 'c', ew: 'h', adjusted: 'average' }])).toThrow(/adjusted: .*no other table played board 3.*new deal/);
  });

  it('an explicit adjustment replaces the tricks; bridge\'s average-plus is refused for whist', () => {
    const r = whist([t(3, 'a', 'f', 7, { table: 1, adjusted: { NS: 6, EW: 7 } }), t(3, 'b', 'g', 8, { table: 2 })]);
    expect(r.boards[0].results[0].tricks).toEqual({ NS: 6, EW: 7 });
    expect(() => whist([t(3, 'a', 'f', 7, { adjusted: 'average-plus' })])).toThrow(/adjusted: "average-plus" is a bridge matchpoint adjustment/);
  });
});

describe('scoreTravellers: the entry point', () => {
  it('whist travellers default to average; a bridge method for them is refused with the fix', () => {
    expect(scoreTravellers([t(1, 'a', 'f', 7), t(1, 'b', 'g', 6)]).method).toBe('average');
    expect(() => scoreTravellers([t(1, 'a', 'f', 7)], { method: 'matchpoints' })).toThrow(/method: "matchpoints" scores bridge contracts; whist travellers .* average, matches, individuals/);
  });

  it('bridge travellers are refused the whist methods; whist and bridge in one file are refused', () => {
    expect(() => scoreTravellers([{ board: 1, ns: '1', ew: '2', contract: '4HE', tricks: 10 }], { method: 'average' })).toThrow(/method: "average" scores whist tricks/);
    let err: ScoringError | undefined;
    try { scoreTravellers([t(1, 'a', 'f', 7), { board: 2, ns: '1', ew: '2', contract: '4HE', tricks: 10 }]); } catch (e) { err = e as ScoringError; }
    expect(err).toBeInstanceOf(ScoringError);
    expect(err!.index).toBe(1);
    expect(err!.message).toMatch(/score one game per file/);
  });

  it('bad whist tricks name the field and the fix', () => {
    expect(() => scoreTravellers([{ board: 1, ns: 'a', ew: 'f', tricks: 7 }])).toThrow(/tricks: a number is a bridge declarer's tricks and needs "contract"/);
    expect(() => scoreTravellers([{ board: 1, ns: 'a', ew: 'f', tricks: { NS: 7, EW: 5 } }])).toThrow(/tricks: N-S 7 and E-W 5 make 12; a deal has 13 tricks/);
    expect(() => scoreTravellers([{ board: 0, ns: 'a', ew: 'f', tricks: { NS: 7, EW: 6 } }])).toThrow(/board: 0 is not a board number/);
  });

  it('no travellers: an empty report, not a crash', () => {
    expect(scoreTravellers([])).toEqual({ method: 'average', averages: { NS: 0, EW: 0 }, pairs: [], boards: [] });
  });
});

describe('rankStandings: a rank is one more than the pairs ranked above, shared by equals', () => {
  it('matches that definition, pair by pair, on random standings full of ties', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 60 }), (keys) => {
      const list: PairStanding[] = keys.map((k, i) => ({ pair: `${i + 1}NS`, total: k / 4, rank: 0 }));
      const better = (a: { total: number }, b: { total: number }) => b.total - a.total;
      const ranked = rankStandings(list.map((p) => ({ ...p })), better);
      expect(ranked.map((p) => p.pair).sort()).toEqual(list.map((p) => p.pair).sort());
      for (const p of ranked) {
        const above = list.filter((o) => better(o, p) < 0).length;
        const tied = list.filter((o) => o.pair !== p.pair && better(o, p) === 0).length > 0;
        expect([p.pair, p.rank, p.rankLabel]).toEqual([p.pair, above + 1, `${above + 1}${tied ? '=' : ''}`]);
      }
    }));
  });
});
