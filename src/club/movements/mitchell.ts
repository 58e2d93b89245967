// The Mitchell movement as clubs run it today (modern club practice, not in the seed): N-S pairs sit still, E-W
// pairs move up one table (the last going to 1) and the board sets move down one table (1 going to the last). With
// an odd number of tables this meets every pair and every set once. With an even number a plain Mitchell would bring
// each E-W pair back to boards it has played, so (`--option even=...`):
// - `skip` (default): after half the rounds the E-W pairs skip a table; tables - 1 rounds, each E-W pair misses one
//   N-S pair and one board set.
// - `relay`: relay and bye stand. A bye stand sits between tables N/2 and N/2+1 and holds one set each round;
//   tables 1 and N share a set (a relay: they play its trays in different slots, so a tray is at one table at a
//   time). N rounds, N sets, and every E-W pair meets every N-S pair and plays every set once.
// An odd number of pairs (`--option phantom=ns` or `phantom=ew`): the last table's N-S pair, or the last E-W pair, is
// a phantom. Whoever meets it sits out that round (named in the round's notes) and misses the set on that table.
import type { Movement, MovementOptions, MovementRound, MovementTable, Schedule } from '../types.js';
import { badBoards, badTables, markOriginals, sharedOrder, traysOfSet, unknownOption } from './schedule-kit.js';

const mod = (a: number, n: number): number => ((a % n) + n) % n;

function evenOf(opts: MovementOptions): string {
  return String(opts.options?.even ?? 'skip');
}

function check(opts: MovementOptions): string | null {
  const bad = badTables('mitchell', opts) ?? badBoards(opts) ?? unknownOption('mitchell', opts, ['even', 'phantom']);
  if (bad) return bad;
  if (opts.tables < 2) return `tables: ${opts.tables} is too few for a mitchell; give 2 or more tables`;
  const even = evenOf(opts);
  if (even !== 'skip' && even !== 'relay') return `option even: "${even}" is not a form of mitchell; give even=skip or even=relay`;
  const phantom = opts.options?.phantom;
  if (phantom !== undefined && phantom !== 'ns' && phantom !== 'ew') return `option phantom: "${phantom}" is not a direction; give phantom=ns (the last table's N-S pair is missing) or phantom=ew (the last E-W pair is)`;
  // Two tables with a skip is one round: every board played once, nothing compared.
  if (opts.tables === 2 && even === 'skip') return 'tables: 2 with even=skip is a single round in which no board is overplayed; give --option even=relay (the two tables share the boards), or use four-pairs';
  return null;
}

const MOVE = 'E-W pairs move up one table (the last going to 1); boards move down one table (1 going to the last)';

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const n = opts.tables;
  const per = opts.boardsPerRound ?? 2;
  const even = n % 2 === 0 ? evenOf(opts) : undefined;
  const rounds: MovementRound[] = [];
  const ewAt = (t: number, shift: number): string => `${mod(t - 1 - shift, n) + 1}EW`;
  if (even !== 'relay') {
    const count = even === 'skip' ? n - 1 : n;
    const half = n / 2;
    for (let r = 0; r < count; r++) {
      // The skip: from round half + 1 on, the E-W pairs are one table further up than the plain movement puts them.
      const shift = even === 'skip' && r >= half ? r + 1 : r;
      const tables: MovementTable[] = [];
      for (let t = 1; t <= n; t++) {
        tables.push({ table: t, ns: `${t}NS`, ew: ewAt(t, shift), trays: traysOfSet(mod(t - 1 + r, n), per) });
      }
      const note = even === 'skip' && r === half - 1
        ? 'E-W pairs skip a table: they move up two tables this time; boards move down one table as usual'
        : MOVE;
      rounds.push({ round: r + 1, tables, ...(r < count - 1 ? { notes: [note] } : {}) });
    }
  } else {
    // Board places in the order the boards travel backwards: 0 is the relay (tables 1 and N), then tables 2..N/2,
    // the bye stand, tables N/2+1..N-1. A set at place p in round r is set p + r: it moves down one place a round.
    const half = n / 2;
    const placeOf = (t: number): number => (t === 1 || t === n ? 0 : t <= half ? t - 1 : t);
    for (let r = 0; r < n; r++) {
      const tables: MovementTable[] = [];
      for (let t = 1; t <= n; t++) {
        const trays = traysOfSet(mod(placeOf(t) + r, n), per);
        const order = t === 1 ? sharedOrder(trays, 0, 2) : t === n ? sharedOrder(trays, 1, 2) : trays;
        tables.push({ table: t, ns: `${t}NS`, ew: ewAt(t, r), trays: order });
      }
      const bye = mod(half + r, n) + 1;
      const notes = [`Set ${bye} is on the bye stand (between tables ${half} and ${half + 1}); tables 1 and ${n} share a set, playing its boards in turn`];
      if (r < n - 1) notes.push(`${MOVE}; boards go from table ${half + 1} to the bye stand, from the bye stand to table ${half}, from table 2 to the relay and from the relay to table ${n - 1}`);
      rounds.push({ round: r + 1, tables, notes });
    }
  }
  const phantom = opts.options?.phantom === 'ns' ? `${n}NS` : opts.options?.phantom === 'ew' ? `${n}EW` : undefined;
  if (phantom) sitOut(rounds, phantom);
  markOriginals(rounds);
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  const options = { ...(even ? { even } : {}), ...(phantom ? { phantom: String(opts.options!.phantom) } : {}) };
  return {
    movement: 'mitchell',
    tables: n,
    kind: 'pairs',
    boardsPerRound: per,
    trays: n * per,
    rounds,
    participants: [...ids.map((t) => `${t}NS`), ...ids.map((t) => `${t}EW`)].filter((p) => p !== phantom),
    ...(Object.keys(options).length > 0 ? { options } : {}),
  };
}

/** Take the phantom pair's table out of each round: the pair that meets it sits out and misses that table's set. */
function sitOut(rounds: MovementRound[], phantom: string): void {
  for (const r of rounds) {
    const i = r.tables.findIndex((t) => t.ns === phantom || t.ew === phantom);
    if (i < 0) continue;
    const [t] = r.tables.splice(i, 1);
    const out = t.ns === phantom ? t.ew : t.ns;
    const trays = t.trays.filter((b) => b !== null).join(', ');
    r.notes = [`${out} sits out at table ${t.table} (it meets the phantom pair) and misses trays ${trays}`, ...(r.notes ?? [])];
  }
}

/** The Mitchell movement (modern club practice). */
export const movement: Movement = {
  name: 'mitchell',
  kind: 'pairs',
  summary: 'N-S pairs sit still, E-W pairs move up one table and the boards down one; even tables: even=skip (E-W skip a table after half the rounds, the default) or even=relay (relay and bye stand); an odd number of pairs: phantom=ns or phantom=ew',
  source: 'modern club practice',
  check,
  generate,
};
