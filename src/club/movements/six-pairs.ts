// Six Pairs (Foster 1914, Duplicate Whist: Pair against Pair): "arrange them at three tables, two of which are
// constantly in play, the third only half the time." Each exchange at tables 1 and 2 is two hands, one dealt at
// each table and exchanged, so both tables play both ("Hands 5 and 6 played and exchanged"). The seed's positions,
// N-S first:
//   1. table 1 b v a, table 2 d v c (hands 1, 2); table 3 f v e deals 3 and 4 and leaves them in the trays
//   2. table 1 c v a, table 2 d v b (5, 6); table 3 idle ("None"), e and f look on
//   3. "The b and c pairs now give way to e and f": table 1 e v a, table 2 d v f (7, 8); table 3 b v c overplays 3
//      and 4, "which makes a match between them and the e and f pairs"
//   4. table 1 f v a, table 2 d v e (9, 10); table 3 idle, b and c look on
//   5, 6. "The pairs a and d now give way to b and c, and the b c e f pairs play two hands and exchange them; then
//      change adversaries for two more hands": the seed prints no positions; ours are table 1 b v e, table 2 c v f
//      (11, 12), then table 1 b v c, table 2 e v f (13, 14), which complete the matches b-c, e-f, b-e and c-f
//   7. "All the pairs have now been matched but a and d, and they take seats E & W at two tables, the N & S
//      positions being filled up by any of the other players": table 1 any v a, table 2 any v d (15, 16)
// A match is between the pairs that hold the same cards at the two tables; every pair meets every other once.
// Pairs are named by where they start: a = 1EW, b = 1NS, c = 2EW, d = 2NS, e = 3EW, f = 3NS; "any" is a filler.
// An idle table is listed with its trays as waiting slots (null), and with the pairs the seed seats there.
import type { Movement, MovementOptions, MovementRound, MovementTable, Schedule } from '../types.js';
import { badBoards, badTables, unknownOption } from './schedule-kit.js';
import { range, schedule, seat } from './schedule.js';

type Letter = 'a' | 'b' | 'c' | 'd' | 'e' | 'f';

/** The seed's letters as pair ids. */
export const SIX_PAIRS: Readonly<Record<Letter, string>> = { a: '1EW', b: '1NS', c: '2EW', d: '2NS', e: '3EW', f: '3NS' };

const id = (x: Letter | 'any'): string => (x === 'any' ? 'any' : SIX_PAIRS[x]);

/** One position: tables 1 and 2 (N-S, E-W), table 3 (N-S, E-W, and what it does), and who waits. */
interface Position {
  t1: [Letter | 'any', Letter];
  t2: [Letter | 'any', Letter];
  t3?: { ns: Letter; ew: Letter; plays: 'deal' | 'overplay' | 'idle' };
  note: string;
}

const POSITIONS: Position[] = [
  { t1: ['b', 'a'], t2: ['d', 'c'], t3: { ns: 'f', ew: 'e', plays: 'deal' }, note: 'Tables 1 and 2 deal one hand each and exchange trays; table 3 deals and plays its hands and leaves them in the trays' },
  { t1: ['c', 'a'], t2: ['d', 'b'], t3: { ns: 'f', ew: 'e', plays: 'idle' }, note: 'Tables 1 and 2 change adversaries; table 3 is idle (e and f look on)' },
  { t1: ['e', 'a'], t2: ['d', 'f'], t3: { ns: 'b', ew: 'c', plays: 'overplay' }, note: '"The b and c pairs now give way to e and f"; b and c overplay at table 3 the trays left there' },
  { t1: ['f', 'a'], t2: ['d', 'e'], t3: { ns: 'b', ew: 'c', plays: 'idle' }, note: 'Tables 1 and 2 change adversaries; table 3 is idle (b and c look on)' },
  { t1: ['b', 'e'], t2: ['c', 'f'], note: '"The pairs a and d now give way to b and c"; a and d are idle; table 3 is not used' },
  { t1: ['b', 'c'], t2: ['e', 'f'], note: 'b, c, e and f change adversaries; a and d are idle; table 3 is not used' },
  { t1: ['any', 'a'], t2: ['any', 'd'], note: 'The match a against d: a and d sit E & W, any of the other players fill the N & S seats ("No notice is taken of the scores made by the N & S hands in the last set")' },
];

function check(opts: MovementOptions): string | null {
  const bad = badTables('six-pairs', opts) ?? badBoards(opts) ?? unknownOption('six-pairs', opts, []);
  if (bad) return bad;
  if (opts.tables !== 3) return `tables: six pairs are arranged "at three tables, two of which are constantly in play"; give --tables 3`;
  const b = opts.boardsPerRound;
  if (b !== undefined && b % 2 !== 0) return `boardsPerRound: ${b} cannot be dealt half at each of two tables and exchanged; give an even number (the seed: 2)`;
  return null;
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const per = opts.boardsPerRound ?? 2;
  const half = per / 2;
  const waiting = (): null[] => Array.from({ length: per }, () => null);
  // Table 3's own trays come right after the first exchange: hands 3 and 4 in the seed.
  const third = range(per + 1, 2 * per);
  let next = 1;
  const rounds: MovementRound[] = POSITIONS.map((p, k) => {
    const start = next;
    next += per;
    if (k === 0) next += per;
    const first = range(start, start + half - 1);
    const second = range(start + half, start + per - 1);
    const tables: MovementTable[] = [
      seat(1, id(p.t1[0]), id(p.t1[1]), [...first, ...second]),
      seat(2, id(p.t2[0]), id(p.t2[1]), [...second, ...first]),
      p.t3 ? seat(3, id(p.t3.ns), id(p.t3.ew), p.t3.plays === 'idle' ? waiting() : [...third]) : seat(3, undefined, undefined, waiting()),
    ];
    const names = `The seed's pairs: ${Object.entries(SIX_PAIRS).map(([l, x]) => `${l} = ${x}`).join(', ')} (named by where they start)`;
    return { round: k + 1, tables, notes: k === 0 ? [names, p.note] : [p.note] };
  });
  return schedule({
    movement: 'six-pairs', tables: 3, kind: 'pairs', boardsPerRound: per, trays: 8 * per, rounds,
    participants: ['1NS', '1EW', '2NS', '2EW', '3NS', '3EW'],
  });
}

/** Six Pairs at three tables, the third in play half the time. */
export const movement: Movement = {
  name: 'six-pairs',
  kind: 'pairs',
  summary: 'Six Pairs at three tables, two constantly in play and the third half the time; a v d last with any players N & S; every pair matched with every other',
  source: 'Foster 1914, Duplicate Whist: Pair against Pair, Six Pairs',
  check,
  generate,
};
