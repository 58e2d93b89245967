// `tenace analyse FILE [--json | --pbn]`: each deal of a table log, PBN or LIN file with double-dummy eyes: the table
// of what each seat makes as declarer in each strain, the par (bridge), and where play is recorded the tricks each
// card cost. DDS does the solving, in a child process (src/dd).
import { PBN_EXPORT_HEAD, formatPbnGame, parseCompactContract, printable } from '../formats/index.js';
import type { Seat } from '../cards/seat.js';
import { replayWithFacts } from '../laws/engine.js';
import type { DealResult } from '../laws/types.js';
import { getVariant } from '../laws/variants.js';
import { DoubleDummy, DdError, type Strain, type Vulnerability, strainOf } from '../dd/index.js';
import { type DealAnalysis, type DealInput, analyseDeal, optimumResultTable, parTags, parText, tableLines } from '../dd/deal.js';
import { type CliIo, EX_USAGE, STDIO, parseCommand } from './args.js';
import { loadLog } from './load-log.js';
import { type DealHead, dealHeads, exportRecord } from './replay.js';
import { readInput } from './stdin.js';

const USAGE = `usage: tenace analyse FILE [--json | --pbn] [--no-play]
  FILE        a table log (.ndjson), PBN or LIN file; - reads standard input
  --json      one JSON object per deal: table, par, what each side takes from the opening lead, each card's cost
  --pbn       the deals as PBN 2.1 with OptimumScore, ParContract and the OptimumResultTable
  --no-play   the table and the par only: skip the card-by-card analysis (the slow part, about a second a deal)
`;

/** Problems listed before the rest are only counted: a binary or garbled file would otherwise flood the terminal. */
const MAX_ERRORS = 20;

/** Exit code when double-dummy analysis is off (sysexits EX_UNAVAILABLE). */
export const EX_UNAVAILABLE = 69;

/** A deal as the engine read it, with what the analysis needs of it, or why it cannot be analysed. */
interface Prepared { result: DealResult; head?: DealHead; input?: DealInput; skip?: string }

const VULNERABLE: Record<string, Vulnerability> = { none: 'None', love: 'None', '-': 'None', ns: 'NS', ew: 'EW', all: 'All', both: 'All' };

/** Read what each deal of a loaded file gives the analysis. */
function prepare(results: DealResult[], heads: DealHead[], trumps: (string | null)[], seats: Seat[][]): Prepared[] {
  return results.map((result, i) => {
    const head = heads[i];
    const hands = head?.deal.hands;
    if (!hands) return { result, head, skip: 'the hands are not known' };
    if (seats[i].length !== 4) return { result, head, skip: `${result.variant} is played by ${seats[i].length} hands; the analysis needs four` };
    const bridge = getVariant(result.variant).trump === 'contract';
    if (bridge && head.record?.passedOut) {
      return { result, head, input: { hands, strain: 'NT', plays: [], bridge: { vulnerable: vulnerableOf(head.deal.vulnerable), dealer: head.deal.dealer } } };
    }
    if (result.tricks.some((t) => t.orderUnknown)) return { result, head, skip: 'the order of the cards played is not known' };
    const plays = result.tricks.flatMap((t) => {
      const l = ['N', 'E', 'S', 'W'].indexOf(t.leader);
      const order = t.order ?? [0, 1, 2, 3].map((k) => (['N', 'E', 'S', 'W'] as Seat[])[(l + k) & 3]);
      return order.filter((s) => t.cards[s] !== undefined).map((s) => ({ seat: s, card: t.cards[s] as string }));
    });
    const strain: Strain = strainOf(trumps[i]);
    const input: DealInput = { hands, strain, plays };
    if (bridge) input.bridge = { vulnerable: vulnerableOf(head.deal.vulnerable), dealer: head.deal.dealer, declarer: declarerOf(head.contract) };
    return { result, head, input };
  });
}

function vulnerableOf(v: string | undefined): Vulnerability {
  return VULNERABLE[(v ?? 'none').toLowerCase()] ?? 'None';
}

function declarerOf(contract: string | undefined): Seat | undefined {
  const m = contract ? /^[1-7](?:NT|N|S|H|D|C)([NESW])/i.exec(contract) : null;
  return m ? (m[1].toUpperCase() as Seat) : undefined;
}

/** The deal's text block. */
function dealText(p: Prepared, a: DealAnalysis | undefined): string[] {
  const head = [`Board ${p.result.board ?? '?'}`, p.result.variant];
  const c = p.input?.bridge ? parseCompactContract(p.head?.contract) : null;
  if (c) head.push(`${c.level}${c.strain}${c.risk} by ${c.declarer}`);
  else if (p.input?.bridge && p.head?.record?.passedOut) head.push('passed out');
  else if (p.input && !p.input.bridge) head.push(`trump ${p.input.strain === 'NT' ? 'none' : p.input.strain}`);
  const lines = [head.join(' · ')];
  if (!a || !p.input) return [...lines, `no analysis: ${p.skip ?? 'nothing to analyse'}`, ''];
  lines.push(...tableLines(a.table));
  if (a.par) lines.push(`${parText(a.par)} (vulnerable: ${p.input.bridge?.vulnerable}${p.input.bridge?.dealer ? `, dealer ${p.input.bridge.dealer}` : ''})`);
  if (a.fromLead) {
    const took = p.result.tricksWon;
    const complete = took.NS + took.EW === 13;
    lines.push(`from ${a.fromLead.leader}'s lead in ${p.input.strain}: N-S take ${a.fromLead.NS}, E-W ${a.fromLead.EW} with best play` +
      (complete ? `; at the table N-S took ${took.NS}, E-W ${took.EW}` : ''));
  }
  if (a.play) {
    const lost = a.play.cards.filter((c) => c.cost > 0);
    lines.push(lost.length === 0 ? 'tricks lost: none' : `tricks lost: ${lost.map((c) => `trick ${c.trick} ${c.seat} ${c.card} (${c.cost})`).join(', ')}`);
    if (a.play.stopped) lines.push(a.play.stopped);
    const after = a.play.after;
    if (after) {
      lines.push(`play stopped with ${after.left.NS + after.left.EW} tricks to go (N-S had won ${after.won.NS}, E-W ${after.won.EW}): ` +
        `with best play N-S can take ${after.left.NS} of them, E-W ${after.left.EW}; the result gave N-S ${p.result.tricksWon.NS}, E-W ${p.result.tricksWon.EW}`);
    }
  }
  return [...lines, ''];
}

function dealJson(p: Prepared, a: DealAnalysis | undefined): Record<string, unknown> {
  const base: Record<string, unknown> = { board: p.result.board ?? null, variant: p.result.variant };
  if (!a || !p.input) return { ...base, skipped: p.skip ?? 'nothing to analyse' };
  return {
    ...base, strain: p.input.strain, ...(p.head?.contract ? { contract: p.head.contract } : {}),
    table: a.table, ...(a.par ? { par: a.par } : {}), ...(a.fromLead ? { fromLead: a.fromLead } : {}),
    tricksWon: p.result.tricksWon,
    ...(a.play ? { plays: a.play.cards, ...(a.play.stopped ? { stopped: a.play.stopped } : {}), ...(a.play.after ? { after: a.play.after } : {}) } : {}),
  };
}

function dealPbn(p: Prepared, a: DealAnalysis | undefined, format: ReturnType<typeof loadLog>['format']): string {
  const rec = exportRecord(p.head, format);
  const tags = { ...rec.tags };
  for (const k of ['OptimumScore', 'ParContract', 'OptimumResultTable']) delete tags[k];
  if (a?.par) Object.assign(tags, parTags(a.par));
  // Supplemental sections follow the play section (PBN 2.1 §3.1).
  const table = a ? `\r\n${optimumResultTable(a.table).join('\r\n')}` : '';
  return formatPbnGame({ ...rec, tags }, p.result) + table;
}

/** Run `tenace analyse`; resolves to the exit code. */
export async function analyseCommand(argv: string[], io: CliIo = STDIO, dd?: DoubleDummy): Promise<number> {
  const args = parseCommand('analyse', USAGE, {
    args: argv, allowPositionals: true,
    options: { json: { type: 'boolean' }, pbn: { type: 'boolean' }, 'no-play': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  }, io);
  if (typeof args === 'number') return args;
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) {
    io.err(file ? `tenace analyse: one FILE at a time (got ${args.positionals.length})\n${USAGE}` : USAGE);
    return EX_USAGE;
  }
  if (args.values.json && args.values.pbn) {
    io.err('tenace analyse: --json and --pbn are two output formats: choose one\n');
    return EX_USAGE;
  }
  const input = readInput('analyse', file, io);
  if (typeof input === 'number') return input;
  const { text, name } = input;
  const log = loadLog(text, name);
  for (const e of log.errors.slice(0, MAX_ERRORS)) io.err(`${printable(`${name}:${e.line}: ${e.message}`)}\n`);
  if (log.errors.length > MAX_ERRORS) io.err(`${name}: ${log.errors.length - MAX_ERRORS} more problems not shown\n`);
  if (log.events.length === 0) {
    io.err(`tenace analyse: ${name} holds no deal to analyse\n`);
    return 65;
  }
  const replayed = replayWithFacts(log.events);
  const deals = prepare(replayed.deals, dealHeads(log.events, log.records), replayed.facts.map((f) => f.trump), replayed.facts.map((f) => f.seats));
  const solver = dd ?? new DoubleDummy();
  try {
    const st = await solver.status();
    if (!st.on) {
      io.err(`tenace analyse: ${st.reason}\n`);
      return EX_UNAVAILABLE;
    }
    const mode = args.values.json ? 'json' : args.values.pbn ? 'pbn' : 'text';
    if (mode === 'pbn') io.out(PBN_EXPORT_HEAD);
    let first = true;
    for (const p of deals) {
      let a: DealAnalysis | undefined;
      if (p.input) {
        const input = args.values['no-play'] ? { ...p.input, plays: [] } : p.input;
        try {
          a = await analyseDeal(solver, input);
        } catch (e) {
          // Off or closed ends the run; a bad deal, a crash or a hang of the solver costs only this deal.
          if (e instanceof DdError && (e.code === 'off' || e.code === 'closed')) throw e;
          p.skip = (e as Error).message;
        }
      }
      if (mode === 'json') io.out(`${JSON.stringify(dealJson(p, a))}\n`);
      else if (mode === 'pbn') io.out(`${first ? '' : '\r\n'}${dealPbn(p, a, log.format)}\r\n`);
      else io.out(`${dealText(p, a).join('\n')}\n`);
      first = false;
    }
    return 0;
  } catch (e) {
    io.err(`tenace analyse: ${(e as Error).message}\n`);
    return 70;
  } finally {
    if (!dd) solver.close();
  }
}
