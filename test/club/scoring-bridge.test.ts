// Bridge session scoring: Law 77 contract scores, Law 2 vulnerability, matchpoints with Neuberg (the EBU's fouled-board
// example of groups of 7 and 3), the WBF IMP scale, cross-IMPs and Butler. Every expected number is computed by hand
// from the table or formula named in the test, not by the code under test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boardDealer, boardVulnerability, bridgeScore, contractScore, isVulnerable } from '../../src/club/scoring/bridge-score.js';
import { butlerDatum, butlerImps, crossImps, imps } from '../../src/club/scoring/bridge-imps.js';
import { boardMatchpoints, matchpoints, neuberg, roundTowardsAverage } from '../../src/club/scoring/bridge-matchpoints.js';
import { type BridgeTraveller, scoreBridge } from '../../src/club/scoring/bridge.js';
import type { ScoreReport } from '../../src/club/types.js';

const S = 0, H = 1, D = 2, C = 3, NT = -1;

function mpOf(report: ScoreReport, board: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of report.boards.find((b) => b.board === board)!.results) out[r.ns] = r.mp!.NS;
  return out;
}

describe('Law 2: dealer and vulnerability from the board number', () => {
  it('Law 2: "North dealer, neither vulnerable" on board 1 — the sixteen-board cycle, repeating from board 17', () => {
    const cycle = ['None', 'NS', 'EW', 'All', 'NS', 'EW', 'All', 'None', 'EW', 'All', 'None', 'NS', 'All', 'None', 'NS', 'EW'];
    const dealers = ['N', 'E', 'S', 'W'];
    for (let b = 1; b <= 32; b++) {
      expect(boardVulnerability(b)).toBe(cycle[(b - 1) % 16]);
      expect(boardDealer(b)).toBe(dealers[(b - 1) % 4]);
    }
    expect([boardDealer(1), boardDealer(2), boardDealer(3), boardDealer(4)]).toEqual(['N', 'E', 'S', 'W']);
    expect([boardVulnerability(1), boardVulnerability(2), boardVulnerability(3), boardVulnerability(4)]).toEqual(['None', 'NS', 'EW', 'All']);
  });

  it('a board number of 0 or a fraction is refused, naming the fix', () => {
    expect(() => boardVulnerability(0)).toThrow(/board 0 must be a whole number 1 or more/);
    expect(() => boardDealer(1.5)).toThrow(/whole number/);
  });

  it('isVulnerable: "NS" makes N and S vulnerable, not E and W', () => {
    expect(['N', 'E', 'S', 'W'].map((s) => isVulnerable('NS', s as 'N'))).toEqual([true, false, true, false]);
    expect(isVulnerable('All', 'W')).toBe(true);
    expect(isVulnerable('None', 'N')).toBe(false);
  });
});

describe('Law 77: the scoring table', () => {
  it('Law 77: "4HE" making 11 tricks, E-W vulnerable (board 3): 120 + game 500 + overtrick 30 = 650 to E-W, -650 for N-S', () => {
    expect(bridgeScore(3, '4HE', 11)).toBe(-650);
    expect(bridgeScore(4, '4HE', 11)).toBe(-650);
    expect(bridgeScore(1, '4HE', 11)).toBe(-450); // not vulnerable: 120 + 300 + 30
  });

  it('Law 77 undertricks doubled, not vulnerable "100 … 200 … 300": 3NT doubled by East two down on board 1 is +300 for the defence (N-S)', () => {
    expect(bridgeScore(1, '3NTEX', 7)).toBe(300);
    expect(bridgeScore(1, '3NTSX', 7)).toBe(-300);
  });

  it('Law 77: 1NT just made, not vulnerable: 40 trick points + 50 part-score premium = 90', () => {
    expect(bridgeScore(1, '1NTN', 7)).toBe(90);
    expect(bridgeScore(1, '1NTW', 7)).toBe(-90);
  });

  it('Law 77: 7NT redoubled and made: 220 × 4 = 880, game, grand slam and 100 for making a redoubled contract (2280 / 2980 vulnerable)', () => {
    expect(bridgeScore(1, '7NTSXX', 13)).toBe(880 + 300 + 1000 + 100);
    expect(bridgeScore(2, '7NTSXX', 13)).toBe(880 + 500 + 1500 + 100);
    expect(bridgeScore(2, '7NTSXX', 13)).toBe(2980);
  });

  it('Law 77 trick points: clubs and diamonds 20, hearts and spades 30, no trump 40 for the first and 30 for each other', () => {
    expect(contractScore(2, C, 0, false, 8)).toBe(40 + 50);
    expect(contractScore(3, D, 0, true, 9)).toBe(60 + 50);
    expect(contractScore(5, D, 0, false, 11)).toBe(100 + 300);
    expect(contractScore(2, H, 0, false, 8)).toBe(60 + 50);
    expect(contractScore(4, S, 0, false, 10)).toBe(120 + 300);
    expect(contractScore(4, S, 0, true, 10)).toBe(120 + 500);
    expect(contractScore(3, NT, 0, false, 9)).toBe(100 + 300);
    expect(contractScore(3, NT, 0, true, 9)).toBe(100 + 500);
    expect(contractScore(2, NT, 0, false, 10)).toBe(70 + 50 + 60); // two undoubled overtricks at 30
  });

  it('Law 77: doubling doubles the trick points (2SX = 120 is a game) and earns 50 "for the insult"; redoubling earns 100', () => {
    expect(contractScore(1, S, 1, false, 7)).toBe(60 + 50 + 50);
    expect(contractScore(2, S, 1, false, 8)).toBe(120 + 300 + 50);
    expect(contractScore(2, S, 1, true, 8)).toBe(120 + 500 + 50);
    expect(contractScore(1, NT, 1, false, 7)).toBe(80 + 50 + 50);
    expect(contractScore(1, NT, 2, false, 7)).toBe(160 + 300 + 100);
  });

  it('Law 77 overtricks: doubled 100 / 200 vulnerable each, redoubled 200 / 400 each', () => {
    expect(contractScore(1, NT, 1, false, 8)).toBe(80 + 50 + 50 + 100);
    expect(contractScore(2, H, 1, true, 10)).toBe(120 + 500 + 50 + 2 * 200);
    expect(contractScore(1, C, 2, false, 8)).toBe(80 + 50 + 100 + 200);
    expect(contractScore(1, C, 2, true, 9)).toBe(80 + 50 + 100 + 2 * 400);
  });

  it('Law 77 slams: small slam 500 / 750 vulnerable, grand slam 1000 / 1500', () => {
    expect(contractScore(6, H, 0, false, 12)).toBe(180 + 300 + 500);
    expect(contractScore(6, H, 0, true, 12)).toBe(180 + 500 + 750);
    expect(contractScore(6, NT, 0, true, 12)).toBe(190 + 500 + 750);
    expect(contractScore(7, C, 0, false, 13)).toBe(140 + 300 + 1000);
    expect(contractScore(7, S, 0, true, 13)).toBe(210 + 500 + 1500);
  });

  it('Law 77 undertricks: undoubled 50 / 100 each; doubled not vulnerable 100, 200, 200, then 300 each; vulnerable 200 then 300 each; redoubled twice doubled', () => {
    expect(contractScore(4, S, 0, false, 7)).toBe(-150);
    expect(contractScore(4, S, 0, true, 7)).toBe(-300);
    const nvX = [100, 300, 500, 800, 1100, 1400];
    const vX = [200, 500, 800, 1100, 1400, 1700];
    for (let down = 1; down <= 6; down++) {
      expect(contractScore(7, NT, 1, false, 13 - down)).toBe(-nvX[down - 1]);
      expect(contractScore(7, NT, 1, true, 13 - down)).toBe(-vX[down - 1]);
      expect(contractScore(7, NT, 2, false, 13 - down)).toBe(-2 * nvX[down - 1]);
      expect(contractScore(7, NT, 2, true, 13 - down)).toBe(-2 * vX[down - 1]);
    }
    // Thirteen down: 100 + 200 + 200 + 10 × 300 = 3500 not vulnerable; 200 + 12 × 300 = 3800 vulnerable.
    expect(contractScore(7, S, 1, false, 0)).toBe(-3500);
    expect(contractScore(7, S, 1, true, 0)).toBe(-3800);
    expect(contractScore(7, S, 2, true, 0)).toBe(-7600);
  });

  it('a passed-out board scores 0 whatever the tricks field says', () => {
    expect(bridgeScore(5, 'PASS', undefined)).toBe(0);
    expect(bridgeScore(5, 'pass', 3)).toBe(0);
  });

  it('bad contracts and tricks are refused with a sentence naming the field', () => {
    expect(() => bridgeScore(1, '8HE', 10)).toThrow(/contract: contract "8HE" must be level 1-7/);
    expect(() => bridgeScore(1, '4H', 10)).toThrow(/names no declarer/);
    expect(() => bridgeScore(1, '4HE', 14)).toThrow(/tricks 14 must be the declarer's tricks, 0 to 13/);
    expect(() => bridgeScore(1, '4HE', undefined)).toThrow(/tricks: give the declarer's tricks/);
  });

  it('property: the declaring side scores more (never less) with each extra trick, and a score is made exactly when tricks ≥ level + 6', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: -1, max: 3 }), fc.constantFrom(0, 1, 2), fc.boolean(), fc.integer({ min: 0, max: 12 }), (level, strain, dbl, vul, tricks) => {
        const d = dbl as 0 | 1 | 2;
        const a = contractScore(level, strain, d, vul, tricks);
        const b = contractScore(level, strain, d, vul, tricks + 1);
        expect(b).toBeGreaterThan(a);
        expect(a > 0).toBe(tricks >= level + 6);
        expect(Math.abs(a) % 10).toBe(0);
      }),
    );
  });
});

describe('matchpoints (EBU scale: 2 per score beaten, 1 per tie)', () => {
  it('property (scoreBridge): on a full board N-S matchpoints sum to n(n-1) and each result\'s N-S and E-W matchpoints make the top 2(n-1)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALL_VUL_SCORES), { minLength: 1, maxLength: 13 }), (scores) => {
        const t: BridgeTraveller[] = scores.map((s, i) => ({ board: 4, ns: `${i + 1}NS`, ew: `${i + 1}EW`, contract: scoreToContract(s), tricks: tricksFor(s) }));
        const r = scoreBridge(t, 'matchpoints');
        const n = scores.length;
        expect(r.boards[0].results.map((x) => x.score)).toEqual(scores);
        expect(r.boards[0].top).toBe(2 * (n - 1));
        expect(r.boards[0].results.reduce((a, x) => a + x.mp!.NS, 0)).toBe(n * (n - 1));
        for (const x of r.boards[0].results) expect(x.mp!.NS + x.mp!.EW).toBe(2 * (n - 1));
        // Two fields, 50% average each; every percentage is rounded to hundredths.
        if (n > 1) expect(Math.abs(r.pairs.reduce((a, p) => a + p.percent!, 0) - 100 * n)).toBeLessThanOrEqual(0.005 * 2 * n + 1e-9);
      }),
    );
  });

  it('a four-table traveller by hand: +450 beats three (6), the two +420 beat -50 and tie each other (3 each), -50 gets 0', () => {
    expect(matchpoints([420, 450, 420, -50])).toEqual([3, 6, 3, 0]);
  });

  it('property: the N-S matchpoints of a board played n times sum to n(n-1), each between 0 and the top 2(n-1)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(-800, -200, -100, -50, 0, 90, 110, 140, 420, 450, 620, 1430), { minLength: 1, maxLength: 15 }), (scores) => {
        const mp = matchpoints(scores);
        const n = scores.length;
        expect(mp.reduce((a, b) => a + b, 0)).toBe(n * (n - 1));
        for (const m of mp) expect(m >= 0 && m <= 2 * (n - 1)).toBe(true);
      }),
    );
  });

  it('a Mitchell of four tables and two boards, by hand: two fields, percentages of a top of 6 per board', () => {
    const t: BridgeTraveller[] = [
      // Board 1, none vulnerable: +420, +450, +420, -50.
      { board: 1, ns: '1NS', ew: '1EW', table: 1, contract: '4SN', tricks: 10 },
      { board: 1, ns: '2NS', ew: '2EW', table: 2, contract: '4SN', tricks: 11 },
      { board: 1, ns: '3NS', ew: '3EW', table: 3, contract: '4SN', tricks: 10 },
      { board: 1, ns: '4NS', ew: '4EW', table: 4, contract: '4SN', tricks: 9 },
      // Board 2, N-S vulnerable: 3NTX by South two down -500; 2H by East made -110; passed out 0; 3NT by South made +600.
      { board: 2, ns: '1NS', ew: '1EW', table: 1, contract: '3NTSX', tricks: 7 },
      { board: 2, ns: '2NS', ew: '2EW', table: 2, contract: '2HE', tricks: 8 },
      { board: 2, ns: '3NS', ew: '3EW', table: 3, contract: 'PASS' },
      { board: 2, ns: '4NS', ew: '4EW', table: 4, contract: '3NTS', tricks: 9 },
    ];
    const r = scoreBridge(t, 'matchpoints');
    expect(r.method).toBe('matchpoints');
    expect(r.boards.map((b) => b.top)).toEqual([6, 6]);
    expect(r.boards[0].results.map((x) => x.score)).toEqual([420, 450, 420, -50]);
    expect(r.boards[1].results.map((x) => x.score)).toEqual([-500, -110, 0, 600]);
    expect(mpOf(r, 1)).toEqual({ '1NS': 3, '2NS': 6, '3NS': 3, '4NS': 0 });
    expect(mpOf(r, 2)).toEqual({ '1NS': 0, '2NS': 2, '3NS': 4, '4NS': 6 });
    expect(r.boards[1].results[0]).toEqual({ table: 1, ns: '1NS', ew: '1EW', contract: '3NTSX', declarerTricks: 7, score: -500, mp: { NS: 0, EW: 6 } });
    const line = (p: string) => r.pairs.find((x) => x.pair === p)!;
    // N-S: 1NS 3+0 = 3 (25%), 2NS 6+2 = 8 (66.67%), 3NS 3+4 = 7 (58.33%), 4NS 0+6 = 6 (50%).
    expect(['1NS', '2NS', '3NS', '4NS'].map((p) => [line(p).total, line(p).percent, line(p).rank])).toEqual([
      [3, 25, 4], [8, 66.67, 1], [7, 58.33, 2], [6, 50, 3],
    ]);
    // E-W: 1EW 3+6 = 9 (75%), 2EW 0+4 = 4, 3EW 3+2 = 5, 4EW 6+0 = 6.
    expect(['1EW', '2EW', '3EW', '4EW'].map((p) => [line(p).total, line(p).percent, line(p).rank])).toEqual([
      [9, 75, 1], [4, 33.33, 4], [5, 41.67, 3], [6, 50, 2],
    ]);
    expect(r.pairs.map((p) => p.direction)).toEqual(['NS', 'NS', 'NS', 'NS', 'EW', 'EW', 'EW', 'EW']);
    expect(r.pairs.slice(0, 4).map((p) => p.pair)).toEqual(['2NS', '3NS', '4NS', '1NS']);
    expect(line('2NS').vsAverage).toBe(2);
  });

  it('ties share a rank, written "1=" as results sheets print it', () => {
    const r = scoreBridge([
      { board: 1, ns: '1NS', ew: '1EW', contract: '4SN', tricks: 10 },
      { board: 1, ns: '2NS', ew: '2EW', contract: '4SN', tricks: 10 },
      { board: 1, ns: '3NS', ew: '3EW', contract: '4SN', tricks: 9 },
    ], 'matchpoints');
    const ns = r.pairs.filter((p) => p.direction === 'NS');
    expect(ns.map((p) => [p.pair, p.rankLabel])).toEqual([['1NS', '1='], ['2NS', '1='], ['3NS', '3']]);
  });

  it('a Howell (pairs change direction) is one field: a pair is compared on each board only with the pairs sitting its way', () => {
    const r = scoreBridge([
      { board: 1, ns: 'A', ew: 'B', contract: '4SN', tricks: 10 }, // +420
      { board: 1, ns: 'C', ew: 'D', contract: '4SN', tricks: 9 }, // -50
      { board: 2, ns: 'B', ew: 'C', contract: '1NTW', tricks: 7 }, // N-S -90
      { board: 2, ns: 'D', ew: 'A', contract: '1NTW', tricks: 8 }, // N-S -120
    ], 'matchpoints');
    expect(r.pairs.every((p) => p.direction === undefined)).toBe(true);
    // Board 1: A 2, B 0, C 0, D 2. Board 2: B (N-S, -90) 2, C 0, D 0, A (E-W) 2.
    const line = (p: string) => r.pairs.find((x) => x.pair === p)!;
    expect(['A', 'B', 'C', 'D'].map((p) => line(p).total)).toEqual([4, 2, 0, 2]);
    expect(['A', 'B', 'C', 'D'].map((p) => line(p).rankLabel)).toEqual(['1', '2=', '4', '2=']);
    expect(line('A').percent).toBe(100);
  });
});

describe('Neuberg (boards with fewer results, Law 87B fouled boards)', () => {
  it('EBU, "Scoring of fouled boards" (Nick Doe): "played 7 times in one form and 3 times in another" — (M × E + (E − A)) / A gives 17.6 14.7 11.9 9.0 6.1 3.3 0.4 and 15.7 9.0 2.3', () => {
    // The printed example (www.ebu.co.uk/lawsandethics/articles/general/scoringfouledboards.htm): "each board is played
    // 10 times, but one board is fouled so that it is played 7 times in one form and 3 times in another"; "the normal
    // top on a board ... is 18". It uses the 2-per-beaten scale (group tops 12 and 4), where Neuberg is (M + 1)E/A - 1.
    // Versions A (7 results, distinct scores) and B (3 results).
    const a = [1430, 650, 620, 200, 140, 110, 90];
    const b = [-100, -200, -800];
    const t: BridgeTraveller[] = [
      ...a.map((s, i) => ({ board: 4, ns: `${i + 1}NS`, ew: `${i + 1}EW`, contract: scoreToContract(s), tricks: tricksFor(s), version: 'A' })),
      ...b.map((s, i) => ({ board: 4, ns: `${i + 8}NS`, ew: `${i + 8}EW`, contract: scoreToContract(s), tricks: tricksFor(s), version: 'B' })),
    ];
    const r = scoreBridge(t, 'matchpoints');
    expect(r.boards[0].results.map((x) => x.score)).toEqual([...a, ...b]);
    expect(r.boards[0].top).toBe(18);
    const ns = r.boards[0].results.map((x) => x.mp!.NS);
    expect(ns.slice(0, 7)).toEqual([17.6, 14.7, 11.9, 9.0, 6.1, 3.3, 0.4]);
    expect(ns.slice(7)).toEqual([15.7, 9.0, 2.3]);
    // "The total is 63" and "The total is 27": each group gets its share of the board's 90.
    expect(round1(ns.slice(0, 7).reduce((x, y) => x + y, 0))).toBe(63);
    expect(round1(ns.slice(7).reduce((x, y) => x + y, 0))).toBe(27);
    // E-W get the complement of the normal top.
    expect(r.boards[0].results.map((x) => round1(x.mp!.NS + x.mp!.EW))).toEqual(Array(10).fill(18));
    // The same numbers straight from the formula, before rounding: 123/7, 47/3.
    expect(neuberg(12, 7, 10)).toBeCloseTo(123 / 7, 10);
    expect(neuberg(4, 3, 10)).toBeCloseTo(47 / 3, 10);
    expect(boardMatchpoints([[5, 4, 3, 2, 1, 0, -1], [3, 2, 1]], 10)).toEqual([[17.6, 14.7, 11.9, 9.0, 6.1, 3.3, 0.4], [15.7, 9.0, 2.3]]);
  });

  it('EBU: "rounded to the nearest 0.1 of a match point (0.05 being rounded towards average)"', () => {
    expect(roundTowardsAverage(12.35, 9)).toBe(12.3);
    expect(roundTowardsAverage(5.65, 9)).toBe(5.7);
    expect(roundTowardsAverage(12.36, 9)).toBe(12.4);
    expect(roundTowardsAverage(5.64, 9)).toBe(5.6);
  });

  it('a board played three times where the others were played four times is factored up: (M + 1) × 4/3 − 1', () => {
    const t: BridgeTraveller[] = [
      { board: 1, ns: '1NS', ew: '1EW', contract: '4SN', tricks: 10 },
      { board: 1, ns: '2NS', ew: '2EW', contract: '4SN', tricks: 11 },
      { board: 1, ns: '3NS', ew: '3EW', contract: '4SN', tricks: 9 },
      { board: 2, ns: '1NS', ew: '2EW', contract: '4SN', tricks: 10 },
      { board: 2, ns: '2NS', ew: '3EW', contract: '4SN', tricks: 10 },
      { board: 2, ns: '3NS', ew: '4EW', contract: '4SN', tricks: 10 },
      { board: 2, ns: '4NS', ew: '1EW', contract: '4SN', tricks: 10 },
    ];
    const r = scoreBridge(t, 'matchpoints');
    expect(r.boards[0].top).toBe(6);
    // Group mp 2, 4, 0 on a top of 4: 3 × 4/3 − 1 = 3; 5 × 4/3 − 1 = 5.67 → 5.7; 4/3 − 1 = 0.33 → 0.3.
    expect(mpOf(r, 1)).toEqual({ '1NS': 3, '2NS': 5.7, '3NS': 0.3 });
    expect(r.boards[0].results.map((x) => x.mp!.EW)).toEqual([3, 0.3, 5.7]);
    expect(mpOf(r, 2)).toEqual({ '1NS': 3, '2NS': 3, '3NS': 3, '4NS': 3 });
  });

  it('artificial adjusted scores (Law 12C2): average-plus is 60% to both sides, and the other results are factored up with Neuberg', () => {
    const r = scoreBridge([
      { board: 1, ns: '1NS', ew: '1EW', contract: '4SN', tricks: 10 },
      { board: 1, ns: '2NS', ew: '2EW', contract: '4SN', tricks: 11 },
      { board: 1, ns: '3NS', ew: '3EW', contract: '4SN', tricks: 9 },
      { board: 1, ns: '4NS', ew: '4EW', adjusted: 'average-plus' },
    ], 'matchpoints');
    expect(r.boards[0].results.map((x) => x.mp)).toEqual([
      { NS: 3, EW: 3 }, { NS: 5.7, EW: 0.3 }, { NS: 0.3, EW: 5.7 }, { NS: 3.6, EW: 3.6 },
    ]);
    expect(r.boards[0].results[3].score).toBeUndefined();
    const r2 = scoreBridge([
      { board: 1, ns: '1NS', ew: '1EW', contract: '4SN', tricks: 10 },
      { board: 1, ns: '2NS', ew: '2EW', adjusted: { NS: 40, EW: 60 } },
    ], 'matchpoints');
    expect(r2.boards[0].results[1].mp).toEqual({ NS: 0.8, EW: 1.2 });
    expect(r2.boards[0].results[0].mp).toEqual({ NS: 1, EW: 1 }); // alone: Neuberg gives the average
  });

  it('Neuberg\'s defining properties: a full-size group is unchanged, the average maps to the average, a group keeps its share, order is kept', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 20 }), (n, extra) => {
        const e = n + extra;
        for (let m = 0; m <= 2 * (n - 1); m++) expect(neuberg(m, n, n)).toBeCloseTo(m, 9);
        expect(neuberg(n - 1, n, e)).toBeCloseTo(e - 1, 9);
        let total = 0;
        for (let m = 0; m <= 2 * (n - 1); m += 2) total += neuberg(m, n, e); // one score of each rank: mp 0, 2, ..., 2(n-1)
        expect(total).toBeCloseTo(n * (e - 1), 6);
        if (n > 1) expect(neuberg(1, n, e)).toBeGreaterThan(neuberg(0, n, e));
        // A top in a smaller group is less than the full top (the missing results are assumed to spread the same way).
        if (extra > 0 && n > 0) expect(neuberg(2 * (n - 1), n, e)).toBeLessThan(2 * (e - 1));
      }),
    );
  });

  it('Neuberg refuses a group larger than the board, naming the fix', () => {
    expect(() => neuberg(0, 5, 4)).toThrow(/give 1 <= actual <= expected/);
    expect(() => scoreBridge([{ board: 1, ns: '1NS', ew: '1EW', contract: '4SN', tricks: 10 }, { board: 1, ns: '2NS', ew: '2EW', contract: '4SN', tricks: 10 }], 'matchpoints', { expected: 1 }))
      .toThrow(/expected: 1 results a board is fewer than the 2 one board has; give 2 or more/);
  });
});

describe('IMPs (WBF scale), cross-IMPs and Butler', () => {
  // The WBF IMP scale, row by row: [from, to, IMPs].
  const SCALE: [number, number, number][] = [
    [0, 10, 0], [20, 40, 1], [50, 80, 2], [90, 120, 3], [130, 160, 4], [170, 210, 5], [220, 260, 6], [270, 310, 7],
    [320, 360, 8], [370, 420, 9], [430, 490, 10], [500, 590, 11], [600, 740, 12], [750, 890, 13], [900, 1090, 14],
    [1100, 1290, 15], [1300, 1490, 16], [1500, 1740, 17], [1750, 1990, 18], [2000, 2240, 19], [2250, 2490, 20],
    [2500, 2990, 21], [3000, 3490, 22], [3500, 3990, 23], [4000, 7600, 24],
  ];

  it('WBF IMP scale: "0-10 → 0, 20-40 → 1, …, 4000 and more → 24", at both edges of every row', () => {
    for (const [from, to, n] of SCALE) {
      expect(imps(from)).toBe(n);
      expect(imps(to)).toBe(n);
      expect(imps(-to)).toBe(-n || 0);
    }
  });

  it('property: IMPs are antisymmetric and never fall as the difference grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: -800, max: 800 }).map((x) => x * 10), fc.integer({ min: 0, max: 100 }).map((x) => x * 10), (d, more) => {
        expect(imps(-d)).toBe(-imps(d) || 0);
        expect(imps(Math.abs(d) + more)).toBeGreaterThanOrEqual(imps(Math.abs(d)));
      }),
    );
  });

  it('cross-IMPs by hand, averaged per comparison: +420 +450 +420 -50 give 9/3, 13/3, 9/3, -31/3', () => {
    // +420: -1 (v 450), 0 (v 420), +10 (v -50) = 9; +450: 1 + 1 + 11 = 13; -50: -10 -11 -10 = -31.
    expect(crossImps([420, 450, 420, -50])).toEqual([3, 4.33, 3, -10.33]);
    expect(crossImps([620])).toEqual([0]);
  });

  it('property: on every board the cross-IMPs of N-S sum to zero (up to rounding to hundredths) and E-W get the negation', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALL_VUL_SCORES), { minLength: 1, maxLength: 12 }), (scores) => {
        const x = crossImps(scores);
        expect(Math.abs(x.reduce((a, b) => a + b, 0))).toBeLessThanOrEqual(0.005 * scores.length + 1e-9);
        const t: BridgeTraveller[] = scores.map((s, i) => ({ ns: `${i + 1}NS`, ew: `${i + 1}EW`, board: 4, contract: scoreToContract(s), tricks: tricksFor(s) }));
        const r = scoreBridge(t, 'cross-imps');
        expect(r.boards[0].results.map((res) => res.score)).toEqual(scores);
        for (const res of r.boards[0].results) expect(res.imps!.EW).toBe(-res.imps!.NS || 0);
      }),
    );
  });

  it('Butler: with 4 results the datum is the plain average, 1240 / 4 = 310; IMPs against it 3, 4, 3, -8', () => {
    expect(butlerImps([420, 450, 420, -50])).toEqual({ datum: 310, imps: [3, 4, 3, -8] });
  });

  it('Butler: with 5 or more results the highest and lowest are left out — 400 420 420 average 413.3, datum 410', () => {
    expect(butlerDatum([420, 450, 420, -50, 400])).toBe(410);
  });

  it('Butler: the datum is rounded to the nearest 10, halves away from zero (425 → 430, -425 → -430)', () => {
    expect(butlerDatum([420, 430])).toBe(430);
    expect(butlerDatum([-420, -430])).toBe(-430);
    expect(butlerDatum([420, 420, 430])).toBe(420);
  });

  it('scoreBridge by Butler and cross-IMPs: pair totals, ranks, and adjusted average-minus as -3 IMPs', () => {
    const t: BridgeTraveller[] = [
      { board: 1, ns: '1NS', ew: '1EW', contract: '4SN', tricks: 10 },
      { board: 1, ns: '2NS', ew: '2EW', contract: '4SN', tricks: 11 },
      { board: 1, ns: '3NS', ew: '3EW', contract: '4SN', tricks: 10 },
      { board: 1, ns: '4NS', ew: '4EW', contract: '4SN', tricks: 9 },
      { board: 2, ns: '1NS', ew: '2EW', adjusted: 'average-minus' },
      { board: 2, ns: '2NS', ew: '3EW', contract: '3NTS', tricks: 9 }, // N-S vulnerable: +600
      { board: 2, ns: '3NS', ew: '4EW', contract: '3NTS', tricks: 10 }, // +630
    ];
    const b = scoreBridge(t, 'butler');
    expect(b.boards[0].results.map((x) => x.imps)).toEqual([{ NS: 3, EW: -3 }, { NS: 4, EW: -4 }, { NS: 3, EW: -3 }, { NS: -8, EW: 8 }]);
    // Board 2: datum (600 + 630) / 2 = 615 → 620; 600 - 620 = -20 → -1, 630 - 620 = 10 → 0.
    expect(b.boards[1].results.map((x) => x.imps)).toEqual([{ NS: -3, EW: -3 }, { NS: -1, EW: 1 }, { NS: 0, EW: 0 }]);
    expect(b.boards[1].top).toBeUndefined();
    const line = (p: string) => b.pairs.find((x) => x.pair === p)!;
    expect(['1NS', '2NS', '3NS', '4NS'].map((p) => line(p).total)).toEqual([0, 3, 3, -8]);
    expect(['1NS', '2NS', '3NS', '4NS'].map((p) => line(p).rankLabel)).toEqual(['3', '1=', '1=', '4']);
    expect(line('2EW').total).toBe(-4 - 3);
    expect(line('1NS').percent).toBeUndefined();
    const x = scoreBridge(t, 'cross-imps');
    expect(x.boards[0].results.map((r) => r.imps!.NS)).toEqual([3, 4.33, 3, -10.33]);
    // Board 2: 600 v 630 is -30 → -1 IMP, one comparison.
    expect(x.boards[1].results.map((r) => r.imps!.NS)).toEqual([-3, -1, 1]);
  });
});

describe('scoreBridge refuses bad travellers with a sentence naming the field', () => {
  it('names the line, the board and the fix', () => {
    expect(() => scoreBridge([{ board: 1, ns: '1NS', ew: '1EW', contract: '9HE', tricks: 9 }], 'matchpoints')).toThrow(/traveller 1 \(board 1, 1NS v 1EW\): contract: contract "9HE" must be/);
    expect(() => scoreBridge([{ board: 1, ns: '1NS', ew: '1EW', contract: '4HE' }], 'matchpoints')).toThrow(/tricks must be the declarer's tricks/);
    expect(() => scoreBridge([{ board: 1, ns: '1NS', ew: '1EW' }], 'matchpoints')).toThrow(/give "contract" \(e.g. "4HE" or "PASS"\) and "tricks"/);
    expect(() => scoreBridge([{ board: 0, ns: '1NS', ew: '1EW', contract: 'PASS' }], 'matchpoints')).toThrow(/board 0 must be a whole number/);
    expect(() => scoreBridge([{ board: 1, ns: '1NS', ew: '1EW', adjusted: { NS: 120, EW: 40 } }], 'matchpoints')).toThrow(/percents 0 to 100/);
    expect(() => scoreBridge([
      { board: 1, ns: '1NS', ew: '1EW', contract: 'PASS' },
      { board: 1, ns: '1NS', ew: '2EW', contract: 'PASS' },
    ], 'matchpoints')).toThrow(/traveller 2 \(board 1, 1NS v 2EW\): pair 1NS already has a result on board 1; remove the duplicate line/);
    expect(() => scoreBridge([], 'average' as 'matchpoints')).toThrow(/bridge is scored by "matchpoints", "cross-imps" or "butler"/);
  });

  it('an empty travellers list scores to empty standings', () => {
    expect(scoreBridge([], 'matchpoints')).toEqual({ method: 'matchpoints', pairs: [], boards: [] });
  });
});

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

// Travellers written from a list of N-S scores on a board where both sides are vulnerable (board 4, Law 2: "All"):
// each score with a contract and declarer's tricks that make it, by the Law 77 table. The tests that use it also
// check the traveller's scores against the list, so a wrong entry here fails loudly.
const ALL_VUL: Record<number, [string, number]> = {
  1430: ['6HS', 12], // 180 + 500 + 750
  650: ['4SN', 11], // 120 + 500 + 30
  620: ['4SN', 10], // 120 + 500
  200: ['1NTE', 5], // two down vulnerable, undoubled
  140: ['3HN', 9], // 90 + 50
  110: ['2HN', 8], // 60 + 50
  90: ['1NTN', 7], // 40 + 50
  0: ['PASS', 0],
  [-100]: ['4SN', 9],
  [-110]: ['2HE', 8],
  [-200]: ['4SN', 8],
  [-800]: ['4SNX', 7], // doubled vulnerable, three down: 200 + 300 + 300
  [-1430]: ['6HE', 12],
};
const ALL_VUL_SCORES = Object.keys(ALL_VUL).map(Number);
function scoreToContract(s: number): string {
  return ALL_VUL[s][0];
}
function tricksFor(s: number): number {
  return ALL_VUL[s][1];
}

describe('scoreBridge ranks each field by the count of pairs above, equals sharing a rank', () => {
  it('matches that definition on random one-board fields full of ties (matchpoints and cross-IMPs)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 7, max: 9 }), { minLength: 2, maxLength: 40 }), fc.constantFrom('matchpoints' as const, 'cross-imps' as const), (tricks, method) => {
      const r = scoreBridge(tricks.map((n, i) => ({ board: 1, ns: `${i + 1}NS`, ew: `${i + 1}EW`, contract: '2SN', tricks: n })), method);
      const key = (p: ScoreReport['pairs'][number]) => (method === 'matchpoints' ? p.percent! : p.total);
      for (const p of r.pairs) {
        const field = r.pairs.filter((o) => o.direction === p.direction);
        const above = field.filter((o) => key(o) > key(p)).length;
        const tied = field.some((o) => o !== p && key(o) === key(p));
        expect([p.pair, p.rank, p.rankLabel]).toEqual([p.pair, above + 1, `${above + 1}${tied ? '=' : ''}`]);
      }
    }));
  });
});
