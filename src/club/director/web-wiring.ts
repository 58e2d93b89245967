// The director page and the hand-scored tables' terminals, wired to the service.
import { sessionExports } from '../exports/index.js';
import { BoardAnalyses } from '../../dd/boards.js';
import { ClaimAnalyses } from '../../dd/claim.js';
import type { TrayRecord } from '../types.js';
import { publicResults } from './public-results.js';
import { liveTable } from './live-table.js';
import { type HandTableView, handTableView } from './hand-table.js';
import { type ConsoleService, directorConsole } from './console-api.js';
import { type DirectorState, pinOf } from './state.js';
import { hasResult } from './results.js';
import { nextRound } from './rounds.js';
import { decide } from './take-decision.js';
import { sessionExport } from './standings.js';
import { snapshot, subscribe, flushSnapshot } from './snapshot.js';

/** Start the director page (with the console, the exports and the hand-scored terminals); a failure is logged, not fatal. */
export async function startWeb(st: DirectorState, svc: ConsoleService): Promise<void> {
  try {
    const { startDirectorWeb } = await import('./web.js');
    const { DoubleDummy } = await import('../../dd/solver.js');
    const solver = new DoubleDummy();
    const analyses = new BoardAnalyses(solver);
    // A claim solved: the page's next snapshot shows what the claimer's side could take.
    const claims = new ClaimAnalyses(solver, () => { st.snapDirty = true; st.snapUnsent = true; flushSnapshot(st); });
    st.dd = { analyses, claims, close: () => solver.close() };
    const dd = (rec: TrayRecord, bridge: boolean) => analyses.get({ board: rec.board, hands: rec.hands, dealer: rec.dealer, vulnerable: rec.vulnerable, bridge });
    st.web = await startDirectorWeb({
      host: st.c.http.host, port: st.c.http.port, allowedHosts: st.c.http.allowedHosts, snapshot: () => snapshot(st), subscribe: (fn) => subscribe(st, fn),
      exports: sessionExports(() => sessionExport(st), dd),
      console: directorConsole(svc, st.store!),
      publicResults: () => publicResults(snapshot(st), (pair) => st.players?.label(pair), dd),
      liveTable: (id: string) => liveTable(st, id),
      ...(st.handScored.size > 0 ? { hand: { pins: () => tablePins(st), view: (t: string) => handTable(st, t), decide: (cmd: string, p: string) => decide(st, cmd, p) } } : {}),
    });
    st.log.info({ url: st.web.url }, 'director page');
  } catch (err) {
    // The page is a view: the director goes on storing and scoring without it.
    st.log.error({ err: (err as Error).message }, 'director: the director page did not start; running without it');
  }
}

/** Each table's PIN for this session, for the director's console: the players of a table type it on its terminal. */
export function tablePins(st: DirectorState): Record<string, string> {
  return Object.fromEntries([...st.tables.keys()].map((id) => [id, pinOf(st, id)]));
}

/** What a hand-scored table's terminal shows: its round, pairs and trays with the results entered, and where to go next. */
export function handTable(st: DirectorState, id: string): HandTableView | null {
  const ts = st.tables.get(id);
  if (!ts || !st.handScored.has(id)) return null;
  const a = st.assignments.get(id) ?? null;
  const round = a?.round ?? st.schedule.rounds[0].round;
  const results = [...st.results.values()].filter((r) => r.table === id && r.traveller.round === round).map((r) => r.traveller);
  return handTableView({ table: id, no: ts.no, variant: st.c.variant, schedule: st.schedule, assignment: a, round, results, done: nextRound(st, round) === undefined && a !== null && a.trays.every((b) => hasResult(st, b, id, round)) });
}
