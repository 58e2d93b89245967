// Howell's system for teams of four (Foster 1914, Duplicate Whist: Teams against Teams). A team's pairs are "3NS"
// and "3EW"; the seed's letters a, b, c, ... are the teams that start at tables 1, 2, 3, ....
//
// Odd numbers of teams: each team is arranged at its own table; "then all the N & S players move to the next table
// East; those at table 5 going to table 1; and each table dealing and playing four hands, afterwards putting them
// away in trays." Then "the movement of the trays; those at the middle table always going to the extreme West of the
// line, the others moving up as many tables at a time as may be necessary to follow them ... If there are 5, 7, 9 or
// 11 tables in play, the movement of the trays must be 2, 3, 4 or 5 tables at a time; but the movement of the players
// remains the same; one table at a time, in the direction opposite to the trays." East is the higher table number:
// N & S move up one table, trays move down (n - 1) / 2 tables, for n - 1 sets ("continued for two more sets, which
// completes the round" with five teams). Every team meets every other, both halves of the match on the same trays.
//
// Even numbers of teams: "The present method of arranging even numbers of teams is also Gilman's", so an even count
// gives Gilman's even schedule (gilman.ts) under this name, with `options.even: "gilman"`.
import type { Movement, MovementOptions, MovementRound, Schedule } from '../types.js';
import { badBoards, badTables, traysOfSet, unknownOption } from './schedule-kit.js';
import { gilmanSchedule } from './gilman.js';
import { ewOf, mod, nsOf, pairIds, schedule, seat, wrap } from './schedule.js';

function check(opts: MovementOptions): string | null {
  const bad = badTables('howell-teams', opts) ?? badBoards(opts) ?? unknownOption('howell-teams', opts, ['even']);
  if (bad) return bad;
  if (opts.tables < 2) return `tables: ${opts.tables} is too few for howell-teams; give 3 or more teams for Howell's odd movement, or an even number (Gilman's)`;
  const even = opts.options?.even;
  if (even !== undefined && even !== 'gilman') return `option even: "${String(even)}" is not a form of howell-teams; the seed's even method is Gilman's (even=gilman)`;
  return null;
}

/** Howell's odd movement: N & S up one table, trays down (n - 1) / 2 tables, n - 1 sets of `per` trays. */
function odd(n: number, per: number): MovementRound[] {
  const step = (n - 1) / 2;
  const middle = (n + 1) / 2;
  const rounds: MovementRound[] = [];
  for (let k = 0; k < n - 1; k++) {
    // In set k + 1 the N & S pair of team t - k - 1 sits at table t; the trays dealt at table s are at s - k * step.
    const tables = Array.from({ length: n }, (_, i) => seat(i + 1, nsOf(wrap(i + 1, -(k + 1), n)), ewOf(i + 1), traysOfSet(mod(i + k * step, n), per)));
    const notes = k < n - 2
      ? [`N & S players move one table East (up: 1 going to 2, ${n} to 1); E & W sit still`,
        `trays move ${step} table${step === 1 ? '' : 's'} West: those at the middle table (${middle}) go to table 1, the others follow them (${n} to ${n - step}, 1 to ${n - step + 1})`]
      : undefined;
    rounds.push({ round: k + 1, tables, ...(notes ? { notes } : {}) });
  }
  return rounds;
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const n = opts.tables;
  if (n % 2 === 0) {
    const s = gilmanSchedule(opts, 'howell-teams');
    s.options = { even: 'gilman' };
    s.rounds[0].notes = ['Even numbers of teams: "The present method of arranging even numbers of teams is also Gilman\'s"', ...(s.rounds[0].notes ?? [])];
    return s;
  }
  const per = opts.boardsPerRound ?? 4;
  return schedule({ movement: 'howell-teams', tables: n, kind: 'teams', boardsPerRound: per, trays: n * per, rounds: odd(n, per), participants: pairIds(n) });
}

/** Howell's system for teams of four: odd numbers as printed, even numbers by Gilman's method. */
export const movement: Movement = {
  name: 'howell-teams',
  kind: 'teams',
  summary: 'Howell\'s system for teams of four: N & S move one table East, trays (n-1)/2 tables West (the middle table\'s to table 1), four hands a set; even numbers of teams by Gilman\'s method',
  source: 'Foster 1914, Duplicate Whist: Teams against Teams, Odd Numbers of Teams and Even Numbers of Teams',
  check,
  generate,
};
