// At a claim (WBF Laws 70-71; whist, Am. 27 "the result of the hand, as then claimed or admitted"), what the
// claimer's side can take from the cards left with best play by both sides: for the director, who sees every hand.
import { type Seat, SEATS } from '../cards/seat.js';
import type { Table } from '../laws/engine.js';
import type { DoubleDummy } from './solver.js';
import { type Position, strainOf } from './types.js';

/** A claim and the position it was made in. */
export interface ClaimPosition {
  board: number;
  seat: Seat;
  /** Tricks the claimer's side claimed of those left. */
  claimed: number;
  /** Tricks left to play, the trick in progress included. */
  left: number;
  position: Position;
}

/** What the director's page shows of a claim. */
export interface ClaimView { board: number; seat: Seat; claimed: number; left: number; canTake?: number }

/**
 * The position at the table now: the cards still in hand, the trump and the trick in progress (a complete trick not
 * yet quitted counts as quitted: its winner leads next), with the tricks left to play, the trick in progress
 * included. Null when a hand is unknown (an original play without a tray record) or no card is left.
 */
export function tablePosition(table: Table): { position: Position; left: number } | null {
  const hands = SEATS.map((s) => table.remaining(s));
  if (hands.some((h) => h === null)) return null;
  const t = table.currentTrick();
  // A complete trick not yet quitted: its cards are out of the hands, and its winner leads next.
  const cards = t.cards.length === 4 ? [] : t.cards.map((c) => c.card);
  const leader = t.cards.length === 4 || !t.leader ? table.whoseTurn() : t.leader;
  if (!leader) return null;
  const counts = hands.map((h) => h!.replace(/\./g, '').length);
  const left = counts[(SEATS.indexOf(leader) + cards.length) & 3];
  if (left === 0) return null;
  return { left, position: { hands: `N:${hands.join(' ')}`, strain: strainOf(table.trump()), leader, trick: cards } };
}

/** The position at a claim, read from the table before the claim is folded; null when a hand is unknown. */
export function claimPosition(table: Table, board: number, seat: Seat, claimed: number): ClaimPosition | null {
  const p = tablePosition(table);
  return p ? { board, seat, claimed, left: p.left, position: p.position } : null;
}

/** Claims solved in the background: the view has `canTake` once DDS has answered. */
export class ClaimAnalyses {
  private readonly done = new Map<string, number>();
  private readonly asked = new Set<string>();

  /** `onSolved` runs when an answer arrives (the director then sends a fresh snapshot). */
  constructor(private readonly dd: DoubleDummy | null, private readonly onSolved: () => void = () => undefined) {}

  /** The claim as the page shows it, with what the claimer's side can take when solved (asked for once). */
  view(c: ClaimPosition): ClaimView {
    const key = `${c.seat} ${c.position.hands} ${c.position.strain} ${c.position.leader} ${c.position.trick.join(' ')}`;
    const base: ClaimView = { board: c.board, seat: c.seat, claimed: c.claimed, left: c.left };
    const got = this.done.get(key);
    if (got !== undefined) return { ...base, canTake: got };
    if (this.dd && !this.asked.has(key)) {
      this.asked.add(key);
      const side = c.seat === 'N' || c.seat === 'S' ? 'NS' : 'EW';
      this.dd.solve(c.position).then((r) => {
        this.done.set(key, r.tricks[side]);
        this.onSolved();
      }, () => { /* off or failed: the page shows the claim without it */ });
    }
    return base;
  }
}
