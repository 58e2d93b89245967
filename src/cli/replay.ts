// `tenace replay FILE [--json | --pbn] [--variant NAME]`: fold a table log, PBN or LIN file through the engine.
// A PBN file streams game by game (read a record, fold it through its own Table, write its output, forget it), so
// memory does not grow with the archive beyond its text; output goes out in pieces of about a megabyte, after the
// problems found before it, so a file of ordinary size prints exactly as when it was read whole first.
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import {
  type DealRecord, type ParseError, PBN_EXPORT_HEAD, dealEventToRecord, detectFormat, formatPbnGame,
  isPlayable, printable, recordToTableLog, streamPbn,
} from '../formats/index.js';
import type { DealEvent, TableEvent } from '../formats/table-log.js';
import { parseContract } from '../cards/contract.js';
import { type DealFacts, Table, replayWithFacts } from '../laws/engine.js';
import {
  type DealLine, type KeeperState, type RubberRecord, type Score, type ScoreOptions, type ScoreRules, ScoreSheet, finishedDeal, rulesFor,
} from '../laws/score/index.js';
import type { DealResult, ReplayResult } from '../laws/types.js';
import { getVariant, variantNames } from '../laws/variants.js';
import { type CliIo, EX_USAGE, STDIO, parseCommand } from './args.js';
import { readStdin } from './stdin.js';
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
export interface DealHead { deal: DealEvent; contract?: string; record?: DealRecord }

/**
 * The head of each deal the engine folds, in the engine's order: a deal event opens one, so does a card before any
 * deal event, and an abandon closes it. A contract event counts only before the opening lead, as in the engine.
 */
export function dealHeads(events: readonly TableEvent[], records: readonly DealRecord[] | undefined): DealHead[] {
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
  return lineScoreJson(st.score.deals[i], st.score);
}

/** A deal's line on the score sheet and the running score `s` just after it, for the JSON. */
function lineScoreJson(line: DealLine, s: Score): Record<string, unknown> {
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
  const deals = r.deals.map((d, i) => dealJson(d, score?.[i] ? dealScoreJson(score[i], i) : undefined));
  if (!score?.length) return JSON.stringify({ deals });
  const { deals: _lines, ...running } = score[score.length - 1].score;
  return JSON.stringify({ deals, score: running });
}

/** One deal of the DESIGN §5 JSON, with its score when the game keeps one. */
export function dealJson(d: DealResult, score: Record<string, unknown> | undefined): Record<string, unknown> {
  return {
    board: d.board,
    variant: d.variant,
    tricks: d.tricks.map((t) => (t.orderUnknown ? { leader: t.leader, cards: t.cards, winner: t.winner, orderUnknown: true } : { leader: t.leader, cards: t.cards, winner: t.winner })),
    tricksWon: d.tricksWon,
    findings: d.findings,
    scored: d.scored,
    // Extension (docs/contracts.md §5): a pair match's score sheet records the revoke marks.
    ...(d.marks ? { marks: d.marks } : {}),
    // Extension (issue 9): the deal's line on the score sheet of a social game, and the score after it.
    ...(score ? { score } : {}),
  };
}

const SIDE_NAMES = (d: DealResult | undefined): Record<'NS' | 'EW', string> =>
  d?.sides ? { NS: d.sides.NS, EW: d.sides.EW } : { NS: 'N-S', EW: 'E-W' };
const VALUE_NAMES: Record<number, string> = { 3: 'a treble', 2: 'a double', 1: 'a single' };

/** A deal's score for people: what was marked and why, the score after it, the game and rubber it won. */
function scoreText(line: DealLine, d: DealResult | undefined, st: { rules: ScoreRules }): string[] {
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

/** The closing lines of the text output of a social game: the score after the last deal and its findings, then ''. */
function scoreSummary(last: Score, first: DealResult | undefined): string[] {
  const out: string[] = [];
  const n = SIDE_NAMES(first);
  out.push(`${last.game}: ${n.NS} ${last.points.NS}, ${n.EW} ${last.points.EW} in the game; games ${n.NS} ${last.gamesWon.NS}, ${n.EW} ${last.gamesWon.EW}; ` +
    `${last.rubbers.length} ${last.rubbers.length === 1 ? 'rubber' : 'rubbers'} won, worth ${n.NS} ${last.totals.NS}, ${n.EW} ${last.totals.EW}` +
    (last.tournee ? `; tournée ${last.tournee.played} of ${last.tournee.of}` : ''));
  for (const f of last.findings) out.push(`finding: board ${f.board ?? '?'}  ${f.seat ?? n[f.side]}  ${f.kind}  [${f.law}]  ${f.message}`);
  out.push('');
  return out;
}

/** The record a deal is exported from: its source record (Event, Site, Date, players kept), else its deal event. */
export function exportRecord(head: DealHead | undefined, format: LoadedLog['format']): DealRecord {
  // A LIN record's raw tags are left out by formatPbn itself (the record says where it came from).
  if (head?.record) return format === 'lin' ? { ...head.record, source: 'lin' } : head.record;
  return dealEventToRecord({ ...(head?.deal ?? { type: 'deal' }), contract: head?.contract });
}

/**
 * The record a replayed deal is written to PBN from: its game and trump as the engine judged them, so that replaying
 * the PBN finds the same (a turned trump card, or a suit declared trumps; a bridge deal's trump is its contract).
 */
function pbnRecord(rec: DealRecord, d: DealResult, facts: DealFacts | null): DealRecord {
  const out: DealRecord = { ...rec };
  if (d.variant !== 'bridge' || rec.variant !== undefined) out.variant = d.variant;
  const how = getVariant(d.variant).trump;
  if (how === 'turned' || how === 'declared') {
    if (facts?.turned !== undefined) out.trumpCard = facts.turned;
    else if (facts?.trump && facts.trumpCut === undefined) out.trump = facts.trump;
  }
  return out;
}

/** A PBN record's trump in a turned-trump game: "trump ♠ (S6 turned)", "♥ declared trumps", or ''. */
function trumpText(rec: DealRecord | undefined): string {
  const symbol = (suit: string) => STRAIN_SYMBOLS['SHDC'.indexOf(suit)] ?? suit;
  if (rec?.trump) return `${symbol(rec.trump)} declared trumps`;
  return rec?.trumpCard ? `trump ${symbol(rec.trumpCard[0])} (${rec.trumpCard} turned)` : '';
}

/** "3NT by W · 10 tricks, made +1", "passed out", or '' for a variant without an auction. */
function contractText(d: DealResult, head: DealHead | undefined): string {
  if (getVariant(d.variant).trump !== 'contract') return trumpText(head?.record);
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

/**
 * Run the replay command; returns the process exit code (non-zero only for unreadable input). `skip`: deals of a PBN
 * file already written by the fast path (replay-fast.ts), which this goes on from.
 */
export function replayCommand(argv: string[], io: CliIo = STDIO, skip = 0): number {
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
  // A file is read in pieces (a PBN archive is never held whole); standard input, which is rarely big, at once.
  let input: FileInput | undefined;
  let text: string;
  try {
    if (file === '-') text = readStdin();
    else { input = new FileInput(file); text = input.first; }
  } catch (e) {
    io.err(`tenace replay: cannot read ${name}: ${(e as Error).message}\n`);
    return 66;
  }
  const mode: OutputMode = args.values.json ? 'json' : args.values.pbn ? 'pbn' : 'text';
  const problems = new Problems(io, name);
  const out = new ReplayOutput(io, mode, scoreOpts);
  out.deals = skip;
  // The format shows in the file's first piece (its first visible text; NUL bytes looked for in the first 64 KiB).
  const detected = detectFormat(text, name);
  try {
    if ('format' in detected && detected.format === 'pbn') {
      streamPbnReplay(input ? input.pieces() : text, variant, problems, out, skip);
    } else {
      if (input) text = input.rest();
      replayWhole(text, name, variant, problems, out);
    }
  } catch (e) {
    if (!(e instanceof ReadError)) throw e;
    io.err(`tenace replay: cannot read ${name}: ${e.message}\n`);
    return 66;
  } finally {
    input?.close();
  }
  problems.end();
  if (out.deals === 0) {
    io.err(`tenace replay: ${name} holds no deal that can be replayed (no hands and no card played)\n`);
    return 65;
  }
  out.end();
  return 0;
}

/** A read that failed after the file was opened (a device error, a directory): reported as cannot read. */
class ReadError extends Error {}

/** A file read in pieces of PIECE bytes, decoded as UTF-8 across their edges. */
class FileInput {
  /** The first piece's text. */
  readonly first: string;
  private readonly fd: number;
  private readonly decoder = new StringDecoder('utf8');
  private readonly buf = Buffer.allocUnsafe(PIECE);
  private done = false;
  private lastBytes = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
    try {
      // At least FIRST bytes, so the first piece holds the 64 Ki characters detectFormat looks at for NUL bytes.
      const parts: string[] = [];
      let bytes = 0;
      while (bytes < FIRST) {
        const s = this.next();
        if (s === undefined) break;
        parts.push(s);
        bytes += this.lastBytes;
      }
      this.first = parts.join('');
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** The next piece's text, or undefined at the end. */
  private next(): string | undefined {
    if (this.done) return undefined;
    const n = readSync(this.fd, this.buf, 0, PIECE, null);
    this.lastBytes = n;
    if (n === 0) {
      this.done = true;
      const tail = this.decoder.end();
      return tail === '' ? undefined : tail;
    }
    return this.decoder.write(this.buf.subarray(0, n));
  }

  /** The first piece, then the others as they are read. */
  *pieces(): Generator<string> {
    yield this.first;
    for (;;) {
      let s: string | undefined;
      try { s = this.next(); } catch (e) { throw new ReadError((e as Error).message); }
      if (s === undefined) return;
      yield s;
    }
  }

  /** The whole text: the first piece and all the rest (table logs and LIN are read whole). */
  rest(): string {
    const parts = [this.first];
    for (;;) {
      let s: string | undefined;
      try { s = this.next(); } catch (e) { throw new ReadError((e as Error).message); }
      if (s === undefined) return parts.join('');
      parts.push(s);
    }
  }

  close(): void {
    try { closeSync(this.fd); } catch { /* already closed */ }
  }
}

/** Bytes read at a time from a file, and at least at first. */
const PIECE = 1 << 16;
const FIRST = 1 << 18;

/** A table log or LIN file, read whole: problems first, then each deal folded from the one replay of the log. */
function replayWhole(text: string, name: string, variant: string | undefined, problems: Problems, out: ReplayOutput): void {
  {
    const log = loadLog(text, name);
    problems.report(log.errors);
    if (log.playable > 0) {
      const result = replayWithFacts(log.events, { forceVariant: variant });
      const heads = dealHeads(log.events, log.records);
      result.deals.forEach((d, i) => out.deal(d, result.facts[i], exportRecord(heads[i], log.format), heads[i]));
    }
  }
}

/**
 * A PBN file game by game: each record is folded through a Table of its own (a record's deal shares nothing with the
 * one before) and written out before the next is read. Problems are reported in line order as soon as no problem
 * still to come can lie before them.
 */
function streamPbnReplay(text: string | Iterable<string>, variant: string | undefined, problems: Problems, out: ReplayOutput, skip = 0): void {
  const scanErrors: ParseError[] = [];
  const gameErrors: ParseError[] = [];
  const unplayable: ParseError[] = [];
  const flush = (safe: number): void => {
    // loadLog's order: the reader's problems sorted by line (the scanner's before the games'), then unplayable games.
    const ready = [...take(scanErrors, safe), ...take(gameErrors, safe), ...take(unplayable, safe)];
    if (ready.length) problems.report(ready.sort((x, y) => x.line - y.line));
  };
  for (const { record: r, safe } of streamPbn(text, scanErrors, gameErrors)) {
    // Facts feed the score sheet only: after the first deal, a game without a social score need not work them out.
    if (r) {
      if (!isPlayable(r)) {
        // A game of tags alone (a file cut inside its Deal tag, or junk read as PBN) would replay as an empty board.
        unplayable.push({ line: r.line ?? 0, message: `${r.board !== undefined ? `board ${r.board}` : 'this game'} has neither a deal nor any card played, so it is not replayed` });
      } else if (skip > 0) {
        skip--; // written by the fast path
      } else {
        flush(safe);
        const events = recordToTableLog(r);
        const t = new Table({ keepEvents: false, forceVariant: variant, facts: out.deals === 0 || out.scoring || out.mode === 'pbn' });
        for (let i = 0; i < events.length; i++) t.apply(events[i]);
        const deal = events[0] as DealEvent;
        out.deal(t.results()[0], t.facts()[0] ?? null, r, { deal, contract: deal.contract, record: r });
        continue;
      }
    }
    flush(safe);
  }
  flush(Infinity);
}

/** Remove and return the problems before line `safe`, in their order. */
function take(list: ParseError[], safe: number): ParseError[] {
  const ready: ParseError[] = [];
  let kept = 0;
  for (const e of list) {
    if (e.line < safe) ready.push(e);
    else list[kept++] = e;
  }
  list.length = kept;
  return ready;
}

/** Problems with the input, printed as found: the first MAX_ERRORS, then how many more. */
class Problems {
  private count = 0;
  constructor(private readonly io: CliIo, private readonly name: string) {}

  /** Print problems (already in line order). */
  report(errors: readonly { line: number; message: string }[]): void {
    for (const e of errors) {
      if (this.count++ < MAX_ERRORS) this.io.err(`${printable(`${this.name}:${e.line}: ${e.message}`)}\n`);
    }
  }

  /** The count of problems not shown. */
  end(): void {
    if (this.count > MAX_ERRORS) this.io.err(`${this.name}: ${this.count - MAX_ERRORS} more problems not shown\n`);
  }
}

type OutputMode = 'json' | 'text' | 'pbn';

/** Output is handed to stdout in pieces of about this many characters. */
const OUT_CHUNK = 1 << 20;

/**
 * The replay's output, deal by deal, as the whole-file functions above would write it: the JSON's array opened at
 * the first deal, the social game's score kept in one sheet changed in place (a copy per deal is quadratic).
 */
class ReplayOutput {
  deals = 0;
  private buf = '';
  private sheet: ScoreSheet | null = null;
  private first: DealResult | undefined;

  /** True once the first deal has shown that the file's game keeps a score (so each deal's facts are needed). */
  get scoring(): boolean {
    return this.sheet !== null;
  }

  constructor(private readonly io: CliIo, readonly mode: OutputMode, private readonly scoreOpts: ScoreOptions) {}

  /** Write one replayed deal: its result and facts, the record it is exported from, and its head (text contract). */
  deal(d: DealResult, facts: DealFacts | null, rec: DealRecord, head: DealHead | undefined): void {
    if (this.deals++ === 0) {
      this.first = d;
      // The first deal's game decides the score for the whole file, as scoreStates does.
      const rules = rulesFor(d.variant, this.scoreOpts);
      if (rules) this.sheet = new ScoreSheet(rules);
    }
    const line = this.sheet && facts ? this.sheet.keep(finishedDeal(d, facts)) : null;
    if (this.mode === 'json') {
      this.write((this.deals === 1 ? '{"deals":[' : ',') + JSON.stringify(dealJson(d, line ? lineScoreJson(line, this.sheet!.score) : undefined)));
    } else if (this.mode === 'pbn') {
      this.write((this.deals === 1 ? PBN_EXPORT_HEAD : '\r\n\r\n') + formatPbnGame(pbnRecord(rec, d, facts), d));
    } else {
      const lines = [...dealText(d, head), ...(line ? scoreText(line, d, this.sheet!) : []), ''];
      this.write(lines.join('\n') + '\n');
    }
  }

  /** Close the output (the JSON's running score, the text's summary) and hand the rest to stdout. */
  end(): void {
    if (this.mode === 'json') {
      if (this.sheet) {
        const { deals: _lines, ...running } = this.sheet.score;
        this.write(`],"score":${JSON.stringify(running)}}\n`);
      } else {
        this.write(']}\n');
      }
    } else if (this.mode === 'pbn') {
      this.write('\r\n\n');
    } else if (this.sheet) {
      this.write(scoreSummary(this.sheet.score, this.first).join('\n') + '\n');
    }
    if (this.buf) this.io.out(this.buf);
    this.buf = '';
  }

  private write(s: string): void {
    this.buf += s;
    if (this.buf.length >= OUT_CHUNK) {
      this.io.out(this.buf);
      this.buf = '';
    }
  }
}
