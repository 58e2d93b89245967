// Claims: the claimant's side claims tricks, an adversary accepts or disputes, and play that goes on after a claim.
// Part of DealPlay's fold (deal-play.ts); pure.
import { formatCard } from '../cards/card.js';
import { handCards } from '../cards/hand.js';
import { SEATS } from '../cards/seat.js';
import { TOTAL_TRICKS } from '../cards/trick.js';
import type { DealPlay } from './deal-play.js';
import { makeLiable } from './deal-penalties.js';
import { establishWhere } from './deal-revokes.js';

/** A claim standing: the claimant's side and seat, the tricks claimed, when, and whether an adversary accepted it. */
export interface Claim {
  side: number;
  tricks: number;
  seat: number;
  atTrick: number;
  accepted: boolean;
}

/** The claimant's side claims `n` of the remaining tricks; the rest go to the adversaries. */
export function claimTricks(play: DealPlay, seat: number, n: number, seq?: number): void {
  play.seq = seq;
  if (play.isOver) return;
  if (play.quitPending) play.quitTrick();
  const remaining = TOTAL_TRICKS - play.trickWinner.length;
  const tricks = Math.min(n, remaining);
  if (n > remaining) play.notes.push(`${SEATS[seat]} claimed ${n} tricks with only ${remaining} left; credited ${remaining}`);
  play.claim = { side: play.sideOf(seat), tricks, seat, atTrick: play.trickWinner.length, accepted: false };
  // L63A3: a claim by the offender or his partner establishes a revoke. In whist the claim ends the play.
  const s = play.sideOf(seat);
  establishWhere(play, (r) => play.sideOf(r.seat) === s || play.code.name !== 'bridge', 'claim');
}

/**
 * An adversary of the claimant answers the claim. Accepted, the claimed result is established (Am. 27); disputed,
 * the claim is withdrawn and the director called (WBF L68D): play may go on, and a revoke the claim established stays
 * established (L63A3). Returns an error sentence when there is no claim to answer or the seat may not answer it.
 */
export function answerClaim(play: DealPlay, seat: number, accept: boolean, seq?: number): string | null {
  play.seq = seq;
  const why = claimAnswerProblem(play, seat);
  if (why) return why;
  const c = play.claim!;
  if (accept) {
    c.accepted = true;
    // L63A3: a revoke is established when a member of the offending side "makes or agrees to a claim".
    const side = play.sideOf(seat);
    establishWhere(play, (r) => play.sideOf(r.seat) === side, 'claim');
  } else {
    play.claim = null;
    play.notes.push(`${SEATS[seat]} disputed ${SEATS[c.seat]}'s claim of ${c.tricks} tricks; the director was called`);
  }
  return null;
}

/** Why `seat` cannot answer a claim now, or null: there must be one standing, and he must be an adversary of it. */
export function claimAnswerProblem(play: DealPlay, seat: number): string | null {
  const c = play.claim;
  if (!c) return 'there is no claim standing to answer';
  if (c.accepted) return `the claim of ${c.tricks} by ${SEATS[c.seat]} was already accepted`;
  if (!play.seats.includes(seat) || play.sideOf(seat) === c.side) return `${SEATS[seat]} is not an adversary of the claimant ${SEATS[c.seat]}; an adversary accepts or disputes a claim`;
  return null;
}

/** Play goes on after a claim: Am. 36 / Dup. VII.2, the claimant's partner's cards are liable. */
export function claimNotAdmitted(play: DealPlay): boolean {
  const c = play.claim!;
  play.claim = null;
  const p = play.partner(c.seat);
  const r = play.code.claimNotAdmitted(play.ctx, c.seat);
  if (r && p !== c.seat && !play.dummies.has(p)) {
    const cards = play.hands ? handCards(play.hands[p]) : [];
    for (const card of cards) makeLiable(play, card, p, r);
    play.addFinding('card-liable-to-be-called', p, r,
      `${SEATS[c.seat]} claimed and play went on: ${SEATS[p]}'s cards ${cards.length ? `(${cards.map(formatCard).join(' ')}) ` : ''}must be laid face up`);
  }
  return false;
}
