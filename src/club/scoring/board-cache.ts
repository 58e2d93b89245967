// Scoring kept board by board between the standings of a growing session (issue 18). A board's scores depend on its
// own results alone (and, for bridge matchpoints, on how many results a board is expected to have), so when one
// result comes in only its board is scored again; the standings are then summed from every board's part, in the
// same order as a scoring from scratch, which gives the same figures to the last bit (test/club/score-cache.test.ts).
import type { Traveller } from '../types.js';

/**
 * What the scorers keep of each board between two scorings. A board's part is reused while its travellers are the
 * same objects in the same order: the caller makes a new object for a changed result (the director's standings do).
 */
export class ScoreCache {
  private parts = new Map<number, { travellers: readonly Traveller[]; part: unknown }>();
  private context = '';

  /**
   * The part of `board` for these travellers under `context` (the method and what every board's part depends on):
   * the one kept when nothing it was made from has changed, else `make()`'s, kept for next time.
   */
  part<P>(context: string, board: number, travellers: readonly Traveller[], make: () => P): P {
    if (context !== this.context) {
      this.parts.clear();
      this.context = context;
    }
    const kept = this.parts.get(board);
    if (kept && sameObjects(kept.travellers, travellers)) return kept.part as P;
    const part = make();
    this.parts.set(board, { travellers, part });
    return part;
  }
}

function sameObjects(a: readonly Traveller[], b: readonly Traveller[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
