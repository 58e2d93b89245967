// What the three session exports share: one result line per traveller with its scored values from the report, the
// hands of each tray seat by seat, and the numbers written the way a results program reads them.
import { parseDeal, formatDeal } from '../../cards/deal.js';
import type { Seat } from '../../cards/seat.js';
import { parseContractText } from '../../cards/contract.js';
import type { ScoredResult, SessionExport, TrayRecord, Traveller } from '../types.js';

/** One result of one board at one table, as every export writes it. */
export interface ResultLine {
  board: number;
  round?: number;
  table?: string;
  ns: string;
  ew: string;
  /** Bridge: the contract without its declarer ("4H", "3NTX"), or "Pass"; absent for whist. */
  contract?: string;
  declarer?: Seat;
  /** Bridge: the declarer's tricks. */
  declarerTricks?: number;
  /** Whist (and bridge when known): tricks per side. */
  tricks?: { NS: number; EW: number };
  /** Bridge: the N-S score, negative when E-W scored. */
  score?: number;
  mp?: { NS: number; EW: number };
  imps?: { NS: number; EW: number };
  adjusted?: Traveller['adjusted'];
  marks?: Traveller['marks'];
  made?: Traveller['made'];
  wonBeforeRevoke?: Traveller['wonBeforeRevoke'];
  /** The form of a fouled board the result was played in (Law 87B), where the board was fouled. */
  version?: string | number;
  /** Entered by hand at a table without readers. */
  handScored?: true;
  /** Why the club scored the result otherwise than the table made it (the report's notes: Dup. X.4, V.1). */
  notes?: string[];
}

/** True when the session is bridge (contracts), false for whist (tricks only). */
export function isBridge(s: SessionExport): boolean {
  return /bridge/i.test(s.variant) || s.travellers.some((t) => t.contract !== undefined);
}

/** The scored result the report gives for a traveller line: same board, same pairs, same table when both say. */
function scoredFor(s: SessionExport, t: Traveller): ScoredResult | undefined {
  const board = s.report.boards.find((b) => b.board === t.board);
  return board?.results.find((r) => r.ns === t.ns && r.ew === t.ew
    && (r.table === undefined || t.table === undefined || String(r.table) === String(t.table)));
}

/** Every traveller as a result line, ordered by board, then round, then table. */
export function resultLines(s: SessionExport): ResultLine[] {
  const lines = s.travellers.map((t): ResultLine => {
    const r = scoredFor(s, t);
    const line: ResultLine = { board: t.board, ns: t.ns, ew: t.ew };
    if (t.round !== undefined) line.round = t.round;
    if (t.table !== undefined) line.table = String(t.table);
    if (t.contract !== undefined) {
      if (/^pass$/i.test(t.contract.trim())) {
        line.contract = 'Pass';
      } else {
        const c = parseContractText(t.contract.replace(/\s+/g, ''));
        if (c.ok) {
          line.contract = `${c.value.level}${c.value.strain < 0 ? 'NT' : 'SHDC'[c.value.strain]}${'X'.repeat(c.value.doubled)}`;
          if (c.value.declarer !== undefined) line.declarer = (['N', 'E', 'S', 'W'] as const)[c.value.declarer];
        } else {
          line.contract = t.contract;
        }
      }
      const dt = typeof t.tricks === 'number' ? t.tricks : r?.declarerTricks;
      if (dt !== undefined && line.contract !== 'Pass') line.declarerTricks = dt;
    } else if (typeof t.tricks === 'number') {
      // A whist line with one number gives N-S's tricks.
      line.tricks = { NS: t.tricks, EW: 13 - t.tricks };
    }
    if (t.tricks !== undefined && typeof t.tricks === 'object') line.tricks = { NS: t.tricks.NS, EW: t.tricks.EW };
    else if (r?.tricks && !line.tricks) line.tricks = r.tricks;
    if (r?.score !== undefined) line.score = r.score;
    if (r?.mp) line.mp = r.mp;
    if (r?.imps) line.imps = r.imps;
    if (t.adjusted !== undefined) line.adjusted = t.adjusted;
    if (t.marks !== undefined) line.marks = t.marks;
    if (t.made !== undefined) line.made = t.made;
    if (t.wonBeforeRevoke !== undefined) line.wonBeforeRevoke = t.wonBeforeRevoke;
    const version = (t as { version?: string | number }).version;
    if (version !== undefined) line.version = version;
    if (t.handScored) line.handScored = true;
    const notes = (r as { notes?: string[] } | undefined)?.notes;
    if (notes?.length) line.notes = notes;
    return line;
  });
  const num = (v: string | undefined) => (v === undefined ? Infinity : Number.isFinite(Number(v)) ? Number(v) : Infinity);
  return lines.sort((a, b) => a.board - b.board || (a.round ?? 0) - (b.round ?? 0) || num(a.table) - num(b.table)
    || (a.table ?? '').localeCompare(b.table ?? ''));
}

/** The records by board, in board order (the last revision of a board wins). */
export function recordsByBoard(s: SessionExport): TrayRecord[] {
  const byBoard = new Map<number, TrayRecord>();
  for (const r of s.records) {
    const prev = byBoard.get(r.board);
    if (!prev || r.rev >= prev.rev) byBoard.set(r.board, r);
  }
  return [...byBoard.values()].sort((a, b) => a.board - b.board);
}

/** Every board with a record or a result, in order. */
export function boardNumbers(s: SessionExport): number[] {
  return [...new Set([...s.records.map((r) => r.board), ...s.travellers.map((t) => t.board)])].sort((a, b) => a - b);
}

/** The four hands of a record as suit strings (S H D C, ranks high to low, "" for a void), by seat. */
export function handsBySeat(hands: string): Record<Seat, [string, string, string, string]> {
  const parts = formatDeal(parseDeal(hands), 0).slice(2).split(' ');
  const seats: Seat[] = ['N', 'E', 'S', 'W'];
  const out = {} as Record<Seat, [string, string, string, string]>;
  seats.forEach((seat, i) => {
    const suits = parts[i] === '-' ? ['', '', '', ''] : parts[i].split('.');
    out[seat] = [suits[0], suits[1], suits[2], suits[3]];
  });
  return out;
}

/** The PBN hands starting from the dealer, as the Deal tag of an export wants them. */
export function dealFromDealer(hands: string, dealer: Seat): string {
  return formatDeal(parseDeal(hands), ['N', 'E', 'S', 'W'].indexOf(dealer));
}

/** Bridge vulnerability from the board number (Law 2: the cycle of 16), as PBN writes it. */
export function vulnerabilityOf(board: number): 'None' | 'NS' | 'EW' | 'All' {
  const cycle = ['None', 'NS', 'EW', 'All', 'NS', 'EW', 'All', 'None', 'EW', 'All', 'None', 'NS', 'All', 'None', 'NS', 'EW'] as const;
  return cycle[(board - 1) % 16];
}

/** The dealer of a board by its number (N for 1, E for 2, ...), for a board with no record. */
export function dealerOf(board: number): Seat {
  return (['N', 'E', 'S', 'W'] as const)[(board - 1) % 4];
}

/** A number as results programs write it: integers plain, fractions to two places without trailing zeros. */
export function num(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n.toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
}
