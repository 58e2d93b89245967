// Properties of the score keeper over random runs of deals (fast-check): what the seed says must hold of every rubber.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { englishDummyRules } from '../../src/laws/score/dummy.js';
import { englishRules } from '../../src/laws/score/english.js';
import { progressiveRules } from '../../src/laws/score/favourite.js';
import { keep, startScore } from '../../src/laws/score/keeper.js';
import type { ScoreRules } from '../../src/laws/score/types.js';
import { type DealSpec, deal } from './score-helpers.js';

const specArb: fc.Arbitrary<DealSpec> = fc.record({
  ns: fc.integer({ min: 0, max: 13 }),
  trump: fc.constantFrom('S', 'H', 'D', 'C'),
  honours: fc.integer({ min: 0, max: 4 }),
  called: fc.subarray(['NS', 'EW'] as const),
}).map((s) => ({ ...s, called: [...s.called], dummyPartner: 'S' as const }));

function run(rules: ScoreRules, specs: DealSpec[]) {
  let st = startScore(rules);
  const all = specs.map((s) => (st = keep(st, deal(s))));
  return { all, last: st.score };
}

describe('score keeper properties', () => {
  it('English whist: between deals neither side is at five; every rubber is won two games to none or one, worth 1 to 8; totals add the rubbers', () => {
    fc.assert(fc.property(fc.array(specArb, { maxLength: 40 }), (specs) => {
      const { all, last } = run(englishRules(), specs);
      for (const st of all) expect(Math.max(st.score.points.NS, st.score.points.EW)).toBeLessThan(5);
      for (const rb of last.rubbers) {
        expect(rb.games.filter((g) => g.winner === rb.winner)).toHaveLength(2);
        expect(rb.games.length).toBeLessThanOrEqual(3);
        expect(rb.value).toBeGreaterThanOrEqual(1);
        expect(rb.value).toBeLessThanOrEqual(8);
      }
      for (const side of ['NS', 'EW'] as const) {
        expect(last.totals[side]).toBe(last.rubbers.filter((r) => r.winner === side).reduce((a, r) => a + r.value, 0));
      }
    }));
  });

  it('English Dummy, one player taking dummy throughout: "the largest rubber that the dummy\'s partner can win is one of seven; and he may win nothing; whereas his adversaries may win a rubber of nine, and must win at least two"', () => {
    fc.assert(fc.property(fc.array(specArb, { maxLength: 40 }), (specs) => {
      const { last } = run(englishDummyRules({ continuousDummy: true }), specs);
      for (const rb of last.rubbers) {
        if (rb.winner === 'NS') { expect(rb.value).toBeGreaterThanOrEqual(0); expect(rb.value).toBeLessThanOrEqual(7); }
        else { expect(rb.value).toBeGreaterThanOrEqual(2); expect(rb.value).toBeLessThanOrEqual(9); }
      }
    }));
  });

  it('the progressive variation: "The value of the rubber is the difference between the scores of the winners and that of the losers"', () => {
    fc.assert(fc.property(fc.array(specArb, { maxLength: 60 }), (specs) => {
      const { last } = run(progressiveRules(), specs);
      for (const rb of last.rubbers) {
        const games = rb.games.reduce((a, g) => ({ NS: a.NS + g.score.NS, EW: a.EW + g.score.EW }), { NS: 0, EW: 0 });
        games[rb.winner] += 10;
        expect(rb.totals).toEqual(games);
        expect(rb.value).toBe(games[rb.winner] - games[rb.winner === 'NS' ? 'EW' : 'NS']);
      }
      // The totals carry each rubber's difference to the side it favours.
      const net = last.rubbers.reduce((a, r) => a + (r.winner === 'NS' ? r.value : -r.value), 0);
      expect(last.totals.NS - last.totals.EW).toBe(net);
    }));
  });
});
