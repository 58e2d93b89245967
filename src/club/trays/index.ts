// Placeholder until the tray records are written (issue 7): the signatures the table side and the director use.
import type { Seat } from '../../cards/seat.js';
import type { TableEvent } from '../../formats/table-log.js';
import type { DealResult } from '../../laws/types.js';
import type { ClubAlert, TrayMove, TrayRecord } from '../types.js';

const unwritten = (what: string): never => { throw new Error(`${what}: not written yet`); };

/**
 * The tray record an original play makes: the hands as played, the turned trump, the dealer; null if the play is
 * incomplete. `events` are the deal's events, its `deal` event first, as the table journaled them.
 */
export function recordFromPlay(_a: { session: string; table: string; events: readonly TableEvent[]; result: DealResult; at: string }): TrayRecord | null {
  return unwritten('recordFromPlay');
}

/** The cards whose pocket differs between two PBN deals. */
export function handDifferences(_record: string, _table: string): { card: string; record: Seat; table: Seat }[] {
  return unwritten('handDifferences');
}

/** The tray doctor: the moves (card, from pocket, to pocket) that turn the table's hands into the record's. */
export function trayDoctor(_record: string, _table: string): TrayMove[] {
  return unwritten('trayDoctor');
}

/** What the laws give for a fouled tray at this table count (Dup. III.2, IV.8-10, V.1). */
export function fouledTrayOutcome(_tables: number, _when: 'original' | 'overplay'): NonNullable<ClubAlert['outcome']> {
  return unwritten('fouledTrayOutcome');
}

/** Tray records from a dealing machine's PBN hand-record file (Dealer4, Duplimate). */
export function recordsFromPbn(_text: string, _opts: { session: string; file: string; at: string }): TrayRecord[] {
  return unwritten('recordsFromPbn');
}
