// A hand is four 13-bit masks, one per suit (S H D C); bit r set means the rank r card is held.
import { type Card, type Suit, RANK_LETTERS, SUIT_LETTERS, NotationError, rankIndex, rankOfCode, suitOf } from './card.js';

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
  const suits = text.split('.');
  if (suits.length !== 4) {
    throw new NotationError(`hand "${text}" must have four suits separated by dots (S.H.D.C), found ${suits.length}`, text, offset);
  }
  const hand = emptyHand();
  let pos = offset;
  for (let s = 0; s < 4; s++) {
    const ranks = suits[s];
    for (let i = 0; i < ranks.length; i++) {
      const code = ranks.charCodeAt(i);
      const fast = rankOfCode(code);
      if (fast >= 0 && !(hand[s] & (1 << fast)) && code !== 49) {
        hand[s] |= 1 << fast;
        continue;
      }
      let tok = ranks[i];
      if (tok === '1' && ranks[i + 1] === '0') tok = '10';
      const r = rankIndex(tok);
      if (r < 0) throw new NotationError(`"${tok}" in the ${'SHDC'[s]} suit of hand "${text}" is not a rank`, tok, pos + i);
      if (hand[s] & (1 << r)) throw new NotationError(`${SUIT_LETTERS[s]}${RANK_LETTERS[r]} appears twice in hand "${text}"`, tok, pos + i);
      hand[s] |= 1 << r;
      if (tok === '10') i++;
    }
    pos += ranks.length + 1;
  }
  return hand;
}
