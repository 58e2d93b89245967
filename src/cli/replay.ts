// `tenace replay FILE [--json | --pbn] [--variant NAME]`: fold a table log, PBN or LIN file through the engine.
import { readFileSync } from 'node:fs';
import { type DealRecord, dealEventToRecord, formatPbnFromResults, printable } from '../formats/index.js';
import type { DealEvent, TableEvent } from '../formats/table-log.js';
import { parseContract } from '../laws/contract.js';
import { replayWithFacts } from '../laws/engine.js';
import { type DealLine, type KeeperState, type RubberRecord, type ScoreOptions, scoreStates } from '../laws/score/index.js';
import type { DealResult, ReplayResult } from '../laws/types.js';
import { getVariant, variantNames } from '../laws/variants.js';
import { type CliIo, EX_USAGE, STDIO, parseCommand } from './args.js';
import { type LoadedLog, loadLog } from './load-log.js';

const SEAT_ORDER = ['N', 'E', 'S', 'W'] as const;
const STRAIN_SYMBOLS = ['♠', '♥', '♦', '♣'];
const USAGE = `usage: tenace replay FILE [--json | --pbn] [--variant NAME] [--game-points N] [--progressive] [--continuous-dummy]
  FILE        a table log (.ndjson), PBN or LIN file, told apart by its content; - reads standard input
  --json      the DESIGN §5 JSON, plus "marks" (-R/+R, Dup. X.4) on a deal that has them; in the social games
              (English, American, Prussian, Favourite whist, the dummy games, Humbug, Thirteen and the Odd) a
              "score" per deal and the running score
  --pbn       PBN 2.1, with our findings marked ^R (revoke) and ^L (lead out of turn)
  --variant   judge every deal under this variant's laws
  --game-points  the social games' game: 5, 7 or 10 points ("5, 7 or 10 point whist")
  --progressive  Favourite whist, the variation with progressive suit values (S 1, C 2, D 3, H 4)
  --continuous-dummy  English Dummy: one player takes dummy throughout and concedes a point each rubber
`;
/** Problems listed before the rest are only counted: a binary or garbled file would otherwise flood the terminal. */
const MAX_ERRORS = 20;

/** What a deal's result is read with: its deal event, the contract reached, and the PBN or LIN record it came from. */
interface DealHead { deal: DealEvent; contract?: string; record?: DealRecord }

/**
 * The head of each deal the engine folds, in the engine's order: a deal event opens one, so does a card before any
 * deal event, and an abandon closes it. A contract event counts only before the opening lead, as in the engine.
 */
function dealHeads(events: readonly TableEvent[], records: readonly DealRecord[] | undefined): DealHead[] {
  const heads: DealHead[] = [];
  let open: (DealHead & { led: boolean }) | null = null;
  let k = 0;
  for (const e of events) {
    if (e.type === 'deal') {
      open = { deal: e, contract: e.contract, record: records?.[k++], led: false };
      heads.push(open);
    } else if (e.type === 'abandon') {
      open = null;
    } else if (e.type !== 'tray' && e.type !== 'undo' && e.type !== 'honours') {
      if (!open) { open = { deal: { type: 'deal' }, led: false }; heads.push(open); }
      if (e.type === 'contract' && !open.led) open.contract = e.contract;
      if (e.type === 'place') open.led = true;
    }
  }
  return heads;
}

/** A deal's score for the JSON: its line on the score sheet and the running score after it. */
function dealScoreJson(st: KeeperState, i: number): Record<string, unknown> {
  const s = st.score;
  const line = s.deals[i];
  return {
    ...line,
    running: { points: s.points, gamesWon: s.gamesWon, games: s.games, rubbers: s.rubbers.length, totals: s.totals, ...(s.favourite ? { favourite: s.favourite } : {}), ...(s.tournee ? { tournee: s.tournee } : {}) },
  };
}

/**
 * The DESIGN §5 JSON: board, variant, tricks, tricksWon, findings and scored per deal; marks (Dup. X.4) when set;
 * in the social games (issue 9) a `score` per deal and the running score after the last.
 */
export function replayJson(r: ReplayResult, score: readonly KeeperState[] | null = null): string {
  const deals = r.deals.map((d, i) => ({
    board: d.board,
    variant: d.variant,
    tricks: d.tricks.map((t) => (t.orderUnknown ? { leader: t.leader, cards: t.cards, winner: t.winner, orderUnknown: true } : { leader: t.leader, cards: t.cards, winner: t.winner })),
    tricksWon: d.tricksWon,
    findings: d.findings,
    scored: d.scored,
    // Extension (docs/contracts.md §5): a pair match's score sheet records the revoke marks.
    ...(d.marks ? { marks: d.marks } : {}),
    // Extension (issue 9): the deal's line on the score sheet of a social game, and the score after it.
    ...(score?.[i] ? { score: dealScoreJson(score[i], i) } : {}),
  }));
  if (!score?.length) return JSON.stringify({ deals });
  const { deals: _lines, ...running } = score[score.length - 1].score;
  return JSON.stringify({ deals, score: running });
}

const SIDE_NAMES = (d: DealResult | undefined): Record<'NS' | 'EW', string> =>
  d?.sides ? { NS: d.sides.NS, EW: d.sides.EW } : { NS: 'N-S', EW: 'E-W' };
const VALUE_NAMES: Record<number, string> = { 3: 'a treble', 2: 'a double', 1: 'a single' };

/** A deal's score for people: what was marked and why, the score after it, the game and rubber it won. */
function scoreText(line: DealLine, d: DealResult | undefined, st: KeeperState): string[] {
  const n = SIDE_NAMES(d);
  const out: string[] = [];
  const marks = line.items.map((x) => `${n[x.side]} ${x.points > 0 ? '+' : ''}${x.points} ${x.what}${x.note ? ` (${x.note})` : ''} [${x.law}]`);
  const fav = line.favourite ? ` · favourite ${line.favourite}${line.multiplier && line.multiplier > 1 ? ', doubled' : ''}` : '';
  out.push(`score: ${marks.length ? marks.join(', ') : 'nothing marked'}${fav} · ${n.NS} ${line.after.NS}, ${n.EW} ${line.after.EW}`);
  if (line.honours.called.length) out.push(`honours called: ${line.honours.called.map((x) => n[x]).join(', ')}${line.honours.held ? ` · held ${n.NS} ${line.honours.held.NS}, ${n.EW} ${line.honours.held.EW}` : ''}`);
  for (const note of line.notes) out.push(`score note: ${note}`);
  if (line.game) {
    const g = line.game;
    const what = st.rules.gameValue === 'english' ? `${VALUE_NAMES[g.value] ?? g.value}, ${g.value}` : `${g.value}`;
    out.push(`game: ${n[g.winner]} (${what}) at ${g.score.NS} to ${g.score.EW} [${g.law}]`);
  }
  if (line.rubber) out.push(`rubber: ${rubberText(line.rubber, n)}`);
  return out;
}

function rubberText(r: RubberRecord, n: Record<'NS' | 'EW', string>): string {
  if (r.totals) return `${n[r.winner]} win a rubber of ${r.value} (games ${r.games.map((g) => `${g.score.NS} to ${g.score.EW}`).join(', ')}; bonus ${r.rubberPoints}; totals ${r.totals.NS} to ${r.totals.EW}) [${r.law}]`;
  const won = r.games.filter((g) => g.winner === r.winner).map((g) => g.value).join(' + ');
  return `${n[r.winner]} win a rubber of ${r.value} (games ${won}, rubber points ${r.rubberPoints}${r.deducted ? `, less ${r.deducted} for the losers' game` : ''}${r.concession ? `, ${r.concession.points} conceded to ${n[r.concession.to]}` : ''}) [${r.law}]`;
}

/** A trick-by-trick table and the findings with their law citations, for people. */
function replayText(r: ReplayResult, heads: readonly DealHead[], score: readonly KeeperState[] | null = null): string {
  const out: string[] = [];
  r.deals.forEach((d, i) => out.push(...dealText(d, heads[i]), ...(score?.[i] ? scoreText(score[i].score.deals[i], d, score[i]) : []), ''));
  const last = score?.[score.length - 1]?.score;
  if (last) {
    const n = SIDE_NAMES(r.deals[0]);
    out.push(`${last.game}: ${n.NS} ${last.points.NS}, ${n.EW} ${last.points.EW} in the game; games ${n.NS} ${last.gamesWon.NS}, ${n.EW} ${last.gamesWon.EW}; ` +
      `${last.rubbers.length} ${last.rubbers.length === 1 ? 'rubber' : 'rubbers'} won, worth ${n.NS} ${last.totals.NS}, ${n.EW} ${last.totals.EW}` +
      (last.tournee ? `; tournée ${last.tournee.played} of ${last.tournee.of}` : ''));
    for (const f of last.findings) out.push(`finding: board ${f.board ?? '?'}  ${f.seat ?? n[f.side]}  ${f.kind}  [${f.law}]  ${f.message}`);
    out.push('');
  }
  return out.join('\n');
}

/** PBN 2.1 of the replayed deals, with our findings written as ^R (revoke) and ^L (lead out of turn). */
function replayPbn(r: ReplayResult, heads: readonly DealHead[], format: LoadedLog['format']): string {
  return formatPbnFromResults(r.deals.map((result, i) => ({ rec: exportRecord(heads[i], format), result })));
}

/** The record a deal is exported from: its source record (Event, Site, Date, players kept), else its deal event. */
function exportRecord(head: DealHead | undefined, format: LoadedLog['format']): DealRecord {
  // LIN's raw tags (md, pn, mb…) are not PBN tags; what PBN needs of them is already in the record's fields.
  if (head?.record) return format === 'lin' ? { ...head.record, tags: {} } : head.record;
  return dealEventToRecord({ ...(head?.deal ?? { type: 'deal' }), contract: head?.contract });
}

/** "3NT by W · 10 tricks, made +1", "passed out", or '' for a variant without an auction. */
function contractText(d: DealResult, head: DealHead | undefined): string {
  if (getVariant(d.variant).trump !== 'contract') return '';
  if (head?.record?.passedOut) return 'passed out';
  const c = head?.contract ? parseContract(head.contract) : undefined;
  if (!c?.ok) return 'contract unknown';
  const { level, strain, declarer, doubled } = c.value;
  const seat = SEAT_ORDER[declarer];
  const named = `${level}${strain < 0 ? 'NT' : STRAIN_SYMBOLS[strain]}${['', 'X', 'XX'][doubled]} by ${seat}`;
  const tricks = seat === 'N' || seat === 'S' ? d.scored.NS : d.scored.EW;
  if (d.scored.NS + d.scored.EW !== 13) return `${named} · ${tricks} tricks so far`;
  const over = tricks - 6 - level;
  return `${named} · ${tricks} tricks, ${over >= 0 ? `made${over > 0 ? ` +${over}` : ''}` : `down ${-over}`}`;
}

function dealText(d: DealResult, head: DealHead | undefined): string[] {
  const contract = contractText(d, head);
  const lines = [[`Board ${d.board ?? '?'}`, d.variant, contract].filter((x) => x !== '').join(' · ')];
  if (d.tricks.length === 0) {
    // A passed-out board, or a hand record without play: no table of empty tricks.
    if (contract !== 'passed out') lines.push('no card played');
    return [...lines, ...findingLines(d)];
  }
  const seats = SEAT_ORDER.filter((s) => d.tricks.some((t) => t.cards[s] !== undefined));
  lines.push(['trick', 'lead', ...seats.map((s) => s.padEnd(4)), 'won'].join('  '));
  d.tricks.forEach((t, i) => {
    const cells = seats.map((s) => ((t.cards[s] ?? '--') + (t.winner === s ? '*' : '')).padEnd(4));
    lines.push([String(i + 1).padStart(5), t.leader.padEnd(4), ...cells, t.winner].join('  '));
  });
  const names = d.sides ? [`${d.sides.NS}`, `${d.sides.EW}`] : ['N-S', 'E-W'];
  lines.push(`tricks won: ${names[0]} ${d.tricksWon.NS}, ${names[1]} ${d.tricksWon.EW}` +
    (d.scored.NS !== d.tricksWon.NS || d.scored.EW !== d.tricksWon.EW ? `   scored after penalties: ${names[0]} ${d.scored.NS}, ${names[1]} ${d.scored.EW}` : ''));
  if (d.marks) lines.push(`marks: ${Object.entries(d.marks).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (d.findings.length === 0) lines.push('findings: none');
  return [...lines, ...findingLines(d)];
}

/** Each finding with its law and remedies, then the engine's notes. */
function findingLines(d: DealResult): string[] {
  const lines: string[] = [];
  for (const f of d.findings) {
    lines.push(`trick ${String(f.trick).padStart(2)}  ${f.seat}  ${f.kind}${f.card ? ` ${f.card}` : ''}  [${f.law}]  ${f.message}`);
    for (const rem of f.remedies) lines.push(`            ${rem.option}: ${rem.remedy} — ${rem.text}`);
  }
  for (const n of d.notes ?? []) lines.push(`note: ${n}`);
  return lines;
}

/** Standard input, whole. A non-blocking stdin (inherited from some parents) is read again through /dev/stdin. */
function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    return readFileSync('/dev/stdin', 'utf8');
  }
}

/** Run the replay command; returns the process exit code (non-zero only for unreadable input). */
export function replayCommand(argv: string[], io: CliIo = STDIO): number {
  const args = parseCommand('replay', USAGE, {
    args: argv, allowPositionals: true,
    options: {
      json: { type: 'boolean' }, pbn: { type: 'boolean' }, variant: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      'game-points': { type: 'string' }, progressive: { type: 'boolean' }, 'continuous-dummy': { type: 'boolean' },
    },
  }, io);
  if (typeof args === 'number') return args;
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) {
    io.err(file ? `tenace replay: one FILE at a time (got ${args.positionals.length})\n${USAGE}` : USAGE);
    return EX_USAGE;
  }
  if (args.values.json && args.values.pbn) {
    io.err('tenace replay: --json and --pbn are two output formats: choose one\n');
    return EX_USAGE;
  }
  const variant = args.values.variant;
  if (variant !== undefined) {
    try { getVariant(variant); } catch { io.err(`tenace replay: --variant "${printable(variant, 40)}" is unknown: use one of ${variantNames().join(', ')}\n`); return EX_USAGE; }
  }
  const scoreOpts: ScoreOptions = {};
  const gp = args.values['game-points'];
  if (gp !== undefined) {
    if (!['5', '7', '10'].includes(gp)) { io.err(`tenace replay: --game-points "${printable(gp, 10)}" must be 5, 7 or 10 ("5, 7 or 10 point whist")\n`); return EX_USAGE; }
    scoreOpts.gamePoints = Number(gp);
  }
  if (args.values.progressive) scoreOpts.progressive = true;
  if (args.values['continuous-dummy']) scoreOpts.continuousDummy = true;
  const name = file === '-' ? 'stdin' : file;
  let text: string;
  try {
    text = file === '-' ? readStdin() : readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`tenace replay: cannot read ${name}: ${(e as Error).message}\n`);
    return 66;
  }
  const log = loadLog(text, name);
  for (const e of log.errors.slice(0, MAX_ERRORS)) io.err(`${printable(`${name}:${e.line}: ${e.message}`)}\n`);
  if (log.errors.length > MAX_ERRORS) io.err(`${name}: ${log.errors.length - MAX_ERRORS} more problems not shown\n`);
  if (log.playable === 0) {
    io.err(`tenace replay: ${name} holds no deal that can be replayed (no hands and no card played)\n`);
    return 65;
  }
  const result = replayWithFacts(log.events, { forceVariant: variant });
  const heads = dealHeads(log.events, log.records);
  const score = scoreStates(result.deals, result.facts, scoreOpts);
  const deals = { deals: result.deals };
  io.out((args.values.json ? replayJson(deals, score) : args.values.pbn ? replayPbn(deals, heads, log.format) : replayText(deals, heads, score)) + '\n');
  return 0;
}
