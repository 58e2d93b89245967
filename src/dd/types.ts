// Double-dummy analysis: what each side can take with every card seen and best play by both sides. The shapes here
// are what callers see; src/dd/dds.ts turns them into DDS's structs inside the solver's child process.
import { SUIT_LETTERS, tryParseCard } from '../cards/card.js';
import { type Seat, SEATS } from '../cards/seat.js';

/** A strain: a trump suit, or no trump. A whist deal's turned or declared trump is a strain like any other. */
export type Strain = 'S' | 'H' | 'D' | 'C' | 'NT';

/** DDS's strain order (0 spades .. 3 clubs, 4 no trump), which is also the order of our suit indices. */
export const STRAINS: readonly Strain[] = ['S', 'H', 'D', 'C', 'NT'];

/** The tricks a declarer in each seat takes in each strain, with best play by both sides (0..13). */
export type DdTable = Record<Strain, Record<Seat, number>>;

/** Vulnerability as PBN writes it. */
export type Vulnerability = 'None' | 'NS' | 'EW' | 'All';

/** One par contract: bid by a seat or a side, doubled when it is a sacrifice. */
export interface ParContract {
  level: number;
  strain: Strain;
  /** The seat or side that can declare it ("NS" when either North or South). */
  by: Seat | 'NS' | 'EW';
  doubled: boolean;
  /** Tricks over the contract (0 for a sacrifice) and under it (0 when it makes). */
  overtricks: number;
  undertricks: number;
}

/** The par of a deal for a vulnerability: the score North-South get with best bidding by both sides, and how. */
export interface Par {
  /** North-South's score; negative when East-West score. 0 when the deal should be passed out. */
  score: number;
  contracts: ParContract[];
}

/** A position in the play: the cards still in hand, the trump, and the trick in progress. */
export interface Position {
  /** Each seat's cards still in hand, PBN deal notation ("N:AK.Q.. ..."); the cards of the trick in progress are not in them. */
  hands: string;
  strain: Strain;
  /** The seat that led to the trick in progress, or that leads the next trick when none is in progress. */
  leader: Seat;
  /** The cards already played to the trick in progress, from the leader on (at most three). */
  trick: readonly string[];
}

/** What best play by both sides gives from a position. */
export interface PositionResult {
  /** The seat to play next. */
  toPlay: Seat;
  /** The tricks each side still takes, the trick in progress included. */
  tricks: { NS: number; EW: number };
  /** Each card the seat to play may play, and the tricks its side then takes; best first. */
  cards: { card: string; tricks: number }[];
}

/** The message when libdds is not there: said once, by check-config, the CLI and the pages. */
export const DD_OFF = 'double-dummy analysis is off: install libdds0 (apt install libdds0)';

/** A deal's four hands as 4x4 suit masks, bit r for rank r (0 the deuce .. 12 the ace); null with the reason when it is not a deal. */
export function handMasks(hands: string): { masks: number[][] } | { error: string } {
  const m = /^\s*([NESWnesw]):(.*)$/.exec(hands);
  if (!m) return { error: `hands "${hands.slice(0, 40)}": write them as a PBN deal, "N:AKQ.JT9.. ..." (a seat, a colon, four hands)` };
  const parts = m[2].trim().split(/\s+/);
  if (parts.length !== 4) return { error: `hands: a deal has four hands, this one has ${parts.length}` };
  const first = SEATS.indexOf(m[1].toUpperCase() as Seat);
  const masks = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
  const seen = new Set<string>();
  for (let i = 0; i < 4; i++) {
    const seat = (first + i) & 3;
    const suits = parts[i] === '-' ? ['', '', '', ''] : parts[i].split('.');
    if (suits.length !== 4) return { error: `hands: ${SEATS[seat]}'s hand "${parts[i]}" needs four suits separated by dots (S.H.D.C)` };
    for (let s = 0; s < 4; s++) {
      for (const ch of suits[s]) {
        const r = tryParseCard(SUIT_LETTERS[s] + ch);
        if (!r.ok) return { error: `hands: "${ch}" in ${SEATS[seat]}'s ${SUIT_LETTERS[s]} is not a rank (2-9, T, J, Q, K, A)` };
        const name = SUIT_LETTERS[s] + ch.toUpperCase();
        if (seen.has(name)) return { error: `hands: ${name} is dealt twice` };
        seen.add(name);
        masks[seat][s] |= 1 << (r.value % 13);
      }
    }
  }
  return { masks };
}

/** How many cards a hand of 4 suit masks holds. */
export function countCards(hand: readonly number[]): number {
  let n = 0;
  for (const m of hand) for (let x = m; x; x &= x - 1) n++;
  return n;
}

/** The strain of a trump suit letter, or NT for none (null or undefined). */
export function strainOf(trump: string | null | undefined): Strain {
  return trump === 'S' || trump === 'H' || trump === 'D' || trump === 'C' ? trump : 'NT';
}

/** The seat after `seat`, clockwise. */
export function nextSeat(seat: Seat, k = 1): Seat {
  return SEATS[(SEATS.indexOf(seat) + k) & 3];
}
