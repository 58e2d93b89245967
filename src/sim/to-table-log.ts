// Turn a simulated play into the table log (DESIGN §4) that the daemon would journal for it, so the simulator,
// the tests and the benchmarks feed the engine exactly what a real table produces.
import { type Card, formatCard } from '../cards/card.js';
import { type Deal, formatDeal } from '../cards/deal.js';
import { type Hand, holds } from '../cards/hand.js';
import { type Seat, SEATS, leftOf, partnerOf, seatIndex } from '../cards/seat.js';
import type { DealEvent, TableEvent } from '../formats/table-log.js';
import { parseContract } from '../cards/contract.js';
import { getVariant } from '../laws/variants.js';
import type { PlayedCard } from './random-play.js';

export interface TableLogOptions {
  /** A variant name from src/laws/variants.ts, e.g. "duplicate-whist", "whist", "bridge". */
  variant: string;
  board: number;
  dealer: Seat;
  /** Put the PBN deal in the deal event (as from a tray record), which enables live renounce detection. */
  withHands: boolean;
  /** Variants that turn a trump: the turned card, which must be in the dealer's hand (the last card dealt). */
  trumpTurned?: Card;
  /** A suit declared trumps for the sitting, in place of a turned card (Dup. IV.11), e.g. "H". */
  trump?: string;
  /** Bridge: the contract, e.g. "4HE" or "3NTSX". */
  contract?: string;
  vulnerable?: string;
  /** Number the events `seq` from this value; without it events carry no seq (it is optional in the log). */
  firstSeq?: number;
}

/**
 * Who leads to the first trick in a variant: the dealer's left, the declarer's left (bridge), or the dealer's
 * adversary (the two-handed games). `contract` is needed only for bridge.
 */
export function openingLeader(variant: string, dealer: Seat, contract?: string): number {
  const v = getVariant(variant);
  switch (v.firstLeader) {
    case 'dealer-left': return leftOf(seatIndex(dealer));
    case 'dealer-adversary': return partnerOf(seatIndex(dealer));
    case 'declarer-left': {
      if (contract === undefined) throw new Error(`variant "${variant}" needs a contract to know the opening leader`);
      const c = parseContract(contract);
      if (!c.ok) throw new Error(c.error);
      return leftOf(c.value.declarer);
    }
  }
}

/**
 * The table log of a deal: the deal event, the turned trump card placed by the dealer and lifted back just before
 * his first card to trick 1 (turned-trump variants), every card as a `place`, and after each complete trick a `lift`
 * of its cards in play order (turned and quitted). `hands` are N E S W; `plays` are in play order.
 */
export function playToTableLog(hands: readonly Hand[], plays: readonly PlayedCard[], opts: TableLogOptions): TableEvent[] {
  const variant = getVariant(opts.variant);
  // The generator plays four hands; the two-handed games would need tricks of two cards.
  if (variant.seats.length !== 4) throw new Error(`playToTableLog supports four-handed variants only, not "${opts.variant}"`);
  const dealer = seatIndex(opts.dealer);
  if (dealer < 0) throw new Error(`dealer must be N, E, S or W (got ${JSON.stringify(opts.dealer)})`);

  const deal: DealEvent = { type: 'deal', board: opts.board, variant: opts.variant, dealer: opts.dealer };
  if (opts.withHands) deal.hands = formatDeal(hands as unknown as Deal);
  let turned = -1;
  if (variant.trump === 'turned' && opts.trump !== undefined) {
    if (opts.trumpTurned !== undefined) throw new Error('a declared trump (Dup. IV.11) is instead of a turned card: give trump or trumpTurned, not both');
    deal.trump = opts.trump;
  } else if (variant.trump === 'turned') {
    if (opts.trumpTurned === undefined) throw new Error(`variant "${opts.variant}" turns a trump: give trumpTurned, a card of the dealer's hand`);
    if (!holds(hands[dealer], opts.trumpTurned)) {
      throw new Error(`the turned trump ${formatCard(opts.trumpTurned)} must be in the dealer's (${opts.dealer}) hand: it is the last card dealt`);
    }
    turned = opts.trumpTurned;
  } else if (opts.trumpTurned !== undefined) {
    throw new Error(`variant "${opts.variant}" does not turn a trump; drop trumpTurned`);
  }
  if (variant.trump === 'contract') {
    if (opts.contract === undefined) throw new Error(`variant "${opts.variant}" needs a contract such as "4HE"`);
    const c = parseContract(opts.contract);
    if (!c.ok) throw new Error(c.error);
    deal.contract = opts.contract;
  }
  if (opts.vulnerable !== undefined) deal.vulnerable = opts.vulnerable;

  const events: TableEvent[] = [deal];
  if (turned >= 0) events.push({ type: 'place', seat: opts.dealer, card: formatCard(turned) });
  let turnedOnTable = turned >= 0;
  const complete = plays.length - (plays.length % 4);
  for (let i = 0; i < plays.length; i++) {
    const p = plays[i];
    const seat = SEATS[p.seat];
    if (seat === undefined) throw new Error(`play ${i + 1} has no valid seat index (${p.seat})`);
    // The dealer takes the turned card back into his hand when he first plays (DESIGN §4).
    if (turnedOnTable && p.seat === dealer) {
      events.push({ type: 'lift', seat, card: formatCard(turned) });
      turnedOnTable = false;
    }
    events.push({ type: 'place', seat, card: formatCard(p.card) });
    if ((i & 3) === 3 && i < complete) {
      for (let j = i - 3; j <= i; j++) events.push({ type: 'lift', seat: SEATS[plays[j].seat], card: formatCard(plays[j].card) });
    }
  }
  if (opts.firstSeq !== undefined) {
    let seq = opts.firstSeq;
    for (const e of events) e.seq = seq++;
  }
  return events;
}
