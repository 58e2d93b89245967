// `tenace movement NAME --tables N [--boards-per-round B] [--option k=v]... [--json]` and `tenace movement --list`:
// print a movement's schedule (docs/club.md), for people round by round, or as the `Schedule` JSON the director reads.
import { MOVEMENTS, movementByName } from '../club/movements/index.js';
import type { Movement, MovementOptions, MovementTable, Schedule } from '../club/types.js';
import { closest } from '../config/suggest.js';
import { printable } from '../formats/quote.js';
import { type CliIo, EX_USAGE, STDIO, parseCommand } from './args.js';

const USAGE = `usage: tenace movement NAME --tables N [--boards-per-round B] [--option k=v]... [--json]
       tenace movement --list
  NAME                a movement (tenace movement --list names them with a line on each)
  --tables N          tables in play; a movement made for a fixed number (four-pairs: 2) takes it when left out
  --boards-per-round  trays each table plays a round (the seed's sets); each movement has its own default
  --option k=v        one of the movement's named choices, e.g. even=relay for a mitchell, form=individuals for
                      memory-duplicate; repeat for more
  --json              the Schedule (docs/club.md): movement, tables, kind, boardsPerRound, trays, rounds
                      [{round, tables [{table, ns, ew | players, trays, original}], notes}], participants
  --list              the movements, with their kind and a line on each
`;

/** "k=v" → [k, v], the value a number or boolean when it reads as one. */
function parseOption(text: string): [string, string | number | boolean] | undefined {
  const eq = text.indexOf('=');
  if (eq <= 0) return undefined;
  const k = text.slice(0, eq);
  const v = text.slice(eq + 1);
  if (/^-?\d+$/.test(v)) return [k, Number(v)];
  if (v === 'true' || v === 'false') return [k, v === 'true'];
  return [k, v];
}

/** Trays for people: runs of consecutive trays as "1-4", a waiting slot as "wait": "5-8, 1-4", "2, 3, 1". */
export function traysText(trays: readonly (number | null)[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < trays.length) {
    const b = trays[i];
    if (b === null) { parts.push('wait'); i++; continue; }
    let j = i;
    while (j + 1 < trays.length && trays[j + 1] !== null && trays[j + 1] === (trays[j] as number) + 1) j++;
    parts.push(j - i >= 2 ? `${b}-${trays[j]}` : j === i ? String(b) : `${b}, ${trays[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

function rows(head: string[], body: string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const fmt = (r: string[]) => `  ${r.map((c, i) => c.padEnd(w[i])).join('  ')}`.trimEnd();
  return [fmt(head), ...body.map(fmt)];
}

function tableCells(s: Schedule, t: MovementTable): string[] {
  const playing = t.trays.some((b) => b !== null);
  const trays = playing ? traysText(t.trays) : 'idle';
  const dealt = t.trays.filter((b, k) => b !== null && t.original?.[k]);
  const deals = dealt.length > 0 ? traysText(dealt) : '';
  if (s.kind === 'individuals') return [String(t.table), ...(['N', 'E', 'S', 'W'] as const).map((x) => t.players?.[x] ?? ''), trays, deals];
  return [String(t.table), t.ns ?? '', t.ew ?? '', trays, deals];
}

/** The schedule for people: a heading, then round by round the tables, their trays, and the moves to make. */
export function scheduleText(s: Schedule, m?: Movement): string {
  const opts = s.options ? ` · ${Object.entries(s.options).map(([k, v]) => `${k}=${v}`).join(' ')}` : '';
  const out = [
    `${s.movement} · ${s.tables} table${s.tables === 1 ? '' : 's'} · ${s.kind} · ${s.boardsPerRound} tray${s.boardsPerRound === 1 ? '' : 's'} a round · ${s.trays} trays · ${s.rounds.length} round${s.rounds.length === 1 ? '' : 's'}${opts}`,
  ];
  if (m?.source) out.push(m.source);
  out.push(`${s.kind === 'individuals' ? 'Players' : s.kind === 'teams' ? 'Team pairs' : 'Pairs'}: ${s.participants.join(' ')}`);
  const head = s.kind === 'individuals' ? ['table', 'N', 'E', 'S', 'W', 'trays', 'deals'] : ['table', 'N-S', 'E-W', 'trays', 'deals'];
  for (const r of s.rounds) {
    out.push('', `Round ${r.round}`);
    out.push(...rows(head, r.tables.map((t) => tableCells(s, t))));
    for (const n of r.notes ?? []) out.push(`  · ${n}`);
  }
  return `${out.join('\n')}\n`;
}

function listText(): string {
  const names = Object.keys(MOVEMENTS);
  const w = Math.max(...names.map((n) => n.length));
  return `${names.map((n) => `${n.padEnd(w)}  ${MOVEMENTS[n].kind.padEnd(11)}  ${MOVEMENTS[n].summary}`).join('\n')}\n`;
}

/** The one table count from 1 to 64 the movement accepts, if there is exactly one (four-pairs: 2). */
function onlyCount(m: Movement, opts: Omit<MovementOptions, 'tables'>): number | undefined {
  const ok = Array.from({ length: 64 }, (_, i) => i + 1).filter((n) => m.check({ ...opts, tables: n }) === null);
  return ok.length === 1 ? ok[0] : undefined;
}

/** Run `tenace movement`; resolves to the exit code. */
export async function movementCommand(argv: string[], io: CliIo = STDIO): Promise<number> {
  const args = parseCommand('movement', USAGE, {
    args: argv, allowPositionals: true,
    options: {
      tables: { type: 'string' }, 'boards-per-round': { type: 'string' }, option: { type: 'string', multiple: true },
      json: { type: 'boolean' }, list: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  }, io);
  if (typeof args === 'number') return args;
  const v = args.values;
  if (v.list) {
    if (args.positionals.length > 0) { io.err('tenace movement: --list takes no NAME\n'); return EX_USAGE; }
    io.out(v.json ? `${JSON.stringify(Object.values(MOVEMENTS).map((m) => ({ name: m.name, kind: m.kind, summary: m.summary, source: m.source })))}\n` : listText());
    return 0;
  }
  const name = args.positionals[0];
  if (!name || args.positionals.length > 1) {
    io.err(name ? `tenace movement: one NAME at a time (got ${args.positionals.join(' ')})\n${USAGE}` : USAGE);
    return EX_USAGE;
  }
  const m = movementByName(name);
  if (!m) {
    const near = closest(name, Object.keys(MOVEMENTS));
    io.err(`tenace movement: "${printable(name, 40)}" is not a movement${near ? `: did you mean ${near}?` : ''} (tenace movement --list names them: ${Object.keys(MOVEMENTS).join(', ')})\n`);
    return EX_USAGE;
  }
  const options: Record<string, string | number | boolean> = {};
  for (const o of v.option ?? []) {
    const kv = parseOption(o);
    if (!kv) { io.err(`tenace movement: --option "${printable(o, 40)}" must be k=v, e.g. --option even=relay\n`); return EX_USAGE; }
    options[kv[0]] = kv[1];
  }
  const count = (flag: string, text: string | undefined): number | undefined | string => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text) || Number(text) < 1) return `tenace movement: ${flag} "${printable(text, 20)}" is not a whole number from 1\n`;
    return Number(text);
  };
  const boards = count('--boards-per-round', v['boards-per-round']);
  if (typeof boards === 'string') { io.err(boards); return EX_USAGE; }
  const base = { ...(boards !== undefined ? { boardsPerRound: boards } : {}), ...(Object.keys(options).length ? { options } : {}) };
  let tables = count('--tables', v.tables);
  if (typeof tables === 'string') { io.err(tables); return EX_USAGE; }
  // With bad trays a round or options no count fits: take the movement's own count so check() names the problem.
  tables ??= onlyCount(m, base) ?? onlyCount(m, {});
  if (tables === undefined) {
    io.err(`tenace movement: ${name} needs --tables N (the number of tables in play)\n`);
    return EX_USAGE;
  }
  const opts: MovementOptions = { tables, ...base };
  const problem = m.check(opts);
  if (problem) {
    io.err(`tenace movement: ${problem}\n`);
    return EX_USAGE;
  }
  const s = m.generate(opts);
  io.out(v.json ? `${JSON.stringify(s)}\n` : scheduleText(s, m));
  return 0;
}
