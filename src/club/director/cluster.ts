// Cluster mode: partitions taken up and given up, and what the other instances stored read back.
import { tableTopics } from '../../feed/topics.js';
import type { Decision } from './decisions.js';
import { TableFold } from './fold.js';
import { partitionOf } from './leases.js';
import { type DirectorState, type SyncWant, type TableState, Work, resultKey, isLeader, setResult, warnOnce } from './state.js';
import type { StoredDecision, StoredResult } from './store.js';
import type { ClubAlert, RoundAssignment, TrayRecord } from '../types.js';
import { commit, durable, enqueue } from './commit.js';
import { decisionFilter, tableFilters, mqttSubscribe, mqttUnsubscribe, pub, publishSessionTopics } from './mqtt.js';
import { requestEvents, foldReady } from './gap-fill.js';
import { updateReleased } from './results.js';
import { initialAssignments, advanceIdle } from './rounds.js';
import { applyDecisionState } from './take-decision.js';
import { HAND_SCORED_SEQ } from './hand-scored.js';
import { scheduleFlush } from './standings.js';

/** Partitions changed hands: stop following the tables lost, and take up the tables gained from the store. */
export async function repartition(st: DirectorState, gained: number[], lost: number[]): Promise<void> {
  const owned = st.owned!;
  const parts = st.c.cluster!.partitions;
  const tablesOf = (ps: number[]) => [...st.tables.values()].filter((ts) => ps.includes(partitionOf(ts.no, parts)));
  const wasLeader = lost.includes(0);
  // The store is read below as the truth: let this instance's own writes in flight reach it first.
  await durable(st).catch(() => undefined);
  for (const ts of tablesOf(lost)) {
    owned.delete(ts.id);
    mqttUnsubscribe(st, tableFilters(st, ts.id));
    resetTable(st, ts);
  }
  if (wasLeader) mqttUnsubscribe(st, [decisionFilter(st)]);
  const taken = tablesOf(gained);
  if (taken.length > 0) {
    // What the previous holder stored is the starting point: its results, records and decisions first, then this
    // partition's events folded again (which derives nothing new), then the tables are asked for the rest.
    await syncFromStore(st);
    const s = st.store!;
    const first = await s.firstSeqs(st.c.session);
    const work = new Work();
    for (const ts of taken) {
      owned.add(ts.id);
      resetTable(st, ts);
      const f = first.get(ts.id);
      if (f !== undefined) ts.firstSeq = f;
      for (const r of st.results.values()) if (r.table === ts.id) ts.recorded.add(r.fromSeq);
      for (const e of await s.events(st.c.session, ts.id)) {
        ts.pending.set(e.seq, { ...e.event, seq: e.seq });
        ts.maxSeq = Math.max(ts.maxSeq, e.seq);
      }
      foldReady(st, ts, work);
    }
    initialAssignments(st, work);
    if (work.writes.length > 0) await commit(st, async (tx) => { for (const w of work.writes) await w(tx); });
    for (const p of work.publishes) p();
    mqttSubscribe(st, [...(gained.includes(0) ? [decisionFilter(st)] : []), ...taken.flatMap((ts) => tableFilters(st, ts.id))]);
    for (const ts of taken) {
      const a = st.assignments.get(ts.id);
      if (a) pub(st, tableTopics(st.c.club.id, ts.id, st.c.mqtt.baseTopic).assignment, a, true);
      requestEvents(st, ts);
    }
  }
  if (gained.includes(0)) publishSessionTopics(st);
  scheduleFlush(st);
}

/** Forget a table's fold, to follow it again from the store (or not at all). */
export function resetTable(st: DirectorState, ts: TableState): void {
  ts.fold = new TableFold(st.c.variant);
  ts.firstSeq = null;
  ts.pending.clear();
  ts.unstored.clear();
  ts.maxSeq = 0;
  ts.status = 'unknown';
  ts.recorded.clear();
  ts.request = null;
}

/** Two wants as one: everything if either is, else what either names. */
export function mergeWant(a: SyncWant | null, b: SyncWant): SyncWant {
  if (a === null) return b === 'all' ? b : { ...b, results: new Set(b.results), ...(b.carried ? { carried: [...b.carried] } : {}) };
  if (a === 'all' || b === 'all') return 'all';
  for (const t of b.results) a.results.add(t);
  // In the order committed: a later result of a key replaces an earlier one.
  const carried = [...a.carried ?? [], ...b.carried ?? []];
  return { results: a.results, trays: a.trays || b.trays, assignments: a.assignments || b.assignments, alerts: a.alerts || b.alerts, decisions: a.decisions || b.decisions, ...(carried.length ? { carried } : {}) };
}

/**
 * Read back what the other instances stored, soon: one read-back at a time, and one more after it for what was asked
 * meanwhile. A notification's note narrows it to what was stored (issue 18: a whole read-back took 15-190 ms on the
 * championship's loaded PostgreSQL, and the leader did one for each group the others committed). The store is read
 * off the serial chain, so the tables' events go on being folded meanwhile (issue 18: on the chain, a read-back's
 * queries, up to 100 ms under a round end's load, held every message behind them); what it found is taken in at the
 * chain's next step.
 */
export function requestSync(st: DirectorState, want: SyncWant = 'all'): void {
  if (st.stopped || st.failed) return;
  if (want !== 'all' && want.carried && !changesScores(want) && !st.syncReadingScores && (st.syncWanted === null || !changesScores(st.syncWanted))) {
    // Results carried, with no alert or decision stored or being read that would change how they score: they go in
    // at the chain's next step instead of after every message queued, and not after the read-back of the tray
    // records and assignments stored with them (issue 18: at a round's end nearly every result's group stores those
    // too, and the leader took the results only once it had read them back, 15-190 ms later on a championship's
    // loaded PostgreSQL). The empty step is that next step when the chain is idle. A read-back in flight may bring
    // older states of them after: takeResult keeps the newer.
    const carried = want.carried;
    atNextStep(st, () => takeCarried(st, carried)).catch(() => undefined);
    want = { results: want.results, trays: want.trays, assignments: want.assignments, alerts: false, decisions: false };
  }
  // Nothing left to read (a note of table events alone, or of carried results alone).
  if (want !== 'all' && !want.carried && want.results.size === 0 && !want.trays && !want.assignments && !want.alerts && !want.decisions) return;
  st.syncWanted = mergeWant(st.syncWanted, want);
  if (st.syncQueued) return;
  st.syncQueued = true;
  const w = st.syncWanted;
  st.syncWanted = null;
  st.syncReadingScores = changesScores(w);
  readBack(st, w)
    .then((got) => atNextStep(st, () => {
      if (!st.stopped) applyReadBack(st, got).catch(() => undefined);
    }), (err: Error) => {
      // Said once: the next poll or notification tries again, and a store that stays down fails the commits loudly.
      warnOnce(st, 'read-back', { store: st.store!.where, err: err.message }, 'director: cannot read back what the other instances stored; trying again at the next poll');
    })
    .catch(() => undefined)
    .finally(() => {
      st.syncQueued = false;
      st.syncReadingScores = false;
      if (st.syncWanted) requestSync(st, st.syncWanted);
    });
}

/** Whether a read-back of `want` may bring what changes how results score: an alert (averages, groups) or a decision. */
function changesScores(want: SyncWant): boolean {
  return want === 'all' || want.alerts || want.decisions;
}

/**
 * Run `task` at the serial chain's next step: before the message it takes next, or at once when it is idle. Resolves
 * once it has run; rejects, and it never runs, once the store has failed.
 */
function atNextStep(st: DirectorState, task: () => void): Promise<void> {
  st.urgent.push(task);
  return enqueue(st, async () => undefined);
}

/**
 * Take another instance's stored result unless this instance has it already, or makes it itself from the journal of
 * a table it follows; true if taken. A hand-scored result is the leader's decision: every instance takes it, since
 * any may lead next, and never an older revision over a newer one (a notification crossing a read-back).
 */
function takeResult(st: DirectorState, r: StoredResult): boolean {
  const hand = r.fromSeq === HAND_SCORED_SEQ;
  if (!hand && st.owned?.has(r.table)) return false;
  const key = resultKey(r);
  const prev = st.results.get(key);
  if (prev && prev.fromSeq === r.fromSeq && prev.toSeq === r.toSeq) return false;
  if (hand && prev?.fromSeq === HAND_SCORED_SEQ && r.toSeq > prev.toSeq) return false;
  // Nor an earlier state of a table's play than the one held (a table's seqs only grow): a read-back, read off the
  // serial chain, can cross a notification that carried a later one.
  if (!hand && prev && prev.fromSeq !== HAND_SCORED_SEQ && (r.fromSeq < prev.fromSeq || (r.fromSeq === prev.fromSeq && r.toSeq < prev.toSeq))) return false;
  setResult(st, key, r);
  const list = st.playedAt.get(r.traveller.board) ?? [];
  if (!list.includes(r.table)) list.push(r.table);
  st.playedAt.set(r.traveller.board, list);
  return true;
}

/** Another instance's results from its NOTIFY, in: the standings and released trays follow, as after a read-back. */
function takeCarried(st: DirectorState, carried: readonly StoredResult[]): void {
  let changed = false;
  for (const r of carried) changed = takeResult(st, r) || changed;
  // A failed commit stops the service (commit.ts fail); nothing it made is published.
  if (changed) afterSync(st).catch(() => undefined);
}

/** What follows another instance's stored results: trays released, idle tables moved on, the standings due. */
function afterSync(st: DirectorState): Promise<void> {
  st.standingsDirty = true;
  const work = new Work();
  updateReleased(st, work);
  if (isLeader(st)) advanceIdle(st, work);
  // Published once committed; the chain does not wait for it (as a message's work).
  const committed = work.writes.length > 0 ? commit(st, async (tx) => { for (const w of work.writes) await w(tx); }) : Promise.resolve();
  scheduleFlush(st);
  return committed.then(() => {
    for (const p of work.publishes) p();
    scheduleFlush(st);
  });
}

/** What a read-back found in the store (readBack), to be taken in (applyReadBack). */
interface ReadBack {
  carried: readonly StoredResult[];
  results: StoredResult[];
  trays: TrayRecord[];
  assignments: RoundAssignment[];
  alerts: { id: string; alert: ClubAlert }[];
  decisions: StoredDecision[];
}

/**
 * Read back what the other instances stored, and take it in: results, tray records, assignments, alerts and decisions
 * (`want`: all, or what a notification named). The store is the truth they share; standings and released trays are
 * derived from it by the holder of partition 0.
 */
export async function syncFromStore(st: DirectorState, want: SyncWant = 'all'): Promise<void> {
  await applyReadBack(st, await readBack(st, want));
}

/** Whether an assignment read is later than the one held: a later round, or the same round given again by a decision. */
function newerAssignment(st: DirectorState, a: { table: string; round: number; at: string }): boolean {
  const mine = st.assignments.get(a.table);
  return !mine || mine.round < a.round || (mine.round === a.round && mine.at < a.at);
}

/** What the other instances stored that this one lacks, read from the store; changes nothing (applyReadBack does). */
async function readBack(st: DirectorState, want: SyncWant): Promise<ReadBack> {
  const s = st.store!;
  const session = st.c.session;
  const all = want === 'all';
  // The keys first, then the bodies of only what this instance lacks: at every full read-back, not every row's JSON.
  // A notification names the tables whose results it stored and did not carry.
  const stale = new Set<string>();
  if (all) {
    for (const h of await s.resultHeads(session)) {
      if (st.owned?.has(h.table) && h.fromSeq !== HAND_SCORED_SEQ) continue;
      const prev = st.results.get(`${h.board}:${h.table}:${h.round}`);
      if (!prev || prev.fromSeq !== h.fromSeq || prev.toSeq !== h.toSeq) stale.add(h.table);
    }
  } else for (const t of want.results) stale.add(t);
  const results = stale.size > 0 ? await s.resultsOf(session, [...stale]) : [];
  const trays: TrayRecord[] = [];
  for (const [board, rev] of all || want.trays ? await s.trayRevs(session) : []) {
    if ((st.records.get(board)?.rev ?? 0) >= rev) continue;
    const r = await s.tray(session, board);
    if (r) trays.push(r);
  }
  const wanted = all || want.assignments ? (await s.assignmentHeads(session)).filter((a) => newerAssignment(st, a)) : [];
  const assignments = wanted.length > 0 ? await s.assignmentsAt(session, wanted) : [];
  const alertIds = all || want.alerts ? (await s.alertIds(session)).filter((id) => !st.alertIds.has(id)) : [];
  const alerts = alertIds.length > 0 ? await s.alertsAt(session, alertIds) : [];
  const decisionIds = all || want.decisions ? (await s.decisionIds(session)).filter((id) => !st.decisions.has(id)) : [];
  const decisions = decisionIds.length > 0 ? await s.decisionsAt(session, decisionIds) : [];
  return { carried: all ? [] : want.carried ?? [], results, trays, assignments, alerts, decisions };
}

/**
 * Take in what a read-back found, each checked again against what is held now (it was read while the chain went on):
 * the results a notification carried first, as committed, then those read, which are as new or newer. Resolves once
 * what follows from them is committed.
 */
function applyReadBack(st: DirectorState, got: ReadBack): Promise<void> {
  let changed = false;
  for (const r of got.carried) changed = takeResult(st, r) || changed;
  for (const r of got.results) changed = takeResult(st, r) || changed;
  for (const r of got.trays) {
    if ((st.records.get(r.board)?.rev ?? 0) >= r.rev) continue;
    st.records.set(r.board, r);
    changed = true;
  }
  for (const a of got.assignments) {
    if (!newerAssignment(st, a)) continue;
    st.assignments.set(a.table, a);
    changed = true;
  }
  for (const { id, alert } of got.alerts) {
    if (st.alertIds.has(id)) continue;
    st.alertIds.add(id);
    st.alerts.push(alert);
    changed = true;
  }
  for (const d of got.decisions) {
    if (st.decisions.has(d.transaction)) continue;
    st.decisions.set(d.transaction, d);
    if ((d.response as { ok?: boolean }).ok === true) applyDecisionState(st, { name: d.cmd, params: d.request } as Decision);
    changed = true;
  }
  return changed ? afterSync(st) : Promise.resolve();
}
