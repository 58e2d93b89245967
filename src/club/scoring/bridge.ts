// Placeholder until bridge scoring is written (issue 7).
import type { ScoreMethod, ScoreReport, Traveller } from '../types.js';

/** Score bridge travellers by matchpoints (Neuberg where a board was not played everywhere), cross-IMPs or Butler. */
export function scoreBridge(_travellers: readonly Traveller[], method: Exclude<ScoreMethod, 'average'>): ScoreReport {
  throw new Error(`bridge scoring (${method}): not written yet`);
}
