// `tenace score TRAVELLERS [--method M] [--json]`: score a travellers file (NDJSON, PBN with results, or CSV travellers).
import { BRIDGE_METHODS, ScoringError, WHIST_METHODS, scoreTravellers } from '../club/scoring/index.js';
import { readTravellers } from '../club/scoring/travellers.js';
import type { WhistReport } from '../club/scoring/whist.js';
import type { ScoreReport } from '../club/types.js';
import { printable } from '../formats/quote.js';
import { type CliIo, EX_USAGE, STDIO, parseCommand } from './args.js';
import { readInput } from './stdin.js';

const METHODS = [...WHIST_METHODS, ...BRIDGE_METHODS];
const USAGE = `usage: tenace score TRAVELLERS [--method ${METHODS.join('|')}] [--matches teams|pairs] [--json]
  TRAVELLERS  NDJSON, one result a line: {"board":1,"ns":"1NS","ew":"1EW","tricks":{"NS":7,"EW":6}} (whist)
              or {"board":1,"ns":"1NS","ew":"1EW","contract":"4HE","tricks":10} (bridge); or a PBN file with
              results (Contract, Declarer, Result; pairs from a ScoreTable or PairId_NS/PairId_EW tags); or the
              director page's CSV travellers (a header row starting board,round,table,ns,ew); - reads stdin
  --method    whist: average (the default: plus and minus against the N-S and E-W averages, Compass Whist),
              matches (most matches wins, tricks decide ties), individuals (tricks lost against the top score);
              bridge: matchpoints (the default), cross-imps, butler
  --matches   for --method matches: teams (a team's pairs against the other team's at the tables; the default when
              every pair id names its team, "3NS" or "O/1") or pairs (against the pair that held the same cards)
  --json      the ScoreReport (docs/club.md)
`;
/** Problems listed before the rest are only counted. */
const MAX_ERRORS = 20;

/** Plus and minus as the seed prints them: "+6", "-3", and "=" for level. */
function signed(n: number | undefined): string {
  if (n === undefined) return '';
  return n > 0 ? `+${n}` : n === 0 ? '=' : String(n);
}

const side = (d: string | undefined): string => (d === 'NS' ? 'N-S' : d === 'EW' ? 'E-W' : 'both');

/** Rows under a header, columns padded; numbers right-aligned. */
function table(head: string[], rows: string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const right = head.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+=]?[\d.]*=?$/.test(r[i])));
  const fmt = (r: string[]) => r.map((c, i) => (right[i] ? c.padStart(w[i]) : c.padEnd(w[i]))).join('  ').trimEnd();
  return [fmt(head), ...rows.map(fmt)];
}

/** A pair as people read it: its id, then its players where they are known. */
const who = (p: ScoreReport['pairs'][number]): string => (p.names?.length ? `${p.pair} ${p.names.join(' & ')}` : p.pair);

/** The standings for people: a table in rank order, the averages or the matches, and the adjusted results. */
export function reportText(report: ScoreReport): string {
  const r = report as WhistReport;
  const boards = r.boards.length;
  const results = r.boards.reduce((n, b) => n + b.results.length, 0);
  const out: string[] = [];
  const count = `${boards} board${boards === 1 ? '' : 's'}, ${results} result${results === 1 ? '' : 's'}`;
  if (r.method === 'average') {
    out.push(`Duplicate whist · plus and minus against the averages (Compass Whist) · ${count}`);
    if (r.averages) out.push(`Average: N-S ${r.averages.NS}, E-W ${r.averages.EW}`, '');
    out.push(...table(['rank', 'pair', 'side', 'tricks', '+/-'], r.pairs.map((p) => [p.rankLabel ?? String(p.rank), who(p), side(p.direction), String(p.total), signed(p.vsAverage)])));
    const best = (d: string) => r.pairs.find((p) => p.direction === d);
    const ns = best('NS');
    const ew = best('EW');
    if (ns && ew) out.push('', `Best N-S: ${ns.pair} (${signed(ns.vsAverage)}) · best E-W: ${ew.pair} (${signed(ew.vsAverage)})`);
  } else if (r.method === 'team-matches') {
    out.push(`Duplicate whist · matches: the most matches wins, tricks decide ties · ${count}`, '');
    out.push(...table(['rank', 'team', 'matches', 'tricks +/-'], r.pairs.map((p) => [p.rankLabel ?? String(p.rank), who(p), String(p.matches ?? p.total), signed(p.vsAverage)])));
    if (r.matches?.length) {
      out.push('', 'Matches:');
      for (const m of r.matches) {
        const [a, b] = m.sides;
        const verdict = m.won[0] === m.won[1] ? 'tied, half a match each' : `${m.won[0] > m.won[1] ? a : b} by ${Math.abs(m.plus[0])} trick${Math.abs(m.plus[0]) === 1 ? '' : 's'}`;
        const tables = m.tables?.map((x) => `table ${x.table}: ${x.plus[0] === 0 ? 'level' : `${x.plus[0] > 0 ? a : b} +${Math.abs(x.plus[0])}`}`).join('; ');
        out.push(`  ${a} v ${b}: ${verdict}${tables ? ` (${tables})` : ''}`);
      }
    }
  } else if (r.method === 'individuals') {
    out.push(`Duplicate whist · individuals: the fewest tricks lost against the top score wins · ${count}`, '');
    out.push(...table(['rank', 'player', 'lost', '+/-', 'tricks'], r.pairs.map((p) => [p.rankLabel ?? String(p.rank), who(p), String(p.lost ?? ''), signed(p.vsAverage), String(p.total)])));
  } else {
    out.push(`Bridge · ${r.method} · ${count}`, '');
    // Matchpoints carry a percentage; IMPs (cross-imps, butler) have none, and no empty column stands for it.
    const pct = r.pairs.some((p) => p.percent !== undefined);
    const row = (p: (typeof r.pairs)[number]) => [p.rankLabel ?? String(p.rank), who(p), side(p.direction), String(p.total), ...(pct ? [p.percent === undefined ? '' : String(p.percent)] : [])];
    out.push(...table(['rank', 'pair', 'side', r.method === 'matchpoints' ? 'total' : 'IMPs', ...(pct ? ['%'] : [])], r.pairs.map(row)));
  }
  const notes = r.boards.flatMap((b) => b.results.flatMap((x) => (x.notes ?? []).map((n) => `  board ${b.board}, ${x.ns} v ${x.ew}${x.table !== undefined ? ` at table ${x.table}` : ''}: ${n}`)));
  if (notes.length) out.push('', 'Adjusted:', ...notes);
  return out.join('\n') + '\n';
}

/** Run `tenace score`; resolves to the exit code: 64 bad usage, 65 bad input, 66 unreadable file. */
export async function scoreCommand(argv: string[], io: CliIo = STDIO): Promise<number> {
  const args = parseCommand('score', USAGE, {
    args: argv, allowPositionals: true,
    options: { method: { type: 'string' }, matches: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  }, io);
  if (typeof args === 'number') return args;
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) {
    io.err(file ? `tenace score: one TRAVELLERS file at a time (got ${args.positionals.length})\n${USAGE}` : USAGE);
    return EX_USAGE;
  }
  const method = args.values.method;
  if (method !== undefined && !(METHODS as readonly string[]).includes(method)) {
    io.err(`tenace score: --method "${printable(method, 40)}" is unknown: use one of ${METHODS.join(', ')}\n`);
    return EX_USAGE;
  }
  const matches = args.values.matches;
  if (matches !== undefined && matches !== 'teams' && matches !== 'pairs') {
    io.err(`tenace score: --matches "${printable(matches, 40)}" is unknown: use teams or pairs\n`);
    return EX_USAGE;
  }
  const input = readInput('score', file, io);
  if (typeof input === 'number') return input;
  const { text, name } = input;
  const read = readTravellers(text);
  for (const e of read.errors.slice(0, MAX_ERRORS)) io.err(`${printable(`${name}:${e.line}: ${e.message}`)}\n`);
  if (read.errors.length > MAX_ERRORS) io.err(`${printable(name)}: ${read.errors.length - MAX_ERRORS} more problems not shown\n`);
  if (read.errors.length > 0) return 65;
  if (read.travellers.length === 0) {
    io.err(`tenace score: ${printable(name)} holds no result: give one result a line, e.g. {"board":1,"ns":"1NS","ew":"1EW","tricks":{"NS":7,"EW":6}}\n`);
    return 65;
  }
  let report: ScoreReport;
  try {
    report = scoreTravellers(read.travellers, { ...(method ? { method: method as (typeof METHODS)[number] } : {}), ...(matches ? { matches } : {}) });
  } catch (e) {
    const err = e as Error;
    if (e instanceof ScoringError) {
      const line = e.index !== undefined ? read.lines[e.index] : undefined;
      io.err(`${printable(line !== undefined ? `${name}:${line}: ${err.message}` : `tenace score: ${err.message}`)}\n`);
      return 65;
    }
    // Bridge scoring may throw a plain Error for its input; a part not written yet is not the user's fault.
    io.err(`tenace score: ${printable(err.message)}\n`);
    return /not written yet/.test(err.message) ? 70 : 65;
  }
  // The players' names where the file gives them, as the director's standings carry them.
  if (read.names) report = { ...report, pairs: report.pairs.map((p) => (read.names![p.pair] ? { ...p, names: read.names![p.pair] } : p)) };
  io.out(args.values.json ? `${JSON.stringify(report)}\n` : reportText(report));
  return 0;
}
