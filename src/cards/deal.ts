// PBN deal strings: `N:AKQ.JT9.876.5432 ...`, hands clockwise from the named seat, `-` for an unknown hand.
import { NotationError, formatCard } from './card.js';
import { type Hand, formatHand, parseHand } from './hand.js';
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
  const seen = [0, 0, 0, 0];
  let i = 0;
  let pos = 2;
  while (pos < t.length) {
    // Scan one whitespace-separated token by hand: this runs for every deal of a replay.
    while (pos < t.length && t.charCodeAt(pos) <= 32) pos++;
    if (pos >= t.length) break;
    const at = pos;
    while (pos < t.length && t.charCodeAt(pos) > 32) pos++;
    const tok = t.slice(at, pos);
    if (i === 4) throw new NotationError(`deal "${text}" has more than 4 hands`, tok, at);
    const seat = (first + i++) & 3;
    if (tok === '-') continue;
    const hand = parseHand(tok, at);
    for (let s = 0; s < 4; s++) {
      const clash = seen[s] & hand[s];
      if (clash) {
        const bit = 31 - Math.clz32(clash);
        const c = s * 13 + bit;
        const prev = deal.findIndex((h) => h !== null && (h[s] & (1 << bit)) !== 0);
        throw new NotationError(`${formatCard(c)} is dealt to both ${SEATS[prev]} and ${SEATS[seat]}`, tok, at);
      }
      seen[s] |= hand[s];
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
