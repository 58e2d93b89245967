// The tray record made from the director's own fold of a play (issue 18) against the record made by folding the
// play's events again: the same record, or the same reason for none, for any play the simulator makes, misreads
// undone, claims, several deals at one table and deal events that name no game.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEATS } from '../../src/cards/seat.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { TableFold } from '../../src/club/director/fold.js';
import { recordFromPlay, whyNoRecord } from '../../src/club/trays/index.js';

const AT = '2026-12-06T16:00:00.000Z';

/** One deal's events, changed as a table's journal may be: a misread undone and read again, a claim answered. */
function journal(seed: number, variant: string, board: number, firstSeq: number, change: { named: boolean; misread: boolean; claim: 'none' | 'accepted' | 'disputed' }): TableEvent[] {
  const sim = simulateDeal(createRng(seed), { variant, board, withHands: false, firstSeq });
  let events = sim.events.map((e) => (e.type === 'deal' && !change.named ? { ...e, variant: undefined } : e));
  let seq = Math.max(...events.map((e) => e.seq ?? 0));
  if (change.misread) {
    // A card read at the wrong seat, undone, then the events go on as played.
    const at = 3 + (seed % 20);
    const wrong = events[at];
    if (wrong?.type === 'place' && wrong.seq !== undefined) {
      const other = SEATS[(SEATS.indexOf(wrong.seat) + 1) % 4];
      const bad = { ...wrong, seat: other, seq: ++seq };
      events = [...events.slice(0, at), bad, { type: 'undo', target: bad.seq, seq: ++seq } as TableEvent, ...events.slice(at)];
    }
  }
  if (change.claim !== 'none') {
    // The player on lead at the tenth trick claims; an opponent answers; the cards left are passed over the readers.
    const places = events.map((e, i) => (e.type === 'place' ? i : -1)).filter((i) => i >= 0);
    const cut = places[36];
    const lead = events[cut];
    if (lead?.type === 'place') {
      const opp = SEATS[(SEATS.indexOf(lead.seat) + 1) % 4];
      events = [
        ...events.slice(0, cut),
        { type: 'claim', seat: lead.seat, tricks: 4, seq: ++seq } as TableEvent,
        { type: change.claim === 'accepted' ? 'claim-accepted' : 'claim-disputed', seat: opp, seq: ++seq } as TableEvent,
        ...events.slice(cut),
      ];
    }
  }
  // Journal order: the seqs as written.
  return events.map((e, i) => ({ ...e, seq: firstSeq + i }) as TableEvent).map((e, i, all) => (e.type === 'undo' ? { ...e, target: all[i - 1].seq! } : e));
}

describe('the tray record from the director\'s fold (issue 18)', () => {
  it('property: the record made from the fold\'s cards is the record made by folding the events again, or both give the same reason for none', () => {
    let fast = 0;
    let made = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }), fc.constantFrom('duplicate-whist', 'whist', 'bridge'),
      fc.array(fc.record({ named: fc.boolean(), misread: fc.boolean(), claim: fc.constantFrom('none', 'none', 'accepted', 'disputed') as fc.Arbitrary<'none' | 'accepted' | 'disputed'> }), { minLength: 1, maxLength: 3 }),
      (seed, variant, deals) => {
        const fold = new TableFold(variant);
        let seq = 1;
        deals.forEach((change, k) => {
          const events = journal(seed + k, variant, 1 + ((seed + k) % 32), seq, change);
          seq += events.length;
          for (const ev of events) {
            const c = fold.apply(ev);
            if (!c) continue;
            const given = { session: 's1', table: '4', events: c.events, result: c.result, at: AT, variant };
            const fromFold = { ...given, folded: c.folded };
            expect(recordFromPlay(fromFold)).toEqual(recordFromPlay(given));
            expect(whyNoRecord(fromFold)).toBe(whyNoRecord(given));
            if (!c.events.some((e) => e.type === 'claim-accepted')) fast++;
            if (recordFromPlay(given)) made++;
          }
        });
      },
    ), { numRuns: 150 });
    // The fold's cards were used, not only the second fold (an accepted claim always folds again).
    expect(fast).toBeGreaterThan(100);
    expect(made).toBeGreaterThan(100);
  });
});
