// Placeholder until session scoring is written (issue 7).
import type { ScoreMethod, ScoreReport, Traveller } from '../types.js';

export interface ScoreOptions {
  /** Default: `average` for whist travellers (tricks), `matchpoints` for bridge (contract). */
  method?: ScoreMethod;
}

/** Score a session's travellers: the standings and every board's results. */
export function scoreTravellers(_travellers: readonly Traveller[], _opts: ScoreOptions = {}): ScoreReport {
  throw new Error('scoring: not written yet');
}
