// The cards seen against the tray record and the trump slip: the turned trump card (Dup. IV), a card the tray puts
// in another hand, and humbug's exchange of hands. Part of DealPlay's fold (deal-play.ts); pure.
import { formatCard, suitOf } from '../cards/card.js';
import { addCard, holds, removeCard } from '../cards/hand.js';
import { SEATS } from '../cards/seat.js';
import type { DealPlay } from './deal-play.js';
import { makeLiable } from './deal-penalties.js';

/** In the turned-trump games, the dealer's first card before the opening lead is the trump card: true when this one was. */
export function turnTrump(play: DealPlay, seat: number, card: number): boolean {
  if (play.variant.trump !== 'turned' || play.trumpDeclared || seat !== play.dealer) return false;
  // Read without order, a lead may come before the trump card: the dealer's first card is still the trump card.
  // Not after the stretch: a trump card still face up would have been in the snapshot.
  if (play.openingLeadMade && !(play.lost && play.turned < 0 && play.playedCount[seat] === 0)) return false;
  if (play.turned >= 0 && !play.wrongTrumpOpen) return false;
  if (play.turned >= 0 && play.wrongTrumpOpen) {
    // Dup. IV.8: the dealer corrects the trump card before play: the card turned in error is liable.
    const prev = play.turned;
    if (card === prev) return false;
    play.wrongTrumpOpen = false;
    play.addFinding('wrong-trump-card', seat, play.code.wrongTrumpCard(play.ctx, seat, 'corrected'),
      `${SEATS[seat]} corrected the turned trump from ${formatCard(prev)} to ${formatCard(card)}`, prev);
    makeLiable(play, prev, seat, play.code.wrongTrumpCard(play.ctx, seat, 'corrected'));
  }
  play.turned = card;
  play.turnedInZone = true;
  if (play.lost) play.lost.trumpRead = card;
  play.trump = suitOf(card);
  const slipWrong = play.hands !== null && play.trumpSlip >= 0 && play.variant.trumpCardToDealer && !holds(play.hands[seat], play.trumpSlip);
  if (play.trumpSlip >= 0 && card !== play.trumpSlip && !slipWrong) {
    play.wrongTrumpOpen = true;
    play.addFinding('wrong-trump-card', seat, play.code.wrongTrumpCard(play.ctx, seat, 'corrected'),
      `${SEATS[seat]} turned ${formatCard(card)} but the trump slip records ${formatCard(play.trumpSlip)}`, card);
  }
  if (slipWrong) {
    // Dup. IV.10: the slip records a card the dealer never held: it was recorded wrongly at the original table.
    play.addFinding('wrong-trump-card', seat, play.code.wrongTrumpCard(play.ctx, seat, 'slip-wrong'),
      `the trump slip records ${formatCard(play.trumpSlip)}, which is not in the dealer's hand in the tray`, play.trumpSlip);
  }
  if (play.hands) {
    const inDealer = holds(play.hands[seat], card);
    if (play.variant.trumpCardToDealer && !inDealer) {
      play.addFinding('card-not-in-hand', seat, play.code.handIrregularity(play.ctx, seat, 'card-not-in-hand'),
        `the trump card ${formatCard(card)} is not in the dealer's hand according to the tray`, card);
    } else if (!play.variant.trumpCardToDealer && play.seats.some((s) => holds(play.hands![s], card))) {
      play.addFinding('card-not-in-hand', seat, play.code.handIrregularity(play.ctx, seat, 'card-not-in-hand'),
        `the trump card ${formatCard(card)} belongs to neither player, but the tray puts it in a hand`, card);
    }
  }
  return true;
}

/** Humbug: a first card that is not his own but the right-hand hand's shows the player exchanged hands. */
export function inferExchange(play: DealPlay, seat: number, card: number): void {
  // Humbug: a player may exchange his hand for the one on his right; the first card he plays shows it.
  if (!play.hands || (play.exchanged & (1 << seat)) || play.playedCount[seat] > 0 || holds(play.hands[seat], card)) return;
  const right = (seat + 3) & 3;
  if (holds(play.hands[right], card)) exchange(play, seat);
}

/** Humbug: the player takes up the hand on his right instead of his own. */
export function exchange(play: DealPlay, seat: number): void {
  if (play.exchanged & (1 << seat)) return;
  play.exchanged |= 1 << seat;
  if (!play.hands) return;
  const right = (seat + 3) & 3;
  const mine = play.hands[seat];
  play.hands[seat] = play.hands[right];
  play.hands[right] = mine;
}

/** A card played that the tray does not put in the player's hand: the deal is fouled (the hands follow the card). */
export function checkFouled(play: DealPlay, seat: number, card: number): void {
  const hands = play.hands!;
  if (holds(hands[seat], card)) return;
  let holder = -1;
  for (let s = 0; s < 4; s++) if (holds(hands[s], card)) holder = s;
  play.fouled = true;
  const where = holder >= 0 ? `the tray puts it in ${SEATS[holder]}'s hand` : card === play.turned ? 'it is the turned trump card' : 'the tray has no such card left';
  play.addFinding('card-not-in-hand', seat, play.code.handIrregularity(play.ctx, seat, 'card-not-in-hand'),
    `${SEATS[seat]} played ${formatCard(card)}, which is not in his hand: ${where}`, card);
  // Keep the known hands consistent with the cards actually seen.
  if (holder >= 0) removeCard(hands[holder], card);
  addCard(hands[seat], card);
}
