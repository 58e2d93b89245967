// The director page's CSV travellers (src/club/exports/csv.ts) read back for `tenace score`: each row becomes the
// traveller object an NDJSON line would give, so the same checks apply to it. No I/O here: the caller reads the file.
import { parseCsv } from '../exports/csv.js';

/** One CSV row as a raw traveller (checked by the caller as an NDJSON line is), with its line in the text. */
export interface CsvRow { line: number; raw: Record<string, unknown> }

/** The columns a travellers CSV must have; the export writes these and more. */
const NEEDED = ['board', 'ns', 'ew'] as const;

/** True when the text's first line is a travellers CSV header (it starts with the board column and names ns and ew). */
export function looksLikeCsvTravellers(firstLine: string): boolean {
  const head = firstLine.split(',').map((c) => c.trim().toLowerCase());
  return head[0] === 'board' && NEEDED.every((c) => head.includes(c));
}

/** A number when the cell is one, else the text (a table may be named). */
const numOrText = (v: string): number | string => (/^\d+$/.test(v) ? Number(v) : v);

/** "NS -R EW +R" into { NS: "-R", EW: "+R" }; null when it is not that. */
function marksOf(v: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const m of v.matchAll(/(NS|EW)\s+([-+]R)/g)) out[m[1]] = m[2];
  return Object.keys(out).length ? out : null;
}

/** "average", "average-plus", "average-minus", "NS 60% EW 40%" (bridge) or "NS 7 EW 6" (whist tricks); else the text. */
function adjustedOf(v: string): unknown {
  if (v === 'average' || v === 'average-plus' || v === 'average-minus') return v;
  const m = /^NS\s+(\d+(?:\.\d+)?)%?\s+EW\s+(\d+(?:\.\d+)?)%?$/.exec(v);
  return m ? { NS: Number(m[1]), EW: Number(m[2]) } : v;
}

/**
 * Rows of a travellers CSV as raw travellers: bridge rows from contract, declarer and declarer_tricks; whist rows
 * from ns_tricks and ew_tricks; the adjustment, the revoke marks and the Dup. X.4 columns when given. Scored columns
 * (ns_score, the matchpoints, the IMPs) are what scoring gives back, so they are not read.
 */
export function csvTravellerRows(text: string): { rows: CsvRow[]; errors: { line: number; message: string }[] } {
  const table = parseCsv(text.replace(/^\uFEFF/, ''));
  const errors: { line: number; message: string }[] = [];
  const head = (table[0] ?? []).map((c) => c.trim().toLowerCase());
  for (const c of NEEDED) if (!head.includes(c)) errors.push({ line: 1, message: `the header has no "${c}" column: give the CSV travellers the director page exports` });
  if (errors.length) return { rows: [], errors };
  const rows: CsvRow[] = [];
  // parseCsv joins a quoted line break into its field, so a row's line is counted from the breaks it holds.
  let line = 1 + (table[0] ?? []).join(',').split('\n').length - 1;
  for (const cells of table.slice(1)) {
    line++;
    const here = line;
    line += cells.join(',').split('\n').length - 1;
    if (cells.every((c) => c.trim() === '')) continue;
    const cell = (name: string): string | undefined => {
      const i = head.indexOf(name);
      const v = i < 0 ? undefined : cells[i]?.trim();
      return v === '' ? undefined : v;
    };
    const raw: Record<string, unknown> = { board: cell('board') !== undefined ? numOrText(cell('board')!) : undefined, ns: cells[head.indexOf('ns')] ?? '', ew: cells[head.indexOf('ew')] ?? '' };
    if (cell('table') !== undefined) raw.table = numOrText(cell('table')!);
    if (cell('round') !== undefined) raw.round = numOrText(cell('round')!);
    const contract = cell('contract');
    if (contract !== undefined) {
      // The CSV gives "3NTX" and the declarer apart; the traveller's contract is "3NTSX".
      const m = /^(.*?)(X{0,2})$/i.exec(contract)!;
      raw.contract = /^pass$/i.test(contract) ? 'PASS' : m[1] + (cell('declarer') ?? '') + m[2];
      if (cell('declarer_tricks') !== undefined) raw.tricks = numOrText(cell('declarer_tricks')!);
    } else if (cell('ns_tricks') !== undefined || cell('ew_tricks') !== undefined) {
      raw.tricks = { NS: numOrText(cell('ns_tricks') ?? ''), EW: numOrText(cell('ew_tricks') ?? '') };
    }
    if (cell('adjusted') !== undefined) raw.adjusted = adjustedOf(cell('adjusted')!);
    if (cell('marks') !== undefined) raw.marks = marksOf(cell('marks')!) ?? cell('marks');
    if (cell('ns_made') !== undefined || cell('ew_made') !== undefined) raw.made = { NS: numOrText(cell('ns_made') ?? ''), EW: numOrText(cell('ew_made') ?? '') };
    const won: Record<string, unknown> = {};
    for (const d of ['NS', 'EW']) { const w = cell(`${d.toLowerCase()}_won_before_revoke`); if (w !== undefined) won[d] = numOrText(w); }
    if (Object.keys(won).length) raw.wonBeforeRevoke = won;
    rows.push({ line: here, raw });
  }
  return { rows, errors };
}
