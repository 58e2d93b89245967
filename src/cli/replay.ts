// `tenace replay FILE [--json | --pbn] [--variant NAME]`: fold a table log, PBN or LIN file through the engine.
import { readFileSync } from 'node:fs';
import { dealEventToRecord, formatPbnFromResult } from '../formats/index.js';
import type { DealEvent } from '../formats/table-log.js';
import { replay } from '../laws/engine.js';
import type { DealResult, ReplayResult } from '../laws/types.js';
import { getVariant, variantNames } from '../laws/variants.js';
import { type CliIo, EX_USAGE, STDIO, parseCommand } from './args.js';
import { loadLog } from './load-log.js';

const SEAT_ORDER = ['N', 'E', 'S', 'W'] as const;
const USAGE = 'usage: tenace replay FILE [--json | --pbn] [--variant NAME]   (FILE: .ndjson table log, .pbn or .lin)\n';

/** The DESIGN §5 JSON: exactly board, variant, tricks, tricksWon, findings and scored per deal. */
export function replayJson(r: ReplayResult): string {
  const deals = r.deals.map((d) => ({
    board: d.board,
    variant: d.variant,
    tricks: d.tricks.map((t) => ({ leader: t.leader, cards: t.cards, winner: t.winner })),
    tricksWon: d.tricksWon,
    findings: d.findings,
    scored: d.scored,
  }));
  return JSON.stringify({ deals });
}

/** A trick-by-trick table and the findings with their law citations, for people. */
export function replayText(r: ReplayResult): string {
  const out: string[] = [];
  for (const d of r.deals) out.push(...dealText(d), '');
  return out.join('\n');
}

/** PBN 2.1 of the replayed deals, with our findings written as ^R (revoke) and ^L (lead out of turn). */
export function replayPbn(r: ReplayResult, deals: readonly DealEvent[]): string {
  return r.deals.map((d, i) => formatPbnFromResult(dealEventToRecord(deals[i] ?? { type: 'deal' }), d)).join('\n');
}

function dealText(d: DealResult): string[] {
  const lines = [`Board ${d.board ?? '?'} · ${d.variant}`];
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
  for (const f of d.findings) {
    lines.push(`trick ${String(f.trick).padStart(2)}  ${f.seat}  ${f.kind}${f.card ? ` ${f.card}` : ''}  [${f.law}]  ${f.message}`);
    for (const rem of f.remedies) lines.push(`            ${rem.option}: ${rem.remedy} — ${rem.text}`);
  }
  for (const n of d.notes ?? []) lines.push(`note: ${n}`);
  return lines;
}

/** Run the replay command; returns the process exit code (non-zero only for unreadable input). */
export function replayCommand(argv: string[], io: CliIo = STDIO): number {
  const args = parseCommand('replay', USAGE, {
    args: argv, allowPositionals: true,
    options: { json: { type: 'boolean' }, pbn: { type: 'boolean' }, variant: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  }, io);
  if (typeof args === 'number') return args;
  const file = args.positionals[0];
  if (!file) {
    io.err(USAGE);
    return EX_USAGE;
  }
  const variant = args.values.variant;
  if (variant !== undefined) {
    try { getVariant(variant); } catch { io.err(`tenace replay: --variant "${variant}" is unknown: use one of ${variantNames().join(', ')}\n`); return EX_USAGE; }
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`tenace replay: cannot read ${file}: ${(e as Error).message}\n`);
    return 66;
  }
  const log = loadLog(text, file);
  for (const e of log.errors) io.err(`${file}:${e.line}: ${e.message}\n`);
  if (log.events.length === 0) {
    io.err(`tenace replay: ${file} holds no deal that can be replayed\n`);
    return 65;
  }
  const result = replay(log.events, { forceVariant: variant });
  const deals = log.events.filter((e): e is DealEvent => e.type === 'deal');
  io.out((args.values.json ? replayJson(result) : args.values.pbn ? replayPbn(result, deals) : replayText(result)) + '\n');
  return 0;
}
