// One simulated deal end to end: random hands, the trump (turned card or bridge contract), random legal play with an
// optional renounce in error, and its table log. The benchmarks and tests build their corpora from this.
import type { Card } from '../cards/card.js';
import { type Hand, popcount } from '../cards/hand.js';
import { type Seat, SEATS } from '../cards/seat.js';
import type { TableEvent } from '../formats/table-log.js';
import { type Contract, formatContract, parseContract } from '../cards/contract.js';

export { formatContract };
import { getVariant } from '../laws/variants.js';
import type { Rng } from './prng.js';
import { randomDeal } from './random-deal.js';
import { type PlayedCard, type RandomPlayResult, randomPlay } from './random-play.js';
import { openingLeader, playToTableLog } from './to-table-log.js';

export interface SimulateOptions {
  variant: string;
  board: number;
  /** Defaults to the duplicate rotation of the board number (board 1: N, 2: E, ...). */
  dealer?: Seat;
  /** Put the PBN deal in the deal event; default true. */
  withHands?: boolean;
  /** Bridge: the contract; a random one when omitted. */
  contract?: string;
  renounceAt?: { trick: number };
  firstSeq?: number;
}

export interface SimulatedDeal {
  board: number;
  variant: string;
  dealer: Seat;
  /** N E S W. */
  hands: [Hand, Hand, Hand, Hand];
  /** Trump suit index, or -1 for no trump. */
  trump: number;
  trumpTurned?: Card;
  contract?: string;
  /** Seat index of the opening leader. */
  leader: number;
  plays: PlayedCard[];
  winners: number[];
  injected?: RandomPlayResult['injected'];
  events: TableEvent[];
}

/** The dealer of a board in the usual duplicate rotation: board 1 N, 2 E, 3 S, 4 W, 5 N, ... */
export function dealerOfBoard(board: number): Seat {
  return SEATS[(((board - 1) % 4) + 4) % 4];
}

/** A random bridge contract: any level, strain (NT included) and declarer; doubled 1 in 8, redoubled 1 in 32. */
export function randomContract(rng: Rng): Contract {
  const level = 1 + rng.int(7);
  const strain = rng.int(5) - 1;
  const declarer = rng.int(4);
  const d = rng.int(32);
  const doubled: 0 | 1 | 2 = d === 0 ? 2 : d < 4 ? 1 : 0;
  return { level, strain, declarer, doubled };
}

/** A uniformly random card of a hand: the turned trump is the dealer's last card dealt, any of his 13 equally. */
export function randomCardOf(rng: Rng, hand: Hand): Card {
  let k = rng.int(popcount(hand[0]) + popcount(hand[1]) + popcount(hand[2]) + popcount(hand[3]));
  for (let s = 0; s < 4; s++) {
    for (let r = 0; r < 13; r++) {
      if (hand[s] & (1 << r)) { if (k === 0) return s * 13 + r; k--; }
    }
  }
  throw new Error('randomCardOf: the hand is empty');
}

/** Simulate one deal of a four-handed variant and produce its table log. */
export function simulateDeal(rng: Rng, opts: SimulateOptions): SimulatedDeal {
  const variant = getVariant(opts.variant);
  const dealer = opts.dealer ?? dealerOfBoard(opts.board);
  const hands = randomDeal(rng);
  let trump = -1;
  let trumpTurned: Card | undefined;
  let contract: string | undefined;
  if (variant.trump === 'turned') {
    trumpTurned = randomCardOf(rng, hands[SEATS.indexOf(dealer)]);
    trump = (trumpTurned / 13) | 0;
  } else if (variant.trump === 'contract') {
    contract = opts.contract ?? formatContract(randomContract(rng));
    const c = parseContract(contract);
    if (!c.ok) throw new Error(c.error);
    trump = c.value.strain;
  }
  const leader = openingLeader(opts.variant, dealer, contract);
  const played = randomPlay(rng, hands, { leader, trump, renounceAt: opts.renounceAt });
  const events = playToTableLog(hands, played.plays, {
    variant: opts.variant, board: opts.board, dealer, withHands: opts.withHands ?? true, trumpTurned, contract, firstSeq: opts.firstSeq,
  });
  const out: SimulatedDeal = { board: opts.board, variant: opts.variant, dealer, hands, trump, leader, plays: played.plays, winners: played.winners, events };
  if (trumpTurned !== undefined) out.trumpTurned = trumpTurned;
  if (contract !== undefined) out.contract = contract;
  if (played.injected !== undefined) out.injected = played.injected;
  return out;
}
