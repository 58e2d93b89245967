// Building blocks of the seed's team and pair movements (compass, gilman, howell-teams, four-pairs, six-pairs,
// memory-duplicate): pair ids named by starting table as the seed does ("No. 3 N & S" is "3NS"), a table of a round,
// and the whole schedule with the originals marked. Option and count checks come from schedule-kit.ts. Pure.
import type { MovementTable, Schedule } from '../types.js';
import { markOriginals } from './schedule-kit.js';

/** The N-S pair (or team pair) that starts at table `t`: "3NS". */
export const nsOf = (t: number): string => `${t}NS`;

/** The E-W pair (or team pair) that starts at table `t`: "3EW". */
export const ewOf = (t: number): string => `${t}EW`;

/** `a` mod `n` in 0..n-1, also for negative `a`. */
export const mod = (a: number, n: number): number => ((a % n) + n) % n;

/** Table number (1..n) reached from table `t` by `step` tables, wrapping round: `wrap(1, -1, 5)` is 5. */
export const wrap = (t: number, step: number, n: number): number => mod(t - 1 + step, n) + 1;

/** The pairs of an `n`-table movement whose pairs start N-S and E-W at every table: 1NS..nNS, 1EW..nEW. */
export function pairIds(n: number): string[] {
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  return [...ids.map(nsOf), ...ids.map(ewOf)];
}

/** One table in one round. */
export function seat(table: number, ns: string | undefined, ew: string | undefined, trays: (number | null)[]): MovementTable {
  return { table, ...(ns !== undefined ? { ns } : {}), ...(ew !== undefined ? { ew } : {}), trays };
}

/** Trays `from`..`to` (inclusive). */
export function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, k) => from + k);
}

/** What a generator hands over to become a Schedule: the schedule before its originals are marked. */
export type ScheduleParts = Schedule;

/**
 * The Schedule, with each table's `original` flags: a tray is dealt where it is first played (round, then slot,
 * then table), which is how the seed deals ("each table dealing and playing four hands, afterwards putting them away
 * in trays").
 */
export function schedule(p: ScheduleParts): Schedule {
  markOriginals(p.rounds);
  return {
    movement: p.movement, tables: p.tables, kind: p.kind, boardsPerRound: p.boardsPerRound, trays: p.trays,
    rounds: p.rounds, participants: p.participants, ...(p.options ? { options: p.options } : {}),
  };
}
