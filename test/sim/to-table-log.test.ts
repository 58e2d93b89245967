// playToTableLog and simulateDeal: the logs are what a table would journal (DESIGN §4). The duplicate-whist logs
// are cross-checked by the same verifier that guards the Hoyle fixtures (test/fixtures/seed-hands/verify.ts).
import { describe, expect, it } from 'vitest';
import { formatCard } from '../../src/cards/card.js';
import { formatDeal } from '../../src/cards/deal.js';
import { SEATS, type Seat, leftOf } from '../../src/cards/seat.js';
import { type TableEvent, formatTableLog, parseTableLog } from '../../src/formats/table-log.js';
import { parseContract } from '../../src/cards/contract.js';
import { createRng } from '../../src/sim/prng.js';
import { randomDeal } from '../../src/sim/random-deal.js';
import { randomPlay } from '../../src/sim/random-play.js';
import { dealerOfBoard, formatContract, randomCardOf, randomContract, simulateDeal } from '../../src/sim/simulate.js';
import { openingLeader, playToTableLog } from '../../src/sim/to-table-log.js';
import { type SeedHand, checkFixture } from '../fixtures/seed-hands/verify.js';

const places = (evs: TableEvent[]) => evs.filter((e) => e.type === 'place');
const lifts = (evs: TableEvent[]) => evs.filter((e) => e.type === 'lift');

describe('playToTableLog: turned-trump variants', () => {
  it('passes the Hoyle-fixture verifier (deal, turned trump placed and lifted, place/lift per trick) for 200 seeds', () => {
    for (let seed = 0; seed < 200; seed++) {
      const board = 1 + (seed % 16);
      const sim = simulateDeal(createRng(seed), { variant: 'duplicate-whist', board });
      const text = formatTableLog(sim.events);
      const rows = Array.from({ length: 13 }, (_, t) => {
        const row = ['', '', '', ''];
        for (let j = 0; j < 4; j++) { const p = sim.plays[t * 4 + j]; row[p.seat] = formatCard(p.card); }
        return row;
      });
      const ns = sim.winners.filter((w) => w % 2 === 0).length;
      const exp: SeedHand = {
        board, title: 'simulated', turned: formatCard(sim.trumpTurned!), trump: 'SHDC'[sim.trump], dealer: sim.dealer,
        firstLeader: SEATS[leftOf(SEATS.indexOf(sim.dealer))], deal: formatDeal(sim.hands),
        winners: sim.winners.map((w) => SEATS[w]), tricksWon: { NS: ns, EW: 13 - ns }, rows, corrections: [], notes: [],
      };
      expect(parseTableLog(text).errors, `seed ${seed}`).toEqual([]);
      expect(checkFixture(text, exp, { hands: true }).problems, `seed ${seed}`).toEqual([]);
    }
  });

  it('places the turned card first and lifts it just before the dealer plays to trick 1, even when he leads', () => {
    const rng = createRng(11);
    const hands = randomDeal(rng);
    // S deals and, here, leads himself: the lift must still come right before his first card.
    const turned = randomCardOf(rng, hands[2]);
    const { plays } = randomPlay(rng, hands, { leader: 2, trump: Math.floor(turned / 13) });
    const evs = playToTableLog(hands, plays, { variant: 'whist', board: 3, dealer: 'S', withHands: false, trumpTurned: turned });
    expect(evs[0]).toEqual({ type: 'deal', board: 3, variant: 'whist', dealer: 'S' });
    expect(evs[1]).toEqual({ type: 'place', seat: 'S', card: formatCard(turned) });
    expect(evs[2]).toEqual({ type: 'lift', seat: 'S', card: formatCard(turned) });
    expect(evs[3]).toEqual({ type: 'place', seat: 'S', card: formatCard(plays[0].card) });
    expect(places(evs)).toHaveLength(53);
    expect(lifts(evs)).toHaveLength(53);
  });

  it('refuses a turned card that is not in the dealer\'s hand, and a missing one', () => {
    const rng = createRng(1);
    const hands = randomDeal(rng);
    const { plays } = randomPlay(rng, hands, { leader: 1, trump: 0 });
    const east = randomCardOf(rng, hands[1]); // the dealer is N
    expect(() => playToTableLog(hands, plays, { variant: 'duplicate-whist', board: 1, dealer: 'N', withHands: true, trumpTurned: east })).toThrow(/dealer's \(N\) hand/);
    expect(() => playToTableLog(hands, plays, { variant: 'duplicate-whist', board: 1, dealer: 'N', withHands: true })).toThrow(/trumpTurned/);
  });
});

describe('playToTableLog: bridge', () => {
  it('carries the contract, turns no card, and the declarer\'s left-hand opponent leads', () => {
    for (let seed = 0; seed < 100; seed++) {
      const sim = simulateDeal(createRng(seed), { variant: 'bridge', board: seed + 1 });
      const deal = sim.events[0];
      expect(deal.type).toBe('deal');
      if (deal.type !== 'deal') continue;
      expect(deal.contract).toBe(sim.contract);
      const c = parseContract(sim.contract!);
      expect(c.ok).toBe(true);
      if (!c.ok) continue;
      expect(sim.trump).toBe(c.value.strain);
      expect(sim.events[1]).toMatchObject({ type: 'place', seat: SEATS[leftOf(c.value.declarer)] });
      expect(places(sim.events)).toHaveLength(52);
      expect(lifts(sim.events)).toHaveLength(52);
      expect(deal.hands).toBe(formatDeal(sim.hands));
      expect(parseTableLog(formatTableLog(sim.events)).errors).toEqual([]);
    }
  });

  it('needs a contract, and refuses a turned card', () => {
    const hands = randomDeal(createRng(2));
    const { plays } = randomPlay(createRng(2), hands, { leader: 0, trump: -1 });
    expect(() => playToTableLog(hands, plays, { variant: 'bridge', board: 1, dealer: 'N', withHands: true })).toThrow(/contract/);
    expect(() => playToTableLog(hands, plays, { variant: 'bridge', board: 1, dealer: 'N', withHands: true, contract: '8NTS' })).toThrow(/level 1-7/);
    expect(() => playToTableLog(hands, plays, { variant: 'bridge', board: 1, dealer: 'N', withHands: true, contract: '3NTW', trumpTurned: 0 })).toThrow(/does not turn/);
  });
});

describe('playToTableLog: general', () => {
  it('numbers events from firstSeq, so many deals can share one log', () => {
    const rng = createRng(4);
    let seq = 1;
    const all: TableEvent[] = [];
    for (let board = 1; board <= 5; board++) {
      const sim = simulateDeal(rng, { variant: 'bridge', board, firstSeq: seq });
      seq += sim.events.length;
      all.push(...sim.events);
    }
    const parsed = parseTableLog(formatTableLog(all));
    expect(parsed.errors).toEqual([]);
    expect(parsed.events.map((e) => e.seq)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(parsed.events.filter((e) => e.type === 'deal')).toHaveLength(5);
  });

  it('writes no lifts for an incomplete last trick', () => {
    const hands = randomDeal(createRng(6));
    const { plays } = randomPlay(createRng(6), hands, { leader: 1, trump: -1 });
    const evs = playToTableLog(hands, plays.slice(0, 6), { variant: 'bridge', board: 1, dealer: 'N', withHands: false, contract: '1NTN' });
    expect(evs.map((e) => e.type)).toEqual(['deal', 'place', 'place', 'place', 'place', 'lift', 'lift', 'lift', 'lift', 'place', 'place']);
  });

  it('refuses the two-handed games and unknown variants', () => {
    const hands = randomDeal(createRng(1));
    expect(() => playToTableLog(hands, [], { variant: 'humbug', board: 1, dealer: 'N', withHands: true, trumpTurned: 0 })).toThrow(/four-handed/);
    expect(() => playToTableLog(hands, [], { variant: 'euchre', board: 1, dealer: 'N', withHands: true })).toThrow(/unknown variant/);
  });
});

describe('simulate helpers', () => {
  it('simulateDeal is deterministic for a seed', () => {
    for (const variant of ['duplicate-whist', 'whist', 'english-dummy', 'bridge']) {
      expect(simulateDeal(createRng(99), { variant, board: 7, renounceAt: { trick: 4 } }))
        .toEqual(simulateDeal(createRng(99), { variant, board: 7, renounceAt: { trick: 4 } }));
    }
  });

  it('opening leaders, board dealers and contract notation', () => {
    expect(openingLeader('duplicate-whist', 'W')).toBe(0);
    expect(openingLeader('bridge', 'N', '4HE')).toBe(2);
    expect(openingLeader('humbug', 'N')).toBe(2);
    expect([1, 2, 3, 4, 5, 16].map(dealerOfBoard)).toEqual<Seat[]>(['N', 'E', 'S', 'W', 'N', 'W']);
    const rng = createRng(8);
    for (let i = 0; i < 500; i++) {
      const c = randomContract(rng);
      const text = formatContract(c);
      expect(parseContract(text)).toEqual({ ok: true, value: c });
    }
    expect(formatContract({ level: 3, strain: -1, declarer: 2, doubled: 1 })).toBe('3NTSX');
  });
});
