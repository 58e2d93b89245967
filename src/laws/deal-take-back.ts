// A card taken back from the trick in progress: a lead out of turn retracted, a renounce in error corrected and the
// later cards withdrawn, a card played out of turn taken back. Part of DealPlay's fold (deal-play.ts); pure.
import { formatCard, suitOf } from '../cards/card.js';
import { SEATS } from '../cards/seat.js';
import type { DealPlay } from './deal-play.js';
import { makeLiable } from './deal-penalties.js';

/** A card of the trick in progress lifted in known order: taken back where the laws allow it, else it stays played. */
export function takeBack(play: DealPlay, card: number): void {
  const at = play.flatCards.indexOf(card, play.curStart);
  if (at < 0) return; // a liable card or a stray card taken up: nothing changes in the play
  const idx = at - play.curStart;
  const owner = play.flatSeats[at];
  const trick = play.trickNumber;
  if (play.curFalseLead) {
    // Dup. VIII.4 / Am. 24: not all have played to the false lead; the cards are taken back.
    const leader = play.flatSeats[play.curStart];
    play.uncommit(idx);
    if (idx === 0) {
      // Taking the lead back is the choice not to accept it; what remains is the penalty for it.
      const { penalty } = play.code.leadOutOfTurn(play.ctx, leader, play.properLeader);
      if (penalty && penalty.kind !== 'accept-or-retract') play.penalties.push(penalty);
      const r = play.code.leadRetracted(play.ctx, leader);
      if (r) {
        makeLiable(play, card, leader, r);
        play.addFinding('card-liable-to-be-called', leader, r, `${SEATS[leader]}'s lead out of turn (${formatCard(card)}) was taken back`, card);
      }
      if (play.curCount === 0) play.curFalseLead = false;
    }
    return;
  }
  const ri = play.openRenounces.findIndex((r) => r.seat === owner && r.card === card && r.trick === trick);
  const vk = owner * 4 + suitOf(play.flatCards[play.curStart]);
  const unknownRenounce = play.voids !== null && idx > 0 && play.voids![vk] === trick && play.voids![16 + vk] === card;
  if (ri >= 0 || unknownRenounce) {
    // Dup. X.3: the renounce in error is lawfully corrected; later players may withdraw their cards.
    if (ri >= 0) play.openRenounces.splice(ri, 1);
    if (unknownRenounce) {
      play.voids![vk] = 0;
      play.addFinding('renounce-in-error', owner, play.code.renounceInError(play.ctx, owner),
        `${SEATS[owner]} took back ${formatCard(card)}, a renounce, to follow suit`, card);
    }
    play.mayWithdraw = play.flatSeats.slice(at + 1);
    const laterPlayed = play.mayWithdraw.length > 0;
    play.uncommit(idx);
    const r = play.code.correction(play.ctx, owner, laterPlayed);
    if (r) {
      makeLiable(play, card, owner, r);
      play.addFinding('card-liable-to-be-called', owner, r, `${SEATS[owner]} corrected his renounce in error; ${formatCard(card)} was withdrawn`, card);
    }
    return;
  }
  const mw = play.mayWithdraw.indexOf(owner);
  if (mw >= 0) {
    play.mayWithdraw.splice(mw, 1);
    play.uncommit(idx); // Dup. X.3: a card so withdrawn is not liable to be called.
    return;
  }
  const outOfTurn = play.findings.some((f) => f.kind === 'play-out-of-turn' && f.trick === trick && f.card === formatCard(card));
  if (outOfTurn) {
    play.uncommit(idx);
    const r = play.code.exposedCard(play.ctx, owner, 'taken-back');
    if (r) {
      makeLiable(play, card, owner, r);
      play.addFinding('card-liable-to-be-called', owner, r, `${SEATS[owner]} took back ${formatCard(card)}, played out of turn`, card);
    }
  }
  // Otherwise the card was lawfully played and stays played (Dup. VI.1), wherever it physically is.
}
