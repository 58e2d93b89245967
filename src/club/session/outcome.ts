// What a simulated session reports beside the standings: the check of every injected fault and crash, and when each
// play was journaled and scored. Apart from the runner so the CLI, the tests and the bench can read the report's
// shape without the machinery that fills it in.
import type { ClubAlert, ScoreReport } from '../types.js';
import type { SessionPlan } from './plan.js';

/** What a session did, beside the standings. */
export interface SessionCheck {
  plays: number;
  /** Plays done so far. */
  played: number;
  overplays: number;
  /** Overplays whose deal was started with the tray record's hands. */
  verified: number;
  /** Fouled trays injected, and found at their first misplaced card (card-not-in-hand naming a swapped card). */
  fouled: { board: number; table: number; found: boolean; card?: string }[];
  /** Wrong trays scanned, and alerted before any card of them was played. */
  wrongTrays: { board: number; table: number; alerted: boolean }[];
  /** Renounces in error injected, and found. */
  revokes: { board: number; table: number; seat: string; found: boolean }[];
  /** Results entered by hand at the hand-scored tables. */
  handScored: number;
  /** Plays that ended with a claim of the last tricks. */
  claims: number;
  /**
   * Crashes (`--faults crash=N`): the table's daemon, a `tenace run` process, killed with SIGKILL in the middle of a
   * deal (after `afterCard` of its card events), and the new process started on the same journal.
   */
  crashes: { table: number; board: number; afterCard: number; pid: number; signal: string | null; restartedPid: number; downMs: number }[];
  alerts: ClubAlert[];
}

/** When a play's last card was journaled at its table, and when the standings first included its result (ms epoch). */
export interface PlayTiming { table: number; board: number; lastCardAt: number; lastCardSeq?: number; scoredAt?: number }

/** A finished session: the standings, the check of what was injected, and the per-play timings. */
export interface SessionOutcome {
  standings: ScoreReport;
  check: SessionCheck;
  directorUrl: string | null;
  timings: PlayTiming[];
}

/** A blank check for the plan: its counts of plays, overplays, hand-scored plays and claims, nothing yet done. */
export function newCheck(plan: SessionPlan): SessionCheck {
  const all = [...plan.plays.values()].flat();
  return {
    plays: all.length, played: 0, overplays: all.filter((p) => p.playIndex > 0 && !p.handScored).length, verified: 0, fouled: [], wrongTrays: [], revokes: [],
    handScored: all.filter((p) => p.handScored).length, claims: all.filter((p) => p.claim).length, crashes: [], alerts: [],
  };
}

/** How many results the standings hold: the session is done when it is every play of the plan. */
export function resultsIn(r: ScoreReport | null): number {
  return r ? r.boards.reduce((n, b) => n + b.results.length, 0) : 0;
}
