// Builds whist table logs for the score tests: a tray record with the honours where a spec puts them, the turned
// trump, one trick, and a claim that gives each side the tricks the spec says. Used by the score tests and to write
// the fixtures in test/fixtures/score/ (npx tsx test/laws/score-log.ts).
import { writeFileSync } from 'node:fs';
import type { Seat } from '../../src/cards/seat.js';
import { type TableEvent, formatTableLog } from '../../src/formats/table-log.js';

export interface LogDeal {
  board: number;
  variant: string;
  dealer: Seat;
  trump: string;
  /** Which seat holds each trump honour, e.g. { A: 'N', K: 'S', Q: 'N', J: 'E' }. */
  honours: Record<'A' | 'K' | 'Q' | 'J', Seat>;
  /** Tricks N-S take (E-W take the rest). */
  ns: number;
  /** Prussian whist: the card cut for trump (no card is turned). */
  trumpCut?: string;
  /** Events after the claim: honours calls and the like. */
  after?: TableEvent[];
  /** Events between this deal event and its turned trump (a late call for the deal before, Eng. 6). */
  before?: TableEvent[];
}

const SEATS: Seat[] = ['N', 'E', 'S', 'W'];
const RANKS = '23456789TJQKA';
const left = (s: Seat): Seat => SEATS[(SEATS.indexOf(s) + 1) % 4];
const side = (s: Seat) => (s === 'N' || s === 'S' ? 'NS' : 'EW');

/** The events of one deal. */
export function dealEvents(d: LogDeal): TableEvent[] {
  const hands: Record<Seat, string[]> = { N: [], E: [], S: [], W: [] };
  for (const [r, s] of Object.entries(d.honours)) hands[s as Seat].push(d.trump + r);
  // The other 48 cards, suit by suit, round the table from the dealer's left to whoever still lacks cards.
  const rest: string[] = [];
  for (const suit of 'SHDC') for (const r of RANKS) if (!(suit === d.trump && 'AKQJ'.includes(r))) rest.push(suit + r);
  let seat = left(d.dealer);
  for (const c of rest) {
    while (hands[seat].length >= 13) seat = left(seat);
    hands[seat].push(c);
    seat = left(seat);
  }
  const pbnHand = (h: string[]) => 'SHDC'.split('').map((s) => h.filter((c) => c[0] === s).map((c) => c[1]).sort((a, b) => RANKS.indexOf(b) - RANKS.indexOf(a)).join('')).join('.');
  const deal: TableEvent = { type: 'deal', board: d.board, variant: d.variant, dealer: d.dealer, hands: `N:${SEATS.map((s) => pbnHand(hands[s])).join(' ')}` };
  const ev: TableEvent[] = [deal, ...(d.before ?? [])];
  if (d.trumpCut) deal.trumpCut = d.trumpCut;
  else {
    // The dealer turns his lowest trump and takes it back before the opening lead.
    const turned = hands[d.dealer].filter((c) => c[0] === d.trump).sort((a, b) => RANKS.indexOf(a[1]) - RANKS.indexOf(b[1]))[0];
    if (!turned) throw new Error(`board ${d.board}: the dealer has no trump to turn`);
    ev.push({ type: 'place', seat: d.dealer, card: turned }, { type: 'lift', seat: d.dealer, card: turned });
  }
  // One trick in a plain suit, each playing his lowest card of it; then the winner's side claims its share of the rest.
  const lead = 'SHDC'.split('').find((s) => s !== d.trump && SEATS.every((x) => hands[x].some((c) => c[0] === s)))!;
  let s = left(d.dealer);
  let best = { seat: s, rank: -1 };
  for (let i = 0; i < 4; i++, s = left(s)) {
    const card = hands[s].filter((c) => c[0] === lead).sort((a, b) => RANKS.indexOf(a[1]) - RANKS.indexOf(b[1]))[0];
    ev.push({ type: 'place', seat: s, card });
    if (RANKS.indexOf(card[1]) > best.rank) best = { seat: s, rank: RANKS.indexOf(card[1]) };
  }
  const winnerTricks = side(best.seat) === 'NS' ? d.ns : 13 - d.ns;
  if (winnerTricks < 1) throw new Error(`board ${d.board}: ${best.seat} wins trick 1, so its side needs a trick`);
  ev.push({ type: 'claim', seat: best.seat, tricks: winnerTricks - 1 });
  return [...ev, ...(d.after ?? [])];
}

/** A whole log. */
export function logOf(deals: LogDeal[]): TableEvent[] {
  const out: TableEvent[] = [];
  for (const d of deals) out.push(...dealEvents(d));
  // The calls given as `before` belong to the deal before; put them after this deal's event, as they were made.
  return out;
}

const H = (A: Seat, K: Seat, Q: Seat, J: Seat) => ({ A, K, Q, J });
const call = (seat: Seat, count: number): TableEvent => ({ type: 'honours', seat, count });

/** The English whist fixture: seven deals, one rubber and the start of the next (see score-replay.test.ts). */
export const ENGLISH: LogDeal[] = [
  { board: 1, variant: 'english-whist', dealer: 'W', trump: 'H', honours: H('N', 'S', 'N', 'E'), ns: 8 },
  // N calls the honours of board 1 after board 2 is dealt, before its trump is turned (Eng. 6).
  { board: 2, variant: 'english-whist', dealer: 'N', trump: 'S', honours: H('N', 'N', 'S', 'W'), ns: 6, before: [call('N', 3)], after: [call('S', 3)] },
  { board: 3, variant: 'english-whist', dealer: 'E', trump: 'D', honours: H('E', 'W', 'E', 'W'), ns: 7, after: [call('E', 4)] },
  { board: 4, variant: 'english-whist', dealer: 'S', trump: 'C', honours: H('N', 'E', 'S', 'W'), ns: 3 },
  { board: 5, variant: 'english-whist', dealer: 'W', trump: 'H', honours: H('E', 'N', 'W', 'E'), ns: 5, after: [call('W', 3)] },
  { board: 6, variant: 'english-whist', dealer: 'N', trump: 'S', honours: H('S', 'N', 'N', 'S'), ns: 9, after: [call('N', 4)] },
  // A false call: N-S hold three honours, and N calls four.
  { board: 7, variant: 'english-whist', dealer: 'E', trump: 'H', honours: H('S', 'S', 'N', 'W'), ns: 6, after: [call('N', 4)] },
];

/** The Favourite whist fixture: seven deals, one rubber and the first deal of the next. */
export const FAVOURITE: LogDeal[] = [
  { board: 1, variant: 'favourite-whist', dealer: 'W', trump: 'H', honours: H('N', 'S', 'S', 'W'), ns: 8, after: [call('S', 3)] },
  { board: 2, variant: 'favourite-whist', dealer: 'N', trump: 'H', honours: H('N', 'N', 'S', 'E'), ns: 6, after: [call('N', 3)] },
  { board: 3, variant: 'favourite-whist', dealer: 'E', trump: 'S', honours: H('N', 'E', 'S', 'W'), ns: 4 },
  { board: 4, variant: 'favourite-whist', dealer: 'S', trump: 'H', honours: H('E', 'N', 'W', 'S'), ns: 9 },
  { board: 5, variant: 'favourite-whist', dealer: 'W', trump: 'D', honours: H('E', 'W', 'E', 'W'), ns: 8, after: [call('W', 4)] },
  { board: 6, variant: 'favourite-whist', dealer: 'N', trump: 'H', honours: H('S', 'N', 'N', 'E'), ns: 7, after: [call('S', 3)] },
  { board: 7, variant: 'favourite-whist', dealer: 'E', trump: 'C', honours: H('N', 'E', 'S', 'W'), ns: 7 },
];

if (process.argv[1]?.endsWith('score-log.ts')) {
  const dir = new URL('../fixtures/score/', import.meta.url);
  writeFileSync(new URL('english-whist.ndjson', dir), formatTableLog(logOf(ENGLISH)));
  writeFileSync(new URL('favourite-whist.ndjson', dir), formatTableLog(logOf(FAVOURITE)));
}
