// randomPlay and randomDeal, checked by the independent referee in check-play.ts across many seeds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hand } from '../../src/cards/hand.js';
import { createRng } from '../../src/sim/prng.js';
import { randomDeal } from '../../src/sim/random-deal.js';
import { randomPlay } from '../../src/sim/random-play.js';
import { cardsOfMasks, referee } from './check-play.js';

const SEEDS = 1500;

/** Hands, leader and trump drawn from the seed, the same way for every test. */
function setup(seed: number) {
  const rng = createRng(seed);
  const hands = randomDeal(rng);
  const leader = rng.int(4);
  const trump = rng.int(5) - 1;
  return { rng, hands, leader, trump };
}

describe('randomDeal', () => {
  it('deals 13 cards to each seat and every card exactly once', () => {
    for (let seed = 0; seed < 300; seed++) {
      const hands = randomDeal(createRng(seed));
      const all = hands.flatMap((h) => cardsOfMasks(h));
      for (const h of hands) expect(cardsOfMasks(h)).toHaveLength(13);
      expect(new Set(all).size).toBe(52);
    }
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expect(randomDeal(createRng(9))).toEqual(randomDeal(createRng(9)));
    expect(randomDeal(createRng(9))).not.toEqual(randomDeal(createRng(10)));
  });
});

describe('randomPlay: legal play', () => {
  it(`plays every card once, 13 per seat, follows suit when able, winners lead (${SEEDS} seeds)`, () => {
    for (let seed = 0; seed < SEEDS; seed++) {
      const { rng, hands, leader, trump } = setup(seed);
      const res = randomPlay(rng, hands, { leader, trump });
      const ref = referee(hands, res.plays, leader, trump, res.winners);
      expect(ref.problems, `seed ${seed}`).toEqual([]);
      expect(ref.renounces, `seed ${seed}`).toEqual([]);
      expect(res.plays).toHaveLength(52);
      expect(res.winners).toHaveLength(13);
      expect(res.injected).toBeUndefined();
      expect(ref.leaders[0]).toBe(leader);
      for (let t = 1; t < 13; t++) expect(ref.leaders[t]).toBe(res.winners[t - 1]);
    }
  });

  it('is legal for arbitrary seeds (property)', () => {
    fc.assert(fc.property(fc.integer(), (seed) => {
      const { rng, hands, leader, trump } = setup(seed);
      const res = randomPlay(rng, hands, { leader, trump });
      const ref = referee(hands, res.plays, leader, trump, res.winners);
      return ref.problems.length === 0 && ref.renounces.length === 0;
    }), { numRuns: 300 });
  });

  it('does not modify the hands it is given', () => {
    const { rng, hands, leader, trump } = setup(5);
    const copy = hands.map((h) => [...h]);
    randomPlay(rng, hands, { leader, trump });
    expect(hands).toEqual(copy);
  });

  it('is deterministic: the same seed gives the same play', () => {
    for (const seed of [0, 1, 77, 123456789]) {
      const a = setup(seed);
      const b = setup(seed);
      expect(randomPlay(a.rng, a.hands, { leader: a.leader, trump: a.trump, renounceAt: { trick: 3 } }))
        .toEqual(randomPlay(b.rng, b.hands, { leader: b.leader, trump: b.trump, renounceAt: { trick: 3 } }));
    }
  });

  it('plays hands of fewer than 13 cards (equal sizes)', () => {
    // N: SA SK, E: HA HK, S: DA DK, W: CA CK; N leads, spades are trumps: N wins both.
    const hands: Hand[] = [[0x1800, 0, 0, 0], [0, 0x1800, 0, 0], [0, 0, 0x1800, 0], [0, 0, 0, 0x1800]];
    const res = randomPlay(createRng(1), hands, { leader: 0, trump: 0 });
    expect(res.winners).toEqual([0, 0]);
    expect(referee(hands, res.plays, 0, 0, res.winners).problems).toEqual([]);
  });

  it('rejects bad input with a reason', () => {
    const { hands } = setup(1);
    expect(() => randomPlay(createRng(1), hands, { leader: 4, trump: 0 })).toThrow(/leader/);
    expect(() => randomPlay(createRng(1), hands, { leader: 0, trump: 4 })).toThrow(/trump/);
    expect(() => randomPlay(createRng(1), hands, { leader: 0, trump: 0, renounceAt: { trick: 0 } })).toThrow(/renounceAt/);
    const dup: Hand[] = [hands[0], hands[0], hands[2], hands[3]];
    expect(() => randomPlay(createRng(1), dup, { leader: 0, trump: 0 })).toThrow(/another hand/);
    const short: Hand[] = [[hands[0][0] & (hands[0][0] - 1), hands[0][1], hands[0][2], hands[0][3]], hands[1], hands[2], hands[3]];
    expect(() => randomPlay(createRng(1), short, { leader: 0, trump: 0 })).toThrow(/same size/);
  });
});

describe('randomPlay: injected renounce in error', () => {
  it(`makes exactly one real renounce in error, at the first trick from the one asked where someone can (${SEEDS} seeds)`, () => {
    let injectedCount = 0, deferred = 0, notPossible = 0;
    for (let seed = 0; seed < SEEDS; seed++) {
      const { rng, hands, leader, trump } = setup(seed);
      const asked = 1 + (seed % 13);
      const res = randomPlay(rng, hands, { leader, trump, renounceAt: { trick: asked } });
      const ref = referee(hands, res.plays, leader, trump, res.winners);
      expect(ref.problems, `seed ${seed}`).toEqual([]);

      // Which tricks, from the one asked, had a follower holding the suit led and some other suit?
      const possible: number[] = [];
      for (let t = asked; t <= 13; t++) {
        const led = Math.floor(res.plays[(t - 1) * 4].card / 13);
        const before = ref.before[t - 1];
        const can = [1, 2, 3].some((j) => {
          const cards = before[(ref.leaders[t - 1] + j) % 4];
          return cards.some((c) => Math.floor(c / 13) === led) && cards.some((c) => Math.floor(c / 13) !== led);
        });
        if (can) possible.push(t);
        if (res.injected && t === res.injected.trick) break;
      }

      if (res.injected === undefined) {
        notPossible++;
        expect(ref.renounces, `seed ${seed}`).toEqual([]);
        expect(possible, `seed ${seed}: a renounce was possible but none was injected`).toEqual([]);
        continue;
      }
      injectedCount++;
      const inj = res.injected;
      if (inj.trick > asked) deferred++;
      // The first trick (from the one asked) where a renounce was possible is the one used.
      expect(possible[0], `seed ${seed}`).toBe(inj.trick);
      expect(inj.trick).toBeGreaterThanOrEqual(asked);
      // Exactly one renounce in error, the reported one: the offender held the suit led (referee's own test).
      expect(ref.renounces).toHaveLength(1);
      const r = ref.renounces[0];
      expect({ trick: r.trick, seat: r.seat, card: r.card }).toEqual(inj);
      expect(inj.seat).not.toBe(ref.leaders[inj.trick - 1]);
      expect(ref.before[inj.trick - 1][inj.seat].some((c) => Math.floor(c / 13) === r.led)).toBe(true);
      // He keeps the suit and plays it later: the first card of it he plays comes after the renounce trick.
      const later = res.plays.findIndex((p, i) => i >= inj.trick * 4 && p.seat === inj.seat && Math.floor(p.card / 13) === r.led);
      expect(later, `seed ${seed}`).toBeGreaterThan(0);
    }
    // The sample exercises all three outcomes.
    expect(injectedCount).toBeGreaterThan(SEEDS / 2);
    expect(deferred).toBeGreaterThan(0);
    expect(notPossible).toBeGreaterThan(0);
  });

  it('leaves the play before the renounce trick as it would have been without one', () => {
    for (let seed = 0; seed < 200; seed++) {
      const a = setup(seed);
      const b = setup(seed);
      const plain = randomPlay(a.rng, a.hands, { leader: a.leader, trump: a.trump });
      const inj = randomPlay(b.rng, b.hands, { leader: b.leader, trump: b.trump, renounceAt: { trick: 6 } });
      const upTo = inj.injected ? (inj.injected.trick - 1) * 4 + 1 : 52;
      expect(inj.plays.slice(0, upTo)).toEqual(plain.plays.slice(0, upTo));
    }
  });

  it('injects nothing when no one can renounce: a one-suited hand on lead throughout, or the last trick', () => {
    // N holds all the spades and leads them all; nobody else has a spade, so nobody can renounce in error.
    const hands: Hand[] = [[0x1fff, 0, 0, 0], [0, 0x1fff, 0, 0], [0, 0, 0x1fff, 0], [0, 0, 0, 0x1fff]];
    const res = randomPlay(createRng(1), hands, { leader: 0, trump: -1, renounceAt: { trick: 1 } });
    expect(res.injected).toBeUndefined();
    expect(res.winners).toEqual(new Array(13).fill(0));
    // At trick 13 everyone has one card: a renounce in error is impossible.
    for (let seed = 0; seed < 50; seed++) {
      const s = setup(seed);
      expect(randomPlay(s.rng, s.hands, { leader: s.leader, trump: s.trump, renounceAt: { trick: 13 } }).injected).toBeUndefined();
      const t = setup(seed);
      expect(randomPlay(t.rng, t.hands, { leader: t.leader, trump: t.trump, renounceAt: { trick: 14 } }).injected).toBeUndefined();
    }
  });
});
