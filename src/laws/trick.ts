// Trick arithmetic shared by the engine, the formats and the simulators.
import { type Card, suitOf } from '../cards/card.js';

/** Index (0-based, in play order) of the card that wins a trick; trump is a suit index or -1 for none. */
export function winningIndex(cards: readonly Card[], trump: number): number {
  let best = 0;
  let bestCard = cards[0];
  for (let i = 1; i < cards.length; i++) {
    const c = cards[i];
    if (beats(c, bestCard, trump)) { best = i; bestCard = c; }
  }
  return best;
}

/** True when `card` beats `best`, the card currently winning the trick. */
export function beats(card: Card, best: Card, trump: number): boolean {
  const s = suitOf(card);
  const bs = suitOf(best);
  if (s === bs) return card > best;
  return s === trump;
}
