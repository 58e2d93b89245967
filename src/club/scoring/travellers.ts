// Travellers from text: an NDJSON file (one result a line) or a PBN file with results (Contract, Declarer and Result
// per game, or a ScoreTable), for `tenace score`. Every problem names its line, the field and the fix. No I/O here:
// the caller reads the file.
import { SEATS, seatIndex } from '../../cards/seat.js';
import { closest } from '../../config/suggest.js';
import { parsePbn } from '../../formats/pbn.js';
import { readPbnTables } from '../../formats/pbn-tables.js';
import { printable } from '../../formats/quote.js';
import { formatContract, parseContract, parseContractText } from '../../cards/contract.js';
import { ScoringError } from './errors.js';
import { csvTravellerRows, looksLikeCsvTravellers } from './travellers-csv.js';
import { type WhistTraveller, checkWhistTraveller } from './whist.js';

/** What was read: the travellers, the line each came from, and every problem. */
export interface TravellersRead {
  format: 'ndjson' | 'pbn' | 'csv';
  travellers: WhistTraveller[];
  /** `lines[i]` is the line of `travellers[i]` in the text. */
  lines: number[];
  errors: { line: number; message: string }[];
  /** The players of each pair, where the file names them (a PBN TotalScoreTable's Names column). */
  names?: Record<string, string[]>;
}

const FIELDS = ['board', 'ns', 'ew', 'table', 'round', 'tricks', 'contract', 'marks', 'players', 'adjusted', 'made', 'wonBeforeRevoke', 'version', 'handScored', 'lead'];
const EXAMPLE = '{"board":1,"ns":"1NS","ew":"1EW","tricks":{"NS":7,"EW":6}}';

/** Read travellers from NDJSON, PBN or CSV text (the director page's CSV travellers), told apart by the content. */
export function readTravellers(text: string): TravellersRead {
  const first = text.replace(/^\uFEFF/, '').split('\n').map((l) => l.trim()).find((l) => l !== '');
  if (first !== undefined && looksLikeCsvTravellers(first)) return readCsvTravellers(text);
  return first !== undefined && (first.startsWith('[') || first.startsWith('%')) ? readPbnTravellers(text) : readNdjsonTravellers(text);
}

/** Read the CSV travellers the director page exports: each row is checked as an NDJSON line is. */
export function readCsvTravellers(text: string): TravellersRead {
  const out: TravellersRead = { format: 'csv', travellers: [], lines: [], errors: [] };
  const { rows, errors } = csvTravellerRows(text);
  out.errors.push(...errors);
  const push = collector(out, 'remove one of the two lines');
  for (const { line, raw } of rows) push(line, raw);
  return out;
}

/** A bridge contract as the travellers carry it ("4HE", "3NTSX", "PASS"), or the reason it is not one. */
function bridgeContract(value: unknown): string | { error: string } {
  if (typeof value !== 'string') return { error: 'contract: give a string such as "4HE", "3NTSX" or "PASS"' };
  if (/^pass(ed)?$/i.test(value.trim())) return 'PASS';
  const c = parseContract(value.replace(/\s+/g, ''));
  return c.ok ? formatContract(c.value) : { error: `contract: ${c.error}` };
}

/** A collector of travellers: each line checked, and a second line of the same result refused naming the first. */
function collector(out: TravellersRead, twice: string): (line: number, raw: unknown) => void {
  const seen = new Map<string, number>();
  return (line, raw) => {
    const t = lineToTraveller(raw);
    if ('error' in t) { out.errors.push({ line, message: t.error }); return; }
    const key = dedupeKey(t);
    const before = seen.get(key);
    if (before !== undefined) { out.errors.push({ line, message: `${where(t)} is already on line ${before}: ${twice}` }); return; }
    seen.set(key, line);
    out.travellers.push(t);
    out.lines.push(line);
  };
}

/** One NDJSON line into a traveller, or the first problem with it. */
function lineToTraveller(raw: unknown): WhistTraveller | { error: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: `each line is one result object, e.g. ${EXAMPLE}` };
  const o = { ...(raw as Record<string, unknown>) };
  for (const k of Object.keys(o)) {
    if (FIELDS.includes(k)) continue;
    const near = closest(k, FIELDS);
    // A field nobody reads is left alone (exports may carry more); a misspelt one would silently lose a result.
    if (near) return { error: `"${printable(k, 40)}" is not a traveller field: did you mean "${near}"?` };
    delete o[k];
  }
  for (const k of ['ns', 'ew'] as const) if (typeof o[k] === 'number') o[k] = String(o[k]);
  if (typeof o.board !== 'number' || !Number.isInteger(o.board) || o.board < 1) {
    return { error: `board: ${o.board === undefined ? 'missing' : `${printable(JSON.stringify(o.board), 40)} is not a board number`}: give an integer 1 or more, e.g. "board":3` };
  }
  if (o.table !== undefined && !(typeof o.table === 'string' && o.table !== '') && !(typeof o.table === 'number' && Number.isInteger(o.table) && o.table >= 1)) {
    return { error: 'table: give the table number (1 or more) or its name, e.g. "table":2' };
  }
  if (o.round !== undefined && !(typeof o.round === 'number' && Number.isInteger(o.round) && o.round >= 1)) {
    return { error: 'round: give the round number, 1 or more, e.g. "round":2' };
  }
  for (const k of ['ns', 'ew'] as const) {
    if (typeof o[k] !== 'string' || (o[k] as string).trim() === '') return { error: `${k}: give the ${k === 'ns' ? 'N-S' : 'E-W'} pair as the schedule names it, e.g. "${k}":"3${k.toUpperCase()}"` };
  }
  if (o.contract !== undefined) {
    const c = bridgeContract(o.contract);
    if (typeof c !== 'string') return c;
    o.contract = c;
    if (c === 'PASS') {
      if (o.tricks !== undefined && o.tricks !== 0) return { error: 'tricks: a passed-out board has no declarer: leave "tricks" out' };
    } else if (o.adjusted === undefined && !(typeof o.tricks === 'number' && Number.isInteger(o.tricks) && o.tricks >= 0 && o.tricks <= 13)) {
      return { error: `tricks: give the declarer's tricks, 0-13, e.g. {"contract":"${c}","tricks":${Number(c[0]) + 6}}` };
    }
    return o as unknown as WhistTraveller;
  }
  // A bare adjustment is of the file's game (bridge percentages or whist tricks): the scoring checks its values as such.
  if (o.adjusted !== undefined && o.tricks === undefined) {
    const a = o.adjusted;
    const named = a === 'average' || a === 'average-plus' || a === 'average-minus';
    const sides = typeof a === 'object' && a !== null && ['NS', 'EW'].every((d) => typeof (a as Record<string, unknown>)[d] === 'number' && ((a as Record<string, number>)[d] ?? -1) >= 0);
    if (!named && !sides) return { error: 'adjusted: give "average", "average-plus", "average-minus", percentages for bridge as {"NS":60,"EW":40}, or tricks for whist as {"NS":7,"EW":6}' };
    return o as unknown as WhistTraveller;
  }
  try {
    checkWhistTraveller(o as unknown as WhistTraveller, 0);
  } catch (e) {
    if (e instanceof ScoringError) return { error: e.message };
    throw e;
  }
  return o as unknown as WhistTraveller;
}

/** The same result twice (a redelivered line) would count twice. */
function dedupeKey(t: WhistTraveller): string {
  return JSON.stringify([t.board, t.ns, t.ew, t.table ?? null, t.round ?? null, t.players ?? null]);
}

function where(t: WhistTraveller): string {
  return `board ${t.board}, ${t.ns} v ${t.ew}${t.table !== undefined ? ` at table ${t.table}` : ''}${t.round !== undefined ? ` in round ${t.round}` : ''}`;
}

/** Read a travellers NDJSON text: one result object a line; blank lines and lines starting with # are skipped. */
export function readNdjsonTravellers(text: string): TravellersRead {
  const out: TravellersRead = { format: 'ndjson', travellers: [], lines: [], errors: [] };
  const push = collector(out, 'remove one of the two lines');
  text.replace(/^\uFEFF/, '').split('\n').forEach((raw, k) => {
    const line = k + 1;
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) return;
    let json: unknown;
    try {
      json = JSON.parse(s);
    } catch (e) {
      out.errors.push({ line, message: `not JSON (${(e as Error).message}): each line is one result, e.g. ${EXAMPLE}` });
      return;
    }
    push(line, json);
  });
  return out;
}

interface ScoreTable { line: number; columns: string[]; rows: { line: number; cells: string[] }[] }

/** The ScoreTable sections of a PBN text with their lines (the PBN reader keeps no section but Auction and Play). */
function scoreTables(text: string): ScoreTable[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const tables: ScoreTable[] = [];
  let cur: ScoreTable | null = null;
  lines.forEach((raw, k) => {
    const s = raw.trim();
    const tag = /^\[\s*ScoreTable\s+"([^"]*)"\s*\]/i.exec(s);
    if (tag) {
      // "Table\2R;PairId_NS\2R;Contract\5L": each column's name comes before the backslash.
      cur = { line: k + 1, columns: tag[1].split(';').map((c) => c.split('\\')[0].trim().toLowerCase()), rows: [] };
      tables.push(cur);
      return;
    }
    if (s === '' || s.startsWith('[')) { cur = null; return; }
    if (cur && !s.startsWith('%') && !s.startsWith(';')) cur.rows.push({ line: k + 1, cells: (s.match(/"[^"]*"|\S+/g) ?? []).map((c) => c.replace(/^"|"$/g, '')) });
  });
  return tables;
}

/** A PBN cell or tag value that says nothing ("", "-", "?") is absent. */
const given = (v: string | undefined): string | undefined => (v === undefined || /^(|-|\?)$/.test(v.trim()) ? undefined : v.trim());

/** The club export's `Adjusted` cell (our extension): a named average, or `NS:n,EW:n`; null when it is neither. */
function adjustedFrom(v: string): string | { NS: number; EW: number } | null {
  if (v === 'average' || v === 'average-plus' || v === 'average-minus') return v;
  const m = /^NS:(\d+(?:\.\d+)?),EW:(\d+(?:\.\d+)?)$/.exec(v);
  return m ? { NS: Number(m[1]), EW: Number(m[2]) } : null;
}

/**
 * Read a PBN file with results. Each ScoreTable row is a result (columns PairId_NS, PairId_EW, Table, Round,
 * Contract, Declarer, Result; or Tricks_NS and Tricks_EW for whist, our extension); a game without one gives its
 * own Contract, Declarer and Result with the pairs in PairId_NS and PairId_EW tags.
 */
export function readPbnTravellers(text: string): TravellersRead {
  const out: TravellersRead = { format: 'pbn', travellers: [], lines: [], errors: [] };
  const parsed = parsePbn(text);
  out.errors.push(...parsed.errors);
  const records = parsed.records;
  const tables = scoreTables(text);
  const recordAt = (line: number) => [...records].reverse().find((r) => (r.line ?? 0) <= line);
  const withTable = new Set(tables.map((st) => recordAt(st.line)));
  const push = collector(out, 'remove one of the two');
  const num = (v: string | undefined): number | string | undefined => (v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : v);

  for (const st of tables) {
    const rec = recordAt(st.line);
    if (rec?.board === undefined) { out.errors.push({ line: st.line, message: 'ScoreTable: the game has no Board tag: add [Board "N"] before the ScoreTable' }); continue; }
    const col = (name: string) => st.columns.indexOf(name.toLowerCase());
    for (const need of ['PairId_NS', 'PairId_EW']) {
      if (col(need) < 0) out.errors.push({ line: st.line, message: `ScoreTable: no ${need} column: the pairs of each result are needed to score it` });
    }
    if (col('PairId_NS') < 0 || col('PairId_EW') < 0) continue;
    for (const row of st.rows) {
      const cell = (name: string) => (col(name) < 0 ? undefined : given(row.cells[col(name)]));
      const r: Record<string, unknown> = { board: rec.board, ns: cell('PairId_NS'), ew: cell('PairId_EW') };
      if (cell('Table') !== undefined) r.table = num(cell('Table'));
      if (cell('Round') !== undefined) r.round = num(cell('Round'));
      // The club export's Version column (Law 87B's groups of a fouled board) and HandScored (our extensions).
      if (cell('Version') !== undefined) r.version = cell('Version');
      if (cell('HandScored') === 'yes') r.handScored = true;
      const adjusted = cell('Adjusted');
      if (adjusted !== undefined) {
        const a = adjustedFrom(adjusted);
        if (a === null) { out.errors.push({ line: row.line, message: `ScoreTable: Adjusted "${printable(adjusted, 20)}" is not an adjustment: give average, average-plus, average-minus or NS:60,EW:40` }); continue; }
        r.adjusted = a;
      }
      const tns = cell('Tricks_NS');
      const tew = cell('Tricks_EW');
      if (tns !== undefined || tew !== undefined) {
        r.tricks = { NS: Number(tns), EW: Number(tew) };
        // Dup. X.4 columns (our extension, written by the club's PBN export).
        const mns = cell('Made_NS');
        const mew = cell('Made_EW');
        if (mns !== undefined || mew !== undefined) r.made = { NS: Number(mns), EW: Number(mew) };
        const marks: Record<string, string> = {};
        for (const d of ['NS', 'EW']) { const m = cell(`Marks_${d}`); if (m !== undefined) marks[d] = m; }
        if (Object.keys(marks).length) r.marks = marks;
        const won: Record<string, number> = {};
        for (const d of ['NS', 'EW']) { const w = cell(`WonBeforeRevoke_${d}`); if (w !== undefined) won[d] = Number(w); }
        if (Object.keys(won).length) r.wonBeforeRevoke = won;
      } else {
        const contract = cell('Contract');
        // The club export writes an adjusted bridge result with no contract ("-"): the award is the result.
        if (contract === undefined && r.adjusted !== undefined) { push(row.line, r); continue; }
        if (contract === undefined) { out.errors.push({ line: row.line, message: 'ScoreTable: the row has no Contract: give it (or Pass), or Tricks_NS and Tricks_EW for whist' }); continue; }
        const c = rowContract(contract, cell('Declarer'));
        if (typeof c !== 'string') { out.errors.push({ line: row.line, message: `ScoreTable: ${c.error}` }); continue; }
        r.contract = c;
        const result = cell('Result');
        if (c !== 'PASS') {
          if (result === undefined || !/^\d+$/.test(result)) { out.errors.push({ line: row.line, message: `ScoreTable: Result ${result === undefined ? 'is missing' : `"${printable(result, 20)}" is not a number of tricks`}: give the declarer's tricks, 0-13` }); continue; }
          r.tricks = Number(result);
        }
      }
      push(row.line, r);
    }
  }
  for (const rec of records) {
    if (withTable.has(rec)) continue;
    const hasResult = rec.passedOut || (rec.contract !== undefined && rec.result !== undefined);
    if (!hasResult) {
      // A hand record (a dealing machine's file) has no result; a contract without its result is a mistake.
      if (rec.contract !== undefined) out.errors.push({ line: rec.line ?? 0, message: `board ${rec.board ?? '?'}: Contract ${rec.contract} has no Result: add [Result "N"], the declarer's tricks` });
      continue;
    }
    const ns = given(rec.tags.PairId_NS ?? rec.tags.PairNS);
    const ew = given(rec.tags.PairId_EW ?? rec.tags.PairEW);
    if (ns === undefined || ew === undefined) {
      out.errors.push({ line: rec.line ?? 0, message: `board ${rec.board ?? '?'}: the result names no pairs: add [PairId_NS "1"] and [PairId_EW "2"], or a ScoreTable with PairId_NS and PairId_EW columns` });
      continue;
    }
    const r: Record<string, unknown> = { board: rec.board, ns, ew, contract: rec.passedOut ? 'PASS' : rec.contract };
    if (!rec.passedOut) r.tricks = rec.result;
    const table = given(rec.tags.Table);
    if (table !== undefined) r.table = num(table);
    const round = given(rec.tags.Round);
    if (round !== undefined) r.round = num(round);
    push(rec.line ?? 0, r);
  }
  const names = pbnNames(text);
  if (names) out.names = names;
  // In the file's order, as a reader looks for them.
  const order = out.lines.map((line, i) => ({ line, t: out.travellers[i] })).sort((a, b) => a.line - b.line);
  out.travellers = order.map((o) => o.t);
  out.lines = order.map((o) => o.line);
  out.errors.sort((a, b) => a.line - b.line);
  return out;
}

/** The players of each pair from a TotalScoreTable's PairId and Names columns (§5.8: names separated by ';'). */
function pbnNames(text: string): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const t of readPbnTables(text, 'TotalScoreTable')) {
    const pair = t.columns.indexOf('PairId');
    const names = t.columns.indexOf('Names');
    if (pair < 0 || names < 0) continue;
    for (const row of t.rows) {
      const id = row[pair];
      const list = (row[names] ?? '').split(';').map((n) => n.trim()).filter((n) => n !== '');
      // A pair without players is written with its id alone.
      if (id && list.length > 0 && !(list.length === 1 && list[0] === id)) out[id] = list;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A ScoreTable row's Contract ("4H", "3NTX", "Pass") and Declarer ("E") as one compact contract, "4HE". */
function rowContract(contract: string, declarer: string | undefined): string | { error: string } {
  if (/^pass$/i.test(contract)) return 'PASS';
  const c = parseContractText(contract.replace(/\s+/g, ''));
  if (!c.ok) return { error: `Contract "${printable(contract, 20)}" must be a level 1-7, a strain S H D C or NT, then X or XX; or Pass` };
  const seat = c.value.declarer !== undefined ? SEATS[c.value.declarer] : declarer;
  if (seat === undefined || seat.length !== 1 || seatIndex(seat) < 0) return { error: `Declarer ${seat === undefined ? 'is missing' : `"${printable(seat, 10)}" is not a seat`}: give N, E, S or W` };
  return formatContract({ ...c.value, declarer: seatIndex(seat) });
}
