// Property tests over random deals: legal play finds nothing; one injected renounce in error is exactly one revoke.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEATS } from '../../src/cards/seat.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { replay } from '../../src/laws/engine.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';

const FOUR_HANDED = ['duplicate-whist', 'whist', 'english-whist', 'bridge'] as const;
const seed = fc.integer({ min: 1, max: 2 ** 31 - 1 });

/** Drop the hands from the deal event: the table does not know the tray. */
function withoutHands(events: TableEvent[]): TableEvent[] {
  return events.map((e) => (e.type === 'deal' ? { ...e, hands: undefined } : e));
}

describe('property: legal play', () => {
  it.each(FOUR_HANDED)('%s: random legal deals played legally produce no findings, 13 tricks, and the simulated winners', (variant) => {
    fc.assert(fc.property(seed, fc.boolean(), (s, known) => {
      const sim = simulateDeal(createRng(s), { variant, board: (s % 16) + 1, withHands: known });
      const [d] = replay(sim.events).deals;
      expect(d.findings).toEqual([]);
      expect(d.tricks.map((t) => t.winner)).toEqual(sim.winners.map((w) => SEATS[w]));
      expect(d.tricksWon.NS + d.tricksWon.EW).toBe(13);
      expect(d.scored).toEqual(d.tricksWon);
    }), { numRuns: 150 });
  });
});

describe('property: one renounce in error', () => {
  it.each(FOUR_HANDED)('%s: a single injected renounce yields exactly one revoke finding, at the right trick, hands known and unknown', (variant) => {
    fc.assert(fc.property(seed, fc.integer({ min: 1, max: 11 }), (s, trick) => {
      const sim = simulateDeal(createRng(s), { variant, board: (s % 16) + 1, withHands: true, renounceAt: { trick } });
      fc.pre(sim.injected !== undefined);
      const inj = sim.injected!;
      for (const events of [sim.events, withoutHands(sim.events)]) {
        const [d] = replay(events).deals;
        const revokes = d.findings.filter((f) => f.kind === 'revoke');
        expect(revokes).toHaveLength(1);
        expect(revokes[0].seat).toBe(SEATS[inj.seat]);
        expect(revokes[0].trick).toBe(inj.trick);
      }
      // With the tray known the renounce is also flagged the moment the card lands.
      const [known] = replay(sim.events).deals;
      expect(known.findings.filter((f) => f.kind === 'renounce-in-error').map((f) => f.trick)).toEqual([inj.trick]);
    }), { numRuns: 150 });
  });
});
