// PBN 2.1 with the session's results: one game per board with its deal (export format: the mandatory tags, CRLF
// lines) and the results as a ScoreTable (PBN 2.1 §5.7); the first game also carries the session's TotalScoreTable
// (§5.8). Whist has no contract: its ScoreTable leaves out Contract, Declarer and Result and carries the tricks of
// each side in the user-defined columns Tricks_NS and Tricks_EW (§5.2 allows columns with user defined names).
import type { SessionExport, TrayRecord } from '../types.js';
export { type PbnTable, readPbnTables } from '../../formats/pbn-tables.js';
import { variantNames } from '../../laws/variants.js';
import type { BoardDd } from '../../dd/boards.js';
import { optimumResultTable, parTags } from '../../dd/deal.js';
import {
  type ResultLine, boardNumbers, dealFromDealer, dealerOf, isBridge, num, recordsByBoard, resultLines, vulnerabilityOf,
} from './common.js';

/** One column of a PBN table: its name, minimum width and alignment (§5.2: `Name\6R`). */
interface Column { name: string; align: 'L' | 'R'; cell(line: ResultLine): string }

/** A tag line in export format: the value's backslashes and quotes escaped, line breaks flattened. */
function tag(name: string, value: string): string {
  return `[${name} "${value.replace(/[\t\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
}

/**
 * A table element: a section token when it can be one (§5.1 forbids white space, ';', '{', '}' and '"' in a token,
 * and a line may not start with '[' or '%'), otherwise a string token in double quotes. Empty is '-' (irrelevant).
 */
export function pbnElement(value: string): string {
  if (value === '') return '-';
  if (/^[^\s;{}"[\]%\\]+$/.test(value)) return value;
  return `"${value.replace(/[\t\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A names element (§5.7 `<names>`): always a string token, the players separated by ';'. */
function namesElement(names: string[] | undefined, id: string): string {
  const text = names && names.length > 0 ? names.join(';') : id;
  return `"${text.replace(/[\t\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A table: the tag value naming the columns with their widths, then one padded line per row (§5.2 export format). */
function table(tagName: string, columns: { name: string; align: 'L' | 'R' }[], rows: string[][]): string[] {
  const widths = columns.map((_, i) => Math.max(1, ...rows.map((r) => r[i].length)));
  const spec = columns.map((c, i) => `${c.name}\\${widths[i]}${c.align}`).join(';');
  const lines = rows.map((r) => r.map((cell, i) => (columns[i].align === 'R' ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
    .join(' ').trimEnd());
  // Written as real PBN files write it, with single backslashes: "\2R" is no escape, so readers keep it as it is.
  return [`[${tagName} "${spec}"]`, ...lines];
}

/** An artificial (adjusted) value is preceded by '^' (§5.2). */
function adjustedPercent(line: ResultLine, side: 'NS' | 'EW'): string {
  const a = line.adjusted;
  if (a === undefined) return '-';
  if (typeof a === 'object') return `^${num(a[side])}`;
  const pct = { average: [50, 50], 'average-plus': [60, 40], 'average-minus': [40, 60] }[a];
  // Average plus/minus is given to the side the director names; the traveller says only which, so N-S is the side.
  return `^${side === 'NS' ? pct[0] : pct[1]}`;
}

/** The `Adjusted` cell: `average`, `average-plus`, `average-minus`, or `NS:60,EW:40` (percent; tricks for whist). */
function adjustedCell(a: ResultLine['adjusted']): string {
  if (a === undefined) return '-';
  return typeof a === 'string' ? a : `NS:${num(a.NS)},EW:${num(a.EW)}`;
}

/** The ScoreTable columns of the session's scoring: bridge contracts or whist tricks, then the method's points. */
function scoreColumns(s: SessionExport): Column[] {
  const bridge = isBridge(s);
  const cols: Column[] = [
    { name: 'Round', align: 'R', cell: (l) => (l.round !== undefined ? String(l.round) : '-') },
    { name: 'Table', align: 'R', cell: (l) => pbnElement(l.table ?? '') },
    { name: 'PairId_NS', align: 'R', cell: (l) => pbnElement(l.ns) },
    { name: 'PairId_EW', align: 'R', cell: (l) => pbnElement(l.ew) },
  ];
  if (bridge) {
    cols.push(
      { name: 'Contract', align: 'L', cell: (l) => (l.adjusted !== undefined ? '-' : pbnElement(l.contract ?? '?')) },
      { name: 'Declarer', align: 'R', cell: (l) => (l.adjusted !== undefined || l.contract === 'Pass' ? '-' : l.declarer ?? '?') },
      { name: 'Result', align: 'R', cell: (l) => (l.adjusted !== undefined || l.contract === 'Pass' ? '-' : l.declarerTricks !== undefined ? String(l.declarerTricks) : '?') },
      { name: 'Score_NS', align: 'R', cell: (l) => (l.score === undefined ? (l.adjusted !== undefined ? '-' : '?') : l.score >= 0 ? String(l.score) : '-') },
      { name: 'Score_EW', align: 'R', cell: (l) => (l.score === undefined ? (l.adjusted !== undefined ? '-' : '?') : l.score < 0 ? String(-l.score) : '-') },
    );
  } else {
    cols.push(
      { name: 'Tricks_NS', align: 'R', cell: (l) => (l.tricks ? String(l.tricks.NS) : '-') },
      { name: 'Tricks_EW', align: 'R', cell: (l) => (l.tricks ? String(l.tricks.EW) : '-') },
    );
  }
  const method = s.report.method;
  if (method === 'matchpoints') {
    cols.push(
      { name: 'MP_NS', align: 'R', cell: (l) => (l.mp ? num(l.mp.NS) : '?') },
      { name: 'MP_EW', align: 'R', cell: (l) => (l.mp ? num(l.mp.EW) : '?') },
    );
  } else if (method === 'cross-imps' || method === 'butler') {
    cols.push(
      { name: 'IMP_NS', align: 'R', cell: (l) => (l.imps ? num(l.imps.NS) : '?') },
      { name: 'IMP_EW', align: 'R', cell: (l) => (l.imps ? num(l.imps.EW) : '?') },
    );
  }
  if (s.travellers.some((t) => t.marks !== undefined || t.made !== undefined)) {
    // Dup. X.4 needs the tricks as made and the marks beside the tricks after the penalty: user-defined columns.
    const side = (l: ResultLine, d: 'NS' | 'EW') => l.marks?.[d] ?? '-';
    const won = (l: ResultLine, d: 'NS' | 'EW') => (l.wonBeforeRevoke?.[d] === undefined ? '-' : String(l.wonBeforeRevoke[d]));
    cols.push(
      { name: 'Made_NS', align: 'R', cell: (l) => (l.made ? String(l.made.NS) : '-') },
      { name: 'Made_EW', align: 'R', cell: (l) => (l.made ? String(l.made.EW) : '-') },
      { name: 'Marks_NS', align: 'R', cell: (l) => side(l, 'NS') },
      { name: 'Marks_EW', align: 'R', cell: (l) => side(l, 'EW') },
      { name: 'WonBeforeRevoke_NS', align: 'R', cell: (l) => won(l, 'NS') },
      { name: 'WonBeforeRevoke_EW', align: 'R', cell: (l) => won(l, 'EW') },
    );
  }
  // Our extensions: the form of a fouled board each result was played in (Law 87B), read back by `tenace score`; and
  // which results were entered by hand (their cards not verified).
  if (s.travellers.some((t) => (t as { version?: unknown }).version !== undefined)) {
    cols.push({ name: 'Version', align: 'R', cell: (l) => (l.version === undefined ? '-' : pbnElement(String(l.version))) });
  }
  if (s.travellers.some((t) => t.handScored)) cols.push({ name: 'HandScored', align: 'L', cell: (l) => (l.handScored ? 'yes' : '-') });
  if (s.travellers.some((t) => t.adjusted !== undefined)) {
    cols.push(
      { name: 'Percentage_NS', align: 'R', cell: (l) => adjustedPercent(l, 'NS') },
      { name: 'Percentage_EW', align: 'R', cell: (l) => adjustedPercent(l, 'EW') },
      // Our extension: the adjustment as the traveller gives it, so that `tenace score` reads it back exactly (the
      // percentages above say nothing of a whist adjustment, which is "average" or tricks).
      { name: 'Adjusted', align: 'L', cell: (l) => adjustedCell(l.adjusted) },
    );
  }
  return cols;
}

/** The TotalScoreTable of the standings (§5.8): rank, pair, names, the method's total and the mean per board. */
function totalScoreTable(s: SessionExport, lines: ResultLine[]): string[] {
  const method = s.report.method;
  const totalName = method === 'matchpoints' ? 'TotalMP' : method === 'cross-imps' || method === 'butler' ? 'TotalIMP' : 'TotalScore';
  const played = (pair: string) => lines.filter((l) => l.ns === pair || l.ew === pair).length;
  const hasPercent = s.report.pairs.some((p) => p.percent !== undefined);
  const hasVs = s.report.pairs.some((p) => p.vsAverage !== undefined);
  const cols: { name: string; align: 'L' | 'R' }[] = [
    // "+" before a column name: that column is in descending order (§5.2); the total decides the rank.
    { name: 'Rank', align: 'R' }, { name: 'PairId', align: 'R' }, { name: 'Names', align: 'L' }, { name: `+${totalName}`, align: 'R' },
  ];
  if (hasPercent) cols.push({ name: 'TotalPercentage', align: 'R' });
  // The seed's plus or minus against the average of the direction: a user-defined column.
  if (hasVs) cols.push({ name: 'VsAverage', align: 'R' });
  cols.push({ name: 'NrBoards', align: 'R' });
  const pairs = [...s.report.pairs].sort((a, b) => a.rank - b.rank);
  const rows = pairs.map((p) => {
    const row = [p.rankLabel ? pbnElement(p.rankLabel) : String(p.rank), pbnElement(p.pair), namesElement(s.names?.[p.pair], p.pair), num(p.total)];
    if (hasPercent) row.push(p.percent !== undefined ? num(p.percent) : '?');
    if (hasVs) row.push(p.vsAverage !== undefined ? (p.vsAverage > 0 ? '+' : '') + num(p.vsAverage) : '?');
    row.push(String(played(p.pair)));
    return row;
  });
  return table('TotalScoreTable', cols, rows);
}

/** PBN's Date tag: "YYYY.MM.DD". */
function pbnDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[1]}.${m[2]}.${m[3]}` : '?';
}

const SCORING: Record<string, string> = { matchpoints: 'MP', 'cross-imps': 'IMP;Cross', butler: 'IMP;Butler' };

/**
 * The session as PBN 2.1 export format: one game per board with its deal, ScoreTable, and the TotalScoreTable first.
 * `dd` gives a board's double-dummy analysis when solved (issue 21): then OptimumScore and ParContract (bridge) and
 * the OptimumResultTable (§5.7) go with it.
 */
export function exportPbn(s: SessionExport, dd?: (rec: TrayRecord, bridge: boolean) => BoardDd | undefined): string {
  const lines = resultLines(s);
  const records = new Map(recordsByBoard(s).map((r) => [r.board, r]));
  const bridge = isBridge(s);
  const columns = scoreColumns(s);
  const games = boardNumbers(s).map((board, i) => {
    const rec = records.get(board);
    const dealer = rec?.dealer ?? dealerOf(board);
    const out = [
      tag('Event', `${s.club} ${s.session}`),
      tag('Site', s.club),
      tag('Date', pbnDate(s.date)),
      tag('Board', String(board)),
      tag('West', ''), tag('North', ''), tag('East', ''), tag('South', ''),
      tag('Dealer', dealer),
      tag('Vulnerable', rec?.vulnerable ?? (bridge ? vulnerabilityOf(board) : 'None')),
      tag('Deal', rec ? dealFromDealer(rec.hands, dealer) : ''),
      tag('Scoring', bridge ? SCORING[s.report.method] ?? '' : ''),
      // Many tables played this board: no single contract, so Declarer, Contract and Result are irrelevant ("").
      tag('Declarer', ''), tag('Contract', ''), tag('Result', ''),
    ];
    if (!bridge && rec?.trumpCard) out.push(tag('TrumpCard', rec.trumpCard));
    // A suit declared trumps for the sitting (Memory Duplicate, Dup. IV.11): no card is turned.
    if (!bridge && rec?.trump) out.push(tag('Trump', rec.trump));
    // The game the board was played as (the record's, else the session's), so that `tenace replay` judges it as such.
    const game = rec?.variant ?? (variantNames().includes(s.variant) ? s.variant : undefined);
    if (game) out.push(tag('Variant', game));
    const analysis = rec ? dd?.(rec, bridge) : undefined;
    if (analysis?.par) for (const [k, v] of Object.entries(parTags(analysis.par))) out.push(tag(k, v));
    // Supplemental sections in export format are sorted by name: OptimumResultTable before ScoreTable.
    if (analysis) out.push(...optimumResultTable(analysis.table));
    const rows = lines.filter((l) => l.board === board).map((l) => columns.map((c) => c.cell(l)));
    out.push(...table('ScoreTable', columns, rows));
    if (i === 0) out.push(...totalScoreTable(s, lines));
    return out;
  });
  const head = ['% PBN 2.1', '% EXPORT', `% tenace club session ${s.session}: ${s.schedule.movement}, ${s.schedule.tables} tables, scored by ${s.report.method}`];
  if (!bridge) head.push('% Whist: no contract; the ScoreTable gives the tricks of each side (Tricks_NS, Tricks_EW) after the penalties of the code');
  return [...head, '', games.map((g) => g.join('\r\n')).join('\r\n\r\n'), ''].join('\r\n');
}
