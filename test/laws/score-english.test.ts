// The score of English whist (seed 002, English Whist Laws 1-12), kept by the pure score keeper.
import { describe, expect, it } from 'vitest';
import { englishRules } from '../../src/laws/score/english.js';
import { keep, startScore } from '../../src/laws/score/keeper.js';
import { deal, fold, last } from './score-helpers.js';

const R = englishRules();

describe('English whist: points (Eng. 2, 3, 4, 5, 7)', () => {
  it('Eng. 2: "A game consists of five points. Each trick, above six, counts one point."', () => {
    const s = last(R, [{ ns: 9 }]).score;
    expect(s.points).toEqual({ NS: 3, EW: 0 });
    expect(s.deals[0].items).toEqual([{ side: 'NS', what: 'tricks', points: 3, law: 'Eng. 2' }]);
    expect(last(R, [{ ns: 6 }]).score.points).toEqual({ NS: 0, EW: 1 });
    expect(last(R, [{ ns: 4 }]).score.points).toEqual({ NS: 0, EW: 3 });
  });

  it('Eng. 3: "I. The four honours, they score four points. II. Any three honours, they score two points. III. Only two honours, they do not score."', () => {
    // N-S take six tricks (E-W the odd trick, one point) and hold the honours.
    expect(last(R, [{ ns: 6, honours: 4, called: ['NS'] }]).score.points).toEqual({ NS: 4, EW: 1 });
    expect(last(R, [{ ns: 6, honours: 3, called: ['NS'] }]).score.points).toEqual({ NS: 2, EW: 1 });
    expect(last(R, [{ ns: 6, honours: 2, called: ['NS', 'EW'] }]).score.points).toEqual({ NS: 0, EW: 1 });
    // "If a player and his partner, either separately or conjointly, hold": E-W holding three score as well.
    expect(last(R, [{ ns: 6, honours: 1, called: ['EW'] }]).score.points).toEqual({ NS: 0, EW: 3 });
  });

  it('Eng. 7: "To score honours is not sufficient; they must be called at the end of the hand"', () => {
    const s = last(R, [{ ns: 6, honours: 4 }]).score;
    expect(s.points).toEqual({ NS: 0, EW: 1 });
    expect(s.deals[0].notes.join(' ')).toMatch(/not called/);
    expect(s.deals[0].honours).toEqual({ held: { NS: 4, EW: 0 }, called: [], counted: 'NS' });
  });

  it('Eng. 4: "Those players who, at the commencement of a deal, are at the score of four, cannot score honours."', () => {
    const s = last(R, [{ ns: 10 }, { ns: 6, honours: 4, called: ['NS'] }]).score;
    expect(s.points).toEqual({ NS: 4, EW: 1 });
    expect(s.deals[1].notes.join(' ')).toMatch(/score of 4.*Eng\. 4/);
    // The bar is on the side at four, not on its adversaries: E-W's odd trick and three honours count.
    expect(last(R, [{ ns: 10 }, { ns: 6, honours: 1, called: ['EW'] }]).score.points).toEqual({ NS: 4, EW: 3 });
  });

  it('Eng. 5: "Tricks score next. Honours last." — game made by tricks, the adversaries\' honours do not score', () => {
    // N-S at 4 make the odd trick: game. E-W held four honours and called them; they would have reached 5 by honours.
    const st = fold(R, [{ ns: 10 }, { ns: 7, honours: 0, called: ['EW'] }]);
    const s = st[1].score;
    expect(s.deals[1].game).toMatchObject({ winner: 'NS', value: 3 });
    expect(s.deals[1].items).toEqual([{ side: 'NS', what: 'tricks', points: 1, law: 'Eng. 2' }]);
    expect(s.deals[1].notes.join(' ')).toMatch(/EW's honours not scored: NS had already made game/);
  });

  it('Eng. 5: honours after tricks make game in the same deal when tricks did not', () => {
    const s = last(R, [{ ns: 8 }, { ns: 7, honours: 3, called: ['NS'] }]).score;
    // 2 + 1 (tricks) = 3, then two for honours: 5, game; E-W have not scored: a treble.
    expect(s.games).toEqual([expect.objectContaining({ winner: 'NS', value: 3, score: { NS: 5, EW: 0 } })]);
    expect(s.points).toEqual({ NS: 0, EW: 0 });
  });
});

describe('English whist: games and the rubber (Eng. 1, 8, 9, 10)', () => {
  it('Eng. 8: "I. A treble ... when their adversaries have not scored. II. A double ... less than three. III. A single ... three or four."', () => {
    expect(last(R, [{ ns: 11 }]).score.games[0]).toMatchObject({ winner: 'NS', value: 3, law: 'Eng. 8' });
    expect(last(R, [{ ns: 5 }, { ns: 11 }]).score.games[0]).toMatchObject({ winner: 'NS', value: 2, score: { NS: 5, EW: 2 } });
    expect(last(R, [{ ns: 3 }, { ns: 11 }]).score.games[0]).toMatchObject({ winner: 'NS', value: 1, score: { NS: 5, EW: 4 } });
    expect(last(R, [{ ns: 4 }, { ns: 11 }]).score.games[0]).toMatchObject({ winner: 'NS', value: 1, score: { NS: 5, EW: 3 } });
  });

  it('a game won resets both scores; points over five do not carry to the next game', () => {
    const s = last(R, [{ ns: 13 }]).score;
    expect(s.points).toEqual({ NS: 0, EW: 0 });
    expect(s.games[0].score).toEqual({ NS: 7, EW: 0 });
    expect(s.gamesWon).toEqual({ NS: 1, EW: 0 });
  });

  it('Eng. 1, 9: "If the first two games are won by the same players, the third is not played"; "The winners of the rubber gain two points"', () => {
    const s = last(R, [{ ns: 11 }, { ns: 5 }, { ns: 12 }]).score;
    expect(s.rubbers).toHaveLength(1);
    // A treble and a double, and the two rubber points: a rubber of seven.
    expect(s.rubbers[0]).toMatchObject({ winner: 'NS', rubberPoints: 2, deducted: 0, value: 7 });
    expect(s.rubbers[0].games.map((g) => [g.winner, g.value])).toEqual([['NS', 3], ['NS', 2]]);
    expect(s.totals).toEqual({ NS: 7, EW: 0 });
    expect(s.games).toEqual([]);
  });

  it('Eng. 10: "Should the rubber have consisted of three games, the value of the losers\' game is deducted"', () => {
    // N-S treble; E-W double (N-S had 1 point); N-S single (E-W at 3).
    const s = last(R, [{ ns: 11 }, { ns: 7 }, { ns: 2 }, { ns: 4 }, { ns: 11 }]).score;
    expect(s.rubbers[0].games.map((g) => [g.winner, g.value])).toEqual([['NS', 3], ['EW', 2], ['NS', 1]]);
    expect(s.rubbers[0]).toMatchObject({ winner: 'NS', rubberPoints: 2, deducted: 2, value: 4 });
  });

  it('a new rubber begins after one is won', () => {
    const s = last(R, [{ ns: 11 }, { ns: 11 }, { ns: 2 }]).score;
    expect(s.rubbers).toHaveLength(1);
    expect(s.points).toEqual({ NS: 0, EW: 5 - 5 });
    expect(s.games).toEqual([expect.objectContaining({ winner: 'EW', value: 3 })]);
  });
});

describe('English whist: the revoke takes precedence (Eng. 5)', () => {
  it('"The penalty for a revoke ... takes precedence of all other scores": three points added before the tricks', () => {
    // N-S at 2; E-W revoke, and N-S take three points: 5, game, before E-W's ten tricks are scored.
    const s = last(R, [{ ns: 8 }, { ns: 3, revokes: [{ offender: 'EW', form: 'add' }] }]).score;
    expect(s.deals[1].items).toEqual([{ side: 'NS', what: 'revoke', points: 3, law: 'Eng. 5', note: 'three points added for EW\'s revoke' }]);
    expect(s.deals[1].game).toMatchObject({ winner: 'NS', value: 3 });
  });

  it('"the revoking player cannot win the game that hand": the revoking side stops at four', () => {
    const s = last(R, [{ ns: 1, revokes: [{ offender: 'EW', form: 'tricks' }] }]).score;
    expect(s.points).toEqual({ NS: 0, EW: 4 });
    expect(s.games).toEqual([]);
    expect(s.deals[0].items[0]).toMatchObject({ side: 'EW', what: 'tricks', points: 4 });
  });

  it('"or deduct three points from its score": never below nothing', () => {
    const s = last(R, [{ ns: 4 }, { ns: 6, revokes: [{ offender: 'EW', form: 'deduct' }] }]).score;
    // E-W at 3 lose three points (to nothing), then score their odd trick.
    expect(s.deals[1].items).toEqual([
      expect.objectContaining({ side: 'EW', what: 'revoke', points: -3 }),
      expect.objectContaining({ side: 'EW', what: 'tricks', points: 1 }),
    ]);
    expect(s.points).toEqual({ NS: 0, EW: 1 });
    // From one point, three taken leave nothing, not less.
    const t = last(R, [{ ns: 6 }, { ns: 6, revokes: [{ offender: 'EW', form: 'deduct' }] }]).score;
    expect(t.deals[1].items[0]).toMatchObject({ side: 'EW', what: 'revoke', points: -1 });
  });

  it('a call the table proved false is a finding under Eng. 7; the honours the cards show are counted (Eng. 11: "If an erroneous score be proved, such mistake can be corrected")', () => {
    const three = deal({ ns: 6, honours: 3 });
    three.calls = [{ side: 'NS', seat: 'N', count: 4, verdict: 'false', message: 'N called 4 honours, but NS held 3' }];
    const t = keep(startScore(R), three).score;
    expect(t.findings.map((f) => f.kind)).toEqual(['false-honours-claim']);
    expect(t.points).toEqual({ NS: 2, EW: 1 });
    const d = deal({ ns: 6, honours: 2 });
    d.calls = [{ side: 'NS', seat: 'N', count: 4, verdict: 'false', message: 'N called 4 honours, but NS held 2 (HA HK)' }];
    const s = keep(startScore(R), d).score;
    expect(s.findings).toEqual([{ kind: 'false-honours-claim', seat: 'N', side: 'NS', board: undefined, law: 'Eng. 7', message: 'N called 4 honours, but NS held 2 (HA HK)' }]);
    expect(s.points).toEqual({ NS: 0, EW: 1 });
    expect(s.deals[0].honours.called).toEqual(['NS']);
  });

  it('the fold is pure: the state passed in is left as it was', () => {
    const a = startScore(R);
    const before = JSON.stringify(a);
    keep(a, deal({ ns: 10 }));
    expect(JSON.stringify(a)).toBe(before);
  });
});
