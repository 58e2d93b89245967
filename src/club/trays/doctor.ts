// The tray doctor: compare the record of a tray with the cards a table found in its pockets, and say exactly which
// card goes from which pocket to which, so a director can restore the tray in one pass, each card moved once.
import { cardCode, formatCard } from '../../cards/card.js';
import { handCards, type Hand } from '../../cards/hand.js';
import { parseDeal } from '../../cards/deal.js';
import { type Seat, SEATS, seatIndex } from '../../cards/seat.js';
import type { TrayMove } from '../types.js';

/** A card whose pocket differs: where the record puts it, and the table's pocket that holds it. */
export interface HandDifference { card: string; record: Seat; table: Seat }

/** The tray doctor's full answer: the moves, and the cards no move can place. */
export interface TrayDoctorReport {
  /** Each misplaced card once, from the pocket that holds it straight to the record's pocket. */
  moves: TrayMove[];
  /** Cards of the record that no pocket of the table's tray holds: find them (under the table?) and put them in `to`. */
  missing: { card: string; to: Seat }[];
  /** Cards the record has no room for: a second copy (a card from another pack) or a card the record does not hold. Take them out. */
  extra: { card: string; from: Seat }[];
}

/** A pocket of the table's tray: its cards, a card may appear twice when a card from another pack got in. */
type Pocket = number[];

/**
 * Read the table's hands leniently: unlike a record, a fouled tray may hold a card twice (two packs got mixed), so
 * duplicates are kept, not refused. Every pocket must be given ("-" is refused: the doctor needs all the cards).
 */
function readTable(text: string): Pocket[] {
  const t = text.trim();
  const first = seatIndex(t[0] ?? '');
  if (first < 0 || t[1] !== ':') throw new Error(`table hands "${t.slice(0, 20)}" must start with the first hand's seat and a colon, e.g. "N:"`);
  const tokens = t.slice(2).trim().split(/\s+/).filter((x) => x.length > 0);
  if (tokens.length !== 4) throw new Error(`table hands must give 4 pockets (got ${tokens.length}), e.g. "N:AKQ.JT9.876.5432 ..."`);
  const pockets: Pocket[] = [[], [], [], []];
  tokens.forEach((tok, i) => {
    const seat = (first + i) & 3;
    if (tok === '-') throw new Error(`table hands: ${SEATS[seat]}'s pocket is "-": the tray doctor needs every pocket's cards`);
    const suits = tok.split('.');
    if (suits.length !== 4) throw new Error(`table hands: ${SEATS[seat]}'s pocket "${tok}" must have four suits separated by dots (S.H.D.C)`);
    suits.forEach((ranks, s) => {
      for (const r of ranks.replace(/10/g, 'T')) {
        const code = cardCode(`${'SHDC'[s]}${r}`);
        if (code < 0) throw new Error(`table hands: "${r}" in ${SEATS[seat]}'s ${'SHDC'[s]} suit is not a rank`);
        pockets[seat].push(code);
      }
    });
  });
  return pockets;
}

/** The record's seat of each card (-1 when the record does not hold it). */
function readRecord(text: string): number[] {
  let deal;
  try {
    deal = parseDeal(text);
  } catch (e) {
    throw new Error(`record hands: ${(e as Error).message}`);
  }
  const where = new Array<number>(52).fill(-1);
  deal.forEach((h: Hand | null, seat) => { if (h) for (const c of handCards(h)) where[c] = seat; });
  if (where.every((s) => s < 0)) throw new Error('record hands: the record holds no card');
  return where;
}

/** The whole comparison: moves, missing and extra cards. Throws with the field and the fix on unreadable hands. */
export function trayDoctorReport(recordPbn: string, tablePbn: string): TrayDoctorReport {
  const where = readRecord(recordPbn);
  const pockets = readTable(tablePbn);
  // Every copy of each card in the table's tray, in pocket order N E S W.
  const copies: number[][] = Array.from({ length: 52 }, () => []);
  pockets.forEach((p, seat) => { for (const c of p) copies[c].push(seat); });
  const moves: TrayMove[] = [];
  const missing: TrayDoctorReport['missing'] = [];
  const extra: TrayDoctorReport['extra'] = [];
  // Cards in record order (N's first, spades high to low), so the director works pocket by pocket.
  const order = [...Array(52).keys()].sort((a, b) => (where[a] - where[b]) || (cardOrder(a) - cardOrder(b)));
  for (const c of order) {
    const home = where[c];
    const found = copies[c];
    if (home < 0) {
      for (const s of found) extra.push({ card: formatCard(c), from: SEATS[s] });
      continue;
    }
    if (found.length === 0) {
      missing.push({ card: formatCard(c), to: SEATS[home] });
      continue;
    }
    // Keep the copy already home; else move the first copy; any other copy is extra.
    const keep = found.includes(home) ? home : found[0];
    if (keep !== home) moves.push({ card: formatCard(c), from: SEATS[keep], to: SEATS[home] });
    let kept = false;
    for (const s of found) {
      if (s === keep && !kept) { kept = true; continue; }
      extra.push({ card: formatCard(c), from: SEATS[s] });
    }
  }
  return { moves, missing, extra };
}

/** Spades first, high to low within a suit: the order a hand is written in. */
function cardOrder(c: number): number {
  return Math.floor(c / 13) * 13 + (12 - (c % 13));
}

/** The cards whose pocket differs between the record and the table's hands (record order: N's cards first). */
export function handDifferences(recordPbn: string, tablePbn: string): HandDifference[] {
  return trayDoctorReport(recordPbn, tablePbn).moves.map((m) => ({ card: m.card, record: m.to, table: m.from }));
}

/**
 * The tray doctor: the moves (card, from pocket, to pocket) that turn the table's hands into the record's, each
 * misplaced card moved once, straight to its pocket. Missing and extra cards are not moves: `trayDoctorReport`
 * gives them.
 */
export function trayDoctor(recordPbn: string, tablePbn: string): TrayMove[] {
  return trayDoctorReport(recordPbn, tablePbn).moves;
}

/** Sentences for the director: one line per move, missing and extra card. */
export function doctorLines(r: TrayDoctorReport): string[] {
  const lines = r.moves.map((m) => `move ${m.card} from ${m.from}'s pocket to ${m.to}'s`);
  for (const m of r.missing) lines.push(`missing ${m.card}: no pocket holds it; it belongs in ${m.to}'s pocket`);
  for (const x of r.extra) lines.push(`extra ${x.card} in ${x.from}'s pocket: a card the record has no room for (another pack?); take it out`);
  return lines;
}
