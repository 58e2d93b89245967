// The complete Howell movement for pairs (modern club practice; the seed names it, "Howell Pair System", but prints no
// schedule): "at the end of the game he will have had every other pair in the game for an adversary once, and will
// have played all the hands dealt." 2T pairs play 2T - 1 rounds at T tables, one board set a round. The frame is a
// Room square (room-square.ts), so from 8 pairs on no set is at two tables in one round; with 4 and 6 pairs that is
// impossible, and the tables that share a set play its trays in different slots (a relay).
//
// An odd number of pairs (`--option pairs=2T+1` with `--tables T`) adds a phantom pair: whoever meets it sits out
// that round (named in the round's notes) and misses that round's set. The phantom takes the stationary place, so
// `tables` is the number of tables in play. Pairs change direction in a Howell, so they are numbered, not named by a
// direction: 1 and 2 start N-S and E-W at table 1, 3 and 4 at table 2, and so on; the pair that sits out the first
// round is the last number (7 with 7 pairs at 3 tables).
// Arrows: the pairs of the starter keep their direction, the stationary pair turns each round, so every pair sits
// N-S in T - 1 or T rounds.
import type { Movement, MovementOptions, MovementRound, MovementTable, Schedule } from '../types.js';
import { howellFrame } from './room-square.js';
import { badBoards, badTables, markOriginals, sharedOrder, traysOfSet, unknownOption } from './schedule-kit.js';

const MAX_TABLES = 20;

/** "1, 2 and 3". */
function listOf(items: number[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function pairsOf(opts: MovementOptions): number {
  return Number(opts.options?.pairs ?? 2 * opts.tables);
}

function check(opts: MovementOptions): string | null {
  const bad = badTables('howell', opts) ?? badBoards(opts) ?? unknownOption('howell', opts, ['pairs']);
  if (bad) return bad;
  const t = opts.tables;
  if (t < 2) return `tables: ${t} is too few for a howell; give 2 or more tables (4+ pairs)`;
  if (t > MAX_TABLES) return `tables: ${t} is more than a howell here takes (${2 * MAX_TABLES - 1} rounds at ${MAX_TABLES}); give ${MAX_TABLES} or fewer tables, or use a mitchell`;
  const p = pairsOf(opts);
  if (!Number.isInteger(p) || (p !== 2 * t && p !== 2 * t + 1)) {
    const other = Number.isInteger(p) && p >= 4 ? `, or --tables ${Math.floor(p / 2)} for ${p} pairs` : '';
    return `option pairs: ${opts.options?.pairs} does not fit ${t} tables; give pairs=${2 * t} or pairs=${2 * t + 1} (a phantom pair: one pair sits out each round)${other}`;
  }
  return null;
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const per = opts.boardsPerRound ?? 2;
  const pairs = pairsOf(opts);
  const phantom = pairs % 2 === 1;
  const frameTables = Math.ceil(pairs / 2);
  const n = 2 * frameTables - 1;
  const frame = howellFrame(n);
  const inf = n;
  // Numbers from the first round: match m is at table m + 1 (m with a phantom; its match 0 is the sit-out).
  const names = new Map<number, string>();
  frame.rounds[0].forEach((match, m) => {
    if (phantom && m === 0) { names.set(match.b, String(pairs)); return; }
    const table = phantom ? m : m + 1;
    names.set(match.a, String(2 * table - 1));
    names.set(match.b, String(2 * table));
  });
  const rounds: MovementRound[] = frame.rounds.map((matches, r) => {
    const tables: MovementTable[] = [];
    const notes: string[] = [];
    matches.forEach((match, m) => {
      if (phantom && m === 0) {
        notes.push(`Pair ${names.get(match.b)} sits out (it meets the phantom pair) and misses set ${match.set + 1}`);
        return;
      }
      // The stationary pair (∞) sits N-S in odd-numbered rounds and E-W in even ones; the others keep their arrow.
      const flip = m === 0 && match.a === inf && r % 2 === 1;
      const [ns, ew] = flip ? [match.b, match.a] : [match.a, match.b];
      tables.push({ table: phantom ? m : m + 1, ns: names.get(ns)!, ew: names.get(ew)!, trays: traysOfSet(match.set, per) });
    });
    // Tables sharing a set this round play its trays in turn (different slots).
    const bySet = new Map<number, MovementTable[]>();
    for (const t of tables) {
      const first = t.trays[0]!;
      bySet.set(first, [...(bySet.get(first) ?? []), t]);
    }
    for (const group of bySet.values()) {
      if (group.length < 2) continue;
      const trays = group[0].trays as number[];
      group.forEach((t, j) => { t.trays = sharedOrder(trays, j, group.length); });
      notes.push(`Tables ${listOf(group.map((t) => t.table))} share set ${Math.floor((trays[0] - 1) / per) + 1}, playing its boards in turn`);
    }
    return { round: r + 1, tables, ...(notes.length > 0 ? { notes } : {}) };
  });
  markOriginals(rounds);
  const participants = [...names.values()].sort((a, b) => Number(a) - Number(b));
  return {
    movement: 'howell',
    tables: opts.tables,
    kind: 'pairs',
    boardsPerRound: per,
    trays: n * per,
    rounds,
    participants,
    ...(phantom ? { options: { pairs } } : {}),
  };
}

/** The complete Howell movement. */
export const movement: Movement = {
  name: 'howell',
  kind: 'pairs',
  summary: 'Complete Howell: every pair meets every other pair once and plays every board set once (2T-1 rounds at T tables; --option pairs=2T+1 for a phantom pair that sits out); 4 to 41 pairs',
  source: 'modern club practice (the seed names the Howell Pair System but prints no schedule); built from Room squares',
  check,
  generate,
};
