// The scoring entry point (docs/club.md): whist travellers (tricks per side) go to whist.ts, bridge travellers
// (a contract) to bridge.ts. `tenace score` and the director's standings both come through here.
import type { ScoreMethod, ScoreReport, Traveller } from '../types.js';
import { scoreBridge } from './bridge.js';
import { ScoringError } from './errors.js';
import { type WhistMethod, type WhistOptions, scoreWhist } from './whist.js';

export { ScoringError } from './errors.js';
export { ScoreCache } from './board-cache.js';
export type { WhistMethod, WhistOptions, WhistReport, WhistTraveller } from './whist.js';

/** Methods for bridge travellers. */
export const BRIDGE_METHODS: readonly ScoreMethod[] = ['matchpoints', 'cross-imps', 'butler'];
/** Methods for whist travellers: `average` (Compass Whist), `matches` (teams or pairs), `individuals`. */
export const WHIST_METHODS: readonly WhistMethod[] = ['average', 'matches', 'individuals'];

export interface ScoreOptions extends Omit<WhistOptions, 'method'> {
  /** Default: `average` for whist travellers (tricks), `matchpoints` for bridge (contract). */
  method?: ScoreMethod | WhistMethod;
}

/** Score a session's travellers: the standings and every board's results. Throws a ScoringError for bad input. */
export function scoreTravellers(travellers: readonly Traveller[], opts: ScoreOptions = {}): ScoreReport {
  const bridge = travellers.findIndex((t) => t.contract !== undefined);
  // An adjusted score with neither contract nor tricks (a board the director scored without play) is of the game
  // the other results are.
  const whist = travellers.findIndex((t) => t.contract === undefined && !isBareAdjustment(t));
  if (bridge >= 0 && whist >= 0) {
    throw new ScoringError(`contract: board ${travellers[Math.max(bridge, whist)].board} is ${bridge > whist ? 'a bridge result (contract) among whist results' : 'a whist result (no contract) among bridge results'}: score one game per file`, Math.max(bridge, whist), 'contract');
  }
  if (bridge >= 0) {
    const method = opts.method ?? 'matchpoints';
    if (!(BRIDGE_METHODS as readonly string[]).includes(method)) {
      throw new ScoringError(`method: "${method}" scores whist tricks; bridge travellers (with a contract) are scored by ${BRIDGE_METHODS.join(', ')}`, undefined, 'method');
    }
    return scoreBridge(travellers, method as Exclude<ScoreMethod, 'average'>, opts.cache ? { cache: opts.cache } : {});
  }
  const method = opts.method ?? 'average';
  if (!(WHIST_METHODS as readonly string[]).includes(method)) {
    throw new ScoringError(`method: "${method}" scores bridge contracts; whist travellers (tricks per side) are scored by ${WHIST_METHODS.join(', ')}`, undefined, 'method');
  }
  return scoreWhist(travellers, { ...opts, method: method as WhistMethod });
}

/** True for an adjusted score that gives neither a contract nor tricks: it belongs to either game. */
function isBareAdjustment(t: Traveller): boolean {
  return t.adjusted !== undefined && t.contract === undefined && t.tricks === undefined;
}
