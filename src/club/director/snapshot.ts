// The director's snapshot: what the page shows and the retained director topic carries, sent at most as often
// as its cost allows.
import type { ClaimAnalyses, ClaimPosition } from '../../dd/claim.js';
import type { ClubAlert, DirectorSnapshot, DirectorSnapshotMessage, DirectorTableView, DirectorTrayView } from '../types.js';
import { type DirectorState, FLUSH_MS, isLeader, followed } from './state.js';
import { pubLatest } from './mqtt.js';
import { hasResult } from './results.js';

/** How long a snapshot due waits for results on their way to the standings before it looks again (ms). */
const SNAPSHOT_YIELD_MS = 5;

/** The latest snapshot (what the page shows). */
export function snapshot(st: DirectorState): DirectorSnapshot {
  if (!st.snap || st.snapDirty) {
    st.snap = buildSnapshot(st);
    st.snapDirty = false;
  }
  return st.snap;
}

/** Call `fn` on every new snapshot; returns the unsubscribe. */
export function subscribe(st: DirectorState, fn: (s: DirectorSnapshot) => void): () => void {
  st.watchers.add(fn);
  return () => st.watchers.delete(fn);
}

/**
 * Build and send the snapshot (retained topic, page watchers) when it is due. It holds the whole schedule, grid
 * and records: 5 MB at 200 tables, where the standings are a few kB. So the next one waits 9 times as long as this
 * one took (at least FLUSH_MS), which keeps it to a tenth of the director's time at any size, and no instance
 * builds it for nobody: only the holder of partition 0 publishes it, and a page asks for it.
 */
export function flushSnapshot(st: DirectorState): void {
  if (!st.snapUnsent || st.failed || st.stopped || st.snapTimer) return;
  if (!isLeader(st) && st.watchers.size === 0) return;
  const now = performance.now();
  const wait = st.snapDue - now;
  if (wait > 0) {
    st.snapTimer = setTimeout(() => { st.snapTimer = null; flushSnapshot(st); }, wait);
    return;
  }
  // Results on their way to the standings go first: at a round's end a snapshot (1-3 ms for 30 tables) built between
  // two scorings held up the standings of the results behind it (issue 18). Looked at again every few ms; a snapshot
  // due for FLUSH_MS goes out whatever is pending.
  if ((st.flushCancel !== null || st.uncommitted.size > 0) && -wait < FLUSH_MS) {
    st.snapTimer = setTimeout(() => { st.snapTimer = null; flushSnapshot(st); }, Math.min(SNAPSHOT_YIELD_MS, FLUSH_MS + wait));
    return;
  }
  const t0 = now;
  st.snapUnsent = false;
  const snap = snapshot(st);
  if (isLeader(st)) pubLatest(st, st.topics.director, snapshotJson(st, snap));
  for (const w of st.watchers) {
    try {
      w(snap);
    } catch (err) {
      st.log.warn({ err }, 'director: a snapshot watcher failed');
    }
  }
  const t1 = performance.now();
  st.snapDue = t1 + Math.max(FLUSH_MS, 9 * (t1 - t0));
}

/**
 * The snapshot as retained on MQTT: without the schedule and the standings, which have topics of their own, nor the
 * findings (a championship's run to hundreds; the page reads them over HTTP), and with the progress of the rounds
 * begun only. The page's copy (HTTP) is whole; this one must fit the broker's message
 * size limit, where a 200-table Mitchell's schedule alone is 2.8 MB.
 */
export function snapshotJson(st: DirectorState, snap: DirectorSnapshot): string {
  const begun = Math.max(0, ...snap.tables.map((t) => t.round));
  // Field by field: spreading the snapshot would put together the progress of every round, which this leaves out.
  const message: DirectorSnapshotMessage = {
    schema: snap.schema, type: snap.type, club: snap.club, session: snap.session, variant: snap.variant, round: snap.round,
    tables: snap.tables, progress: BEGUN.get(snap) ?? snap.progress.filter((p) => p.round <= begun), trays: snap.trays,
    alerts: snap.alerts, ...(snap.pairs ? { pairs: snap.pairs } : {}), at: snap.at,
  };
  return JSON.stringify(message);
}

/** A snapshot's progress of the rounds begun (the retained message's), apart from that of every round. */
const BEGUN = new WeakMap<DirectorSnapshot, DirectorSnapshot['progress']>();

/** Build the whole snapshot: tables, round progress, trays, alerts, standings, pairs and findings. */
export function buildSnapshot(st: DirectorState): DirectorSnapshot {
  // One pass over the results, not one per table: a championship has hundreds of tables and thousands of results.
  const done = new Map<string, number[]>();
  for (const r of st.results.values()) {
    const list = done.get(r.table);
    if (list) list.push(r.traveller.board);
    else done.set(r.table, [r.traveller.board]);
  }
  const tables: DirectorTableView[] = [...st.tables.values()].map((ts) => ({
    table: ts.id, status: ts.status, round: st.assignments.get(ts.id)?.round ?? 0, ...ts.fold.inPlay(),
    done: (done.get(ts.id) ?? []).sort((a, b) => a - b),
    lastSeq: ts.fold.lastSeq, ...(st.c.tableOptions?.[ts.id]?.manual ? { manual: true as const } : {}),
    ...claimView(ts.fold.lastClaim(), st.dd?.claims),
  }));
  // A round no table has begun has nothing played: a 200-table Mitchell's 199 rounds are 39,800 entries, and looking
  // each up took most of the snapshot's time (issue 18).
  const begun = Math.max(0, ...tables.map((t) => t.round));
  const played: DirectorSnapshot['progress'] = [];
  for (const r of st.schedule.rounds) {
    if (r.round > begun) continue;
    for (const t of r.tables) {
      const id = st.byNo.get(t.table);
      const boards = t.trays.filter((b): b is number => b !== null);
      played.push({ table: t.table, round: r.round, played: id ? boards.filter((b) => hasResult(st, b, id, r.round)).length : 0, of: boards.length });
    }
  }
  const fouled = new Map<number, ClubAlert>();
  for (const a of st.alerts) if (a.kind === 'fouled-tray' && a.board !== undefined && !fouled.has(a.board)) fouled.set(a.board, a);
  const trayViews: DirectorTrayView[] = st.index.boards().map((b) => ({
    board: b, ...(st.records.has(b) ? { record: st.records.get(b) } : {}), playedAt: [...(st.playedAt.get(b) ?? [])],
    released: st.released.includes(b), ...(fouled.has(b) ? { fouled: fouled.get(b) } : {}),
  }));
  const rounds = tables.map((t) => t.round).filter((r) => r > 0);
  const snap: DirectorSnapshot = {
    schema: 1, type: 'tenace.director', club: st.c.club.id, session: st.c.session, variant: st.c.variant, schedule: st.schedule,
    round: rounds.length ? Math.min(...rounds) : 1, tables, progress: [], trays: trayViews, alerts: st.alerts.slice(-200),
    standings: st.standings, pairs: st.players?.pairs() ?? {}, at: st.now().toISOString(),
    findings: st.findings.list(st.decisions.values(), followed(st).flatMap((ts) => {
      const l = ts.fold.live();
      return l ? [{ table: ts.id, round: st.assignments.get(ts.id)?.round, ...l }] : [];
    })),
  };
  // Every round's progress only when read (the page's copy): the retained message takes the rounds begun alone.
  let progress: DirectorSnapshot['progress'] | null = null;
  Object.defineProperty(snap, 'progress', { enumerable: true, get: () => (progress ??= played.concat(unplayedAfter(st, begun))) });
  BEGUN.set(snap, played);
  return snap;
}

const UNPLAYED = new WeakMap<DirectorState, { begun: number; progress: DirectorSnapshot['progress'] }>();

/**
 * The progress of the rounds after `begun`, with nothing played, made once for each round begun: a 200-table
 * Mitchell's 199 rounds are 39,800 entries, and putting them together at every snapshot was most of its time at a
 * championship's leader (issue 18).
 */
function unplayedAfter(st: DirectorState, begun: number): DirectorSnapshot['progress'] {
  const cached = UNPLAYED.get(st);
  if (cached?.begun === begun) return cached.progress;
  const progress: DirectorSnapshot['progress'] = [];
  for (const r of st.schedule.rounds) {
    if (r.round <= begun) continue;
    for (const t of r.tables) progress.push(Object.freeze({ table: t.table, round: r.round, played: 0, of: t.trays.filter((b) => b !== null).length }));
  }
  UNPLAYED.set(st, { begun, progress });
  return progress;
}

/** A table's latest claim for its snapshot view, solved when analysis is on. */
function claimView(c: ClaimPosition | null, claims: ClaimAnalyses | undefined): { claim?: DirectorTableView['claim'] } {
  if (!c) return {};
  return { claim: claims ? claims.view(c) : { board: c.board, seat: c.seat, claimed: c.claimed, left: c.left } };
}
