// One interface over the two kinds of emulated table the runner drives: a simulation in this process, or a
// `tenace run` child process for a table the session crashes. Apart so the play logic does not care which it is.
import type { Simulation } from '../../daemon/simulation.js';
import type { TableEvent } from '../../formats/table-log.js';
import { Table } from '../../laws/engine.js';
import type { DealResult } from '../../laws/types.js';
import type { TableProcess } from './table-process.js';

/**
 * A table of the session as the runner drives it: in this process (startSimulation), or a `tenace run` child process
 * for a table the session crashes. restart() stops it cleanly and starts it again on the same journal.
 */
export interface TableHandle {
  /** The table view (its terminal at /terminal/), or null when it has none. */
  url: string | null;
  /** The table terminal's PIN. */
  pin(): string;
  /** The round of the assignment the table itself holds (0 before one). */
  round(): number;
  /** True when the table itself holds the record of this tray. */
  holdsRecord(board: number): boolean;
  /** The table's journal after `after`. */
  events(after?: number): Promise<TableEvent[]>;
  lastSeq(): Promise<number>;
  /** Cards and trays through the emulated hardware; anything else as the club layer sends it. */
  playEvents(events: readonly TableEvent[]): Promise<void>;
  /** The last deal's result as the table's engine has it. */
  lastResult(): Promise<DealResult | null>;
  /** What the last tray scan did, for an error message. */
  lastScan(): string;
  /** The process to crash, when the table is one. */
  process?: TableProcess;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A handle on a table simulated in this process; `start` makes it again for restart(). */
export function inProcessTable(first: Simulation, start: () => Promise<Simulation>): TableHandle {
  let sim = first;
  return {
    get url() { return sim.url; },
    pin: () => sim.controller.terminalPin,
    // What counts is what the table itself holds: its own subscription may lag behind the runner's.
    round: () => sim.controller.club?.assignment?.round ?? 0,
    holdsRecord: (board) => sim.controller.club?.records.has(board) === true,
    events: async (after = 0) => sim.controller.journal.events(after),
    lastSeq: async () => sim.controller.journal.lastSeq,
    playEvents: (events) => sim.playEvents(events),
    lastResult: async () => sim.controller.table.results().at(-1) ?? sim.controller.table.result(),
    lastScan: () => (sim.controller.lastScan ? JSON.stringify(sim.controller.lastScan).slice(0, 200) : ''),
    async restart() {
      await sim.stop();
      sim = await start();
    },
    stop: () => sim.stop(),
  };
}

/** A handle on a `tenace run` child process; `pin` reads the PIN from the director's assignment. */
export function processTable(proc: TableProcess, pin: () => string, variant: string): TableHandle {
  return {
    url: proc.url,
    // The daemon's terminal takes the PIN the director gives the table in its assignment.
    pin,
    round: () => proc.round,
    holdsRecord: (board) => proc.records.has(board),
    events: (after) => proc.events(after),
    lastSeq: () => proc.lastSeq(),
    playEvents: (events) => proc.playEvents(events),
    async lastResult() {
      // The engine folded over the journal on disk, as the daemon itself restores it.
      const table = new Table({ variant });
      for (const e of await proc.events()) table.apply(e);
      return table.results().at(-1) ?? table.result();
    },
    lastScan: () => '',
    process: proc,
    async restart() {
      throw new Error('a crashed table is restarted by its crash, not by restartTable');
    },
    stop: () => proc.stop(),
  };
}
