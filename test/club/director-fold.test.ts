// The director's fold of one table (src/club/director/fold.ts): the table's events through the engine, and a deal
// that is over turned into its traveller line, with the pairs and round the schedule gives the table for that board.
import { describe, expect, it } from 'vitest';
import { type Completion, TableFold, indexSchedule, travellerOf } from '../../src/club/director/fold.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import type { Seat } from '../../src/cards/seat.js';
import { EXPECTED, SCHEDULE, seedHand } from './director-rig.js';

const index = indexSchedule(SCHEDULE);

function fold(variant: string, events: TableEvent[]): { completions: Completion[]; fold: TableFold } {
  const f = new TableFold(variant);
  const completions: Completion[] = [];
  events.forEach((e, i) => {
    const c = f.apply({ ...e, seq: i + 1 } as TableEvent);
    if (c) completions.push(c);
  });
  return { completions, fold: f };
}

describe('the director\'s fold of a table', () => {
  it('a deal is complete only after its 13th trick; the last trick taken up, a result accepted, a call report it no more', () => {
    const quitted = seedHand(1, false);
    const last52 = quitted.map((e, i) => (e.type === 'place' ? i : -1)).reduce((a, b) => Math.max(a, b));
    const after = quitted.slice(last52 + 1);
    // The journal turns and quits the last trick: its four cards are taken up after the 52nd is placed.
    expect(after.filter((e) => e.type === 'lift').length).toBe(4);
    const evs: TableEvent[] = [{ type: 'tray', code: 'T1' }, ...quitted,
      { type: 'result-accepted', seat: 'E' }, { type: 'director-call', reason: 'a question' }, { type: 'players', round: 1, names: { N: 'Ann' } }];
    const { completions, fold: f } = fold('duplicate-whist', evs);
    expect(completions.length).toBe(1);
    const first = completions[0];
    expect(first).toMatchObject({ board: 1, fromSeq: 2 });
    // The 52nd card completes the deal: the first completion is at that event.
    const lastPlace = evs.map((e, i) => (e.type === 'place' ? i + 1 : 0)).reduce((a, b) => Math.max(a, b));
    expect(first.toSeq).toBe(lastPlace);
    expect(completions.every((c) => c.result.scored.NS === EXPECTED.hands[0].tricksWon.NS)).toBe(true);
    expect(f.lastSeq).toBe(evs.length);
    expect(f.inPlay()).toEqual({});
  });

  it('the traveller: pairs and round from the schedule, tricks as scored (whist)', () => {
    const { completions } = fold('duplicate-whist', [{ type: 'tray', code: 'T1' }, ...seedHand(1, true)]);
    // Tray 1 at table 2 is round 2 of the schedule: 2NS against 1EW.
    expect(travellerOf(completions.at(-1)!, { tableNo: 2, index, variant: 'duplicate-whist' }))
      .toEqual({ board: 1, ns: '2NS', ew: '1EW', table: 2, round: 2, tricks: EXPECTED.hands[0].tricksWon });
  });

  it('bridge: the contract and the declarer\'s tricks (Hoyle\'s hand 1 as 2H by West: the tricks are E-W\'s)', () => {
    const evs = seedHand(1, false);
    evs[0] = { ...evs[0], variant: 'bridge', contract: '2HW' } as TableEvent;
    const { completions } = fold('bridge', evs);
    const c = completions.at(-1)!;
    expect(travellerOf(c, { tableNo: 1, index, variant: 'bridge' }))
      .toEqual({ board: 1, ns: '1NS', ew: '1EW', table: 1, round: 1, contract: '2HW', tricks: 13 - c.result.scored.NS });
    // The same play declared by North: the declarer's tricks are N-S's.
    expect(travellerOf({ ...c, contract: '2HN' }, { tableNo: 1, index, variant: 'bridge' }).tricks).toBe(c.result.scored.NS);
    expect(c.result.scored.NS).not.toBe(13 - c.result.scored.NS);
  });

  it('after the deal is over, an event that changes it reports it again: a card taken back from its last trick, then played', () => {
    const evs = seedHand(1, false);
    const lastPlace = evs.map((e, i) => (e.type === 'place' ? i : -1)).reduce((a, b) => Math.max(a, b));
    const last = evs[lastPlace] as TableEvent & { seat: Seat; card: string };
    // Undone as a misread: the deal is in play again, so no completion; placed again, it is over once more.
    const { completions } = fold('duplicate-whist', [...evs.slice(0, lastPlace + 1), { type: 'undo', target: lastPlace + 1 }, { ...last }]);
    expect(completions.map((c) => c.toSeq)).toEqual([lastPlace + 1, lastPlace + 3]);
    expect(completions[1].result.scored).toEqual(completions[0].result.scored);
  });

  it('after the deal is over, a contract entered late reports it again with the new contract (bridge)', () => {
    const evs = seedHand(1, false);
    evs[0] = { ...evs[0], variant: 'bridge', contract: '2HW' } as TableEvent;
    const { completions } = fold('bridge', [...evs, { type: 'contract', contract: '3HW' }]);
    expect(completions.at(-1)!.contract).toBe('3HW');
    expect(completions.filter((c) => c.contract === '2HW').length).toBe(1);
  });

  it('a deal still in play reports its board and trick, and no completion', () => {
    const evs = seedHand(2, false).slice(0, 20);
    const { completions, fold: f } = fold('duplicate-whist', evs);
    expect(completions).toEqual([]);
    expect(f.inPlay().board).toBe(2);
    expect(f.inPlay().trick).toBeGreaterThan(1);
  });
});
