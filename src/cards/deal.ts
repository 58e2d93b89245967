// PBN deal strings: `N:AKQ.JT9.876.5432 ...`, hands clockwise from the named seat, `-` for an unknown hand.
import { NotationError, formatCard } from './card.js';
import { type Hand, formatHand, parseHand, handCards } from './hand.js';
import { SEATS, seatIndex } from './seat.js';

/** Four hands indexed N E S W; `null` where a hand is unknown. */
export type Deal = [Hand | null, Hand | null, Hand | null, Hand | null];

/** Parse a PBN deal string; throws NotationError with the token and its position. */
export function parseDeal(text: string): Deal {
  const t = text.trim();
  const first = seatIndex(t[0] ?? '');
  if (first < 0 || t[1] !== ':') {
    throw new NotationError(`deal "${text}" must start with the first hand's seat and a colon, e.g. "N:"`, t.slice(0, 2), 0);
  }
  const deal: Deal = [null, null, null, null];
  const body = t.slice(2);
  const tokens = body.split(/\s+/).filter((x) => x.length > 0);
  if (tokens.length > 4) throw new NotationError(`deal "${text}" has ${tokens.length} hands; at most 4`, tokens[4], body.indexOf(tokens[4]) + 2);
  let searchFrom = 0;
  const seen = new Map<number, number>();
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    const at = body.indexOf(tok, searchFrom) + 2;
    searchFrom = at - 2 + tok.length;
    const seat = (first + i) & 3;
    if (tok === '-') continue;
    const hand = parseHand(tok, at);
    for (const c of handCards(hand)) {
      const prev = seen.get(c);
      if (prev !== undefined) {
        throw new NotationError(`${formatCard(c)} is dealt to both ${SEATS[prev]} and ${SEATS[seat]}`, tok, at);
      }
      seen.set(c, seat);
    }
    deal[seat] = hand;
  }
  return deal;
}

/** PBN form of a deal starting from `first` (default N); unknown hands print as `-`. */
export function formatDeal(deal: Deal, first = 0): string {
  const parts: string[] = [];
  for (let i = 0; i < 4; i++) {
    const h = deal[(first + i) & 3];
    parts.push(h ? formatHand(h) : '-');
  }
  return `${SEATS[first]}:${parts.join(' ')}`;
}

/** True when all four hands are known. */
export function isComplete(deal: Deal): deal is [Hand, Hand, Hand, Hand] {
  return deal[0] !== null && deal[1] !== null && deal[2] !== null && deal[3] !== null;
}
