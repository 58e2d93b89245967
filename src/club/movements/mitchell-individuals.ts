// Large numbers of individuals by Mitchell's method (Foster 1914, Duplicate Whist: Large Numbers of Individuals):
// "all the ladies sitting N & E; the gentlemen S and W. ... The trays containing the hands are passed to the West,
// and all the gentlemen move one table to the East, the ladies sitting still. In all the changes each gentleman keeps
// to his original point of the compass, South or West. When he arrives at the table he started from, the round is
// finished." Tables are numbered the way the gentlemen go (East = the next higher number, the last going to 1), so
// the trays go to the next lower number (1 going to the last). A player is named by the table and seat he starts at
// ("3S": the gentleman who starts South at table 3). The printed diagram of the positions is not in our copy; the
// text above says all it shows.
//
// `method` chooses the form (`--option method=...`):
// - `regular`: "If an odd number of tables are engaged in play, the changes may take place in regular order to the
//   end." With an even number, "unless half the number of tables is an odd number, when the method already
//   described may be used": the regular order cannot serve an even ring (a gentleman would meet every other tray
//   twice), so we read it as the regular order run in each half, two sections of an odd number of tables (6 = 3 + 3).
// - `1`: "Some table in the series, which must not be either the first or the last, deals no original hands, but
//   overplays all the hands coming from the other tables to the East of it. The four players sit still": the table
//   at the middle (tables/2) sits out of the progression; the others move in regular order round it (an odd ring),
//   and it plays each tray just after the table East of it, one slot behind.
// - `2`: the skip. "He progresses until he meets this hand again ... all the gentlemen must meet their original hands
//   at the same time. Instead of stopping at the table at which this tray is encountered, all the gentlemen move on
//   to the next, leaving the trays as they are." The skip comes after tables/2 sets; he is home after tables - 1.
// Odd tables default to `regular` (method 2 is the same there: no gentleman meets his hand again); even to `2`.
import { SEATS } from '../../cards/seat.js';
import type { Movement, MovementOptions, MovementRound, MovementTable, Schedule } from '../types.js';
import { badBoards, badTables, markOriginals, traysOfSet, unknownOption } from './schedule-kit.js';

type Method = 'regular' | '1' | '2';

const mod = (a: number, n: number): number => ((a % n) + n) % n;

function methodOf(opts: MovementOptions): { method: Method } | { problem: string } {
  const raw = opts.options?.method;
  if (raw === undefined) return { method: opts.tables % 2 === 1 ? 'regular' : '2' };
  const m = String(raw);
  if (m === 'regular' || m === '1' || m === '2') return { method: m };
  return { problem: `option method: "${m}" is not a method of mitchell-individuals; give method=regular, method=1 or method=2` };
}

function check(opts: MovementOptions): string | null {
  const bad = badTables('mitchell-individuals', opts) ?? badBoards(opts) ?? unknownOption('mitchell-individuals', opts, ['method']);
  if (bad) return bad;
  const n = opts.tables;
  if (n < 3) {
    return `tables: ${n} is too few for mitchell-individuals (no hand would be overplayed); give 3 or more tables, or use safford-individuals for eight players at 2`;
  }
  const chosen = methodOf(opts);
  if ('problem' in chosen) return chosen.problem;
  if (chosen.method === 'regular' && n % 2 === 0 && (n / 2) % 2 === 0) {
    return `option method: regular does not suit ${n} tables (even, and half of it even); give method=1 or method=2 (the seed's two systems), or an odd number of tables`;
  }
  if (chosen.method === '1' && n % 2 === 1) {
    return `option method: 1 is for an even number of tables; ${n} tables move in regular order, so leave method out (or give method=regular)`;
  }
  return null;
}

/** One table in one set: its ladies stay, its gentlemen come from table `from`, it plays `trays`. */
function seat(table: number, from: number, trays: (number | null)[]): MovementTable {
  const players = Object.fromEntries(SEATS.map((s) => [s, s === 'N' || s === 'E' ? `${table}${s}` : `${from}${s}`]));
  return { table, players, trays };
}

const MOVE = 'Gentlemen move one table East (to the next higher number, the last going to 1); trays are passed West; ladies sit still';

/**
 * The regular order on a ring of tables (listed in the gentlemen's order): `sets` sets; by set r the gentlemen have
 * moved `shift(r)` places East and the trays r places West; ring place i deals board set `firstSet + i`.
 */
function ring(tables: number[], sets: number, perTable: number, firstSet: number, shift: (set: number) => number): MovementTable[][] {
  const n = tables.length;
  return Array.from({ length: sets }, (_, r) => tables.map((t, i) => {
    const from = tables[mod(i - shift(r), n)];
    const deal = mod(i + r, n); // trays go West: the set at ring place i in set r was dealt at ring place i + r
    return seat(t, from, traysOfSet(firstSet + deal, perTable));
  }));
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const n = opts.tables;
  const per = opts.boardsPerRound ?? 2;
  const method = (methodOf(opts) as { method: Method }).method;
  const all = Array.from({ length: n }, (_, i) => i + 1);
  let sets: MovementTable[][];
  let trays = n * per;
  const notes: string[][] = [];
  if (n % 2 === 1) {
    // Odd: regular order to the end, whatever the method (no gentleman meets his hand again before he is home).
    sets = ring(all, n, per, 0, (r) => r);
    sets.forEach(() => notes.push([MOVE]));
  } else if (method === 'regular') {
    // Two sections of an odd number of tables, each in regular order; each deals its own trays.
    const m = n / 2;
    const a = ring(all.slice(0, m), m, per, 0, (r) => r);
    const b = ring(all.slice(m), m, per, m, (r) => r);
    sets = a.map((tables, r) => [...tables, ...b[r]]);
    sets.forEach(() => notes.push([`Two sections of ${m} tables (1-${m} and ${m + 1}-${n}), each in regular order: gentlemen move one table East within their section, trays West; ladies sit still`]));
  } else if (method === '2') {
    const m = n / 2;
    sets = ring(all, n - 1, per, 0, (r) => (r < m ? r : r + 1));
    sets.forEach((_, r) => notes.push([r === m - 1
      ? 'Every gentleman now meets his original hand: the gentlemen move on one table more (two tables East), the trays are passed West as usual; ladies sit still'
      : MOVE]));
  } else {
    // Method 1: the middle table sits still and deals nothing; the other n - 1 (odd) move in regular order round it.
    const still = n / 2;
    const ringTables = all.filter((t) => t !== still);
    const moving = ring(ringTables, n - 1, per, 0, (r) => r);
    trays = (n - 1) * per;
    sets = moving.map((tables) => {
      const east = tables.find((t) => t.table === still + 1)!;
      const here = seat(still, still, [null, ...east.trays]);
      return [...tables, here].sort((x, y) => x.table - y.table);
    });
    sets.forEach(() => notes.push([`${MOVE}; table ${still} sits still, deals nothing and overplays each tray after table ${still + 1}, and the gentlemen pass it by (${still - 1} going to ${still + 1})`]));
  }
  const rounds: MovementRound[] = sets.map((tables, r) => ({
    round: r + 1,
    tables,
    ...(r < sets.length - 1 ? { notes: notes[r] } : {}),
  }));
  markOriginals(rounds);
  const participants = all.flatMap((t) => SEATS.map((s) => `${t}${s}`));
  return {
    movement: 'mitchell-individuals',
    tables: n,
    kind: 'individuals',
    boardsPerRound: per,
    trays,
    rounds,
    participants,
    options: { method: n % 2 === 1 || method === 'regular' ? 'regular' : Number(method) },
  };
}

/** Mitchell's movement for large numbers of individuals (ladies and gentlemen). */
export const movement: Movement = {
  name: 'mitchell-individuals',
  kind: 'individuals',
  summary: 'Ladies sit N & E and stay, gentlemen sit S & W and move one table East, trays go West; even tables: method=1 (a middle table sits still and overplays), method=2 (the skip), or method=regular in two odd halves',
  source: 'Foster 1914, Duplicate Whist: Large Numbers of Individuals (Mitchell); the printed diagram is not in our copy',
  check,
  generate,
};
