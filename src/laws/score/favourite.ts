// Prussian and Favourite whist (seed 001): "the ordinary 5, 7 or 10 point whist, with or without honours". Prussian
// differs only in how the trump is found (cut from the still pack: `trumpCut` on the deal event); Favourite doubles
// tricks and honours in the favourite suit after the rubber's first deal, or values the suits progressively.
import { englishRules } from './english.js';
import type { ScoreRules } from './types.js';

/** Prussian whist: English whist scoring; the trump is cut, not turned. */
export function prussianRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return englishRules({ game: 'prussian-whist', ...over });
}

/** Favourite whist: English whist scoring with the favourite suit doubling tricks and honours. */
export function favouriteRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return englishRules({ game: 'favourite-whist', favourite: true, ...over });
}

/**
 * The progressive variation: "tricks being worth 1 point when Spades are trumps; when Clubs 2; when Diamonds 3; and
 * when Hearts 4. Honours do not count, and the game is 10 points, made by tricks alone. The hands are played out;
 * the winners score all tricks taken, and the winners of the rubber add 10 points for bonus. The value of the rubber
 * is the difference between the scores of the winners and that of the losers."
 */
export function progressiveRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return englishRules({
    game: 'favourite-whist', gamePoints: 10, honours: 'none', honoursMustBeCalled: false, noHonoursAt: null,
    overflow: true, gameValue: 'difference', rubber: { points: 10, deductLosersGame: false }, favourite: false, progressive: true,
    laws: { game: 'Favourite: variation', tricks: 'Favourite: variation', honours: 'Favourite: variation', value: 'Favourite: variation', rubber: 'Favourite: variation', revoke: 'Eng. 5' },
    ...over,
  });
}

/** Progressive trick values by trump suit: S 1, C 2, D 3, H 4. */
export const PROGRESSIVE: Readonly<Record<string, number>> = { S: 1, C: 2, D: 3, H: 4 };
