// The dummy games and the two-handed games of seed 001: English Dummy (tournée of three rubbers; the point conceded by
// one who takes dummy throughout), Double Dummy (whist scoring, honours by player and his dummy), Humbug (honours per
// player) and Thirteen and the Odd (the odd trick scores a point).
import { englishRules } from './english.js';
import type { ScoreRules } from './types.js';

/**
 * English Dummy: "The methods of Taking Tricks; Scoring; Claiming and Counting Honours; Marking Rubber Points, etc.,
 * are the same as in whist"; "The three rubbers so played are called a Tournée". With `continuousDummy`, "one player
 * shall take dummy continuously, on condition that he concedes to his adversaries one point in each rubber".
 */
export function englishDummyRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return englishRules({ game: 'english-dummy', tournee: 3, ...over });
}

/**
 * Double Dummy: scoring as in whist; each player's honours are his and his dummy's (they are partners), so the whist
 * count by side is the count by player. "Tournées are not played, and the completion of the rubber breaks up the table."
 */
export function doubleDummyRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return englishRules({ game: 'double-dummy', ...over });
}

/**
 * Humbug: "Each trick above six counts one point towards game. ... if each player holds two, neither can count. But if
 * one player has only one honour, or none, the other counts 2 points for two honours ...; 3 points for three; and 4
 * points for four. The honours count towards game as in whist. ... Five points is game." Games and rubbers are not
 * described for Humbug; as "a variation on double dummy" it is marked as double dummy is, in rubbers.
 */
export function humbugRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return englishRules({
    game: 'humbug', honours: 'per-player',
    laws: { game: 'Humbug: Scoring', tricks: 'Humbug: Scoring', honours: 'Humbug: Scoring', value: 'Eng. 8', rubber: 'Eng. 1, 9, 10', revoke: 'Humbug: Scoring' },
    ...over,
  });
}

/**
 * Thirteen and the Odd: "The winner of the odd trick scores a point. Five points is game." The odd trick is the only
 * thing scored, so there are no honours; games and rubbers are marked as in Humbug, of which it is the variation.
 */
export function thirteenRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return englishRules({
    game: 'thirteen-and-the-odd', honours: 'none', honoursMustBeCalled: false, noHonoursAt: null, oddTrickOnly: true,
    laws: { game: 'Thirteen and the Odd', tricks: 'Thirteen and the Odd', honours: '', value: 'Eng. 8', rubber: 'Eng. 1, 9, 10', revoke: 'Humbug: Scoring' },
    ...over,
  });
}
