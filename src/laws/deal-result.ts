// The end of a deal's play: what is established when it closes, the tricks per side, and the DESIGN §5 result.
// Part of DealPlay's fold (deal-play.ts); pure.
import { formatCard } from '../cards/card.js';
import { type Seat, SEATS } from '../cards/seat.js';
import { TOTAL_TRICKS } from '../cards/trick.js';
import { printable } from '../formats/quote.js';
import type { DealResult, TrickRecord } from './types.js';
import type { DealPlay } from './deal-play.js';
import { reportLostOrder } from './deal-order-lost.js';
import { establishWhere } from './deal-revokes.js';

/** Completed trick `k` (0-based) as a record; `cards` keeps the play order in its key order. */
function trickRecord(play: DealPlay, k: number): TrickRecord {
  const from = play.trickStart[k], to = play.trickStart[k + 1];
  const fs = play.flatSeats, fc = play.flatCards;
  const leader = fs[from];
  const winner = SEATS[play.trickWinner[k]];
  const f = (i: number) => formatCard(fc[from + i]);
  const uncertain = (play.uncertainTricks & (1 << (k + 1))) !== 0;
  const clockwise = to - from === 4 && fs[from + 1] === ((leader + 1) & 3) && fs[from + 2] === ((leader + 2) & 3) && fs[from + 3] === ((leader + 3) & 3);
  if (clockwise) {
    // One object literal per leader: four fixed shapes instead of a keyed store per card.
    let t: TrickRecord;
    switch (leader) {
      case 0: t = { leader: 'N', cards: { N: f(0), E: f(1), S: f(2), W: f(3) }, winner }; break;
      case 1: t = { leader: 'E', cards: { E: f(0), S: f(1), W: f(2), N: f(3) }, winner }; break;
      case 2: t = { leader: 'S', cards: { S: f(0), W: f(1), N: f(2), E: f(3) }, winner }; break;
      default: t = { leader: 'W', cards: { W: f(0), N: f(1), E: f(2), S: f(3) }, winner };
    }
    if (uncertain) t.orderUnknown = true;
    return t;
  }
  const cards: Partial<Record<Seat, string>> = {};
  let inOrder = true;
  for (let i = from; i < to; i++) {
    cards[SEATS[fs[i]]] = formatCard(fc[i]);
    if (i > from && fs[i] !== play.nextOf[fs[i - 1]]) inOrder = false;
  }
  const t: TrickRecord = { leader: SEATS[leader], cards, winner };
  // `order` spells the play order out only when it was not clockwise (a play out of turn). An uncertain trick's
  // order is the engine's reading, and a short one (cards never seen) is not a play out of turn either.
  if (uncertain) t.orderUnknown = true;
  else if (!inOrder) t.order = fs.slice(from, to).map((x) => SEATS[x]);
  return t;
}

/** Close the play: renounces never established by a later play are established at the end. */
export function finish(play: DealPlay): void {
  if (play.lost) reportLostOrder(play, undefined);
  if (play.quitPending) play.quitTrick();
  establishWhere(play, () => true, 'end-of-play');
  if (play.trickWinner.length === TOTAL_TRICKS && play.claim === null && play.uncertainTricks) {
    // Tricks read without their order may lack cards the table never saw: a count, not a player's short hand.
    let seen = 0;
    for (const s of play.seats) seen += play.playedCount[s];
    const unseen = TOTAL_TRICKS * play.seats.length - seen;
    if (unseen > 0) play.notes.push(`${unseen} card${unseen === 1 ? ' was' : 's were'} never seen while the play order was lost; the tricks count the cards seen`);
  } else if (play.trickWinner.length === TOTAL_TRICKS && play.claim === null) {
    for (const s of play.seats) {
      const n = play.playedCount[s];
      if (n !== TOTAL_TRICKS && !play.fouled) {
        play.addFinding('wrong-card-count', s, play.code.handIrregularity(play.ctx, s, 'wrong-card-count'),
          `${SEATS[s]} played ${n} cards in 13 tricks`, undefined, TOTAL_TRICKS);
      }
    }
  }
}

/** Tricks won per side, with any claim credited. */
export function totals(play: DealPlay): [number, number] {
  const t: [number, number] = [play.tricksWon[0], play.tricksWon[1]];
  if (play.claim) {
    const rest = TOTAL_TRICKS - play.trickWinner.length;
    t[play.claim.side] += play.claim.tricks;
    t[1 - play.claim.side] += rest - play.claim.tricks;
  }
  return t;
}

/** The DESIGN §5 shape of this deal. */
export function result(play: DealPlay): DealResult {
  const won = totals(play);
  // Every code scores a deal without a revoke as played; only a revoke needs the code's arithmetic.
  const { scored, marks } = play.revokes.length === 0 ? { scored: won, marks: undefined } : play.code.score({
    seats: play.seats, tricksWon: won, trickWinners: play.trickWinner.map((w) => play.sideOf(w)),
    trickWinnerSeats: play.trickWinner.slice(), revokes: play.revokes, dummies: play.dummies, penaltyChoice: play.penaltyChoice,
  });
  const names = play.seats.length === 2 ? play.seats.map((s) => SEATS[s]) : ['NS', 'EW'];
  const tricks: TrickRecord[] = [];
  for (let k = 0; k < play.trickWinner.length; k++) tricks.push(trickRecord(play, k));
  const r: DealResult = {
    board: play.board, variant: play.variant.name, tricks,
    tricksWon: { NS: won[0], EW: won[1] }, findings: play.findings, scored: { NS: scored[0], EW: scored[1] },
  };
  if (play.seats.length === 2) r.sides = { NS: names[0] as Seat, EW: names[1] as Seat };
  if (play.abandoned) r.abandoned = play.abandoned;
  if (marks) r.marks = marks;
  if (play.claim) r.claim = { seat: SEATS[play.claim.seat], tricks: play.claim.tricks, accepted: play.claim.accepted };
  // A note may quote the input (a contract's text): control characters are escaped, never passed on.
  if (play.notes.length) r.notes = play.notes.map((n) => printable(n, 500));
  return r;
}
