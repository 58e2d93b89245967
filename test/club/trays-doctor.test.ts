// The tray doctor: the moves that restore a fouled tray, and the outcome the laws give by table count.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardCode } from '../../src/cards/card.js';
import { type Deal, formatDeal, parseDeal } from '../../src/cards/deal.js';
import { addCard, emptyHand, handCards, type Hand, removeCard } from '../../src/cards/hand.js';
import { seatIndex } from '../../src/cards/seat.js';
import { createRng } from '../../src/sim/prng.js';
import { randomDeal } from '../../src/sim/random-deal.js';
import { fouledTrayOutcome, handDifferences, trayDoctor, trayDoctorReport } from '../../src/club/trays/index.js';
import type { TrayMove } from '../../src/club/types.js';

const RECORD = 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765';

/** The table's hands after the moves: each card taken from its pocket and put in the other. */
function applyMoves(pbn: string, moves: readonly TrayMove[]): string {
  const deal = parseDeal(pbn).map((h) => (h ? [...h] as Hand : emptyHand())) as Hand[];
  for (const m of moves) {
    const c = cardCode(m.card);
    removeCard(deal[seatIndex(m.from)], c);
    addCard(deal[seatIndex(m.to)], c);
  }
  return formatDeal(deal as unknown as Deal);
}

describe('trayDoctor', () => {
  it('two cards swapped between N and E: two moves, each straight to its pocket', () => {
    const table = 'N:AKQT.T98.765.432 J98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765';
    expect(handDifferences(RECORD, table)).toEqual([{ card: 'SJ', record: 'N', table: 'E' }, { card: 'ST', record: 'E', table: 'N' }]);
    expect(trayDoctor(RECORD, table)).toEqual([{ card: 'SJ', from: 'E', to: 'N' }, { card: 'ST', from: 'N', to: 'E' }]);
    expect(applyMoves(table, trayDoctor(RECORD, table))).toBe(RECORD);
  });

  it('the same tray: no move', () => {
    expect(trayDoctor(RECORD, RECORD)).toEqual([]);
    expect(trayDoctorReport(RECORD, RECORD)).toEqual({ moves: [], missing: [], extra: [] });
  });

  it('a cycle N→E→S→N is three moves, not a chain of swaps', () => {
    // N holds E's CA, E holds S's DA, S holds N's SA.
    const table = 'N:KQJ.T98.765.A432 T98.765.A432.KQJ A765.432.KQJ.T98 432.AKQJ.T98.765';
    const moves = trayDoctor(RECORD, table);
    expect(moves).toHaveLength(3);
    expect(applyMoves(table, moves)).toBe(RECORD);
  });

  it('a card missing from the tray and a card from another pack are reported, not moved', () => {
    // N lost SA; W holds a second S4 (another pack) where it should hold... its own 13 plus the stray.
    const table = 'N:KQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 4432.AKQJ.T98.765';
    const r = trayDoctorReport(RECORD, table);
    expect(r.moves).toEqual([]);
    expect(r.missing).toEqual([{ card: 'SA', to: 'N' }]);
    expect(r.extra).toEqual([{ card: 'S4', from: 'W' }]);
  });

  it('a duplicate card, neither copy in its pocket: one copy moves, the other is extra', () => {
    // The record puts SA with N; E and S each hold an SA, N holds none (and lacks a card).
    const table = 'N:KQJ.T98.765.432 AT98.765.432.AKQJ A765.432.AKQJ.T98 432.AKQJ.T98.765';
    const r = trayDoctorReport(RECORD, table);
    expect(r.moves).toEqual([{ card: 'SA', from: 'E', to: 'N' }]);
    expect(r.extra).toEqual([{ card: 'SA', from: 'S' }]);
    expect(r.missing).toEqual([]);
  });

  it('errors name the hands and the fix', () => {
    expect(() => trayDoctor(RECORD, 'N:AKQJ.T98.765.432 - - -')).toThrow(/E's pocket is "-"/);
    expect(() => trayDoctor('N:AKQJ.T98.765.432 AKQJ.T98.765.432 - -', RECORD)).toThrow(/record hands: .* dealt to both/);
    expect(() => trayDoctor(RECORD, 'AKQJ.T98.765.432')).toThrow(/must start with the first hand's seat/);
  });

  it('property: applying the moves to the table\'s hands gives the record; moves = misplaced cards', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e9 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 51 }), fc.integer({ min: 0, max: 3 })), { maxLength: 20 }), fc.integer({ min: 0, max: 3 }), (seed, shifts, first) => {
      const hands = randomDeal(createRng(seed));
      const record = formatDeal(hands as unknown as Deal, first);
      // Foul the tray: move some cards to random pockets (some land back home).
      const table = hands.map((h) => [...h] as Hand);
      for (const [c, to] of shifts) {
        const from = table.findIndex((h) => handCards(h).includes(c));
        removeCard(table[from], c);
        addCard(table[to], c);
      }
      const tablePbn = formatDeal(table as unknown as Deal, (first + 1) & 3);
      let misplaced = 0;
      for (let c = 0; c < 52; c++) if (table.findIndex((h) => handCards(h).includes(c)) !== hands.findIndex((h) => handCards(h).includes(c))) misplaced++;
      const moves = trayDoctor(record, tablePbn);
      expect(moves).toHaveLength(misplaced);
      expect(handDifferences(record, tablePbn)).toHaveLength(misplaced);
      expect(new Set(moves.map((m) => m.card)).size).toBe(moves.length);
      expect(applyMoves(tablePbn, moves)).toBe(formatDeal(hands as unknown as Deal));
    }), { numRuns: 300 });
  });
});

describe('fouledTrayOutcome (Laws of Duplicate Whist)', () => {
  it('Dup. III.2(d): "If, after the first trick has been turned and quitted on the original play of a deal, one or more cards are found to have been left in the tray" — "There must be a new deal", at any table count', () => {
    for (const t of [1, 2, 3, 7]) expect(fouledTrayOutcome(t, 'original')).toMatchObject({ remedy: 'new-deal', law: 'Dup. III.2' });
  });

  it('Dup. V.1: "less than three tables are engaged, there must be a new deal"', () => {
    for (const t of [1, 2]) {
      const o = fouledTrayOutcome(t, 'overplay');
      expect(o).toMatchObject({ remedy: 'new-deal', law: 'Dup. V.1' });
      expect(o.message).toContain('there must be a new deal');
    }
  });

  it('Dup. V.1: "If more than two tables are in play, the hands must be rectified and then passed to the next table; the table at which the error was discovered must not overplay the deal but shall take the average score"', () => {
    for (const t of [3, 4, 30]) {
      const o = fouledTrayOutcome(t, 'overplay');
      expect(o).toMatchObject({ remedy: 'rectify-and-average', law: 'Dup. V.1' });
      expect(o.message).toContain('shall take the average score');
    }
  });

  it('Dup. IV.8: the wrong trump card "discovered and corrected before the play of the deal is commenced": "the card turned in error is liable to be called"', () => {
    expect(fouledTrayOutcome(2, 'overplay', 'trump-card-corrected')).toMatchObject({ remedy: 'rectify', law: 'Dup. IV.8' });
  });

  it('Dup. IV.9: "more than two tables are engaged in play, the players at that table shall take the average score for the deal; if less than three tables are in play there must be a new deal"', () => {
    expect(fouledTrayOutcome(3, 'overplay', 'trump-card')).toMatchObject({ remedy: 'rectify-and-average', law: 'Dup. IV.9' });
    expect(fouledTrayOutcome(2, 'overplay', 'trump-card')).toMatchObject({ remedy: 'new-deal', law: 'Dup. IV.9' });
  });

  it('Dup. IV.10: a slip recording a different trump "discovered at the next table, there must be a new deal"; played at tables with the wrong trump, the original table takes the average, unless "less than three tables are in play"', () => {
    expect(fouledTrayOutcome(5, 'original', 'trump-slip')).toMatchObject({ remedy: 'new-deal', law: 'Dup. IV.10' });
    expect(fouledTrayOutcome(5, 'overplay', 'trump-slip')).toMatchObject({ remedy: 'rectify-and-average', law: 'Dup. IV.10' });
    expect(fouledTrayOutcome(2, 'overplay', 'trump-slip')).toMatchObject({ remedy: 'new-deal', law: 'Dup. IV.10' });
  });

  it('tables must be a whole number 1 or more, and the error says so', () => {
    expect(() => fouledTrayOutcome(0, 'overplay')).toThrow(/tables: 0 must be the number of tables/);
    expect(() => fouledTrayOutcome(2.5, 'overplay')).toThrow(/whole number/);
  });
});

describe('a fouled board in bridge (WBF Laws 2017)', () => {
  it('Law 87: whatever the table count, the scores are divided into groups by the form played (87B), not averaged as in Dup. V.1', () => {
    for (const tables of [2, 3, 7]) {
      for (const when of ['original', 'overplay'] as const) {
        const o = fouledTrayOutcome(tables, when, 'hands', 'bridge');
        expect(o.remedy).toBe('score-in-groups');
        expect(o.law).toBe('L87B');
        expect(o.message).toMatch(/Law 87A.*Law 87B/);
      }
    }
    expect(fouledTrayOutcome(7, 'overplay').law).toBe('Dup. V.1');
  });
});
