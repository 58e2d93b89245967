// The director rebuilt from its store at start.
import type { Decision } from './decisions.js';
import { type DirectorState, Work, resultKey, setResult } from './state.js';
import { foldReady } from './gap-fill.js';
import { playedAtFromResults } from './results.js';
import { initialAssignments } from './rounds.js';
import { applyDecisionState } from './take-decision.js';

/** Rebuild the state from the store at start: decisions, records, assignments, alerts, results, then the events folded again. */
export async function rebuild(st: DirectorState): Promise<void> {
  const s = st.store!;
  const session = st.c.session;
  for (const d of await s.decisions(session)) {
    st.decisions.set(d.transaction, d);
    const ok = (d.response as { ok?: boolean }).ok === true;
    if (ok) applyDecisionState(st, { name: d.cmd, params: d.request } as Decision);
  }
  for (const r of await s.trays(session)) st.records.set(r.board, r);
  for (const a of await s.assignments(session)) st.assignments.set(a.table, a);
  for (const { id, alert } of await s.alerts(session)) {
    st.alertIds.add(id);
    st.alerts.push(alert);
  }
  for (const r of await s.results(session)) {
    setResult(st, resultKey(r), r);
    // Its record check was committed with it: against the record then in force, which a correction since may have
    // replaced. Checking it again against today's record could raise an alert the live run never raised.
    st.tables.get(r.table)?.recorded.add(r.fromSeq);
  }
  const first = await s.firstSeqs(session);
  // In a cluster no table is followed before the leases are taken: their events are read then (repartition).
  const events = st.owned ? [] : await s.events(session);
  const work = new Work();
  for (const e of events) {
    const ts = st.tables.get(e.table);
    if (!ts || (st.owned && !st.owned.has(ts.id))) continue;
    ts.pending.set(e.seq, { ...e.event, seq: e.seq });
    ts.maxSeq = Math.max(ts.maxSeq, e.seq);
  }
  for (const ts of st.tables.values()) {
    const f = first.get(ts.id);
    if (f !== undefined) ts.firstSeq = f;
    foldReady(st, ts, work);
  }
  initialAssignments(st, work);
  // The derived rows are keyed, so writing them again changes nothing when the last run committed them.
  if (work.writes.length > 0) await s.transaction(async (tx) => { for (const w of work.writes) await w(tx); });
  st.uncommitted.clear();
  playedAtFromResults(st);
  st.log.info({ events: events.length, results: st.results.size, records: st.records.size, alerts: st.alerts.length, decisions: st.decisions.size }, 'director: rebuilt from the store');
}
