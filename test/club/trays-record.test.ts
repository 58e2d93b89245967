// recordFromPlay: the tray record an original play makes, folded through the engine (docs/club.md, step 3).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCard } from '../../src/cards/card.js';
import { type Deal, formatDeal } from '../../src/cards/deal.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { replay } from '../../src/laws/engine.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { recordFromPlay, whyNoRecord } from '../../src/club/trays/index.js';

const AT = '2026-12-03T09:00:00.000Z';

function played(events: TableEvent[]) {
  const result = replay(events).deals[0];
  return { session: 's1', table: '3', events, result, at: AT };
}

/** The events without the turning of the trump card: the dealer's first place of it and his first lift of it. */
function withoutTurn(events: TableEvent[], dealer: string, card: string): TableEvent[] {
  const place = events.findIndex((e) => e.type === 'place' && e.seat === dealer && e.card === card);
  const lift = events.findIndex((e) => e.type === 'lift' && e.seat === dealer && e.card === card);
  return events.filter((_, i) => i !== place && i !== lift);
}

describe('recordFromPlay', () => {
  it('an original play of duplicate whist records the hands as played, the turned trump card and the dealer', () => {
    const sim = simulateDeal(createRng(7), { variant: 'duplicate-whist', board: 5, withHands: false, firstSeq: 10 });
    const rec = recordFromPlay(played(sim.events));
    expect(rec).not.toBeNull();
    expect(rec!.hands).toBe(formatDeal(sim.hands as unknown as Deal));
    expect(rec!.trumpCard).toBe(formatCard(sim.trumpTurned!));
    expect(rec!.dealer).toBe(sim.dealer);
    expect(rec!.board).toBe(5);
    expect(rec!.vulnerable).toBeUndefined();
    expect(rec!.source).toEqual({ kind: 'original-play', table: '3', fromSeq: 10, toSeq: sim.events.at(-1)!.seq, at: AT });
    expect(rec).toMatchObject({ schema: 1, type: 'tenace.tray', session: 's1', rev: 1, variant: 'duplicate-whist' });
  });

  it('property: any simulated whist or bridge original play gives back the dealt hands', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom('duplicate-whist', 'whist', 'bridge'), fc.integer({ min: 1, max: 32 }), (seed, variant, board) => {
      const sim = simulateDeal(createRng(seed), { variant, board, withHands: false, firstSeq: 1 });
      const rec = recordFromPlay(played(sim.events));
      expect(rec?.hands).toBe(formatDeal(sim.hands as unknown as Deal));
      expect(rec?.trumpCard).toBe(sim.trumpTurned === undefined ? undefined : formatCard(sim.trumpTurned));
    }), { numRuns: 40 });
  });

  it('a revoke does not change the hands as played: the record still holds the dealt hands', () => {
    const sim = simulateDeal(createRng(21), { variant: 'duplicate-whist', board: 4, withHands: false, renounceAt: { trick: 3 } });
    const r = played(sim.events);
    expect(r.result.findings.some((f) => f.kind === 'revoke' || f.kind === 'renounce-in-error')).toBe(sim.injected !== undefined);
    expect(recordFromPlay(r)?.hands).toBe(formatDeal(sim.hands as unknown as Deal));
  });

  it('bridge: vulnerability by the board-number cycle (1 None, 2 NS, 3 EW, 4 All), no trump card', () => {
    const vul = [1, 2, 3, 4, 17].map((board) => {
      const sim = simulateDeal(createRng(board), { variant: 'bridge', board, withHands: false });
      const events = sim.events.map((e) => (e.type === 'deal' ? { ...e, vulnerable: undefined } : e));
      return recordFromPlay(played(events))?.vulnerable;
    });
    expect(vul).toEqual(['None', 'NS', 'EW', 'All', 'None']);
  });

  it('a declared trump (Dup. IV.11: "a trump suit may be declared and no trump turned") is recorded as trump', () => {
    const sim = simulateDeal(createRng(3), { variant: 'duplicate-whist', board: 2, withHands: false });
    // Drop the turned card's place and lift: with the suit declared, no card is turned.
    const events = withoutTurn(sim.events, sim.dealer, formatCard(sim.trumpTurned!)).map((e) => (e.type === 'deal' ? { ...e, trump: 'H' } : e));
    const rec = recordFromPlay(played(events));
    expect(rec?.trump).toBe('H');
    expect(rec?.trumpCard).toBeUndefined();
  });

  it('a claim ends the play with cards unplayed: no record', () => {
    const sim = simulateDeal(createRng(11), { variant: 'duplicate-whist', board: 1, withHands: false, firstSeq: 1 });
    // Stop after trick 10 and claim the rest.
    const places = sim.events.map((e, i) => (e.type === 'place' ? i : -1)).filter((i) => i >= 0);
    const cut = places[1 + 40]; // the turned card, then 40 cards of play
    const events: TableEvent[] = [...sim.events.slice(0, cut), { type: 'claim', seat: 'N', tricks: 3 }];
    expect(recordFromPlay(played(events))).toBeNull();
    expect(whyNoRecord(played(events))).toMatch(/claimed/);
  });

  // Issue 17: "An accepted claim ends the deal with the claimed result ... The cards not played stay the tray record's,
  // so the record is complete for the overplays." Am. 27: the result "as then claimed or admitted, is established".
  it('Am. 27, a claim accepted at the original play: the cards the players then pass over their readers complete the record', () => {
    const sim = simulateDeal(createRng(11), { variant: 'duplicate-whist', board: 1, withHands: false, firstSeq: 1 });
    const places = sim.events.map((e, i) => (e.type === 'place' ? i : -1)).filter((i) => i >= 0);
    const cut = places[1 + 40];
    const rest = sim.events.slice(cut).filter((e) => e.type === 'place');
    expect(rest).toHaveLength(12);
    const claim: TableEvent[] = [{ type: 'claim', seat: 'N', tricks: 3 }, { type: 'claim-accepted', seat: 'E' }];
    // Shown, not played: the order no longer matters, and a pass over the reader is a place and a lift.
    const shown = [...rest].reverse().flatMap((e) => [e, { ...e, type: 'lift' } as TableEvent]);
    const rec = recordFromPlay(played([...sim.events.slice(0, cut), ...claim, ...shown]));
    expect(rec?.hands).toBe(formatDeal(sim.hands as unknown as Deal));
    expect(rec?.trumpCard).toBe(formatCard(sim.trumpTurned!));
    // Until the last card is shown, no record, and the reason says what the players do.
    const short = [...sim.events.slice(0, cut), ...claim, ...shown.slice(2)];
    expect(recordFromPlay(played(short))).toBeNull();
    expect(whyNoRecord(played(short))).toMatch(/pass the cards they still hold over their readers/);
    // The claimed result stands (the shown cards change nothing): N-S take the 3 claimed tricks.
    const claimedOnly = played([...sim.events.slice(0, cut), ...claim]).result.tricksWon;
    expect(claimedOnly.NS + claimedOnly.EW).toBe(13);
    expect(played([...sim.events.slice(0, cut), ...claim, ...shown]).result.tricksWon).toEqual(claimedOnly);
  });

  it('a claim disputed, then played out: the record is made from the play', () => {
    const sim = simulateDeal(createRng(11), { variant: 'duplicate-whist', board: 1, withHands: false, firstSeq: 1 });
    const places = sim.events.map((e, i) => (e.type === 'place' ? i : -1)).filter((i) => i >= 0);
    const cut = places[1 + 40];
    const events: TableEvent[] = [...sim.events.slice(0, cut), { type: 'claim', seat: 'N', tricks: 3 }, { type: 'claim-disputed', seat: 'E' }, ...sim.events.slice(cut)];
    expect(recordFromPlay(played(events))?.hands).toBe(formatDeal(sim.hands as unknown as Deal));
  });

  it('an incomplete play (fewer than 13 cards a seat) and an abandoned deal make no record', () => {
    const sim = simulateDeal(createRng(12), { variant: 'duplicate-whist', board: 1, withHands: false });
    const short = sim.events.slice(0, sim.events.length - 8);
    expect(recordFromPlay(played(short))).toBeNull();
    expect(whyNoRecord(played(short))).toMatch(/not 13/);
    const abandoned: TableEvent[] = [...sim.events, { type: 'abandon', reason: 'pack incorrect' }];
    expect(recordFromPlay(played(abandoned))).toBeNull();
  });

  it('a stretch of unknown order that lost cards makes no record', () => {
    const sim = simulateDeal(createRng(13), { variant: 'duplicate-whist', board: 1, withHands: false });
    // Two cards of trick 5 were never seen placed, only a snapshot later found them gone.
    const places = sim.events.map((e, i) => (e.type === 'place' ? i : -1)).filter((i) => i >= 0);
    const lost = new Set([places[1 + 17], places[1 + 18]]);
    const events = sim.events.filter((_, i) => !lost.has(i)).map((e, i) => (i > places[1 + 16] && e.type === 'lift' ? { ...e, orderUnknown: true as const } : e));
    expect(recordFromPlay(played(events))).toBeNull();
    expect(whyNoRecord(played(events))).toMatch(/played 12 cards, not 13/);
  });

  it('a stretch of unknown order that lost no card still makes the record', () => {
    const sim = simulateDeal(createRng(15), { variant: 'duplicate-whist', board: 6, withHands: false });
    const places = sim.events.map((e, i) => (e.type === 'place' ? i : -1)).filter((i) => i >= 0);
    const unordered = new Set(places.slice(1 + 16, 1 + 20));
    const events = sim.events.map((e, i) => (unordered.has(i) ? { ...e, orderUnknown: true as const } : e));
    expect(recordFromPlay(played(events))?.hands).toBe(formatDeal(sim.hands as unknown as Deal));
  });

  it('a turned-trump deal whose trump card was never seen turned makes no record (the slip cannot be written)', () => {
    const sim = simulateDeal(createRng(14), { variant: 'duplicate-whist', board: 1, withHands: false });
    const events = withoutTurn(sim.events, sim.dealer, formatCard(sim.trumpTurned!));
    expect(events.length).toBe(sim.events.length - 2);
    expect(recordFromPlay(played(events))).toBeNull();
    expect(whyNoRecord(played(events))).toMatch(/trump/);
  });
});
