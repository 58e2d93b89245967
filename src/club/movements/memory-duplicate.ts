// Memory Duplicate (Foster 1914, Duplicate Whist: Pair against Pair, "Two Pairs", and Individuals): four players at
// one table. "The players retain their seats until they have played an agreed number of hands, which are laid aside
// one by one in trays ... Instead of the players changing positions for the overplay, the trays are reversed. If
// the indicators pointed N & S on the original deals, they must lie E & W for the overplay." (The seed adds that it
// "is forbidden in all first-class clubs": every pair replays every deal, holding the other side's cards.)
//
// A schedule names who holds which hands of the tray, so in the overplay the pair sitting E-W (1EW) holds the hands
// dealt N & S and is the N-S of the overplay: round 2 is 1EW v 1NS. We turn a tray a quarter clockwise: the pocket
// dealt North lies at East: the overplay's `turn: 1`, by which the table lays the record's hands where the pockets lie.
// Round 1 deals the agreed number (default 12, so 24 hands are played in all, "the usual number"); round 2 overplays
// them in the same order.
//
// `--option form=individuals`: "When four play memory duplicate, one of the four, usually S, retains his seat and
// keeps the score, the others changing places right and left alternately, each playing with S as a partner for 8
// hands." The printed positions (N, W, E; S sits still), hands 1 to 4, 5 to 8, 9 to 12:
//   original: c / a b, b / a c, a / c b      overplay, trays reversed: c / b a, b / c a, a / c b
// Players are the seed's S, a, b, c. In the overplay `players` names who holds each of the tray's hands (the pocket
// dealt North lies at East, so the player sitting East holds North's hand, and so on round).
import { SEATS, type Seat } from '../../cards/seat.js';
import { tableSeat } from '../../cards/tray-turn.js';
import type { Movement, MovementOptions, MovementRound, MovementTable, Schedule } from '../types.js';
import { badBoards, badTables, unknownOption } from './schedule-kit.js';
import { range, schedule } from './schedule.js';

type Sitting = { N: string; E: string; S: string; W: string };

/** The seed's positions for four individuals, by where the players sit. */
const ORIGINAL: Sitting[] = [
  { N: 'c', W: 'a', E: 'b', S: 'S' },
  { N: 'b', W: 'a', E: 'c', S: 'S' },
  { N: 'a', W: 'c', E: 'b', S: 'S' },
];
const OVERPLAY: Sitting[] = [
  { N: 'c', W: 'b', E: 'a', S: 'S' },
  { N: 'b', W: 'c', E: 'a', S: 'S' },
  { N: 'a', W: 'c', E: 'b', S: 'S' },
];

/** Who holds each hand of a tray turned a quarter clockwise: North's hand lies at East, East's at South, and so on. */
export function reversed(sitting: Sitting): Record<Seat, string> {
  return Object.fromEntries(SEATS.map((s) => [s, sitting[tableSeat(s, 1)]])) as Record<Seat, string>;
}

const formOf = (opts: MovementOptions): string => String(opts.options?.form ?? 'pairs');

function check(opts: MovementOptions): string | null {
  const bad = badTables('memory-duplicate', opts) ?? badBoards(opts) ?? unknownOption('memory-duplicate', opts, ['form']);
  if (bad) return bad;
  if (opts.tables !== 1) return `tables: memory duplicate is four players at a single table; give --tables 1 (for four pairs at two tables use four-pairs)`;
  const form = formOf(opts);
  if (form !== 'pairs' && form !== 'individuals') return `option form: "${form}" is not a form of memory-duplicate; give form=pairs or form=individuals`;
  return null;
}

function pairs(per: number): MovementRound[] {
  const trays = range(1, per);
  return [
    { round: 1, tables: [{ table: 1, ns: '1NS', ew: '1EW', trays: [...trays] }], notes: ['Each hand is laid aside in its tray; no trump is turned, one suit is trumps for the sitting', 'Then the trays are reversed: the pockets dealt N & S lie E & W'] },
    { round: 2, tables: [{ table: 1, ns: '1EW', ew: '1NS', trays: [...trays], turn: 1 }], notes: ['The overplay: the players keep their seats; 1EW now holds the hands dealt N & S, 1NS those dealt E & W'] },
  ];
}

function individuals(per: number): MovementRound[] {
  const rounds: MovementRound[] = [];
  const sets = [...ORIGINAL.map((s) => ({ s, over: false })), ...OVERPLAY.map((s) => ({ s, over: true }))];
  sets.forEach(({ s, over }, k) => {
    const set = k % 3;
    const table: MovementTable = { table: 1, players: over ? reversed(s) : { ...s }, trays: range(set * per + 1, (set + 1) * per), ...(over ? { turn: 1 as const } : {}) };
    const sitting = `N ${s.N}, E ${s.E}, S ${s.S}, W ${s.W}`;
    const notes = [over
      ? `Overplay, trays reversed: seated ${sitting}; the seats listed name who holds each hand of the tray (the pocket dealt N lies at E), so S and ${s.N} hold the hands dealt E & W`
      : `Seated ${sitting}: S keeps his seat and partners ${s.N}`];
    if (k === 2) notes.push('Then the trays are reversed (the pockets dealt N & S lie E & W) and the players go on changing right and left');
    else if (k < 5) notes.push('The others change places right and left');
    rounds.push({ round: k + 1, tables: [table], notes });
  });
  return rounds;
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const form = formOf(opts);
  if (form === 'individuals') {
    const per = opts.boardsPerRound ?? 4;
    return schedule({ movement: 'memory-duplicate', tables: 1, kind: 'individuals', boardsPerRound: per, trays: 3 * per, rounds: individuals(per), participants: ['S', 'a', 'b', 'c'], options: { form } });
  }
  const per = opts.boardsPerRound ?? 12;
  return schedule({ movement: 'memory-duplicate', tables: 1, kind: 'pairs', boardsPerRound: per, trays: per, rounds: pairs(per), participants: ['1NS', '1EW'] });
}

/** Memory Duplicate: two pairs (or four individuals) at one table, trays reversed for the overplay. */
export const movement: Movement = {
  name: 'memory-duplicate',
  kind: 'pairs',
  summary: 'Memory Duplicate: two pairs at one table, hands laid aside in trays and overplayed with the trays reversed (N & S hands held E & W); form=individuals: S keeps his seat, the others change right and left',
  source: 'Foster 1914, Duplicate Whist: Pair against Pair, Two Pairs; Individuals (four players)',
  check,
  generate,
};
