// Mort, or French dummy (seed 001): points by tricks only, five to game, and the concluding hand played out, "the
// winners are entitled to score all the points over five that they can make on that hand". The stakes are so much a
// point, and "The Vivant must pay or receive double, as he has to settle with each adversary."
import { englishRules } from './english.js';
import type { ScoreRules } from './types.js';

/**
 * The rules of Mort. The seed's text stops before it says how a game's points become stakes beyond the worked
 * example ("they win a game of 9 points, instead of 5"), so a game is worth the points its winners made; its sentence
 * that "six is the smallest number of points that can be won or lost on a single game" needs rules the extract lacks.
 */
export function mortRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return englishRules({
    game: 'mort', honours: 'none', honoursMustBeCalled: false, noHonoursAt: null, overflow: true,
    gameValue: 'winners-points', rubber: null, tournee: 3,
    laws: { game: 'Mort: Object of the Game', tricks: 'Mort: Object of the Game', honours: '', value: 'Mort: Object of the Game', rubber: 'Mort: Cutting', revoke: 'Mort: The Revoke' },
    ...over,
  });
}
