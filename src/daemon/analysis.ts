// The table daemon's live double-dummy analysis (config `feed.analysis`, issue 21 item 3): a DoubleDummy solver (DDS
// in a child process, started on the first request) and a LiveAnalysis that follows the feed's table and hands each
// released position's analysis back to the feed, retained on the spectator-only `analysis` topic. An extension: its
// failure is the daemon's log line, never the daemon's end; without libdds the topic says that analysis is off.
import type { Logger } from '../config/logger.js';
import type { Table } from '../laws/engine.js';
import { LiveAnalysis, type SpectatorAnalysis } from '../dd/live.js';
import { DoubleDummy, type DoubleDummyOptions } from '../dd/solver.js';

/** What the controller wires: the feed's `onFolded` hook, and the extension that stops the solver. */
export interface DaemonAnalysis {
  onFolded(table: Table, info: { seq: number | null; newDeal: boolean; released: boolean }): void;
  onRelease(board: number): void;
  live: LiveAnalysis;
  extension: { name: string; start(): void; stop(): void };
}

/** The analysis for one table; `publish` hands a message to the feed (Feed.setAnalysis). */
export function daemonAnalysis(publish: (a: SpectatorAnalysis) => void, log: Logger, dd: DoubleDummyOptions = {}): DaemonAnalysis {
  const solver = new DoubleDummy(dd);
  const live = new LiveAnalysis({ dd: solver, publish, log });
  return {
    live,
    onFolded: (table, info) => live.observe(table, info),
    onRelease: (board) => live.release(board),
    extension: {
      name: 'analysis',
      start: () => {
        void solver.status().then((st) => {
          if (st.on) log.info({ dds: st.version }, 'live double-dummy analysis on (the analysis topic, for vugraph accounts)');
          else log.warn({ reason: st.reason }, 'feed.analysis is set, but double-dummy analysis is off');
        });
      },
      stop: () => solver.close(),
    },
  };
}
