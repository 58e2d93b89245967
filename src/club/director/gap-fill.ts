// Gap fill: asking a table for the events the director lacks, and folding those that follow on.
import { randomUUID } from 'node:crypto';
import { tableTopics } from '../../feed/topics.js';
import type { Completion } from './fold.js';
import { REQUEST_LIMIT } from './intake.js';
import { type DirectorState, type TableState, Work, followed } from './state.js';
import { pub } from './mqtt.js';
import { onCompletion } from './results.js';

/** Ask a table for the events after the last one folded (from the start while its first seq is unknown). */
export function requestEvents(st: DirectorState, ts: TableState): void {
  if (!st.client?.connected || st.stopped) return;
  const retry = st.opts.requestRetryMs ?? 3000;
  if (ts.request && Date.now() - ts.request.at < retry) return;
  const after = ts.firstSeq === null ? 0 : Math.max(ts.fold.lastSeq, ts.firstSeq - 1);
  const tx = `director-${randomUUID()}`;
  ts.request = { tx, after, at: Date.now() };
  pub(st, tableTopics(st.c.club.id, ts.id, st.c.mqtt.baseTopic).request('events'), { transaction: tx, after, limit: REQUEST_LIMIT }, false);
}

/** After an ingest: ask for the events still missing (a gap, or the first seq unknown). */
export function checkGap(st: DirectorState, ts: TableState): void {
  if (ts.firstSeq === null || ts.pending.size > 0) requestEvents(st, ts);
}

/** The timer's retry of every followed table still waiting on a gap. */
export function retryGaps(st: DirectorState): void {
  if (st.stopped || !st.client?.connected) return;
  for (const ts of followed(st)) if (ts.firstSeq === null || ts.pending.size > 0) requestEvents(st, ts);
}

/** Fold the pending events that follow on from the last folded one. */
export function foldReady(st: DirectorState, ts: TableState, work: Work): void {
  if (ts.firstSeq === null) return;
  for (;;) {
    const next = ts.fold.lastSeq === 0 ? ts.firstSeq : ts.fold.lastSeq + 1;
    const ev = ts.pending.get(next);
    if (!ev) {
      // Events below the first seq or already folded (a restart before the first seq was known) are dropped.
      for (const s of [...ts.pending.keys()]) if (s < next) ts.pending.delete(s);
      return;
    }
    ts.pending.delete(next);
    let c: Completion | null = null;
    try {
      c = ts.fold.apply(ev);
    } catch (err) {
      ts.fold.lastSeq = next;
      st.log.error({ err, table: ts.id, seq: next }, 'director: the engine refused an event; it is stored and skipped');
    }
    if (c) onCompletion(st, ts, c, work);
  }
}

/** How many events each table holds past a gap, not yet folded. */
export function pendingEvents(st: DirectorState): Record<string, number> {
  return Object.fromEntries([...st.tables.values()].map((ts) => [ts.id, ts.pending.size]));
}
