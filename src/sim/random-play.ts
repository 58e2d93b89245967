// Random legal card play: every player follows suit when able, otherwise plays any card; the winner of each trick
// leads the next. Optionally one renounce in error is injected, for tests and simulations of irregularities.
// Works on suit masks in a reused scratch buffer, because the benchmarks build corpora of tens of thousands of deals.
import type { Hand } from '../cards/hand.js';
import { popcount } from '../cards/hand.js';
import { winningIndex } from '../cards/trick.js';
import type { Rng } from './prng.js';

/** One card played: the seat index (N=0 E=1 S=2 W=3) and the card (suit * 13 + rank). */
export interface PlayedCard { seat: number; card: number }

export interface RandomPlayOptions {
  /** Seat index of the player who leads to the first trick. */
  leader: number;
  /** Trump suit index (0..3, S H D C), or -1 for no trump. */
  trump: number;
  /** Inject one renounce in error at this 1-based trick, or the first later trick where someone can renounce. */
  renounceAt?: { trick: number };
}

export interface RandomPlayResult {
  /** All cards in play order, four per trick. */
  plays: PlayedCard[];
  /** Seat index of the winner of each trick. */
  winners: number[];
  /** Where the renounce in error was actually made; undefined when none was asked for or none was possible. */
  injected?: { trick: number; seat: number; card: number };
}

// rest[seat * 4 + suit]: the unplayed cards of each seat, as 13-bit masks. Module-level so a call allocates only
// its result; randomPlay is not re-entrant, which is fine for synchronous code.
const rest = new Int32Array(16);
const trick: number[] = [0, 0, 0, 0];

/** The k-th (0-based) set bit of a mask, as a rank. */
function nthBit(mask: number, k: number): number {
  for (; k > 0; k--) mask &= mask - 1;
  return 31 - Math.clz32(mask & -mask);
}

/** A uniformly random card among the suits of `seat` allowed by `suitMask` (bit s = suit s allowed). */
function pick(rng: Rng, seat: number, suitMask: number): number {
  const base = seat * 4;
  let total = 0;
  for (let s = 0; s < 4; s++) if (suitMask & (1 << s)) total += popcount(rest[base + s]);
  let k = rng.int(total);
  for (let s = 0; s < 4; s++) {
    if (!(suitMask & (1 << s))) continue;
    const m = rest[base + s];
    const n = popcount(m);
    if (k < n) {
      const r = nthBit(m, k);
      rest[base + s] = m & ~(1 << r);
      return s * 13 + r;
    }
    k -= n;
  }
  throw new Error('unreachable: no card to pick');
}

/** Check the hands: equal sizes of 1..13 cards, only valid ranks, no card in two hands. Returns the size. */
function checkHands(hands: readonly Hand[]): number {
  if (hands.length !== 4) throw new RangeError(`randomPlay needs four hands (N E S W), got ${hands.length}`);
  let size = -1;
  const seen = [0, 0, 0, 0];
  for (let seat = 0; seat < 4; seat++) {
    const h = hands[seat];
    let n = 0;
    for (let s = 0; s < 4; s++) {
      const m = h[s];
      if (!Number.isInteger(m) || m < 0 || m > 0x1fff) throw new RangeError(`hand ${'NESW'[seat]} suit ${'SHDC'[s]} is not a 13-bit mask (${m})`);
      if (seen[s] & m) throw new RangeError(`hand ${'NESW'[seat]} holds a ${'SHDC'[s]} card that another hand holds too`);
      seen[s] |= m;
      n += popcount(m);
    }
    if (size < 0) size = n;
    else if (n !== size) throw new RangeError(`hands must be the same size: N has ${size} cards, ${'NESW'[seat]} has ${n}`);
  }
  if (size < 1) throw new RangeError('hands are empty: nothing to play');
  return size;
}

/**
 * Play a whole deal at random but legally from `hands` (not modified); with `renounceAt`, one non-leading player
 * who could follow suit renounces instead, and play then goes on legally.
 */
export function randomPlay(rng: Rng, hands: readonly Hand[], opts: RandomPlayOptions): RandomPlayResult {
  const tricks = checkHands(hands);
  if (!(Number.isInteger(opts.leader) && opts.leader >= 0 && opts.leader <= 3)) throw new RangeError(`leader must be a seat index 0..3 (got ${opts.leader})`);
  if (!(Number.isInteger(opts.trump) && opts.trump >= -1 && opts.trump <= 3)) throw new RangeError(`trump must be a suit index 0..3 or -1 for no trump (got ${opts.trump})`);
  let renounceFrom = Infinity;
  if (opts.renounceAt !== undefined) {
    const t = opts.renounceAt.trick;
    if (!(Number.isInteger(t) && t >= 1)) throw new RangeError(`renounceAt.trick must be a 1-based trick number (got ${t})`);
    renounceFrom = t;
  }
  for (let seat = 0; seat < 4; seat++) for (let s = 0; s < 4; s++) rest[seat * 4 + s] = hands[seat][s];

  const plays: PlayedCard[] = new Array(tricks * 4);
  const winners: number[] = new Array(tricks);
  let injected: RandomPlayResult['injected'];
  let leader = opts.leader;
  for (let t = 1; t <= tricks; t++) {
    const lead = pick(rng, leader, 0b1111);
    const led = (lead / 13) | 0;
    trick[0] = lead;
    plays[(t - 1) * 4] = { seat: leader, card: lead };

    // Choose the offender once the suit led is known: any follower who holds the suit and also something else.
    // Holdings do not change before a follower plays, so the choice made now is still valid when his turn comes.
    // The rng is consulted only from the requested trick on, so the play before it matches an uninjected run.
    let offender = -1;
    if (injected === undefined && t >= renounceFrom) {
      let count = 0;
      for (let j = 1; j < 4; j++) if (canRenounce((leader + j) & 3, led)) count++;
      if (count > 0) {
        let k = rng.int(count);
        for (let j = 1; j < 4; j++) {
          const seat = (leader + j) & 3;
          if (canRenounce(seat, led) && k-- === 0) { offender = seat; break; }
        }
      }
    }

    for (let j = 1; j < 4; j++) {
      const seat = (leader + j) & 3;
      let card: number;
      if (seat === offender) {
        card = pick(rng, seat, 0b1111 & ~(1 << led));
        injected = { trick: t, seat, card };
      } else {
        card = pick(rng, seat, rest[seat * 4 + led] !== 0 ? 1 << led : 0b1111);
      }
      trick[j] = card;
      plays[(t - 1) * 4 + j] = { seat, card };
    }
    leader = (leader + winningIndex(trick, opts.trump)) & 3;
    winners[t - 1] = leader;
  }
  return injected === undefined ? { plays, winners } : { plays, winners, injected };
}

/** A seat can renounce in error when it holds the suit led and a card of some other suit to play instead. */
function canRenounce(seat: number, led: number): boolean {
  const base = seat * 4;
  if (rest[base + led] === 0) return false;
  for (let s = 0; s < 4; s++) if (s !== led && rest[base + s] !== 0) return true;
  return false;
}
