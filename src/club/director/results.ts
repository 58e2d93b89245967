// Results: a completed deal's traveller stored, when the standings may show it, and the trays released.
import { type Completion, travellerOf } from './fold.js';
import type { StoredResult } from './store.js';
import { type DirectorState, type TableState, Work, resultKey, isLeader, setResult } from './state.js';
import { pubLatest } from './mqtt.js';
import { checkRecord } from './records.js';
import { maybeAdvance } from './rounds.js';
import { scheduleFlush } from './standings.js';

/** A deal completed at a table: its result, its findings, the tray record check, the trays released, the round. */
export function onCompletion(st: DirectorState, ts: TableState, c: Completion, work: Work): void {
  // The round the deal was played in: the one stored with it (a rebuild, when the table has moved on since), else
  // the one the table journaled with the deal, else the table's round now.
  const round = st.playRound.get(`${ts.id}:${c.fromSeq}`) ?? c.deal.round;
  const traveller = travellerOf(c, { tableNo: ts.no, index: st.index, assignment: st.assignments.get(ts.id), round, variant: st.c.variant });
  putResult(st, ts, { table: ts.id, traveller, fromSeq: c.fromSeq, toSeq: c.toSeq }, work);
  st.findings.noteDeal(ts.id, c.board, traveller.round, c.fromSeq, c.result.findings);
  // Settled once: a claimed original is asked again with each card shown after the claim, until its hands are whole.
  if (!ts.recorded.has(c.fromSeq) && checkRecord(st, ts, c, traveller.round, work)) ts.recorded.add(c.fromSeq);
  updateReleased(st, work, c.board);
  maybeAdvance(st, ts, work);
}

/** Store a result unless it is stored as it is; the standings show it once its commit is done. */
export function putResult(st: DirectorState, ts: TableState, r: StoredResult, work: Work): void {
  const key = resultKey(r);
  const prev = st.results.get(key);
  if (prev && JSON.stringify(prev.traveller) === JSON.stringify(r.traveller)) return;
  setResult(st, key, r);
  work.write((tx) => tx.putResult(st.c.session, r));
  const u = st.uncommitted.get(key);
  if (u) u.pending++;
  else st.uncommitted.set(key, { before: prev ?? null, pending: 1 });
  work.publish(() => settle(st, key));
  st.standingsDirty = true;
  const list = st.playedAt.get(r.traveller.board) ?? [];
  if (!list.includes(ts.id)) list.push(ts.id);
  st.playedAt.set(r.traveller.board, list);
}

/** A result's commit finished: the standings may show it. */
export function settle(st: DirectorState, key: string): void {
  const u = st.uncommitted.get(key);
  if (u && --u.pending === 0) st.uncommitted.delete(key);
  st.standingsDirty = true;
  scheduleFlush(st);
}

/** Whether `table` has a result on `board` from its play in `round` (as travellerOf rounds it), or from any play. */
export function hasResult(st: DirectorState, board: number, table: string, round?: number): boolean {
  if (round === undefined) return [...st.results.values()].some((r) => r.table === table && r.traveller.board === board);
  const ts = st.tables.get(table);
  const played = ts ? (st.index.get(ts.no, board, round)?.round ?? round) : round;
  return st.results.has(`${board}:${table}:${played}`);
}

/**
 * Release the trays every table has played (all at once with a session-end embargo). Given the `board` of a new
 * result only that tray is looked at again: a championship asks after each of its thousands of results, and every
 * tray's plays each time cost its instances a second or more of CPU (issue 18).
 */
export function updateReleased(st: DirectorState, work: Work, board?: number): void {
  const boards = st.index.boards();
  const played = (b: number) => st.index.playsOf(b).every((p) => hasResult(st, b, st.byNo.get(p.table)!, p.round));
  if (board === undefined || st.complete === null) st.complete = new Set(boards.filter(played));
  else if (played(board)) st.complete.add(board);
  else st.complete.delete(board);
  const complete = [...st.complete].sort((a, b) => a - b);
  const released = st.c.embargo === 'session-end' ? (complete.length === boards.length ? complete : []) : complete;
  if (released.length === st.released.length && released.every((b, i) => b === st.released[i])) return;
  st.released = released;
  work.publish(() => {
    if (isLeader(st)) pubLatest(st, st.topics.released, JSON.stringify(releasedMessage(st)));
  });
}

/** The retained released-trays message. */
export function releasedMessage(st: DirectorState): unknown {
  return { schema: 1, type: 'tenace.released', session: st.c.session, boards: st.released };
}

/** Which tables played each tray, in the order of play, from the results (at a rebuild). */
export function playedAtFromResults(st: DirectorState): void {
  const sorted = [...st.results.values()].sort((a, b) => a.toSeq - b.toSeq);
  for (const r of sorted) {
    const list = st.playedAt.get(r.traveller.board) ?? [];
    if (!list.includes(r.table)) list.push(r.table);
    st.playedAt.set(r.traveller.board, list);
  }
}
