// Trick arithmetic shared by the engine, the formats and the simulators.
import { type Card, suitOf } from './card.js';

/** Tricks in a deal: thirteen, in every game played here. */
export const TOTAL_TRICKS = 13;

/**
 * Index (0-based, in play order) of the card that wins a trick; trump is a suit index or -1 for none.
 * `from`/`to` select the trick inside a longer list; the index returned is relative to `from`.
 */
export function winningIndex(cards: readonly Card[], trump: number, from = 0, to = cards.length): number {
  let best = from;
  let bestCard = cards[from];
  for (let i = from + 1; i < to; i++) {
    const c = cards[i];
    if (beats(c, bestCard, trump)) { best = i; bestCard = c; }
  }
  return best - from;
}

/** True when `card` beats `best`, the card currently winning the trick. */
export function beats(card: Card, best: Card, trump: number): boolean {
  const s = suitOf(card);
  const bs = suitOf(best);
  if (s === bs) return card > best;
  return s === trump;
}
