// Gilman's System for teams of four (Foster 1914, Duplicate Whist: Teams against Teams). A team's pairs are "3NS"
// and "3EW", the team that starts at table 3 (the seed's letters a, b, c, ... are tables 1, 2, 3, ...).
//
// Odd numbers of teams: "have each team play at its own table first, so as to get an individual score. The E & W
// players then move to the next table but one, in either direction, going from 11 to 9; from 9 to 7, etc., the N & S
// players sitting still. This movement is continued until the E & W players have gone twice round. The trays move in
// the same direction as the players, but only one table at a time; going from 11 to 10, 9 to 8, etc." So as many
// rounds as tables; the two halves of every match (N-S a against E-W b, and N-S b against E-W a) fall on the same
// trays, and round 1 is each team against itself.
//
// Even numbers of teams: "Suppose we have ten tables, arranged in two rows ... 1 2 3 4 5 / 6 7 8 9 10". The trays
// come in sets (the seed: 30 deals, three a set, ten sets); tables 1 and 6, which face each other, share a set, the
// next set is "laid aside", and so on down the line. Within a set the opposite tables relay: "give tray No. 2 to
// table 6, while tray 1 is at table 1, and then ... table 1 take tray 2, while table 6 plays tray 3. Then table 1
// will get tray 3, while table 6 overplays tray 1." After each round "the E & W players all move one table, 2 going
// to 1, 3 to 2, etc.", the idle sets come into play and the played sets lie idle, and "all the sets move up a table
// after each intervening round, and table 1 will get all the trays from 1 to 30 in order". As many rounds as tables.
//
// Trays a round: the seed's even example plays three; for odd numbers it does not say, and the score-cards are kept
// "for each series of four hands", so four.
import type { Movement, MovementOptions, MovementRound, MovementTable, Schedule } from '../types.js';
import { badBoards, badTables, sharedOrder, traysOfSet, unknownOption } from './schedule-kit.js';
import { ewOf, mod, nsOf, pairIds, schedule, seat, wrap } from './schedule.js';

/** Gilman's trays a round: 3 for even numbers of teams (the seed's ten tables, 30 deals), 4 for odd. */
export function gilmanBoards(tables: number): number {
  return tables % 2 === 0 ? 3 : 4;
}

function check(opts: MovementOptions): string | null {
  const bad = badTables('gilman', opts) ?? badBoards(opts) ?? unknownOption('gilman', opts, []);
  if (bad) return bad;
  if (opts.tables < 2) return `tables: ${opts.tables} is too few for gilman; give 2 or more tables (one team of four at each)`;
  return null;
}

/** Gilman's odd movement for `n` teams (n odd): E-W move down two tables, trays down one, n rounds. */
function odd(n: number, per: number): MovementRound[] {
  const rounds: MovementRound[] = [];
  for (let r = 0; r < n; r++) {
    // E-W team pair e is at table e - 2r: at table t sits e = t + 2r. Tray set s is at table s - r.
    const tables = Array.from({ length: n }, (_, i) => seat(i + 1, nsOf(i + 1), ewOf(wrap(i + 1, 2 * r, n)), traysOfSet(mod(i + r, n), per)));
    const notes = r < n - 1
      ? [`E & W players move to the next table but one (${n} going to ${n - 2}, 2 to ${n}, 1 to ${n - 1}); N & S sit still`, `trays move one table the same way (${n} going to ${n - 1}, 1 to ${n})`]
      : undefined;
    rounds.push({ round: r + 1, tables, ...(notes ? { notes } : {}) });
  }
  return rounds;
}

/** Gilman's even movement for `n` teams in two rows (n even): E-W move down one table, sets idle every other round. */
function even(n: number, per: number): MovementRound[] {
  const h = n / 2;
  const rounds: MovementRound[] = [];
  for (let r = 0; r < n; r++) {
    const tables: MovementTable[] = [];
    for (let t = 1; t <= n; t++) {
      const column = (t - 1) % h;
      // Column c plays set 2c + r: table 1 gets sets 1, 2, 3, ... in order, a set moves up a column every two rounds.
      const set = traysOfSet(mod(2 * column + r, n), per);
      tables.push(seat(t, nsOf(t), ewOf(wrap(t, r, n)), sharedOrder(set, t <= h ? 0 : 1, 2)));
    }
    const lower = tables[h].trays[0];
    const notes = [`Tables in two rows, ${h === 1 ? '1 over 2' : `1-${h} over ${h + 1}-${n}`}: tables facing each other share a set of trays, passing them in turn (tray ${lower ?? 'none: it waits'} at table ${h + 1} while tray ${tables[0].trays[0]} is at table 1); the other sets lie idle`];
    if (r < n - 1) notes.push(`E & W players move one table (${n === 2 ? '2 going to 1, 1 to 2' : `2 going to 1, 3 to 2, 1 to ${n}`}); N & S sit still; the idle sets come into play (the next set up the line), the sets just played lie idle`);
    rounds.push({ round: r + 1, tables, notes });
  }
  return rounds;
}

/** Gilman's schedule for `opts` under the name `name` (howell-teams uses it for even numbers of teams). */
export function gilmanSchedule(opts: MovementOptions, name: string): Schedule {
  const n = opts.tables;
  const per = opts.boardsPerRound ?? gilmanBoards(n);
  return schedule({
    movement: name, tables: n, kind: 'teams', boardsPerRound: per, trays: n * per,
    rounds: n % 2 === 1 ? odd(n, per) : even(n, per), participants: pairIds(n),
  });
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  return gilmanSchedule(opts, 'gilman');
}

/** Gilman's System for teams of four, odd and even numbers. */
export const movement: Movement = {
  name: 'gilman',
  kind: 'teams',
  summary: 'Gilman\'s System for teams of four: each team at its own table first; odd: E & W move two tables, trays one, the same way; even: two rows, facing tables share a set, half the sets idle each round, E & W move one table',
  source: 'Foster 1914, Duplicate Whist: Teams against Teams, Gilman\'s System and Even Numbers of Teams',
  check,
  generate,
};
