// CSV travellers (RFC 4180): a header row, then one line per result in board, round and table order. Bridge lines
// give the contract, declarer, declarer's tricks and N-S score; whist lines give each side's tricks. CRLF line ends.
import type { SessionExport } from '../types.js';
import { isBridge, num, resultLines } from './common.js';

/** One field as RFC 4180 wants it: quoted when it holds a comma, a quote or a line break, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const CSV_COLUMNS = [
  'board', 'round', 'table', 'ns', 'ew', 'contract', 'declarer', 'declarer_tricks', 'ns_tricks', 'ew_tricks',
  'ns_score', 'ns_mp', 'ew_mp', 'ns_imps', 'ew_imps', 'adjusted', 'marks', 'ns_made', 'ew_made',
  'ns_won_before_revoke', 'ew_won_before_revoke',
] as const;

/** The session's travellers as CSV, one line per result. */
export function exportCsv(s: SessionExport): string {
  const bridge = isBridge(s);
  const rows = resultLines(s).map((l) => {
    // A bridge award is in percent; a whist one is the tricks each side is to score.
    const unit = bridge ? '%' : '';
    const adjusted = l.adjusted === undefined ? '' : typeof l.adjusted === 'string' ? l.adjusted : `NS ${num(l.adjusted.NS)}${unit} EW ${num(l.adjusted.EW)}${unit}`;
    const marks = l.marks ? Object.entries(l.marks).map(([side, m]) => `${side} ${m}`).join(' ') : '';
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      board: String(l.board), round: l.round !== undefined ? String(l.round) : '', table: l.table ?? '', ns: l.ns, ew: l.ew,
      contract: bridge ? l.contract ?? '' : '', declarer: l.declarer ?? '',
      declarer_tricks: l.declarerTricks !== undefined ? String(l.declarerTricks) : '',
      ns_tricks: l.tricks ? String(l.tricks.NS) : '', ew_tricks: l.tricks ? String(l.tricks.EW) : '',
      ns_score: l.score !== undefined ? String(l.score) : '',
      ns_mp: l.mp ? num(l.mp.NS) : '', ew_mp: l.mp ? num(l.mp.EW) : '',
      ns_imps: l.imps ? num(l.imps.NS) : '', ew_imps: l.imps ? num(l.imps.EW) : '',
      adjusted, marks,
      ns_made: l.made ? String(l.made.NS) : '', ew_made: l.made ? String(l.made.EW) : '',
      // Dup. X.4: what the revoking side won before its revoke, which no penalty may take.
      ns_won_before_revoke: l.wonBeforeRevoke?.NS !== undefined ? String(l.wonBeforeRevoke.NS) : '',
      ew_won_before_revoke: l.wonBeforeRevoke?.EW !== undefined ? String(l.wonBeforeRevoke.EW) : '',
    };
    return CSV_COLUMNS.map((c) => csvField(cells[c])).join(',');
  });
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

/** Parse RFC 4180 CSV into rows of fields (quoted fields may hold commas, doubled quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; continue; }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') { quoted = true; i++; continue; }
    if (c === ',') { row.push(field); field = ''; i++; continue; }
    if (c === '\r' && text[i + 1] === '\n') i++;
    if (c === '\n' || c === '\r') { row.push(field); rows.push(row); row = []; field = ''; i++; continue; }
    field += c;
    i++;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}
