// Eight married couples by Safford's schedule (Foster 1914, Duplicate Whist: Married Couples). Sixteen players at four
// tables, seven sets. "The numbers represent the husbands, and the letters the wives, the couples being a-1, b-2,
// etc. The couple a-1 always sit still; the ladies go to the next higher letter of the alphabet, and the men to the
// next higher number; h going to b, as a sits still; and 8 to 2." "One hand is dealt at each table, and overplayed at
// each of the others. A different point of the compass should deal at each table": a set is four hands, tray 4s+t
// dealt at table t, whose dealer (board order N E S W) is a different point at each table.
//
// Our copy has lost the printed diagram of the indicator cards ("Diagram of the position of the players at the
// table" stands where the picture was). We derive it from the sentences the text states, read as follows:
// - "so arranged in two sets that no husband and wife are ever in the same set at the same time": the four tables
//   are two sets, tables 1-2 and 3-4, and husband and wife are never in the same one;
// - "every lady will have overplayed four hands against every other lady and gentleman": she meets every other
//   player but her husband as an opponent in exactly one set (four hands), and 7 sets × 2 opponents = 14 = the
//   players who are not her husband, so this is exact;
// - "including four held by her husband": in some set she holds, at another table, the seat her husband holds, so
//   she overplays the four hands he held. Couples b-2 .. h-8 do so in exactly one set; a-1 sit still, so they share
//   a seat in every set or never, and the search must seat them alike (all 28 hands).
// The diagram is the first in a fixed search order (places a..h, 1..8 into table 1 N E S W, ..., table 4 W) that
// makes all of these true. It runs on first use (about 0.1 s); nothing is cached on disk. The derived places (test:
// "the derived diagram"): table 1 N a, E b, S c, W 4; table 2 N e, E 7, S 6, W 8; table 3 N f, E h, S d, W 3;
// table 4 N 1, E g, S 5, W 2.
import { SEATS, type Seat } from '../../cards/seat.js';
import type { Movement, MovementOptions, MovementRound, MovementTable, Schedule } from '../types.js';
import { badBoards, badTables, markOriginals, unknownOption } from './schedule-kit.js';

/** A place on the indicator cards: its table (1..4) and seat. */
export interface CouplePlace { table: number; seat: Seat }

/** The sixteen names, places and players alike: the wives a..h (0..7), then the husbands 1..8 (8..15). */
export const COUPLE_NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '1', '2', '3', '4', '5', '6', '7', '8'];
const SETS = 7;
const SLOTS: CouplePlace[] = [1, 2, 3, 4].flatMap((table) => SEATS.map((seat) => ({ table, seat })));

/** The spouse of player (or place) `x` in the 0..15 numbering: a ↔ 1, b ↔ 2, ... */
export function spouseOf(x: number): number {
  return x < 8 ? x + 8 : x - 8;
}

/** The place (0..15) of player `x` (0..15, his or her first place) in set `set` (0-based). */
export function couplePlaceOf(x: number, set: number): number {
  const base = x < 8 ? 0 : 8;
  const i = x - base;
  // a and 1 sit still; b..h and 2..8 go round the other seven: "h going to b ... and 8 to 2".
  return i === 0 ? x : base + ((i - 1 + set) % 7) + 1;
}

/** The player at place `place` in set `set`: the inverse of `couplePlaceOf`. */
export function couplePlayerAt(place: number, set: number): number {
  const base = place < 8 ? 0 : 8;
  const i = place - base;
  return i === 0 ? place : base + ((((i - 1 - set) % 7) + 7) % 7) + 1;
}

const sideOf = (s: Seat): number => (s === 'N' || s === 'S' ? 0 : 1);
const half = (table: number): number => (table <= 2 ? 0 : 1);
const key = (a: number, b: number): number => (a < b ? a * 16 + b : b * 16 + a);

let found: CouplePlace[] | undefined;

/** The derived indicator diagram: place (0..15, a..h then 1..8) → table and seat. */
export function couplesDiagram(): CouplePlace[] {
  if (found) return found;
  const at: (number | undefined)[] = new Array(16).fill(undefined); // slot → place
  const slotOf: (number | undefined)[] = new Array(16).fill(undefined); // place → slot
  const opposed = new Set<number>();
  const leafOk = (): boolean => {
    const same = (p: number, q: number): boolean => SLOTS[slotOf[p]!].seat === SLOTS[slotOf[q]!].seat;
    if (!same(0, 8)) return false;
    for (let i = 1; i < 8; i++) {
      let n = 0;
      for (let s = 0; s < SETS; s++) {
        // Lady i and her husband sit at places couplePlaceOf(i, s) and couplePlaceOf(i + 8, s).
        if (same(couplePlaceOf(i, s), couplePlaceOf(i + 8, s))) n++;
      }
      if (n !== 1) return false;
    }
    return true;
  };
  const visit = (slot: number): boolean => {
    if (slot === 16) return leafOk();
    const here = SLOTS[slot];
    for (let place = 0; place < 16; place++) {
      if (slotOf[place] !== undefined) continue;
      const spouseSlot = slotOf[spouseOf(place)];
      if (spouseSlot !== undefined && half(SLOTS[spouseSlot].table) === half(here.table)) continue;
      // Opponents: everyone already at this table on the other side; each pair of players at most once in 7 sets.
      const added: number[] = [];
      let ok = true;
      for (let other = slot - 1; other >= 0 && SLOTS[other].table === here.table && ok; other--) {
        if (sideOf(SLOTS[other].seat) === sideOf(here.seat)) continue;
        for (let s = 0; s < SETS; s++) {
          const k = key(couplePlayerAt(place, s), couplePlayerAt(at[other]!, s));
          if (opposed.has(k)) { ok = false; break; }
          opposed.add(k);
          added.push(k);
        }
      }
      if (ok) {
        at[slot] = place;
        slotOf[place] = slot;
        if (visit(slot + 1)) return true;
        at[slot] = undefined;
        slotOf[place] = undefined;
      }
      for (const k of added) opposed.delete(k);
    }
    return false;
  };
  if (!visit(0)) throw new Error('safford-couples: no diagram meets the seed\'s sentences (a bug)');
  found = slotOf.map((s) => SLOTS[s!]);
  return found;
}

function check(opts: MovementOptions): string | null {
  const bad = badTables('safford-couples', opts) ?? badBoards(opts) ?? unknownOption('safford-couples', opts, []);
  if (bad) return bad;
  if (opts.tables !== 4) return `tables: ${opts.tables} does not suit safford-couples, which is eight married couples at four tables; give --tables 4`;
  if ((opts.boardsPerRound ?? 4) !== 4) {
    return `boardsPerRound: ${opts.boardsPerRound} does not suit safford-couples, where each of the four tables deals one hand a set; give 4 or leave it out`;
  }
  return null;
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const diagram = couplesDiagram();
  const rounds: MovementRound[] = [];
  for (let s = 0; s < SETS; s++) {
    const set = [1, 2, 3, 4].map((t) => 4 * s + t);
    const tables: MovementTable[] = [1, 2, 3, 4].map((table) => ({
      table,
      players: Object.fromEntries(SEATS.map((seat) => {
        const place = diagram.findIndex((p) => p.table === table && p.seat === seat);
        return [seat, COUPLE_NAMES[couplePlayerAt(place, s)]];
      })),
      // Table t deals tray 4s+t in slot 0, then overplays the others in turn: slot k holds a different tray at
      // every table (a Latin square), so a tray is at one table at a time.
      trays: [0, 1, 2, 3].map((k) => set[(table - 1 + k) % 4]),
    }));
    const round: MovementRound = { round: s + 1, tables };
    if (s < SETS - 1) round.notes = ['a and 1 sit still; the ladies go to the next higher letter (h to b), the men to the next higher number (8 to 2)'];
    rounds.push(round);
  }
  markOriginals(rounds);
  return {
    movement: 'safford-couples',
    tables: 4,
    kind: 'individuals',
    boardsPerRound: 4,
    trays: SETS * 4,
    rounds,
    participants: [...COUPLE_NAMES],
  };
}

/** Safford's schedule for eight married couples. */
export const movement: Movement = {
  name: 'safford-couples',
  kind: 'individuals',
  summary: 'Eight married couples at four tables, seven sets of four hands; a and 1 sit still, ladies go to the next letter (h to b), men to the next number (8 to 2); spouses never in the same pair of tables (the indicator diagram is derived: our copy lost it)',
  source: "Foster 1914, Duplicate Whist: Married Couples, Safford's schedule (the printed diagram is not in our copy; derived by search)",
  check,
  generate,
};
