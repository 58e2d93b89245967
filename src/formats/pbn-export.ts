// PBN 2.1 export: the strict "export format" (CRLF lines, the mandatory tags in order, play in columns from the opening
// leader, our extension tags [Variant], [TrumpCard] and [Trump]) so that other programs, and parsePbn, read it back.
import { parseDeal, formatDeal } from '../cards/deal.js';
import { type Seat, SEATS, seatIndex, sideOf, leftOf } from '../cards/seat.js';
import type { DealResult } from '../laws/types.js';
import { type DealRecord, type Irregularity, type Play, parseCompactContract, contractTrump, tricksOf } from './record.js';

const MTS = ['Event', 'Site', 'Date', 'Board', 'West', 'North', 'East', 'South', 'Dealer', 'Vulnerable', 'Deal', 'Scoring', 'Declarer', 'Contract', 'Result'];
const NOT_COPIED = new Set([...MTS, 'Auction', 'Play', 'Note', 'Variant', 'TrumpCard', 'Trump']);
const SEAT_TAG: Record<string, Seat> = { West: 'W', North: 'N', East: 'E', South: 'S' };

function tagLine(name: string, value: string): string {
  const v = value.replace(/[\t\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return `[${name} "${v}"]`;
}

/** A trick to write: its cards in play order and, when known, the winner (who should lead next). */
interface OutTrick { plays: Play[]; winner?: Seat }

function contractTag(rec: DealRecord): string {
  const p = parseCompactContract(rec.contract);
  if (p) return `${p.level}${p.strain}${p.risk}`;
  return rec.passedOut || /^pass$/i.test(rec.tags.Contract ?? '') ? 'Pass' : '';
}

function dealTag(rec: DealRecord): string {
  if (!rec.hands) return '';
  try {
    return formatDeal(parseDeal(rec.hands), rec.dealer ? seatIndex(rec.dealer) : 0);
  } catch {
    return rec.hands;
  }
}

function mtsValue(rec: DealRecord, name: string): string {
  switch (name) {
    case 'Board': return rec.board !== undefined ? String(rec.board) : '';
    case 'Dealer': return rec.dealer ?? '';
    case 'Vulnerable': return rec.vulnerable ?? '';
    case 'Deal': return dealTag(rec);
    case 'Declarer': return rec.declarer ? (rec.declarerSwapped ? '^' : '') + rec.declarer : '';
    case 'Contract': return contractTag(rec);
    case 'Result': return rec.result !== undefined ? String(rec.result) : '';
    case 'West': case 'North': case 'East': case 'South': return rec.players?.[SEAT_TAG[name]] ?? rec.tags[name] ?? '';
    case 'Scoring': return rec.tags.Scoring ?? '';
    default: return rec.tags[name] ?? '?';
  }
}

function playLines(rec: DealRecord, tricks: readonly OutTrick[]): string[] {
  const plays = tricks.flatMap((t) => t.plays);
  if (plays.length === 0 && !rec.claim) return [];
  const first = rec.declarer ? leftOf(seatIndex(rec.declarer)) : seatIndex(plays[0]?.seat ?? 'N');
  const lines = [tagLine('Play', SEATS[first])];
  const marks = rec.irregularities ?? [];
  let expected = first;
  let complete = 0;
  for (let t = 0; t < tricks.length; t++) {
    const trick = tricks[t];
    const cols = ['-', '-', '-', '-'];
    const leader = seatIndex(trick.plays[0].seat);
    for (const p of trick.plays) {
      const col = (seatIndex(p.seat) - first + 4) & 3;
      if (cols[col] !== '-') continue; // a second card by one seat in a trick has no place in the columns
      const revoke = marks.some((m) => m.marker === 'R' && m.trick === t + 1 && m.seat === p.seat);
      const outOfTurn = p === trick.plays[0] && leader !== expected;
      cols[col] = `${revoke ? '^R ' : ''}${outOfTurn ? '^L ' : ''}${p.card}`;
    }
    if (trick.plays.length === 4) complete++;
    if (trick.plays.length < 4 && rec.playUnfinished) cols[(leader + trick.plays.length - first + 4) & 3] = '+';
    lines.push(cols.join(' '));
    if (trick.winner) expected = seatIndex(trick.winner);
  }
  if (complete < 13) {
    // "*" ends the play (the Result then holds, implying a claim); "+" marks the next card to be played.
    if (!rec.playUnfinished) lines.push('*');
    else if (tricks.length === complete) lines.push([0, 1, 2, 3].map((i) => (((first + i) & 3) === expected ? '+' : '-')).join(' '));
  }
  return lines;
}

function formatGame(rec: DealRecord, tricks: readonly OutTrick[]): string[] {
  const lines = MTS.map((name) => tagLine(name, mtsValue(rec, name)));
  // What the game needs to be replayed as it was: our extension tags, read back by parsePbn.
  if (rec.variant !== undefined) lines.push(tagLine('Variant', rec.variant));
  if (rec.trumpCard !== undefined) lines.push(tagLine('TrumpCard', rec.trumpCard));
  if (rec.trump !== undefined) lines.push(tagLine('Trump', rec.trump));
  // LIN's raw tags (md, pn, mb…) are not PBN tags; what PBN needs of them is already in the record's fields.
  const extra = rec.source === 'lin' ? [] : Object.keys(rec.tags).filter((k) => !NOT_COPIED.has(k) && /^[A-Za-z0-9_]+$/.test(k)).sort();
  for (const k of extra) lines.push(tagLine(k, rec.tags[k]));
  lines.push(...playLines(rec, tricks));
  return lines;
}

/** What an exported PBN file opens with, before its first game. */
export const PBN_EXPORT_HEAD = '% PBN 2.1\r\n% EXPORT\r\n\r\n';

/** One game of formatPbnFromResults, CRLF lines without the blank line between games. */
export function formatPbnGame(rec: DealRecord, result: DealResult): string {
  return gameFromResult(rec, result).join('\r\n');
}

function joinGames(games: string[][]): string {
  return ['% PBN 2.1', '% EXPORT', '', games.map((g) => g.join('\r\n')).join('\r\n\r\n'), ''].join('\r\n');
}

/** Write records as PBN 2.1 export format (CRLF lines, mandatory tags, play in columns from the opening leader). */
export function formatPbn(records: readonly DealRecord[]): string {
  return joinGames(records.map((rec) => {
    const trump = contractTrump(rec.contract);
    return formatGame(rec, tricksOf(rec.plays, trump).map((t) => ({ plays: t.plays, winner: t.winner })));
  }));
}

/**
 * Write deals as one PBN file with the play taken from engine results: each trick's cards from its leader,
 * revokes marked `^R` on the revoking card and leads out of turn `^L` (PBN 3.9).
 */
export function formatPbnFromResults(games: readonly { rec: DealRecord; result: DealResult }[]): string {
  return joinGames(games.map(({ rec, result }) => gameFromResult(rec, result)));
}

/** One deal as PBN with the play taken from an engine result (see formatPbnFromResults). */
export function formatPbnFromResult(rec: DealRecord, result: DealResult): string {
  return formatPbnFromResults([{ rec, result }]);
}

function gameFromResult(rec: DealRecord, result: DealResult): string[] {
  const tricks: OutTrick[] = result.tricks.map((t) => {
    const l = seatIndex(t.leader);
    const order = t.order ?? [0, 1, 2, 3].map((k) => SEATS[(l + k) & 3]);
    const plays = order.filter((s) => t.cards[s] !== undefined).map((s) => ({ seat: s, card: t.cards[s] as string }));
    return { plays, winner: plays.length === 4 ? t.winner : undefined };
  }).filter((t) => t.plays.length > 0);
  const irregularities: Irregularity[] = [];
  for (const f of result.findings) {
    if (f.kind === 'revoke') irregularities.push({ trick: f.renounceTrick ?? f.trick, seat: f.seat, marker: 'R' });
    if (f.kind === 'lead-out-of-turn') irregularities.push({ trick: f.trick, seat: f.seat, marker: 'L' });
  }
  const out: DealRecord = { ...rec, plays: tricks.flatMap((t) => t.plays), irregularities };
  if (out.result === undefined && out.declarer && tricks.length === 13) {
    out.result = sideOf(seatIndex(out.declarer)) === 0 ? result.tricksWon.NS : result.tricksWon.EW;
  }
  return formatGame(out, tricks);
}
