// Small pieces the Safford, Mitchell and Howell movements share: option reading, tray numbering, slot rotation and
// marking which play of a tray is its original. Pure.
import type { MovementOptions, MovementRound } from '../types.js';

/** The trays of board set `set` (0-based) when a set holds `perSet` trays: set 0 is 1..perSet. */
export function traysOfSet(set: number, perSet: number): number[] {
  return Array.from({ length: perSet }, (_, k) => set * perSet + k + 1);
}

/**
 * The order in which the `which`-th of `sharing` tables plays a set of trays that the tables share in one round.
 * Slot k holds tray (k + which) mod L, L = max(trays, sharing), and a slot past the trays is a wait (null), so no
 * tray is at two of the tables in the same slot: the relay (Foster: hands "exchanged with the other table").
 */
export function sharedOrder(trays: number[], which: number, sharing: number): (number | null)[] {
  const length = Math.max(trays.length, sharing);
  return Array.from({ length }, (_, k) => {
    const i = (k + which) % length;
    return i < trays.length ? trays[i] : null;
  });
}

/**
 * Marks each table's `original` flags: a tray's original is its first play in schedule order (round, then slot,
 * then table), which is the order in which the session plan deals it.
 */
export function markOriginals(rounds: MovementRound[]): void {
  const seen = new Set<number>();
  for (const r of rounds) {
    const slots = Math.max(0, ...r.tables.map((t) => t.trays.length));
    const sorted = [...r.tables].sort((a, b) => a.table - b.table);
    for (const t of sorted) t.original = t.trays.map(() => false);
    for (let k = 0; k < slots; k++) {
      for (const t of sorted) {
        const tray = t.trays[k];
        if (tray === null || tray === undefined || seen.has(tray)) continue;
        seen.add(tray);
        t.original![k] = true;
      }
    }
  }
}

/** The problem with option names outside `known`, or null. */
export function unknownOption(movement: string, opts: MovementOptions, known: string[]): string | null {
  for (const key of Object.keys(opts.options ?? {})) {
    if (!known.includes(key)) {
      const allowed = known.length === 0 ? 'it takes no options' : `it takes ${known.map((k) => `--option ${k}=...`).join(', ')}`;
      return `option ${key}: ${movement} does not know it; ${allowed}`;
    }
  }
  return null;
}

/** The boards per round asked for, or `fallback`. */
export function boardsOf(opts: MovementOptions, fallback: number): number {
  return opts.boardsPerRound ?? fallback;
}

/** The problem with `boardsPerRound` when it is not a whole number from 1, or null. */
export function badBoards(opts: MovementOptions): string | null {
  const b = opts.boardsPerRound;
  if (b === undefined) return null;
  if (!Number.isInteger(b) || b < 1) return `boardsPerRound: ${b} is not a number of trays; give a whole number, 1 or more`;
  return null;
}

/** The problem with `tables` when it is not a whole number, or null. */
export function badTables(movement: string, opts: MovementOptions): string | null {
  if (!Number.isInteger(opts.tables)) return `tables: ${opts.tables} is not a number of tables; give a whole number for a ${movement}`;
  return null;
}
