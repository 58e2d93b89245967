// Tray records from a dealing machine's hand-record file: PBN as Dealer4, Duplimate or BigDeal write it, one game per
// board with [Board], [Dealer], [Vulnerable] and [Deal], usually no play. The PBN reader is src/formats/pbn.ts.
import { parseDeal, isComplete } from '../../cards/deal.js';
import { handSize } from '../../cards/hand.js';
import { parsePbn } from '../../formats/pbn.js';
import type { DealRecord } from '../../formats/record.js';
import { getVariant, VARIANTS, variantNames } from '../../laws/variants.js';
import { boardDealer, boardVulnerability } from '../scoring/bridge.js';
import type { TrayRecord } from '../types.js';

/** Where the records come from, and for whist clubs the game played with them. */
export interface HandRecordOptions {
  session: string;
  /** The file's name as the source of each record says it. */
  file: string;
  at: string;
  /** The variant the session plays; bridge when absent (the records then carry the board's vulnerability). */
  variant?: string;
}

/** The tags a hand record is made of: a PBN error about any other tag (the play, the auction) does not matter here. */
const RECORD_TAGS = /^(Board|Dealer|Vulnerable|Deal)\b/;

/** "game 3 (Board 7, line 41)": how an error names the game, so the operator finds it in the file. */
function gameName(index: number, rec: DealRecord | undefined): string {
  const parts = [rec?.board !== undefined ? `Board ${rec.board}` : rec?.tags.Board ? `Board "${rec.tags.Board}"` : null, rec?.line ? `line ${rec.line}` : null].filter(Boolean);
  return `game ${index + 1}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * Read the tray records of a hand-record file: one record per board, or the errors, each naming the game and the
 * tag. A board given twice with the same deal counts once; with different deals it is an error.
 */
export function readHandRecords(text: string, opts: HandRecordOptions): { records: TrayRecord[]; errors: string[] } {
  // Each problem with its game's index, so the list reads in file order whichever check found it.
  const found: { game: number; text: string }[] = [];
  const errors = { push: (text: string, game = -1): void => { found.push({ game, text }); } };
  if (opts.variant !== undefined && !VARIANTS[opts.variant]) {
    return { records: [], errors: [`variant "${opts.variant}" is unknown: use one of ${variantNames().join(', ')}`] };
  }
  const bridge = opts.variant === undefined || getVariant(opts.variant).trump === 'contract';
  const parsed = parsePbn(text);
  const recs = parsed.records;
  // Which game a parser error belongs to: the last game that begins at or before its line.
  const gameAt = (line: number): number => {
    let k = -1;
    recs.forEach((r, i) => { if ((r.line ?? 0) <= line) k = i; });
    return k;
  };
  for (const e of parsed.errors) {
    if (!RECORD_TAGS.test(e.message)) continue;
    const k = gameAt(e.line);
    errors.push(`${gameName(k, recs[k])}, line ${e.line}: ${e.message}`, k);
  }
  const byBoard = new Map<number, { record: TrayRecord; game: number }>();
  recs.forEach((rec, i) => {
    const name = gameName(i, rec);
    if (rec.board === undefined) {
      if (!rec.tags.Board) errors.push(`${name}: [Board] is missing: every hand record needs the board number`, i);
      return; // a Board that is not a number is already reported by the parser
    }
    if (rec.board < 1) { errors.push(`${name}: [Board "${rec.board}"] must be 1 or more`, i); return; }
    if (!rec.hands) {
      if (!rec.tags.Deal || rec.tags.Deal.trim() === '' || rec.tags.Deal.trim() === '?') errors.push(`${name}: [Deal] is missing: a tray record needs the four hands`, i);
      return;
    }
    const deal = parseDeal(rec.hands);
    if (!isComplete(deal) || deal.some((h) => handSize(h!) !== 13)) {
      const sizes = deal.map((h, s) => `${'NESW'[s]} ${h ? handSize(h) : '-'}`).join(', ');
      errors.push(`${name}: [Deal] must give four hands of 13 cards (got ${sizes})`, i);
      return;
    }
    const record: TrayRecord = {
      schema: 1, type: 'tenace.tray', session: opts.session, board: rec.board,
      hands: rec.hands,
      // Law 2 gives the dealer and the vulnerability by the board number when the file leaves them out.
      dealer: rec.dealer ?? boardDealer(rec.board),
      source: { kind: 'hand-record', file: opts.file, at: opts.at },
      rev: 1,
    };
    if (bridge) record.vulnerable = rec.vulnerable ?? boardVulnerability(rec.board);
    if (opts.variant !== undefined) record.variant = opts.variant;
    const prev = byBoard.get(rec.board);
    if (!prev) { byBoard.set(rec.board, { record, game: i }); return; }
    if (prev.record.hands !== record.hands || prev.record.dealer !== record.dealer) {
      errors.push(`${name}: [Deal] of board ${rec.board} differs from ${gameName(prev.game, recs[prev.game])}: a hand-record file holds one deal per board`, i);
    }
  });
  if (recs.length === 0 && found.length === 0) errors.push('the file holds no PBN game: expected [Board "1"], [Dealer "N"], [Vulnerable "None"], [Deal "N:..."] per board');
  const records = [...byBoard.values()].map((v) => v.record).sort((a, b) => a.board - b.board);
  return { records, errors: found.sort((a, b) => a.game - b.game).map((e) => e.text) };
}

/**
 * Tray records from a dealing machine's PBN hand-record file (Dealer4, Duplimate, BigDeal). Throws one Error listing
 * every problem, each naming the game and the tag; `readHandRecords` returns them instead.
 */
export function recordsFromPbn(text: string, opts: HandRecordOptions): TrayRecord[] {
  const { records, errors } = readHandRecords(text, opts);
  if (errors.length > 0) throw new Error(`${opts.file}: ${errors.length === 1 ? errors[0] : `${errors.length} problems:\n  ${errors.join('\n  ')}`}`);
  return records;
}
