// The score of American whist and of the dummy and two-handed games of seed 001, kept by the score keeper.
import { describe, expect, it } from 'vitest';
import { americanRules } from '../../src/laws/score/american.js';
import { doubleDummyRules, englishDummyRules, humbugRules, thirteenRules } from '../../src/laws/score/dummy.js';
import { mortRules } from '../../src/laws/score/mort.js';
import { fold, last } from './score-helpers.js';

describe('American whist', () => {
  const R = americanRules();

  it('the seven-point game by tricks only (Am. 31 "up to the score of six"): honours are not counted', () => {
    const st = fold(R, [{ ns: 10, honours: 4, called: ['NS'] }, { ns: 10 }]);
    expect(st[0].score.points).toEqual({ NS: 4, EW: 0 });
    expect(st[1].score.deals[1].game).toMatchObject({ winner: 'NS', value: 7, score: { NS: 8, EW: 0 } });
  });

  it('the value of a game is seven less the losers\' score', () => {
    const s = last(R, [{ ns: 2 }, { ns: 13 }]).score;
    expect(s.deals[1].game).toMatchObject({ winner: 'NS', value: 2, score: { NS: 7, EW: 5 } });
    expect(s.totals).toEqual({ NS: 2, EW: 0 });
  });

  it('Am. 30-31: "The revoking side cannot win the game in that hand"; it may "score all points made by them up to the score of six"', () => {
    const s = last(R, [{ ns: 10 }, { ns: 12, revokes: [{ offender: 'NS', form: 'tricks' }] }]).score;
    expect(s.points).toEqual({ NS: 6, EW: 0 });
    expect(s.games).toEqual([]);
  });
});

describe('English Dummy', () => {
  const R = englishDummyRules();
  const C = englishDummyRules({ continuousDummy: true });
  const dp = 'S' as const; // South plays with the dummy North

  it('"The three rubbers so played are called a Tournée"', () => {
    const st = fold(R, [{ ns: 11 }, { ns: 11 }, { ns: 2 }, { ns: 2 }, { ns: 11 }, { ns: 11 }]);
    expect(st[1].score.tournee).toEqual({ played: 1, of: 3, complete: false });
    expect(st[5].score.tournee).toEqual({ played: 3, of: 3, complete: true });
    expect(st[5].score.totals).toEqual({ NS: 16, EW: 8 });
  });

  it('"the largest rubber that the dummy\'s partner can win is one of seven"', () => {
    const s = last(C, [{ ns: 11, dummyPartner: dp }, { ns: 11, dummyPartner: dp }]).score;
    expect(s.rubbers[0]).toMatchObject({ winner: 'NS', value: 7, concession: { to: 'EW', points: 1 } });
  });

  it('"and he may win nothing"', () => {
    // Single, then a treble lost, then a single: 1 + 1 + 2 - 3 = 1, less the point conceded.
    const s = last(C, [{ ns: 3, dummyPartner: dp }, { ns: 11, dummyPartner: dp }, { ns: 2, dummyPartner: dp },
      { ns: 3, dummyPartner: dp }, { ns: 11, dummyPartner: dp }]).score;
    expect(s.rubbers[0].games.map((g) => [g.winner, g.value])).toEqual([['NS', 1], ['EW', 3], ['NS', 1]]);
    expect(s.rubbers[0]).toMatchObject({ winner: 'NS', value: 0 });
    expect(s.totals).toEqual({ NS: 0, EW: 0 });
  });

  it('"whereas his adversaries may win a rubber of nine"', () => {
    const s = last(C, [{ ns: 2, dummyPartner: dp }, { ns: 2, dummyPartner: dp }]).score;
    expect(s.rubbers[0]).toMatchObject({ winner: 'EW', value: 9 });
    // "Dummy's partner must pay to, or receive from each adversary the amount agreed."
    expect(s.rubbers[0].stakes).toEqual({ S: -18, W: 9, E: 9 });
  });

  it('"and must win at least two"', () => {
    const s = last(C, [{ ns: 10, dummyPartner: dp }, { ns: 2, dummyPartner: dp }, { ns: 11, dummyPartner: dp },
      { ns: 10, dummyPartner: dp }, { ns: 2, dummyPartner: dp }]).score;
    expect(s.rubbers[0].games.map((g) => [g.winner, g.value])).toEqual([['EW', 1], ['NS', 3], ['EW', 1]]);
    expect(s.rubbers[0]).toMatchObject({ winner: 'EW', value: 2 });
  });

  it('without the agreement there is no concession: "Scoring ... Marking Rubber Points, etc., are the same as in whist"', () => {
    const s = last(R, [{ ns: 11, dummyPartner: dp }, { ns: 11, dummyPartner: dp }]).score;
    expect(s.rubbers[0]).toMatchObject({ winner: 'NS', value: 8 });
    expect(s.rubbers[0].concession).toBeUndefined();
  });
});

describe('Double Dummy', () => {
  it('"Scoring; Claiming and Counting Honours ... are the same as in whist": five points, honours by player and his dummy', () => {
    const s = last(doubleDummyRules(), [{ ns: 6, honours: 3, called: ['NS'] }, { ns: 10 }]).score;
    expect(s.deals[0].items.map((i) => [i.side, i.what, i.points])).toEqual([['EW', 'tricks', 1], ['NS', 'honours', 2]]);
    expect(s.games[0]).toMatchObject({ winner: 'NS', value: 2 });
    expect(s.tournee).toBeUndefined(); // "Tournées are not played"
  });

  it('"If the first two games are won by the same player and his dummy, the third is not played."', () => {
    const s = last(doubleDummyRules(), [{ ns: 11 }, { ns: 11 }]).score;
    expect(s.rubbers).toHaveLength(1);
  });
});

describe('Mort', () => {
  const R = mortRules();

  it('"The score is 4 to 3 in favor of Vivant and Mort ... If they succeed in gaining eleven tricks out of the thirteen, they win a game of 9 points, instead of 5."', () => {
    const st = fold(R, [{ ns: 10, dummyPartner: 'S' }, { ns: 4, dummyPartner: 'S' }, { ns: 11, dummyPartner: 'S' }]);
    expect(st[1].score.points).toEqual({ NS: 4, EW: 3 });
    expect(st[2].score.deals[2].game).toMatchObject({ winner: 'NS', value: 9, score: { NS: 9, EW: 3 }, vivant: 'S' });
    expect(st[2].score.totals).toEqual({ NS: 9, EW: 0 });
  });

  it('"In Mort the stake is a unit, so much a point"; "The Vivant must pay or receive double, as he has to settle with each adversary"', () => {
    const won = last(R, [{ ns: 10, dummyPartner: 'S' }, { ns: 4, dummyPartner: 'S' }, { ns: 11, dummyPartner: 'S' }]).score;
    expect(won.deals[2].game!.stakes).toEqual({ S: 18, W: -9, E: -9 });
    const lost = last(R, [{ ns: 0, dummyPartner: 'S' }]).score;
    expect(lost.deals[0].game).toMatchObject({ winner: 'EW', value: 7, stakes: { S: -14, W: 7, E: 7 } });
  });

  it('"the side that has taken any tricks in excess of the book scores them, their opponents counting nothing"; no honours', () => {
    const s = last(R, [{ ns: 6, honours: 0, called: ['EW'] }]).score;
    expect(s.points).toEqual({ NS: 0, EW: 1 });
  });

  it('"If the score is 3 to 2 in favor of the adversaries, Vivant may take three points from their score for one revoke, and add three to his own score for the other."', () => {
    const s = last(R, [{ ns: 8 }, { ns: 4 }, { ns: 6, revokes: [{ offender: 'EW', form: 'deduct' }, { offender: 'EW', form: 'add' }] }]).score;
    expect(s.deals[2].items.map((i) => [i.side, i.what, i.points])).toEqual([['EW', 'revoke', -3], ['NS', 'revoke', 3]]);
    expect(s.deals[2].game).toMatchObject({ winner: 'NS', score: { NS: 5, EW: 0 } });
  });

  it('"These three games finish the rubber or tournée"; "Four games complete the tournée for four players"', () => {
    const three = fold(R, [{ ns: 13 }, { ns: 13 }, { ns: 0 }]);
    expect(three[2].score.tournee).toEqual({ played: 3, of: 3, complete: true });
    const four = last(mortRules({ tournee: 4 }), [{ ns: 13 }, { ns: 13 }, { ns: 0 }]).score;
    expect(four.tournee).toEqual({ played: 3, of: 4, complete: false });
  });
});

describe('Humbug Whist', () => {
  const R = humbugRules();

  it('"if each player holds two, neither can count"', () => {
    const s = last(R, [{ ns: 6, honours: 2, ewHonours: 2, called: ['NS', 'EW'] }]).score;
    expect(s.points).toEqual({ NS: 0, EW: 1 });
  });

  it('"if one player has only one honour, or none, the other counts 2 points for two honours, if he holds them; 3 points for three; and 4 points for four"', () => {
    expect(last(R, [{ ns: 6, honours: 2, ewHonours: 1, called: ['NS'] }]).score.points).toEqual({ NS: 2, EW: 1 });
    expect(last(R, [{ ns: 6, honours: 2, ewHonours: 0, called: ['NS'] }]).score.points).toEqual({ NS: 2, EW: 1 });
    expect(last(R, [{ ns: 6, honours: 3, ewHonours: 0, called: ['NS'] }]).score.points).toEqual({ NS: 3, EW: 1 });
    expect(last(R, [{ ns: 6, honours: 4, ewHonours: 0, called: ['NS'] }]).score.points).toEqual({ NS: 4, EW: 1 });
  });

  it('"The penalty for a revoke is three tricks, and it takes precedence of other scores; tricks count next, honours last. Five points is game."', () => {
    const s = last(R, [{ ns: 10 }, { ns: 7, honours: 0, ewHonours: 4, called: ['EW'] }]).score;
    expect(s.deals[1].game).toMatchObject({ winner: 'NS', value: 3 });
    expect(s.deals[1].notes.join(' ')).toMatch(/EW's honours not scored/);
  });
});

describe('Thirteen and the Odd', () => {
  const R = thirteenRules();

  it('"The winner of the odd trick scores a point. Five points is game."', () => {
    const st = fold(R, [{ ns: 13 }, { ns: 7 }, { ns: 2, honours: 0, ewHonours: 4, called: ['EW'] }, { ns: 9 }, { ns: 8 }, { ns: 10 }]);
    expect(st[0].score.points).toEqual({ NS: 1, EW: 0 });
    expect(st[2].score.points).toEqual({ NS: 2, EW: 1 });
    expect(st[5].score.games[0]).toMatchObject({ winner: 'NS', value: 2, score: { NS: 5, EW: 1 } });
  });
});
