// Four Pairs (Foster 1914, Duplicate Whist: Pair against Pair): "These should be arranged at two tables, changing
// adversaries after every 8 hands. The third set will exhaust the combinations, and it will then be found that each
// pair has played and overplayed an equal number of hands against every other pair." The printed sets, N-S first:
//   1st set (hands 1 to 8):   table 1 b v a, table 2 d v c
//   2nd set (hands 9 to 16):  table 1 c v a, table 2 b v d
//   3rd set (hands 17 to 24): table 1 d v a, table 2 c v b
// "Four hands are dealt at each table in each set, and then exchanged ... The pairs at the second table should begin
// scoring with hands Nos. 5, 13 and 21": table 1 deals 1-4 and overplays 5-8 while table 2 deals 5-8 and overplays
// 1-4. Pairs are named by where they start: a = 1EW, b = 1NS, c = 2EW, d = 2NS (c and d change sides later on).
import type { Movement, MovementOptions, MovementRound, Schedule } from '../types.js';
import { badBoards, badTables, unknownOption } from './schedule-kit.js';
import { range, schedule, seat } from './schedule.js';

/** The seed's letters as pair ids. */
export const FOUR_PAIRS: Readonly<Record<'a' | 'b' | 'c' | 'd', string>> = { a: '1EW', b: '1NS', c: '2EW', d: '2NS' };

/** The printed sets: [table 1 N-S, table 1 E-W, table 2 N-S, table 2 E-W] by the seed's letters. */
const SETS: ['a' | 'b' | 'c' | 'd', 'a' | 'b' | 'c' | 'd', 'a' | 'b' | 'c' | 'd', 'a' | 'b' | 'c' | 'd'][] = [
  ['b', 'a', 'd', 'c'],
  ['c', 'a', 'b', 'd'],
  ['d', 'a', 'c', 'b'],
];

function check(opts: MovementOptions): string | null {
  const bad = badTables('four-pairs', opts) ?? badBoards(opts) ?? unknownOption('four-pairs', opts, []);
  if (bad) return bad;
  if (opts.tables !== 2) return `tables: four pairs are "arranged at two tables"; give --tables 2 (for more pairs use compass or howell)`;
  const b = opts.boardsPerRound;
  if (b !== undefined && b % 2 !== 0) return `boardsPerRound: ${b} cannot be dealt half at each table and exchanged; give an even number (the seed: 8)`;
  return null;
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const per = opts.boardsPerRound ?? 8;
  const half = per / 2;
  const rounds: MovementRound[] = SETS.map(([ns1, ew1, ns2, ew2], k) => {
    const first = range(k * per + 1, k * per + half);
    const second = range(k * per + half + 1, (k + 1) * per);
    const notes = [`Table 1 deals ${span(first)} and table 2 deals ${span(second)}; then they exchange trays`];
    if (k === 0) notes.unshift(`The seed's pairs: ${Object.entries(FOUR_PAIRS).map(([l, p]) => `${l} = ${p}`).join(', ')} (named by where they start)`);
    if (k < SETS.length - 1) notes.push('Pairs change adversaries for the next set');
    return {
      round: k + 1,
      tables: [
        seat(1, FOUR_PAIRS[ns1], FOUR_PAIRS[ew1], [...first, ...second]),
        seat(2, FOUR_PAIRS[ns2], FOUR_PAIRS[ew2], [...second, ...first]),
      ],
      notes,
    };
  });
  return schedule({
    movement: 'four-pairs', tables: 2, kind: 'pairs', boardsPerRound: per, trays: 3 * per, rounds,
    participants: ['1NS', '1EW', '2NS', '2EW'],
  });
}

function span(trays: number[]): string {
  return trays.length === 1 ? `tray ${trays[0]}` : `trays ${trays[0]}-${trays[trays.length - 1]}`;
}

/** Four Pairs at two tables: three sets, every pair against every other. */
export const movement: Movement = {
  name: 'four-pairs',
  kind: 'pairs',
  summary: 'Four Pairs at two tables: three sets of 8 hands, four dealt at each table and exchanged, adversaries changed each set; the third set exhausts the combinations',
  source: 'Foster 1914, Duplicate Whist: Pair against Pair, Four Pairs',
  check,
  generate,
};
