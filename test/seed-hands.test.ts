// The four illustrative whist hands of Foster's Complete Hoyle (seed 001), transcribed as table logs in
// test/fixtures/seed-hands/. A→N, Y→E, B→S, Z→W; Z deals and turns the trump (hearts in all four), A leads.
// First the fixtures' own integrity (so a bad transcription fails here), then a replay through the engine with the
// hands known and unknown: no irregularities, and the tricks as the book plays them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTableLog } from '../src/formats/table-log.js';
import type { DealResult } from '../src/laws/types.js';
import {
  type CheckName, type SeedHand, checkFixture, checkPair, fixturePath, loadExpected, symbolCard,
} from './fixtures/seed-hands/verify.js';

const expected = loadExpected();

function read(board: number, kind: 'hands' | 'nohands'): string {
  return readFileSync(fixturePath(board, kind), 'utf8');
}

function problemsOf(text: string, exp: SeedHand, hands: boolean, check: CheckName): string[] {
  return checkFixture(text, exp, { hands }).problems.filter((p) => p.check === check).map((p) => p.message);
}

it('expected.json describes the four hands, 13 tricks each', () => {
  expect(expected.hands.map((h) => h.board)).toEqual([1, 2, 3, 4]);
  for (const h of expected.hands) {
    expect(h.winners).toHaveLength(13);
    expect(h.rows).toHaveLength(13);
    expect(h.tricksWon.NS + h.tricksWon.EW).toBe(13);
  }
});

for (const exp of expected.hands) {
  const name = `Hoyle illustrative hand No. ${exp.board} (${exp.title.toLowerCase().replace('american', 'American')}, ${symbolCard(exp.turned)} turned)`;
  const withHands = read(exp.board, 'hands');
  const noHands = read(exp.board, 'nohands');

  describe(`${name}: fixture integrity`, () => {
    for (const [kind, text, hands] of [['hands known', withHands, true], ['hands unknown', noHands, false]] as const) {
      it(`${kind}: is a well-formed table log (deal, turned trump, place/lift per trick)`, () => {
        expect(parseTableLog(text).errors).toEqual([]);
        expect(problemsOf(text, exp, hands, 'log')).toEqual([]);
        expect(problemsOf(text, exp, hands, 'tricks')).toEqual([]);
      });
    }

    it('the hands-unknown log is the same, event for event, but for deal.hands', () => {
      expect(checkPair(withHands, noHands)).toEqual([]);
    });

    it('every seat plays 13 distinct cards, all 52 appear once, and the PBN deal is the cards played', () => {
      expect(problemsOf(withHands, exp, true, 'cards')).toEqual([]);
      const r = checkFixture(withHands, exp, { hands: true });
      expect(r.playedDeal).toBe(exp.deal);
    });

    it(`the turned ${symbolCard(exp.turned)} is West's (Z dealt it to himself) and is lifted back before he plays to trick 1`, () => {
      expect(problemsOf(withHands, exp, true, 'trump')).toEqual([]);
    });

    it('every card follows suit when the player still held the suit led (no renounce in error)', () => {
      expect(problemsOf(withHands, exp, true, 'follow')).toEqual([]);
    });

    it('each trick is led by the previous winner (A leads the first), and winners and counts match expected.json', () => {
      expect(problemsOf(withHands, exp, true, 'expected')).toEqual([]);
      const r = checkFixture(withHands, exp, { hands: true });
      expect(r.tricks[0].leader).toBe('N');
      for (let k = 1; k < 13; k++) expect(r.tricks[k].leader).toBe(r.tricks[k - 1].winner);
      expect(r.winners).toEqual(exp.winners);
      expect(r.tricksWon).toEqual(exp.tricksWon);
    });
  });

  describe(`${name}: engine replay`, () => {
    for (const [kind, text] of [['hands known', withHands], ['hands unknown', noHands]] as const) {
      it(`${kind}: tricks, winners and counts as in the book, no findings`, async () => {
        // Imported here so the integrity tests above run even before the engine lands.
        const { replay } = await import('../src/laws/engine.js');
        const { events, errors } = parseTableLog(text);
        expect(errors).toEqual([]);
        const deals: DealResult[] = replay(events).deals;
        expect(deals).toHaveLength(1);
        const d = deals[0];
        expect(d.board).toBe(exp.board);
        expect(d.findings).toEqual([]);
        expect(d.tricks).toHaveLength(13);
        d.tricks.forEach((t, k) => {
          const seatCards = { N: exp.rows[k][0], E: exp.rows[k][1], S: exp.rows[k][2], W: exp.rows[k][3] };
          expect({ trick: k + 1, leader: t.leader, cards: t.cards, winner: t.winner }).toEqual({
            trick: k + 1, leader: k === 0 ? 'N' : exp.winners[k - 1], cards: seatCards, winner: exp.winners[k],
          });
        });
        expect(d.tricksWon).toEqual(exp.tricksWon);
      });
    }
  });
}

describe('the fixture checks themselves', () => {
  const no3 = expected.hands[2];

  it('No. 3 as printed (Y\'s 9♢ to trick 12, ♣A to 13) is caught as a renounce in error', () => {
    // Undo the documented correction: swap Y's two cards back in the log and in the expected rows.
    const printed = read(3, 'hands').replace(/"card":"(CA|D9)"/g, (_m, c: string) => `"card":"${c === 'CA' ? 'D9' : 'CA'}"`);
    const rows = no3.rows.map((r) => [...r]);
    for (const c of no3.corrections) rows[c.trick - 1][1] = c.printed;
    const follow = problemsOf(printed, { ...no3, rows }, true, 'follow');
    expect(follow).toEqual(['trick 12: E renounces with D9 while holding C']);
  });

  it('a card moved to another seat, a dropped lift, or a wrong turned card is caught', () => {
    const h1 = expected.hands[0];
    const text = read(1, 'hands');
    expect(checkFixture(text.replace('"seat":"E","card":"C5"}', '"seat":"W","card":"C5"}'), h1, { hands: true }).problems).not.toEqual([]);
    const lines = text.split('\n');
    const dropped = lines.filter((_l, k) => k !== lines.findIndex((l) => l.includes('"lift","seat":"N","card":"CK"'))).join('\n');
    expect(problemsOf(dropped, h1, true, 'tricks')).not.toEqual([]);
    expect(problemsOf(text.replace(/"H5"/g, '"H4"'), h1, true, 'trump').length + problemsOf(text.replace(/"H5"/g, '"H4"'), h1, true, 'cards').length).toBeGreaterThan(0);
  });
});
