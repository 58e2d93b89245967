// USEBIO 1.2 XML, the EBU's results interchange (read by ScoreBridge, EBUScore, Compscore and the national bodies):
// USEBIO > CLUB, EVENT; the EVENT holds its description, PARTICIPANTS (a PAIR per pair with PAIR_NUMBER, PLACE,
// TOTAL_SCORE and its PLAYERs), a BOARD per board with one TRAVELLER_LINE per result (NS_PAIR_NUMBER,
// EW_PAIR_NUMBER, CONTRACT, PLAYED_BY, TRICKS, SCORE, NS_MATCH_POINTS, EW_MATCH_POINTS), and the HANDSET: the deal
// of every board (HAND per DIRECTION with SPADES HEARTS DIAMONDS CLUBS). Whist has no contract: a whist line leaves
// out CONTRACT and PLAYED_BY, TRICKS is the N-S side's tricks (after the penalties of the code) and SCORE is N-S's
// tricks less E-W's; each side's tricks as scored (after an average for the deal, or Dup. X.4) are its points on the
// board, NS_MATCH_POINTS and EW_MATCH_POINTS, so that a pair's lines add up to its TOTAL_SCORE.
import type { Seat } from '../../cards/seat.js';
import type { SessionExport } from '../types.js';
import { type ResultLine, boardNumbers, handsBySeat, isBridge, num, recordsByBoard, resultLines, vulnerabilityOf } from './common.js';

/** Text or an attribute value with the five XML specials escaped, and the characters XML 1.0 forbids dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    // A lone surrogate has no UTF-8 form: it would reach the file as U+FFFD at best.
    .replace(/\p{Cs}/gu, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** An XML comment: "--" may not appear inside one, nor may it end with "-". */
function comment(text: string): string {
  return `<!-- ${text.replace(/-{2,}/g, '-').replace(/-$/, '- ')} -->`;
}

/** A tiny writer: elements with text, nested by indentation. */
class Xml {
  private out: string[] = [];
  private depth = 0;
  open(name: string, attrs: Record<string, string> = {}): this {
    const a = Object.entries(attrs).map(([k, v]) => ` ${k}="${xmlEscape(v)}"`).join('');
    this.out.push(`${'  '.repeat(this.depth++)}<${name}${a}>`);
    return this;
  }
  close(name: string): this {
    this.out.push(`${'  '.repeat(--this.depth)}</${name}>`);
    return this;
  }
  el(name: string, text: string | number | undefined): this {
    if (text === undefined) return this;
    this.out.push(`${'  '.repeat(this.depth)}<${name}>${xmlEscape(String(text))}</${name}>`);
    return this;
  }
  raw(line: string): this {
    this.out.push(`${'  '.repeat(this.depth)}${line}`);
    return this;
  }
  toString(): string {
    return this.out.join('\n') + '\n';
  }
}

/**
 * USEBIO pair numbers for the session's pair ids. Numbers stay numbers; ids named by starting table and direction
 * ("3NS", "3EW", as the seed names pairs) become number 3 with DIRECTION NS or EW when no pair ever changes
 * direction (a Mitchell: two winners); otherwise the pairs are numbered 1, 2, ... in the schedule's order.
 */
export function usebioPairNumbers(s: SessionExport): { numbers: Map<string, { number: string; direction?: 'NS' | 'EW' }>; winners: 1 | 2 } {
  const ids = [...new Set([...s.schedule.participants, ...s.report.pairs.map((p) => p.pair), ...s.travellers.flatMap((t) => [t.ns, t.ew])])];
  const numbers = new Map<string, { number: string; direction?: 'NS' | 'EW' }>();
  if (ids.every((id) => /^\d+$/.test(id))) {
    for (const id of ids) numbers.set(id, { number: id });
    return { numbers, winners: 1 };
  }
  const named = ids.map((id) => /^(\d+)\s*(NS|EW)$/i.exec(id));
  const stationary = s.travellers.every((t) => /NS$/i.test(t.ns) && /EW$/i.test(t.ew));
  if (named.every((m) => m !== null) && stationary) {
    ids.forEach((id, i) => numbers.set(id, { number: named[i]![1], direction: named[i]![2].toUpperCase() as 'NS' | 'EW' }));
    return { numbers, winners: 2 };
  }
  ids.forEach((id, i) => numbers.set(id, { number: String(i + 1) }));
  return { numbers, winners: 1 };
}

const SCORING: Record<string, string> = {
  matchpoints: 'MATCH_POINTS', 'cross-imps': 'CROSS_IMPS', butler: 'BUTLER_IMPS', average: 'AGGREGATE',
  'team-matches': 'OTHER', individuals: 'OTHER',
};
const EVENT_TYPE = { pairs: 'PAIRS', teams: 'TEAMS', individuals: 'INDIVIDUAL' } as const;
const DIRECTION_NAME: Record<Seat, string> = { N: 'N', E: 'E', S: 'S', W: 'W' };
const VULNERABILITY = { None: 'Love', NS: 'North-South', EW: 'East-West', All: 'All' } as const;

/** USEBIO 1.2's DATE: DD/MM/YYYY. */
function usebioDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

/**
 * PLACE of each pair: within its direction when there are two winners (WINNER_TYPE 2), else over all pairs; ties
 * share a place marked "=", as the report marks them.
 */
function placesOf(s: SessionExport, numbers: Map<string, { direction?: 'NS' | 'EW' }>, winners: 1 | 2): Map<string, string> {
  const out = new Map<string, string>();
  const group = (pair: string) => (winners === 2 ? numbers.get(pair)?.direction ?? '' : '');
  for (const p of s.report.pairs) {
    const mates = s.report.pairs.filter((o) => o !== p && group(o.pair) === group(p.pair));
    const place = 1 + mates.filter((o) => o.rank < p.rank).length;
    out.set(p.pair, `${place}${mates.some((o) => o.rank === p.rank) ? '=' : ''}`);
  }
  return out;
}

/**
 * Why a line's score is not the table's result, or undefined when it is: a director's award, or a whist score the
 * club changed (the average score for the deal, Dup. IV.9-10 and V.1; the revoke's limits, Dup. X.4).
 */
function adjustment(l: ResultLine, scored: { NS: number; EW: number } | undefined): string | undefined {
  const notes = l.notes?.length ? ` (${l.notes.join('; ')})` : '';
  // A bridge award is in percent; a whist one (scored given) in tricks.
  const unit = scored ? '' : '%';
  if (l.adjusted !== undefined) return (typeof l.adjusted === 'string' ? l.adjusted : `N-S ${num(l.adjusted.NS)}${unit}, E-W ${num(l.adjusted.EW)}${unit}`) + notes;
  if (scored && l.tricks && (scored.NS !== l.tricks.NS || scored.EW !== l.tricks.EW)) {
    return `the table made N-S ${l.tricks.NS}, E-W ${l.tricks.EW}; scored N-S ${num(scored.NS)}, E-W ${num(scored.EW)}${notes}`;
  }
  return undefined;
}

/** The N-S percentage of a bridge award. */
function awardPercent(a: NonNullable<ResultLine['adjusted']>): string {
  if (typeof a === 'object') return num(a.NS);
  return String({ average: 50, 'average-plus': 60, 'average-minus': 40 }[a]);
}

/** A whist line's tricks as scored (after Dup. X.4, the average for the deal or an award), from the report. */
function scoredTricks(s: SessionExport, l: ResultLine): { NS: number; EW: number } | undefined {
  const r = s.report.boards.find((b) => b.board === l.board)?.results
    .find((x) => x.ns === l.ns && x.ew === l.ew && (x.table === undefined || l.table === undefined || String(x.table) === l.table));
  return r?.tricks ?? l.tricks;
}

/** The session as USEBIO 1.2 XML (UTF-8). */
export function exportUsebio(s: SessionExport, opts: { program?: string; version?: string } = {}): string {
  const bridge = isBridge(s);
  const lines = resultLines(s);
  const { numbers, winners } = usebioPairNumbers(s);
  const x = new Xml();
  x.raw('<?xml version="1.0" encoding="UTF-8"?>');
  x.raw('<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">');
  x.open('USEBIO', { Version: '1.2' });
  x.open('CLUB').el('CLUB_NAME', s.club).close('CLUB');
  x.open('EVENT', { EVENT_TYPE: EVENT_TYPE[s.schedule.kind] });
  x.el('PROGRAM_NAME', opts.program ?? 'tenace');
  if (opts.version) x.el('PROGRAM_VERSION', opts.version);
  x.el('EVENT_IDENTIFIER', s.session);
  x.el('EVENT_DESCRIPTION', `${s.session} (${s.schedule.movement}, ${s.variant})`);
  x.el('DATE', usebioDate(s.date));
  x.el('BOARD_SCORING_METHOD', SCORING[s.report.method] ?? 'OTHER');
  x.el('BOARDS_PLAYED', new Set(lines.map((l) => l.board)).size);
  x.el('WINNER_TYPE', winners);
  if (!bridge) {
    x.raw(comment('Whist: no CONTRACT or PLAYED_BY. TRICKS is the N-S side\'s tricks after the penalties of the code; SCORE is N-S\'s tricks less E-W\'s; NS_MATCH_POINTS and EW_MATCH_POINTS are each side\'s tricks as scored, which add up to TOTAL_SCORE.'));
  }
  if (winners === 1 && [...numbers.keys()].some((id) => numbers.get(id)!.number !== id)) {
    x.raw(comment(`Pair numbers: ${[...numbers].map(([id, n]) => `${n.number} is ${id}`).join(', ')}.`));
  }

  x.open('PARTICIPANTS');
  const standings = new Map(s.report.pairs.map((p) => [p.pair, p]));
  const places = placesOf(s, numbers, winners);
  const order = [...new Set([...s.report.pairs.map((p) => p.pair).sort((a, b) => standings.get(a)!.rank - standings.get(b)!.rank), ...numbers.keys()])];
  for (const id of order) {
    const n = numbers.get(id)!;
    const p = standings.get(id);
    x.open('PAIR');
    x.el('PAIR_NUMBER', n.number);
    x.el('DIRECTION', n.direction);
    if (p) {
      x.el('PLACE', places.get(id));
      x.el('TOTAL_SCORE', num(p.total));
      if (p.percent !== undefined) x.el('PERCENTAGE', num(p.percent));
    }
    x.el('BOARDS_PLAYED', lines.filter((l) => l.ns === id || l.ew === id).length);
    const names = s.names?.[id] ?? [];
    // The member number the director entered with the name: USEBIO's NATIONAL_ID_NUMBER (the EBU or SBU number).
    const members = s.pairs?.[id]?.players.map((p) => p.member);
    (names.length > 0 ? names : [`pair ${id}`]).forEach((name, i) => x.open('PLAYER').el('PLAYER_NAME', name).el('NATIONAL_ID_NUMBER', members?.[i]).close('PLAYER'));
    x.close('PAIR');
  }
  x.close('PARTICIPANTS');

  for (const board of [...new Set(lines.map((l) => l.board))]) {
    x.open('BOARD');
    x.el('BOARD_NUMBER', board);
    for (const l of lines.filter((r) => r.board === board)) {
      x.open('TRAVELLER_LINE');
      x.el('NS_PAIR_NUMBER', numbers.get(l.ns)?.number ?? l.ns);
      x.el('EW_PAIR_NUMBER', numbers.get(l.ew)?.number ?? l.ew);
      // Whist: each side's scored tricks are its points on the board (Compass Whist adds them up).
      const scored = bridge ? undefined : scoredTricks(s, l);
      const why = adjustment(l, scored);
      if (why !== undefined) {
        // An artificial score: no contract or tricks; SCORE is "A" and the N-S percentage (bridge), and the points
        // each side scored are below, so they still add up to the pairs' TOTAL_SCORE.
        x.raw(comment(`adjusted: ${why}`));
        if (bridge && l.adjusted !== undefined) x.el('SCORE', `A${awardPercent(l.adjusted)}`);
      } else if (bridge) {
        x.el('CONTRACT', l.contract === 'Pass' ? 'PASS' : l.contract);
        if (l.contract !== 'Pass') x.el('PLAYED_BY', l.declarer);
        x.el('TRICKS', l.contract === 'Pass' ? undefined : l.declarerTricks);
        x.el('SCORE', l.score);
      } else if (l.tricks) {
        x.el('TRICKS', l.tricks.NS);
        x.el('SCORE', l.tricks.NS - l.tricks.EW);
      }
      if (l.mp) x.el('NS_MATCH_POINTS', num(l.mp.NS)).el('EW_MATCH_POINTS', num(l.mp.EW));
      if (l.imps) x.el('NS_IMPS', num(l.imps.NS)).el('EW_IMPS', num(l.imps.EW));
      if (scored) x.el('NS_MATCH_POINTS', num(scored.NS)).el('EW_MATCH_POINTS', num(scored.EW));
      x.close('TRAVELLER_LINE');
    }
    x.close('BOARD');
  }

  const records = new Map(recordsByBoard(s).map((r) => [r.board, r]));
  const dealt = boardNumbers(s).filter((b) => records.has(b));
  if (dealt.length > 0) {
    x.open('HANDSET');
    for (const board of dealt) {
      const rec = records.get(board)!;
      const hands = handsBySeat(rec.hands);
      x.open('BOARD');
      x.el('BOARD_NUMBER', board);
      x.el('DEALER', rec.dealer);
      if (bridge) {
        const vul = VULNERABILITY[(rec.vulnerable ?? vulnerabilityOf(board)) as keyof typeof VULNERABILITY];
        x.el('VULNERABILITY', vul ?? VULNERABILITY[vulnerabilityOf(board)]);
      }
      for (const seat of ['N', 'E', 'S', 'W'] as const) {
        x.open('HAND');
        x.el('DIRECTION', DIRECTION_NAME[seat]);
        x.el('SPADES', hands[seat][0]).el('HEARTS', hands[seat][1]).el('DIAMONDS', hands[seat][2]).el('CLUBS', hands[seat][3]);
        x.close('HAND');
      }
      x.close('BOARD');
    }
    x.close('HANDSET');
  }
  x.close('EVENT');
  x.close('USEBIO');
  return x.toString();
}
