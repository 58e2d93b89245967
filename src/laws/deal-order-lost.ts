// A stretch of play whose order is unknown (a presence snapshot found its cards): the cards are counted, never judged
// on their order, and the director is told once where and what. Part of DealPlay's fold (deal-play.ts); pure.
import { formatCard, suitOf } from '../cards/card.js';
import { holds } from '../cards/hand.js';
import { SEATS } from '../cards/seat.js';
import { TOTAL_TRICKS } from '../cards/trick.js';
import type { Finding } from './types.js';
import type { DealPlay } from './deal-play.js';

/** A stretch of place/lift events whose order is unknown (found by a presence snapshot), while it lasts. */
export interface LostStretch {
  /** seq of its first event. */
  fromSeq: number | undefined;
  /** Seat of its first event, and the trick it began in. */
  seat: number;
  trick: number;
  /** What was pending when the order was lost and can no longer be judged (renounces, penalties). */
  setAside: string[];
  /** The card taken as the turned trump inside the stretch, if any. */
  trumpRead?: number;
}

/**
 * A place or lift marked `orderUnknown`: a presence snapshot found it, so when it happened in the play is not
 * known (cards may even have been placed and lifted unseen). The stretch runs from this event to the first place
 * or lift in known order. Until then, and over every trick the stretch touched until that trick ends, each card is
 * still checked against the hand record (card-not-in-hand, duplicate-card, unknown-card, wrong-trump-card) and
 * counted in a trick, but no lead or play out of turn, renounce, revoke, failure to comply or card count is derived
 * from its order. What was pending and could have been settled unseen is set aside: a renounce in error still
 * open or a void shown in the last two tricks (a correction may have gone unseen), and penalties not yet exacted.
 * The first lead after the touched tricks is accepted as the proper lead, since who won them may be unknown; from
 * then on the play is judged as usual, except that the hand record no longer proves a renounce (heldKnown) and,
 * when the trump card was not seen for certain, no lead is judged. The director is told once, when the stretch
 * ends (reportLostOrder).
 */
export function loseOrder(play: DealPlay, seat: number): void {
  if (play.lost) return;
  const setAside: string[] = [];
  play.lost = { fromSeq: play.seq, seat, trick: play.trickNumber, setAside };
  play.heldKnown = false;
  const v = (play.voids ??= new Int8Array(48));
  if (play.gone === null) play.gone = [0, 0, 0, 0];
  else if (!play.curUncertain) play.gone.fill(0);
  for (const r of play.openRenounces) {
    setAside.push(`${SEATS[r.seat]}'s renounce in error at trick ${r.trick} (${formatCard(r.card)}) may have been corrected unseen and is not established`);
  }
  play.openRenounces.length = 0;
  const shown: string[] = [];
  for (let k = 0; k < 16; k++) {
    if (v[k] === 0 || v[k] < play.trickNumber - 1) continue;
    shown.push(`${SEATS[k >> 2]} of ${'SHDC'[k & 3]} at trick ${v[k]} (${formatCard(v[16 + k])})`);
    v[k] = 0;
  }
  if (shown.length) setAside.push(`showing out ${shown.join(', ')} proves no revoke later, as a correction may have gone unseen`);
  if (play.penalties.length) {
    setAside.push(`the pending ${play.penalties.map((p) => `${p.kind} (${p.law})`).join(', ')} can no longer be enforced`);
    play.penalties.length = 0;
  }
  if (play.curCount > 0 && !play.curUncertain) {
    play.curKnown = play.curCount;
    play.curUncertain = true;
  }
  play.curFalseLead = false;
  if (play.mayWithdraw.length) play.mayWithdraw = [];
}

/** The stretch of unknown order ends (at event `toSeq`, or with the play): tell the director, once, where and what. */
export function reportLostOrder(play: DealPlay, toSeq: number | undefined): void {
  const l = play.lost!;
  play.lost = null;
  if (play.variant.trump === 'turned' && !play.trumpDeclared && play.turned < 0 && play.openingLeadMade && play.trump < 0) {
    // The trump card was turned and taken up unseen: the slip names it on an overplay; else no winner can be read.
    if (play.trumpSlip >= 0) {
      play.trump = suitOf(play.trumpSlip);
      l.setAside.push(`the trump card was never seen; the trump suit is taken from the trump slip (${formatCard(play.trumpSlip)})`);
    } else {
      play.leadsUnjudged = true;
      l.setAside.push('the trump card was never seen, so trick winners are read without a trump and no lead is judged in this deal');
    }
  } else if (l.trumpRead !== undefined && play.openingLeadMade && l.trumpRead !== play.trumpSlip) {
    // Seen in the same stretch as the first plays, the dealer's first card may have been his play, not the trump.
    play.leadsUnjudged = true;
    l.setAside.push(`${formatCard(l.trumpRead)} is taken as the turned trump, but play may have begun before it was seen, so no lead is judged in this deal`);
  }
  let last = play.curUncertain ? Math.min(play.trickNumber, TOTAL_TRICKS) : l.trick;
  for (let t = TOTAL_TRICKS; t > last; t--) if (play.uncertainTricks & (1 << t)) { last = t; break; }
  const tricks = last > l.trick ? `tricks ${l.trick}–${last}` : `trick ${l.trick}`;
  const span = l.fromSeq === undefined ? 'over events without a seq'
    : toSeq === undefined ? `from event ${l.fromSeq} to the end of the play` : `between event ${l.fromSeq} and event ${toSeq}`;
  const extra: Partial<Finding> = {};
  if (l.fromSeq !== undefined) extra.fromSeq = l.fromSeq;
  if (toSeq !== undefined) extra.toSeq = toSeq;
  play.addFinding('play-order-lost', l.seat, play.code.playOrderLost(play.ctx, l.seat),
    `play order lost ${span} (${tricks}): no out-of-turn, renounce or revoke ruling rests on these cards${l.setAside.length ? `; ${l.setAside.join('; ')}` : ''}`,
    undefined, l.trick, extra);
}

/**
 * A card placed while the order is unknown, or to a trick a stretch touched: counted, never judged on its order.
 * Where a trick ended is read from the cards: a seat that has played to it already, or a card still on the table
 * once every card of the trick was taken up, begins the next trick; the one left behind lacks cards the table
 * never saw. Returns false when that next trick begins in known order: the normal fold takes the card.
 */
export function placeUnjudged(play: DealPlay, seat: number, card: number): boolean {
  if (play.curUncertain && play.curCount > 0 && ((play.curMask & (1 << seat)) !== 0 || (!holds(play.gone!, card) && allGone(play)))) {
    play.completeTrick();
    play.quitTrick(); // a lead to the next trick quits the last one
    if (!play.lost) return false;
  }
  play.curUncertain = true;
  if (play.curCount === 0) play.beginPlay();
  play.commit(seat, card);
  return true;
}

/** True when every card of the trick in progress was taken up while its order was unknown. */
export function allGone(play: DealPlay): boolean {
  for (let i = play.curStart; i < play.flatCards.length; i++) if (!holds(play.gone!, play.flatCards[i])) return false;
  return true;
}

/**
 * An uncertain trick ends: its cards after the ones played in known order are put clockwise from the likeliest
 * leader, the known one or else the last trick's winner if he played to it, so that the winner is read as well as
 * the cards allow. In place, on four cards at most.
 */
export function orderByGuess(play: DealPlay, from: number): void {
  const fs = play.flatSeats, fc = play.flatCards;
  const lead = play.curKnown > 0 || !(play.curMask & (1 << play.properLeader)) ? fs[from] : play.properLeader;
  const start = from + play.curKnown;
  for (let i = start + 1; i < fs.length; i++) {
    const s = fs[i], c = fc[i], d = (s - lead) & 3;
    let j = i - 1;
    for (; j >= start && ((fs[j] - lead) & 3) > d; j--) {
      fs[j + 1] = fs[j];
      fc[j + 1] = fc[j];
    }
    fs[j + 1] = s;
    fc[j + 1] = c;
  }
}
