// American whist: the seven-point game made by tricks only. The seeds hold American laws 19-39, and Law 31 ("score all
// points made by them up to the score of six") shows the game of seven; its value (seven less the losers' score) is
// the American Whist League's Law 1-2 as players kept it, which the seed's extract does not reach.
import type { ScoreRules } from './types.js';

/** The rules of American whist: seven points, tricks only, games kept singly (the AWL plays no rubbers). */
export function americanRules(over: Partial<ScoreRules> = {}): ScoreRules {
  return {
    game: 'american-whist',
    gamePoints: 7,
    honours: 'none',
    honoursMustBeCalled: false,
    noHonoursAt: null,
    oddTrickOnly: false,
    overflow: false,
    gameValue: 'american',
    rubber: null,
    // Am. 30: "The revoking side cannot win the game in that hand"; Am. 31: "score all points ... up to the score of six".
    revokeCap: 6,
    favourite: false,
    progressive: false,
    continuousDummy: false,
    tournee: null,
    laws: { game: 'Am. 31', tricks: 'Am. 31', honours: '', value: 'AWL 1 (seven less the losers\' score)', rubber: '', revoke: 'Am. 30, 31' },
    ...over,
  };
}

/** Seven less the losers' score; at least one. */
export function americanGameValue(gamePoints: number, losers: number): number {
  return Math.max(1, gamePoints - losers);
}
