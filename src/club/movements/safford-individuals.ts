// Eight individuals by Safford's System (Foster 1914, Duplicate Whist: Individuals, "Eight Individuals"): two tables
// a set, seven sets, each table deals two hands a set and exchanges them with the other table, so a set is four
// hands played at both tables and the match is 7 × 4 = 28 hands. The players sit at numbered places on indicator
// cards and after each set "go to the next higher number; 8 keeping his seat, and 7 going to 1".
//
// Our copy of the seed has lost the printed diagram of the indicator cards ("Diagram of the position of the players
// at the table when using Safford's System" stands where the picture was). We derive it: the first diagram, in a
// fixed search order, under which the rotation makes every player the partner of every other exactly once in the
// seven sets ("seven sets to exhaust the combinations"), preferring one where besides each player meets every other
// as an opponent exactly twice and holds the same cards as every other (same seat, other table: the player his score
// is compared with) exactly once. The search is cheap (8 places), so it runs on first use; nothing is cached on disk.
// A player is named by the number of his place in the first set ("The players take their seats in any order for the
// first set").
// The derived places (test: "the derived diagram"): table 1 N 1, E 2, S 3, W 5; table 2 N 4, E 7, S 8, W 6.
import { SEATS, type Seat } from '../../cards/seat.js';
import type { Movement, MovementOptions, MovementRound, MovementTable, Schedule } from '../types.js';
import { badBoards, badTables, markOriginals, unknownOption } from './schedule-kit.js';

/** A place on the indicator cards: its table (1 or 2) and seat. */
export interface Place { table: number; seat: Seat }

const SLOTS: Place[] = [1, 2].flatMap((table) => SEATS.map((seat) => ({ table, seat })));
const SETS = 7;

/** The place number (1..8) that player `player` (1..8, his place in the first set) holds in set `set` (0-based). */
export function placeOf(player: number, set: number): number {
  if (player === 8) return 8;
  return ((player - 1 + set) % 7) + 1;
}

/** The player (1..8) at place `place` in set `set` (0-based): the inverse of `placeOf`. */
export function playerAt(place: number, set: number): number {
  if (place === 8) return 8;
  return ((((place - 1 - set) % 7) + 7) % 7) + 1;
}

const side = (s: Seat): 'NS' | 'EW' => (s === 'N' || s === 'S' ? 'NS' : 'EW');
const pairKey = (a: number, b: number): number => (a < b ? a * 10 + b : b * 10 + a);

/** What the players of a diagram meet over the seven sets: partner, opponent and same-cards counts per pair. */
export function meetings(diagram: Place[]): { partners: Map<number, number>; opponents: Map<number, number>; sameCards: Map<number, number> } {
  const partners = new Map<number, number>();
  const opponents = new Map<number, number>();
  const sameCards = new Map<number, number>();
  const bump = (m: Map<number, number>, k: number): void => { m.set(k, (m.get(k) ?? 0) + 1); };
  for (let s = 0; s < SETS; s++) {
    for (let p = 1; p <= 8; p++) {
      for (let q = p + 1; q <= 8; q++) {
        const a = diagram[p - 1];
        const b = diagram[q - 1];
        const k = pairKey(playerAt(p, s), playerAt(q, s));
        if (a.table === b.table) bump(side(a.seat) === side(b.seat) ? partners : opponents, k);
        else if (a.seat === b.seat) bump(sameCards, k);
      }
    }
  }
  return { partners, opponents, sameCards };
}

let found: Place[] | undefined;

/**
 * The derived indicator diagram: place number (index + 1) → table and seat. The first in a fixed order (places 1..8
 * into table 1 N E S W, table 2 N E S W) where everyone partners everyone once, and among those the first where also
 * everyone opposes everyone twice and holds the same cards as everyone once, if there is one.
 */
export function saffordDiagram(): Place[] {
  if (found) return found;
  let partnersOnly: Place[] | undefined;
  let best: Place[] | undefined;
  const order: number[] = [];
  const used = new Set<number>();
  const visit = (): boolean => {
    if (order.length === 8) {
      const diagram: Place[] = [];
      order.forEach((place, slot) => { diagram[place - 1] = SLOTS[slot]; });
      const m = meetings(diagram);
      if (m.partners.size !== 28) return false;
      partnersOnly ??= diagram;
      const twice = m.opponents.size === 28 && [...m.opponents.values()].every((n) => n === 2);
      const once = m.sameCards.size === 28 && [...m.sameCards.values()].every((n) => n === 1);
      if (twice && once) { best = diagram; return true; }
      return false;
    }
    for (let place = 1; place <= 8; place++) {
      if (used.has(place)) continue;
      used.add(place);
      order.push(place);
      if (visit()) return true;
      order.pop();
      used.delete(place);
    }
    return false;
  };
  visit();
  found = best ?? partnersOnly;
  if (!found) throw new Error('safford-individuals: no diagram makes every player partner every other once (a bug)');
  return found;
}

function check(opts: MovementOptions): string | null {
  const bad = badTables('safford-individuals', opts) ?? badBoards(opts) ?? unknownOption('safford-individuals', opts, []);
  if (bad) return bad;
  if (opts.tables !== 2) {
    return `tables: ${opts.tables} does not suit safford-individuals, which is eight players at two tables; give --tables 2 (mitchell-individuals takes any number of tables)`;
  }
  const b = opts.boardsPerRound ?? 4;
  if (b % 2 !== 0) {
    return `boardsPerRound: ${b} cannot be split between the two tables of a set (each deals half and they exchange); give an even number, 4 as the seed does`;
  }
  return null;
}

function generate(opts: MovementOptions): Schedule {
  const problem = check(opts);
  if (problem) throw new Error(problem);
  const perSet = opts.boardsPerRound ?? 4;
  const half = perSet / 2;
  const diagram = saffordDiagram();
  const rounds: MovementRound[] = [];
  for (let s = 0; s < SETS; s++) {
    const base = s * perSet;
    // Table 1 deals the first half of the set, table 2 the second; then they exchange, so a tray is at one table
    // in each slot.
    const first = Array.from({ length: half }, (_, k) => base + k + 1);
    const second = Array.from({ length: half }, (_, k) => base + half + k + 1);
    const tables: MovementTable[] = [1, 2].map((table) => ({
      table,
      players: Object.fromEntries(SEATS.map((seat) => {
        const place = diagram.findIndex((p) => p.table === table && p.seat === seat) + 1;
        return [seat, String(playerAt(place, s))];
      })),
      trays: table === 1 ? [...first, ...second] : [...second, ...first],
    }));
    const round: MovementRound = { round: s + 1, tables };
    if (s < SETS - 1) round.notes = ['Every player goes to the place of the next higher number: 7 going to 1, 8 keeping his seat'];
    rounds.push(round);
  }
  markOriginals(rounds);
  return {
    movement: 'safford-individuals',
    tables: 2,
    kind: 'individuals',
    boardsPerRound: perSet,
    trays: SETS * perSet,
    rounds,
    participants: ['1', '2', '3', '4', '5', '6', '7', '8'],
  };
}

/** Safford's System for eight individuals. */
export const movement: Movement = {
  name: 'safford-individuals',
  kind: 'individuals',
  summary: 'Eight individuals at two tables, seven sets of four hands (28 in all); after each set everyone goes to the next higher place, 7 to 1, 8 sits still, so everyone partners everyone once (the indicator diagram is derived: our copy lost it)',
  source: "Foster 1914, Duplicate Whist: Individuals, Eight Individuals, Safford's System (the printed diagram is not in our copy; derived by search)",
  check,
  generate,
};
