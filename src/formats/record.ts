// A neutral record of one played deal, what PBN and LIN import produce and export consume, and its
// translation into the table log (DESIGN §4) so that imported games replay through the same engine.
import { type Card, SUIT_LETTERS, tryParseCard, formatCard } from '../cards/card.js';
import { type Seat, SEATS, seatIndex, sideOf } from '../cards/seat.js';
import type { DealEvent, TableEvent } from './table-log.js';
import { winningIndex } from '../cards/trick.js';
import { parseContract } from '../cards/contract.js';
import { variantNames, getVariant } from '../laws/variants.js';

/** One card played, in play order. */
export interface Play { seat: Seat; card: string }

/** An irregularity marked in the play: `R` a revoke, `L` a lead out of turn (PBN 3.9). */
export interface Irregularity { trick: number; seat: Seat; marker: 'R' | 'L' }

export interface DealRecord {
  board?: number;
  dealer?: Seat;
  /** PBN deal string, North first, `-` for an unknown hand. */
  hands?: string;
  /** Compact contract LEVEL+STRAIN+DECLARER+[X|XX], e.g. "4HE", "3NTSX". Absent when passed out or unknown. */
  contract?: string;
  /** Extension: the auction ended in four passes (PBN Contract "Pass", or an auction of passes only). */
  passedOut?: boolean;
  declarer?: Seat;
  /** Extension: PBN `^` declarer, the declarer and dummy were swapped (PBN 3.4.13); `declarer` is the one who played. */
  declarerSwapped?: boolean;
  /** "None", "NS", "EW" or "All". */
  vulnerable?: string;
  variant?: string;
  /** Extension (PBN `[TrumpCard]`): the turned trump card, in the dealer's hand, in the turned-trump games. */
  trumpCard?: string;
  /** Extension (PBN `[Trump]`): a trump suit declared for the sitting, no card turned (Dup. IV.11), e.g. "H". */
  trump?: string;
  /** The format the record was read from: a LIN record's raw tags (md, pn, mb…) are not PBN tags. */
  source?: 'pbn' | 'lin';
  /** Cards in play order. */
  plays: Play[];
  /** The claimant's side takes `tricks` of the remaining tricks. */
  claim?: { seat: Seat; tricks: number };
  /** Declarer's tricks, as the file states them. */
  result?: number;
  irregularities?: Irregularity[];
  players?: Partial<Record<Seat, string>>;
  /** Extension: the play is to be continued (PBN `+`), so the result is partial and no claim is implied. */
  playUnfinished?: boolean;
  /** All raw tags of the source, by name. */
  tags: Record<string, string>;
  /** Extension: the line of the source where this deal's record begins. */
  line?: number;
}

export interface ParseError { line: number; message: string }

export interface ParseResult { records: DealRecord[]; errors: ParseError[] }

/** A contract split into its parts. */
export interface ContractParts { level: number; strain: string; declarer: Seat; risk: '' | 'X' | 'XX' }

const STRAINS = ['S', 'H', 'D', 'C', 'NT'];

/** Normalise a strain token (S H D C, N or NT, either case) to S H D C NT, or null. */
export function normaliseStrain(text: string): string | null {
  const t = text.toUpperCase();
  if (t === 'N' || t === 'NT') return 'NT';
  return STRAINS.includes(t) ? t : null;
}

/** Build the compact contract string, e.g. (4, 'H', 'E', '') → "4HE". */
export function compactContract(p: ContractParts): string {
  return `${p.level}${p.strain}${p.declarer}${p.risk}`;
}

/** Split a compact contract such as "3NTSX"; null when it is not one. */
export function parseCompactContract(text: string | undefined): ContractParts | null {
  const r = text === undefined ? null : parseContract(text);
  if (!r || !r.ok) return null;
  const c = r.value;
  return {
    level: c.level,
    strain: c.strain < 0 ? 'NT' : SUIT_LETTERS[c.strain],
    declarer: SEATS[c.declarer],
    risk: c.doubled === 2 ? 'XX' : c.doubled === 1 ? 'X' : '',
  };
}

/** True when a record can be replayed: its hands are known or some card was played. */
export function isPlayable(rec: DealRecord): boolean {
  return rec.hands !== undefined || rec.plays.length > 0;
}

/** Trump suit index of a compact contract, -1 for no trump or no contract. */
export function contractTrump(contract: string | undefined): number {
  const r = contract === undefined ? null : parseContract(contract);
  return r && r.ok ? r.value.strain : -1;
}

/** A trick as a list of plays with its leader and, when complete, its winner. */
export interface Trick { leader: Seat; plays: Play[]; winner?: Seat }

/** Card codes by token, and normalised tokens: a file spells its 52 cards a few ways, and each is read thousands of times. */
const CARD_CODES = new Map<string, Card>();
const CARD_NAMES = new Map<string, string | null>();
/** Past this many distinct tokens (junk input), tokens are parsed without being remembered. */
const MAX_CACHED = 1024;

function cardOf(text: string): Card {
  let c = CARD_CODES.get(text);
  if (c === undefined) {
    const r = tryParseCard(text);
    c = r.ok ? r.value : -1;
    if (CARD_CODES.size < MAX_CACHED) CARD_CODES.set(text, c);
  }
  return c;
}

/** Group plays into tricks of four in play order; the last may be incomplete and has no winner. */
export function tricksOf(plays: readonly Play[], trump: number): Trick[] {
  const out: Trick[] = [];
  for (let i = 0; i < plays.length; i += 4) {
    const group = plays.slice(i, i + 4);
    const trick: Trick = { leader: group[0].seat, plays: group };
    if (group.length === 4) trick.winner = group[winningIndex(group.map((p) => cardOf(p.card)), trump)].seat;
    out.push(trick);
  }
  return out;
}

/** Number of complete tricks won by the side of `seat`. */
export function sideTricks(plays: readonly Play[], trump: number, seat: Seat): number {
  const side = sideOf(seatIndex(seat));
  return tricksOf(plays, trump).filter((t) => t.winner !== undefined && sideOf(seatIndex(t.winner)) === side).length;
}

/** Number of complete tricks (four cards) in a play sequence. */
export function completeTrickCount(plays: readonly Play[]): number {
  return Math.floor(plays.length / 4);
}

/**
 * The claim implied by a stated result when play stopped early: declarer's side takes what it still
 * needs of the remaining tricks. Returns a message instead when the result cannot follow from the play.
 */
export function claimFromResult(plays: readonly Play[], trump: number, declarer: Seat, result: number): { seat: Seat; tricks: number } | string {
  const remaining = 13 - completeTrickCount(plays);
  const need = result - sideTricks(plays, trump, declarer);
  if (need < 0 || need > remaining) {
    return `result ${result} cannot follow from the play: declarer's side already has ${result - need} tricks and ${remaining} remain`;
  }
  return { seat: declarer, tricks: need };
}

/** One trick in PBN column layout: column 0 is the Play tag's seat, then clockwise. */
export interface ColumnTrick {
  /** Card per column, normalised ("SA"), or null where no card is given. */
  cards: (string | null)[];
  /** Column of a card marked `^L`: that seat led to this trick out of turn. */
  ledOutOfTurn?: number;
}

export interface ColumnOrder {
  plays: Play[];
  /** Leader of each trick that has at least one card in order. */
  leaders: Seat[];
  /** 0-based index of the first trick that could not be completed, if any. */
  stoppedAt?: number;
  /** Cards given after a gap, which cannot be placed in play order. */
  unordered: number;
}

/**
 * Put PBN play columns into play order. The first leader is the Play tag seat; each later trick is led
 * by the winner of the one before, unless a card is marked `^L`, whose seat then leads and the others
 * follow clockwise (PBN 3.9). A trick stops at its first missing card, and so does the play.
 */
export function playOrderFromColumns(tricks: readonly ColumnTrick[], first: Seat, trump: number): ColumnOrder {
  const f = seatIndex(first);
  const out: ColumnOrder = { plays: [], leaders: [], unordered: 0 };
  let leader = f;
  for (let t = 0; t < tricks.length; t++) {
    const trick = tricks[t];
    if (out.stoppedAt !== undefined) {
      out.unordered += trick.cards.filter((c) => c !== null).length;
      continue;
    }
    const lead = trick.ledOutOfTurn !== undefined ? (f + trick.ledOutOfTurn) & 3 : leader;
    const cards: Card[] = [];
    let k = 0;
    for (; k < 4; k++) {
      const seat = (lead + k) & 3;
      const text = trick.cards[(seat - f + 4) & 3];
      if (text === null || text === undefined) break;
      out.plays.push({ seat: SEATS[seat], card: text });
      cards.push(cardOf(text));
    }
    if (k > 0) out.leaders.push(SEATS[lead]);
    if (k < 4) {
      out.stoppedAt = t;
      for (let j = k + 1; j < 4; j++) if (trick.cards[(((lead + j) & 3) - f + 4) & 3]) out.unordered++;
      continue;
    }
    leader = (lead + winningIndex(cards, trump)) & 3;
  }
  return out;
}

/** Normalise a card token to our notation ("h4" → "H4"), or null when it is not a card. */
export function normaliseCard(token: string): string | null {
  let name = CARD_NAMES.get(token);
  if (name === undefined) {
    const r = tryParseCard(token);
    name = r.ok ? formatCard(r.value) : null;
    if (CARD_NAMES.size < MAX_CACHED) CARD_NAMES.set(token, name);
  }
  return name;
}

/** The record a `deal` event describes, before any play: what PBN export needs to head a game. */
export function dealEventToRecord(ev: DealEvent): DealRecord {
  const rec: DealRecord = { plays: [], tags: {} };
  if (ev.board !== undefined) rec.board = ev.board;
  if (ev.dealer !== undefined) rec.dealer = ev.dealer;
  if (ev.hands !== undefined) rec.hands = ev.hands;
  if (ev.vulnerable !== undefined) rec.vulnerable = ev.vulnerable;
  if (ev.variant !== undefined) rec.variant = ev.variant;
  if (ev.trump !== undefined) rec.trump = ev.trump;
  const c = parseCompactContract(ev.contract);
  if (c) {
    rec.contract = ev.contract;
    rec.declarer = c.declarer;
  }
  return rec;
}

/** True when the variant is known and turns a trump card. */
function turnsTrump(variant: string): boolean {
  return variantNames().includes(variant) && getVariant(variant).trump === 'turned';
}

/**
 * The table log of a record: the deal, the turned trump card placed by the dealer and taken back when he first
 * plays (as a table journals it, DESIGN §4), each card placed in play order, each complete trick turned and
 * quitted (every card lifted), then the claim if any.
 */
export function recordToTableLog(rec: DealRecord): TableEvent[] {
  const deal: DealEvent = { type: 'deal', variant: rec.variant ?? 'bridge' };
  if (rec.board !== undefined) deal.board = rec.board;
  if (rec.dealer !== undefined) deal.dealer = rec.dealer;
  if (rec.hands !== undefined) deal.hands = rec.hands;
  if (rec.contract !== undefined) deal.contract = rec.contract;
  if (rec.vulnerable !== undefined) deal.vulnerable = rec.vulnerable;
  if (rec.trump !== undefined) deal.trump = rec.trump;
  const events: TableEvent[] = [deal];
  // The turned card lies face up before the dealer until he plays his first card (Dup. IV.2).
  let turned = rec.trump === undefined && rec.dealer !== undefined && turnsTrump(deal.variant!) ? rec.trumpCard : undefined;
  if (turned !== undefined) events.push({ type: 'place', seat: rec.dealer!, card: turned });
  for (let i = 0; i < rec.plays.length; i++) {
    const p = rec.plays[i];
    if (turned !== undefined && p.seat === rec.dealer) {
      events.push({ type: 'lift', seat: p.seat, card: turned });
      turned = undefined;
    }
    events.push({ type: 'place', seat: p.seat, card: p.card });
    if (i % 4 === 3) {
      for (const q of rec.plays.slice(i - 3, i + 1)) events.push({ type: 'lift', seat: q.seat, card: q.card });
    }
  }
  if (rec.claim) events.push({ type: 'claim', seat: rec.claim.seat, tricks: rec.claim.tricks });
  return events;
}
