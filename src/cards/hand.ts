// A hand is four 13-bit masks, one per suit (S H D C); bit r set means the rank r card is held.
import { type Card, type Suit, RANK_LETTERS, SUIT_LETTERS, NotationError, rankOfCode, suitOf } from './card.js';

export type Hand = [number, number, number, number];

/** An empty hand. */
export function emptyHand(): Hand {
  return [0, 0, 0, 0];
}

/** Number of set bits in a 13-bit mask. */
export function popcount(mask: number): number {
  let m = mask - ((mask >> 1) & 0x5555);
  m = (m & 0x3333) + ((m >> 2) & 0x3333);
  m = (m + (m >> 4)) & 0x0f0f;
  return (m + (m >> 8)) & 0x1f;
}

/** Number of cards in a hand. */
export function handSize(hand: Hand): number {
  return popcount(hand[0]) + popcount(hand[1]) + popcount(hand[2]) + popcount(hand[3]);
}

/** True when the hand holds the card. */
export function holds(hand: Hand, card: Card): boolean {
  return (hand[suitOf(card)] & (1 << (card % 13))) !== 0;
}

/** Add a card to a hand in place. */
export function addCard(hand: Hand, card: Card): void {
  hand[suitOf(card)] |= 1 << (card % 13);
}

/** Remove a card from a hand in place. */
export function removeCard(hand: Hand, card: Card): void {
  hand[suitOf(card)] &= ~(1 << (card % 13));
}

/** True when the hand holds any card of the suit. */
export function holdsSuit(hand: Hand, suit: Suit): boolean {
  return hand[suit] !== 0;
}

/** The cards of a hand, spades first, high to low within a suit. */
export function handCards(hand: Hand): Card[] {
  const out: Card[] = [];
  for (let s = 0; s < 4; s++) for (let r = 12; r >= 0; r--) if (hand[s] & (1 << r)) out.push(s * 13 + r);
  return out;
}

/** PBN form of a hand: `AKQ.JT9.876.5432` (S.H.D.C, high to low). */
export function formatHand(hand: Hand): string {
  const parts: string[] = [];
  for (let s = 0; s < 4; s++) {
    let p = '';
    for (let r = 12; r >= 0; r--) if (hand[s] & (1 << r)) p += RANK_LETTERS[r];
    parts.push(p);
  }
  return parts.join('.');
}

/**
 * Parse a PBN hand `AKQ.JT9.876.5432`. `offset` is the hand's position in the larger input, so the
 * error can point at the exact character.
 */
export function parseHand(text: string, offset = 0): Hand {
  const hand = emptyHand();
  let s = 0;
  // One pass over the characters, no splitting: every deal of a replay comes through here.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 46) { // '.'
      if (++s > 3) break;
      continue;
    }
    let r = rankOfCode(code);
    let width = 1;
    if (code === 49 && text.charCodeAt(i + 1) === 48) { // "10"
      r = 8;
      width = 2;
    }
    if (r < 0) throw new NotationError(`"${text[i]}" in the ${SUIT_LETTERS[s]} suit of hand "${text}" is not a rank`, text[i], offset + i);
    if (hand[s] & (1 << r)) throw new NotationError(`${SUIT_LETTERS[s]}${RANK_LETTERS[r]} appears twice in hand "${text}"`, text.slice(i, i + width), offset + i);
    hand[s] |= 1 << r;
    i += width - 1;
  }
  if (s !== 3) {
    throw new NotationError(`hand "${text}" must have four suits separated by dots (S.H.D.C), found ${Math.min(s, 4) + 1}`, text, offset);
  }
  return hand;
}
