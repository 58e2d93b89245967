// Renounces and revokes: a renounce in error opened when the tray tells the hand, a void shown when it does not;
// proved by a later card of the suit, established by play, by quitting the trick, by a claim or at the end of play.
// Part of DealPlay's fold (deal-play.ts); pure.
import { formatCard, suitOf } from '../cards/card.js';
import { handCards } from '../cards/hand.js';
import { SEATS } from '../cards/seat.js';
import type { Establishment, RevokeRecord } from './code.js';
import type { DealPlay } from './deal-play.js';

/** A renounce in error not yet established or corrected. */
export interface OpenRenounce {
  seat: number;
  trick: number;
  suit: number;
  card: number;
  /** The card the offender failed to play was a penalty card (bridge L64B3). */
  penaltyCard: boolean;
}

/** A card of another suit than the one led: a renounce in error where the tray tells the hand, else a void shown. */
export function noteRenounce(play: DealPlay, seat: number, card: number, led: number): void {
  if (play.hands && play.heldKnown) {
    if (play.hands[seat][led] !== 0) {
      const penaltyCard = [...play.liable.entries()].some(([c, l]) => l.seat === seat && suitOf(c) === led);
      play.openRenounces.push({ seat, trick: play.trickNumber, suit: led, card, penaltyCard });
      play.addFinding('renounce-in-error', seat, play.code.renounceInError(play.ctx, seat),
        `${SEATS[seat]} renounced ${'SHDC'[led]} with ${formatCard(card)} while holding ${handCards(play.hands[seat]).filter((c) => suitOf(c) === led).map(formatCard).join(' ')}`, card);
    }
  } else if (play.voids![seat * 4 + led] === 0 && (!play.hands || play.hands[seat][led] !== 0)) {
    play.voids![seat * 4 + led] = play.trickNumber;
    play.voids![16 + seat * 4 + led] = card;
    play.voids![32 + seat * 4 + led] = 0;
  }
}

/** Unknown hands: a seat that showed out of a suit now plays it, which proves the earlier renounce a revoke. */
export function proveVoid(play: DealPlay, seat: number, card: number): void {
  if (!play.voids) return;
  const k = seat * 4 + suitOf(card);
  const t = play.voids![k];
  if (t === 0) return;
  play.voids![k] = 0;
  const rec: RevokeRecord = { seat, trick: t, suit: suitOf(card) };
  if (play.voids![32 + k]) {
    rec.failureToComply = true;
    play.revokes.push(rec);
    play.addFinding('failure-to-comply', seat, play.code.failureToComply(play.ctx, seat, `lead the called suit ${'SHDC'[suitOf(card)]}`),
      `${SEATS[seat]} now plays ${formatCard(card)}: he held the called suit at trick ${t}`, card, t, { renounceTrick: t });
    return;
  }
  if (noRevoke(play, seat, t, play.voids![16 + k])) return;
  play.revokes.push(rec);
  play.addFinding('revoke', seat, play.code.revoke(play.ctx, seat, 'proved'),
    `${SEATS[seat]} renounced ${'SHDC'[suitOf(card)]} at trick ${t} with ${formatCard(play.voids![16 + k])} and now plays ${formatCard(card)}: the revoke is proved`,
    play.voids![16 + k], t, { renounceTrick: t });
}

/** X.1(b) / L63A1: the renouncer or his partner leads or plays to a following trick. */
export function establishOnPlay(play: DealPlay, seat: number): void {
  if (play.openRenounces.length === 0) return;
  const t = play.trickNumber;
  const p = play.partner(seat);
  establishWhere(play, (r) => r.trick < t && (r.seat === seat || r.seat === p), 'next-trick');
}

/** True when the code says this seat cannot revoke: its renounce is reported in the law's words, not as a revoke. */
function noRevoke(play: DealPlay, seat: number, trick: number, card: number): boolean {
  const words = play.code.cannotRevoke?.(play.ctx, seat);
  if (!words) return false;
  play.notes.push(`${words}: ${SEATS[seat]}'s renounce at trick ${trick} (${formatCard(card)}) is no revoke and carries no penalty`);
  return true;
}

/** Establish the open renounces in error the predicate picks, as the law says how (`how`). */
export function establishWhere(play: DealPlay, pred: (r: OpenRenounce) => boolean, how: Establishment): void {
  for (let i = 0; i < play.openRenounces.length; ) {
    const r = play.openRenounces[i];
    if (pred(r)) {
      play.openRenounces.splice(i, 1);
      if (noRevoke(play, r.seat, r.trick, r.card)) continue;
      play.revokes.push({ seat: r.seat, trick: r.trick, suit: r.suit, penaltyCardOrDummy: r.penaltyCard || play.dummies.has(r.seat) });
      play.addFinding('revoke', r.seat, play.code.revoke(play.ctx, r.seat, how),
        `${SEATS[r.seat]}'s renounce in error at trick ${r.trick} (${formatCard(r.card)}) is established`, r.card, r.trick, { renounceTrick: r.trick });
    } else i++;
  }
}
