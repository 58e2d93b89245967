// The public results (issue 17, "Results people follow and send on"): what the room's screen and the players' phones
// may see without a login. While the session runs: each table's progress and the standings; a tray's travellers,
// hands and findings only once every table scheduled for it has played it (released), so nothing public reveals an
// unplayed card or a result of a tray another table has still to play.
import type { ClubAlert, DirectorSnapshot, ScoredResult, TrayRecord } from '../types.js';
import type { BoardDd } from '../../dd/boards.js';

/** A board's double-dummy table and par, when solved (src/dd/boards.ts, as the PBN export has them); undefined otherwise. */
export type BoardDdOf = (rec: TrayRecord, bridge: boolean) => BoardDd | undefined;

/** One released board: its hands, its results as scored, and what the tables found on it. */
export interface PublicBoard {
  board: number;
  dealer?: string;
  vulnerable?: string;
  trumpCard?: string;
  hands?: string;
  results: ScoredResult[];
  top?: number;
  findings: { table?: string; kind: string; law?: string; message: string }[];
  /**
   * Issue 21: the double-dummy table (the tricks each seat takes as declarer in each strain) and, for bridge, the par,
   * once solved: a board released before its analysis is done gets it on a later read.
   */
  dd?: BoardDd;
}

/** What anyone may read. */
export interface PublicResults {
  schema: 1;
  type: 'tenace.results';
  club: string;
  session: string;
  variant: string;
  movement: string;
  round: number;
  rounds: number;
  /** Every tray of the session has been played at every table scheduled for it. */
  complete: boolean;
  tables: { table: string; round: number; status: string; board?: number; trick?: number; played: number; of: number }[];
  method: string | null;
  pairs: { pair: string; direction?: string; rank: string; names?: string; total: number; percent?: number }[];
  boards: PublicBoard[];
  at: string;
}

/**
 * The public view of the director's snapshot. `names` gives a pair's player names where the director has them; `dd`
 * each released board's double-dummy table and par when solved (asking for it starts the solve).
 */
export function publicResults(s: DirectorSnapshot, names: (pair: string) => string | undefined = () => undefined, dd?: BoardDdOf): PublicResults {
  const released = new Set(s.trays.filter((t) => t.released).map((t) => t.board));
  const recordOf = new Map<number, TrayRecord | undefined>(s.trays.map((t) => [t.board, t.record]));
  const progress = (table: number, round: number) => s.progress.find((p) => p.table === table && p.round === round);
  const standings = s.standings;
  return {
    schema: 1, type: 'tenace.results', club: s.club, session: s.session, variant: s.variant, movement: s.schedule.movement,
    round: s.round, rounds: s.schedule.rounds.length, complete: s.trays.length > 0 && s.trays.every((t) => t.released),
    tables: s.tables.map((t, i) => {
      const p = progress(i + 1, t.round);
      return {
        table: t.table, round: t.round, status: t.status, played: p?.played ?? 0, of: p?.of ?? 0,
        // The tray in play is public (it is on the table), its cards are not.
        ...(t.board !== undefined ? { board: t.board } : {}), ...(t.trick !== undefined ? { trick: t.trick } : {}),
      };
    }),
    method: standings?.method ?? null,
    pairs: (standings?.pairs ?? []).map((p) => {
      const n = names(p.pair);
      return {
        pair: p.pair, rank: p.rankLabel ?? String(p.rank), total: p.total,
        ...(p.direction ? { direction: p.direction } : {}), ...(p.percent !== undefined ? { percent: p.percent } : {}), ...(n ? { names: n } : {}),
      };
    }),
    boards: (standings?.boards ?? []).filter((b) => released.has(b.board)).map((b) => {
      const rec = recordOf.get(b.board);
      // Only a released board's: its hands are public by then, and so is what they make.
      const analysis = rec && dd ? dd(rec, (rec.variant ?? s.variant) === 'bridge') : undefined;
      return {
        board: b.board, results: b.results, ...(b.top !== undefined ? { top: b.top } : {}),
        ...(rec ? { dealer: rec.dealer, hands: rec.hands, ...(rec.vulnerable ? { vulnerable: rec.vulnerable } : {}), ...(rec.trumpCard ? { trumpCard: rec.trumpCard } : {}) } : {}),
        findings: s.alerts.filter((a) => a.board === b.board).map(finding),
        ...(analysis ? { dd: analysis } : {}),
      };
    }),
    at: s.at,
  };
}

function finding(a: ClubAlert): PublicBoard['findings'][number] {
  return { ...(a.table !== undefined ? { table: String(a.table) } : {}), kind: a.kind, ...(a.law ? { law: a.law } : {}), message: a.message };
}
