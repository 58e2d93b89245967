// English whist (seed 002, English Whist Laws 1-12): five points a game, honours four = 4 and three = 2, none at the
// score of four, treble/double/single, two rubber points, the losers' game deducted; revoke first, tricks, honours.
import type { ScoreRules } from './types.js';

export const ENGLISH_LAWS: ScoreRules['laws'] = {
  game: 'Eng. 2', tricks: 'Eng. 2', honours: 'Eng. 3', value: 'Eng. 8', rubber: 'Eng. 1, 9, 10', revoke: 'Eng. 5',
};

/** The rules of English whist, with a different game length for the "5, 7 or 10 point whist" of Prussian and Favourite. */
export function englishRules(over: Partial<ScoreRules> = {}): ScoreRules {
  const gamePoints = over.gamePoints ?? 5;
  return {
    game: 'english-whist',
    gamePoints,
    honours: 'whist',
    honoursMustBeCalled: true,
    // Eng. 4 names "the score of four" in the five-point game; in a longer game the same bar falls one point short of
    // game (a marker-keeper's reading: the law exists so that honours alone never make the last point).
    noHonoursAt: gamePoints - 1,
    oddTrickOnly: false,
    overflow: false,
    // The seven-point game is the American one: its value is seven less the losers' score (see american.ts).
    gameValue: gamePoints === 7 ? 'american' : 'english',
    rubber: { points: 2, deductLosersGame: true },
    // "The revoking player cannot win the game that hand" (Dummy: The Revoke, the English penalty).
    revokeCap: gamePoints - 1,
    favourite: false,
    progressive: false,
    continuousDummy: false,
    tournee: null,
    laws: ENGLISH_LAWS,
    ...over,
  };
}

/**
 * English Law 8: "I. A treble ... when their adversaries have not scored. II. A double ... when their adversaries
 * have scored less than three. III. A single ... when their adversaries have scored three or four."
 * The ten-point game (seed 001: "5, 7 or 10 point whist") is not valued by the seed; we use the thresholds of long
 * whist that a player would know (none 3, under five 2, five or more 1), which reduce to Law 8 at five points.
 */
export function englishGameValue(gamePoints: number, losers: number): number {
  if (losers <= 0) return 3;
  if (gamePoints >= 10) return losers < 5 ? 2 : 1;
  return losers < 3 ? 2 : 1;
}

/** English Law 3: four honours score four points, any three score two, two do not score. */
export function whistHonours(held: number): number {
  return held === 4 ? 4 : held === 3 ? 2 : 0;
}
