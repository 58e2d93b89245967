// What a table's terminal shows between trays: its round, pairs and trays with the results entered, and after the
// last tray where each pair and the trays go next ("E-W to table 3, trays to table 2"), read from the schedule.
import type { RoundAssignment, Schedule, Traveller } from '../types.js';

/** Where this table's pairs and trays go in the next round: table numbers (null: nowhere, e.g. a sit-out). */
export interface NextMoves {
  round: number;
  ns: number | null;
  ew: number | null;
  trays: number | null;
  /** The schedule's own sentences for the move, where it has them. */
  notes: string[];
}

/** A hand-scored table's view for its terminal. */
export interface HandTableView {
  table: string;
  no: number;
  variant: string;
  round: number;
  ns?: string;
  ew?: string;
  trays: { board: number; result?: Traveller }[];
  next: NextMoves | null;
  /** The moves that brought the table from the round before into this one (shown once that round's last result is in). */
  previous: NextMoves | null;
  /** Every tray of the last round has its result: the session is over at this table. */
  done: boolean;
}

/** The moves after `round` for table number `no`: where its N-S pair, its E-W pair and its trays sit next round. */
export function nextMoves(schedule: Schedule, no: number, round: number): NextMoves | null {
  const i = schedule.rounds.findIndex((r) => r.round === round);
  const now = schedule.rounds[i]?.tables.find((t) => t.table === no);
  const next = schedule.rounds[i + 1];
  if (!now || !next) return null;
  const where = (pair: string | undefined): number | null =>
    pair === undefined ? null : next.tables.find((t) => t.ns === pair || t.ew === pair)?.table ?? null;
  const trays = now.trays.filter((b): b is number => b !== null);
  const traysTo = trays.length === 0 ? null : next.tables.find((t) => t.trays.some((b) => b !== null && trays.includes(b)))?.table ?? null;
  return { round: next.round, ns: where(now.ns), ew: where(now.ew), trays: traysTo, notes: schedule.rounds[i].notes ?? [] };
}

/** Build the terminal's view of a hand-scored table. */
export function handTableView(o: {
  table: string; no: number; variant: string; schedule: Schedule; assignment: RoundAssignment | null; round: number; results: Traveller[]; done: boolean;
}): HandTableView {
  const entry = o.schedule.rounds.find((r) => r.round === o.round)?.tables.find((t) => t.table === o.no);
  const boards = o.assignment?.round === o.round ? o.assignment.trays : (entry?.trays ?? []).filter((b): b is number => b !== null);
  return {
    table: o.table, no: o.no, variant: o.variant, round: o.round,
    ...(entry?.ns !== undefined ? { ns: entry.ns } : {}), ...(entry?.ew !== undefined ? { ew: entry.ew } : {}),
    trays: boards.map((board) => {
      const result = o.results.find((r) => r.board === board);
      return result ? { board, result } : { board };
    }),
    next: nextMoves(o.schedule, o.no, o.round),
    previous: ((): NextMoves | null => {
      const i = o.schedule.rounds.findIndex((r) => r.round === o.round);
      return i > 0 ? nextMoves(o.schedule, o.no, o.schedule.rounds[i - 1].round) : null;
    })(),
    done: o.done,
  };
}
