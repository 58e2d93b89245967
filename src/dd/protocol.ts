// The messages between DoubleDummy (the caller's process) and its child, src/dd/worker.ts, over Node's IPC channel.
import type { Seat } from '../cards/seat.js';
import type { DdTable, Position, Vulnerability } from './types.js';

/** A request to the child; `id` pairs it with its reply. */
export type WorkerRequest =
  | { id: number; op: 'table'; hands: string }
  | { id: number; op: 'par'; table: DdTable; vulnerable: Vulnerability; dealer?: Seat }
  | { id: number; op: 'solve'; position: Position };

/** The child's first message (libdds loaded or not), then one reply per request. */
export type WorkerReply =
  | { ready: true; version: string }
  | { ready: false; error: string }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };
