// Double-dummy analysis: what each side can take with every card seen and best play by both sides. The shapes here
// are what callers see; src/dd/dds.ts turns them into DDS's structs inside the solver's child process.
import { isComplete, parseDeal } from '../cards/deal.js';
import type { Hand } from '../cards/hand.js';
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

/** The library's soname (Debian's libdds0); LIBDDS_PATH names another (a test names one that is not there). */
export const DDS_SONAME = 'libdds.so.0';

/** Whether analysis is on, and the library's version or the reason it is off. */
export type DdStatus = { on: true; version: string } | { on: false; reason: string };

/** The message when libdds is not there: said once, by check-config, the CLI and the pages. */
export const DD_OFF = 'double-dummy analysis is off: install libdds0 (apt install libdds0)';

/** A deal's four hands (PBN deal notation, every hand known), or the reason it is not one. */
export function dealHands(hands: string): { hands: Hand[] } | { error: string } {
  try {
    const d = parseDeal(hands);
    if (!isComplete(d)) return { error: `hands: every hand must be known for double-dummy analysis; "${hands.slice(0, 60)}" gives ${d.filter((h) => h !== null).length} of 4` };
    return { hands: d };
  } catch (e) {
    return { error: `hands: ${(e as Error).message}` };
  }
}

/** The strain of a trump suit letter, or NT for none (null or undefined). */
export function strainOf(trump: string | null | undefined): Strain {
  return trump === 'S' || trump === 'H' || trump === 'D' || trump === 'C' ? trump : 'NT';
}

/** The seat after `seat`, clockwise. */
export function nextSeat(seat: Seat, k = 1): Seat {
  return SEATS[(SEATS.indexOf(seat) + k) & 3];
}
