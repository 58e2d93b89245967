// Favourite whist and its progressive variation, and Prussian whist (seed 001), kept by the score keeper.
import { describe, expect, it } from 'vitest';
import { favouriteRules, progressiveRules, prussianRules } from '../../src/laws/score/favourite.js';
import { fold, last } from './score-helpers.js';

describe('Favourite whist', () => {
  const R = favouriteRules();

  it('"whichever suit is cut for the trump on the first deal of the rubber is called the favourite" — not doubled on that first deal', () => {
    const s = last(R, [{ ns: 8, trump: 'H' }]).score;
    expect(s.favourite).toBe('H');
    expect(s.points).toEqual({ NS: 2, EW: 0 });
    expect(s.deals[0]).toMatchObject({ favourite: 'H', multiplier: 1 });
  });

  it('"Whenever the suit turns up for trump, after the first deal, tricks and honours count double towards game."', () => {
    const st = fold(R, [{ ns: 8, trump: 'H' }, { ns: 6, trump: 'S' }, { ns: 6, trump: 'H', honours: 3, called: ['NS'] }]);
    // Spades are not the favourite: E-W's odd trick is one point.
    expect(st[1].score.points).toEqual({ NS: 2, EW: 1 });
    expect(st[1].score.deals[1].multiplier).toBe(1);
    // Hearts again: E-W's odd trick counts two, and N-S's three honours count four.
    expect(st[2].score.deals[2].items).toEqual([
      { side: 'EW', what: 'tricks', points: 2, law: 'Eng. 2', note: '1 × 2' },
      { side: 'NS', what: 'honours', points: 4, law: 'Eng. 3', note: '2 × 2' },
    ]);
    // N-S were at 2: with four for honours they reach 6, game; E-W had 3: a single.
    expect(st[2].score.games[0]).toMatchObject({ winner: 'NS', value: 1, score: { NS: 6, EW: 3 } });
  });

  it('"There must be a new favourite at the beginning of each rubber, unless the same suit happens to be cut again."', () => {
    const st = fold(R, [{ ns: 13, trump: 'H' }, { ns: 13, trump: 'S' }, { ns: 8, trump: 'D' }, { ns: 8, trump: 'D' }]);
    expect(st[1].score.rubbers).toHaveLength(1);
    expect(st[1].score.favourite).toBeUndefined();
    expect(st[2].score.favourite).toBe('D');
    // The new favourite doubles on the rubber's second deal: 2 + 2 × 2 = 6, game.
    expect(st[3].score.deals[3].multiplier).toBe(2);
    expect(st[3].score.games[0]).toMatchObject({ winner: 'NS', value: 3, score: { NS: 6, EW: 0 } });
  });
});

describe('Favourite whist, the progressive variation', () => {
  const R = progressiveRules();

  it('"tricks being worth 1 point when Spades are trumps; when Clubs 2; when Diamonds 3; and when Hearts 4"', () => {
    expect(last(R, [{ ns: 8, trump: 'S' }]).score.points).toEqual({ NS: 2, EW: 0 });
    expect(last(R, [{ ns: 8, trump: 'C' }]).score.points).toEqual({ NS: 4, EW: 0 });
    expect(last(R, [{ ns: 8, trump: 'D' }]).score.points).toEqual({ NS: 6, EW: 0 });
    expect(last(R, [{ ns: 8, trump: 'H' }]).score.points).toEqual({ NS: 8, EW: 0 });
  });

  it('"Honours do not count, and the game is 10 points, made by tricks alone."', () => {
    const s = last(R, [{ ns: 8, trump: 'H', honours: 4, called: ['NS'] }]).score;
    expect(s.points).toEqual({ NS: 8, EW: 0 });
    expect(s.gamePoints).toBe(10);
  });

  it('"The hands are played out; the winners score all tricks taken": the game\'s last deal counts past ten', () => {
    const s = last(R, [{ ns: 8, trump: 'S' }, { ns: 10, trump: 'D' }]).score;
    expect(s.games[0]).toMatchObject({ winner: 'NS', score: { NS: 14, EW: 0 } });
  });

  it('the seed\'s example: "1st game; 10 to 6 / 2nd game; 4 to 16 / 3rd game; 14 to 8 / Rubber; 10 / Totals 38 to 30" — "A-B win a rubber of 8 points"', () => {
    // A-B sit N-S. Each game's deals reach the seed's scores.
    const st = fold(R, [
      { ns: 8, trump: 'H' }, { ns: 5, trump: 'D' }, { ns: 8, trump: 'S' }, // 8, then Y-Z 6, then A-B 2: 10 to 6
      { ns: 7, trump: 'H' }, { ns: 3, trump: 'H' }, // A-B 4, then Y-Z four by hearts, 16: 4 to 16
      { ns: 5, trump: 'H' }, { ns: 8, trump: 'S' }, { ns: 10, trump: 'D' }, // Y-Z 8, A-B 2, A-B 12: 14 to 8
    ]);
    const s = st[st.length - 1].score;
    expect(s.rubbers).toHaveLength(1);
    const rb = s.rubbers[0];
    expect(rb.games.map((g) => [g.score.NS, g.score.EW])).toEqual([[10, 6], [4, 16], [14, 8]]);
    expect(rb.rubberPoints).toBe(10);
    expect(rb.totals).toEqual({ NS: 38, EW: 30 });
    expect(rb).toMatchObject({ winner: 'NS', value: 8 });
    expect(s.totals).toEqual({ NS: 8, EW: 0 });
  });
});

describe('Prussian whist', () => {
  it('"This is the ordinary 5, 7 or 10 point whist, with or without honours": English whist scoring by default', () => {
    const s = last(prussianRules(), [{ ns: 8, trump: 'C', honours: 3, called: ['NS'] }]).score;
    expect(s.points).toEqual({ NS: 4, EW: 0 });
    expect(s.game).toBe('prussian-whist');
  });

  it('"5, 7 or 10 point whist": the seven-point game is valued as the American one (seven less the losers\' score)', () => {
    const s = last(prussianRules({ gamePoints: 7, gameValue: 'american', noHonoursAt: 6, revokeCap: 6 }), [{ ns: 4 }, { ns: 13 }]).score;
    expect(s.games[0]).toMatchObject({ winner: 'NS', value: 4, score: { NS: 7, EW: 3 } });
  });
});
