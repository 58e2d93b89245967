// Compass Whist (Foster 1914, Duplicate Whist: Compass Whist): "arrange them at as many tables as they will fill,
// and ... place on each table an equal number of trays". "All the N & S players sit still, and at the end of each
// round ... all the E & W players move up one table, 2 going to 1, 3 to 2, etc."; a pair is "the number of the
// table at which they started", No. 3 N & S ("3NS") staying, No. 3 E & W ("3EW") moving.
//
// The seed does not say how the trays move. Ours move down one table (1 going to 2, the last going to 1), against
// the E-W pairs, so with an odd number of tables every E-W pair meets every N-S pair and holds every tray once in as
// many rounds as tables. With an even number of tables that plain movement would bring each E-W pair back to its own
// first trays half way round, so we skip as the seed's 2nd method for individuals does ("Instead of stopping at the
// table at which this tray is encountered, all ... move on to the next, leaving the trays as they are. This skip
// enables each to finish the round without playing any of the hands twice"): one round fewer, and each E-W pair
// misses one N-S pair and one table's trays. Two tables would leave every tray played once, so compass needs 3.
//
// Trays per table: "a minimum of 24 trays, or get as near that number as possible. If there are 14 tables, they
// play two deals at each. If there are only 10 tables, they play 30 trays": the default is ceil(24 / tables).
import type { Movement, MovementOptions, MovementRound, Schedule } from '../types.js';
import { badBoards, badTables, traysOfSet, unknownOption } from './schedule-kit.js';
import { ewOf, mod, nsOf, pairIds, schedule, seat, wrap } from './schedule.js';

/** "a minimum of 24 trays": trays per table for `tables` tables (14 → 2, 10 → 3). */
export function compassBoards(tables: number): number {
  return Math.max(1, Math.ceil(24 / tables));
}

function check(opts: MovementOptions): string | null {
  const bad = badTables('compass', opts) ?? badBoards(opts) ?? unknownOption('compass', opts, ['even']);
  if (bad) return bad;
  if (opts.tables < 3) return `tables: ${opts.tables} is too few for a compass; give 3 or more tables (for 4 pairs at two tables use four-pairs, for two pairs memory-duplicate)`;
  const even = opts.options?.even;
  if (even !== undefined && even !== 'skip') return `option even: "${String(even)}" is not a form of compass; the only one is even=skip (the E-W pairs skip a table half way round)`;
  return null;
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const n = opts.tables;
  const per = opts.boardsPerRound ?? compassBoards(n);
  const skip = n % 2 === 0;
  const count = skip ? n - 1 : n;
  const half = n / 2;
  const rounds: MovementRound[] = [];
  for (let r = 0; r < count; r++) {
    // E-W pair e is `shift` tables below its own; after the skip one table further.
    const shift = skip && r >= half ? r + 1 : r;
    const tables = Array.from({ length: n }, (_, i) => {
      const t = i + 1;
      return seat(t, nsOf(t), ewOf(wrap(t, shift, n)), traysOfSet(mod(t - 1 - r, n), per));
    });
    const notes: string[] = [];
    if (r < count - 1) {
      const ew = skip && r === half - 1
        ? `E-W pairs skip a table: they move up two tables this time (3 going to 1, 2 to ${n}, 1 to ${n - 1}), so that none meets its own first trays again`
        : `E-W pairs move up one table (2 going to 1, 3 to 2, 1 to ${n})`;
      notes.push(ew, `trays move down one table (1 going to 2, ${n} to 1); N-S pairs sit still`);
    }
    rounds.push({ round: r + 1, tables, ...(notes.length ? { notes } : {}) });
  }
  return schedule({
    movement: 'compass', tables: n, kind: 'pairs', boardsPerRound: per, trays: n * per, rounds,
    participants: pairIds(n), ...(skip ? { options: { even: 'skip' } } : {}),
  });
}

/** Compass Whist: N-S sit still, E-W move up one table, trays down one. */
export const movement: Movement = {
  name: 'compass',
  kind: 'pairs',
  summary: 'Compass Whist: N-S pairs sit still, E-W pairs move up one table ("2 going to 1"), trays move down one; even tables: E-W skip a table half way round; default trays a table: about 24 trays in all',
  source: 'Foster 1914, Duplicate Whist: Compass Whist',
  check,
  generate,
};
