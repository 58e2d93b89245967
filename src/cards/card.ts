// A card is an integer 0..51: suit * 13 + rank, suits in PBN order S H D C, ranks 2..A as 0..12.
// Integers keep hands as 13-bit masks per suit, so following suit is one AND.

export type Card = number;
export type Suit = 0 | 1 | 2 | 3;

export const SUIT_LETTERS = 'SHDC';
export const RANK_LETTERS = '23456789TJQKA';
export const SPADES = 0, HEARTS = 1, DIAMONDS = 2, CLUBS = 3;

/** The suit of a card. */
export function suitOf(card: Card): Suit {
  return ((card / 13) | 0) as Suit;
}

/** The rank of a card, 0 (the deuce) to 12 (the ace). */
export function rankOf(card: Card): number {
  return card % 13;
}

/** Build a card from suit and rank indices. */
export function makeCard(suit: number, rank: number): Card {
  return suit * 13 + rank;
}

const CARD_NAMES: readonly string[] = Array.from({ length: 52 }, (_, c) => SUIT_LETTERS[(c / 13) | 0] + RANK_LETTERS[c % 13]);

/** Notation of a card, suit letter then rank: `SA`, `HT`, `C2`. */
export function formatCard(card: Card): string {
  return CARD_NAMES[card];
}

/** Index of a suit letter or symbol (S H D C, ♠ ♥ ♡ ♦ ♢ ♣ ♧ ♤, either case), or -1. */
export function suitIndex(ch: string): number {
  switch (ch) {
    case 'S': case 's': case '♠': case '♤': return 0;
    case 'H': case 'h': case '♥': case '♡': return 1;
    case 'D': case 'd': case '♦': case '♢': return 2;
    case 'C': case 'c': case '♣': case '♧': return 3;
    default: return -1;
  }
}

/** Index of a rank token (2-9, T or 10, J Q K A, either case), or -1. */
export function rankIndex(token: string): number {
  if (token === '10') return 8;
  if (token.length !== 1) return -1;
  return RANK_LETTERS.indexOf(token.toUpperCase());
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Error for bad notation: names the token and its position in the input. */
export class NotationError extends Error {
  constructor(message: string, readonly token: string, readonly position: number) {
    super(message);
    this.name = 'NotationError';
  }
}

/**
 * Parse a card: suit then rank (`SA`, `H10`, `♥Q`), or rank then suit as printed in Hoyle (`10♠`, `Q♢`).
 * Returns a reason rather than throwing, so callers can name the line.
 */
export function tryParseCard(token: string): Parsed<Card> {
  const t = token.trim();
  if (t.length >= 2) {
    const s = suitIndex(t[0]);
    if (s >= 0) {
      const r = rankIndex(t.slice(1));
      if (r >= 0) return { ok: true, value: s * 13 + r };
    }
    const s2 = suitIndex(t[t.length - 1]);
    if (s2 >= 0) {
      const r2 = rankIndex(t.slice(0, -1));
      if (r2 >= 0) return { ok: true, value: s2 * 13 + r2 };
    }
  }
  return { ok: false, error: `"${token}" is not a card: write a suit (S H D C) then a rank (2-9, T or 10, J, Q, K, A), e.g. SA or HT` };
}

/** Parse a card or throw a NotationError naming the token and its position (0 when standalone). */
export function parseCard(token: string, position = 0): Card {
  const r = tryParseCard(token);
  if (!r.ok) throw new NotationError(r.error, token, position);
  return r.value;
}

/** Bit of a card inside its suit mask. */
export function rankBit(card: Card): number {
  return 1 << (card % 13);
}

const SUIT_BY_CODE = new Int8Array(128).fill(-1);
const RANK_BY_CODE = new Int8Array(128).fill(-1);
for (let i = 0; i < 4; i++) {
  SUIT_BY_CODE[SUIT_LETTERS.charCodeAt(i)] = i;
  SUIT_BY_CODE[SUIT_LETTERS.toLowerCase().charCodeAt(i)] = i;
}
for (let r = 0; r < 13; r++) {
  RANK_BY_CODE[RANK_LETTERS.charCodeAt(r)] = r;
  RANK_BY_CODE[RANK_LETTERS.toLowerCase().charCodeAt(r)] = r;
}

/** Rank index of a one-letter rank's character code (2-9 T J Q K A, either case), or -1. */
export function rankOfCode(code: number): number {
  return code < 128 ? RANK_BY_CODE[code] : -1;
}

/** Card index of a notation token, or -1: two character lookups for the common `SA` form, the full parser otherwise. */
export function cardCode(token: string): Card {
  if (token.length === 2) {
    const a = token.charCodeAt(0), b = token.charCodeAt(1);
    const su = a < 128 ? SUIT_BY_CODE[a] : -1;
    const r = b < 128 ? RANK_BY_CODE[b] : -1;
    if (su >= 0 && r >= 0) return su * 13 + r;
  }
  const r = tryParseCard(token);
  return r.ok ? r.value : -1;
}
