// The director's incoming messages: each topic's handler, and the intake of a table's events (checked, admitted
// within the gap window, stored and folded in one commit).
import { type TableEvent, validateTableEvent } from '../../formats/table-log.js';
import type { ClubAlert, TrayRecord } from '../types.js';
import { GAP_WINDOW, INTAKE_LIMITS, REQUEST_LIMIT, type Refusal, isSeq, kindOf, sameJson } from './intake.js';
import { type DirectorState, type TableState, Work, StoreFailure, warnOnce } from './state.js';
import { commit, commitStages, commitWork } from './commit.js';
import { respond } from './mqtt.js';
import { raise, refused, refusedInto, unknownBoard } from './alerts.js';
import { requestEvents, checkGap, foldReady } from './gap-fill.js';
import { takeDecision } from './take-decision.js';
import { scheduleFlush } from './standings.js';

/** Route one incoming message by its topic; a message not understood is counted and acknowledged. */
export async function handle(st: DirectorState, topic: string, payload: Buffer): Promise<void> {
  if (!topic.startsWith(st.prefix)) return;
  st.log.trace({ topic, bytes: payload.length }, 'director: message');
  const parts = topic.slice(st.prefix.length).split('/');
  const from = st.tables.has(parts[0]) ? parts[0] : null;
  // A table of a partition given up (a message the broker had queued): its new holder asks the table for it.
  if (from !== null && st.owned && !st.owned.has(from)) return;
  const kind = kindOf(parts);
  if (kind && payload.length > INTAKE_LIMITS[kind]) return refused(st, { table: from, reason: 'too-large', kind, bytes: payload.length, detail: { topic } });
  try {
    if (parts[0] === 'club') {
      if (parts.length === 4 && parts[1] === st.c.session && parts[2] === 'request') await onDecision(st, parts[3], payload);
      return;
    }
    if (parts[0] === 'trays') {
      if (parts.length === 3 && parts[1] === st.c.session) onTrayRecord(st, payload);
      return;
    }
    const ts = st.tables.get(parts[0]);
    const rest = parts.slice(1).join('/');
    if (!ts) {
      if (rest === 'director/event' && !st.warned.has(`table:${parts[0]}`)) {
        st.warned.add(`table:${parts[0]}`);
        st.log.warn({ table: parts[0] }, 'director: events from a table that is not in the config\'s tables; ignored');
      }
      return;
    }
    if (rest === 'director/event') await onTableEvent(st, ts, payload);
    else if (rest === 'response/events') await onEventsResponse(st, ts, payload);
    else if (rest === 'status') onStatus(st, ts, payload);
    else if (rest === 'director') await onTableAlert(st, ts, payload);
  } catch (err) {
    if (err instanceof StoreFailure) throw err;
    // A malformed message must not stop the director (nor be redelivered forever): count it and acknowledge it.
    await refused(st, { table: from, reason: 'not-understood', detail: { err: (err as Error).message, topic } });
  }
}

/** A table's online/offline status; a table back online is asked for what the director missed. */
export function onStatus(st: DirectorState, ts: TableState, payload: Buffer): void {
  const s = payload.toString('utf8').trim();
  const status = s === 'online' ? 'online' : s === 'offline' ? 'offline' : 'unknown';
  if (status === ts.status) return;
  ts.status = status;
  // A table coming (back) online may hold events the director missed: ask for them.
  if (status === 'online') {
    ts.request = null;
    requestEvents(st, ts);
  }
  scheduleFlush(st);
}

/** A table's journal event, live: checked, then ingested. */
export async function onTableEvent(st: DirectorState, ts: TableState, payload: Buffer): Promise<void> {
  const m = JSON.parse(payload.toString('utf8')) as { type?: string; session?: string; seq?: number; event?: unknown };
  if (m.type !== 'tenace.journal-event') return;
  if (m.session !== st.c.session) return refused(st, { table: ts.id, reason: 'other-session', detail: { session: String(m.session).slice(0, 100) } });
  const c = checkEvent(st, ts, m.seq, m.event);
  if (c.refusal) return refused(st, c.refusal);
  await ingest(st, ts, [c.ev], undefined);
}

/** A table's event with its seq, or why it is refused. */
export function checkEvent(st: DirectorState, ts: TableState, seq: unknown, event: unknown): { ev: TableEvent; refusal?: undefined } | { refusal: Refusal } {
  if (!isSeq(seq)) return { refusal: { table: ts.id, reason: 'bad-seq', seq } };
  const ev = { ...(event as object), seq } as TableEvent;
  const problem = validateTableEvent(ev);
  return problem ? { refusal: { table: ts.id, reason: 'invalid-event', seq, detail: { problem } } } : { ev };
}

/** A table's answer to request/events: the events checked and ingested, the table asked again for more. */
export async function onEventsResponse(st: DirectorState, ts: TableState, payload: Buffer): Promise<void> {
  const m = JSON.parse(payload.toString('utf8')) as { transaction?: unknown; ok?: boolean; session?: string; events?: unknown[]; last?: number; error?: string };
  const req = ts.request;
  if (!req || m.transaction !== req.tx) return;
  ts.request = null;
  if (m.ok !== true) {
    st.log.warn({ table: ts.id, error: m.error }, 'director: the table refused request/events');
    return;
  }
  if (m.session !== st.c.session) return refused(st, { table: ts.id, reason: 'other-session', detail: { session: String(m.session).slice(0, 100) } });
  const events: TableEvent[] = [];
  for (const raw of (Array.isArray(m.events) ? m.events : []).slice(0, REQUEST_LIMIT)) {
    const c = checkEvent(st, ts, (raw as { seq?: unknown } | null)?.seq, raw);
    if (c.refusal) await refused(st, c.refusal);
    else events.push(c.ev);
  }
  events.sort((a, b) => a.seq! - b.seq!);
  // An answer from the start of the session tells where the table's session begins.
  const firstSeq = req.after === 0 && ts.firstSeq === null ? (events[0]?.seq ?? (Number.isSafeInteger(m.last) ? m.last! + 1 : undefined)) : undefined;
  await ingest(st, ts, events, firstSeq);
  if (events.length === 0 && ts.pending.size > 0 && req.after === ts.fold.lastSeq) {
    // The table holds nothing after the gap's start (a journal from another session, or cut short): the events past
    // the gap stay stored but unfolded, and the results after it wait. Only the director can sort it out.
    warnOnce(st, `gap:${ts.id}:${req.after}`, { table: ts.id, after: req.after, waiting: ts.pending.size }, 'director: the table cannot give the events after a gap; its later results wait');
  }
  const lastGot = events.at(-1)?.seq ?? req.after;
  if (Number.isSafeInteger(m.last) && m.last! > lastGot && events.length > 0) requestEvents(st, ts);
}

/** Store new events of a table, fold those that follow on, and commit all that follows from them, then publish. */
export async function ingest(st: DirectorState, ts: TableState, events: TableEvent[], firstSeq: number | undefined): Promise<void> {
  const setFirst = firstSeq !== undefined && ts.firstSeq === null;
  const work = new Work();
  const fresh = await admit(st, ts, events, setFirst ? firstSeq : ts.firstSeq, work);
  if (fresh.length === 0 && !setFirst) {
    await commitWork(st, work);
    checkGap(st, ts);
    return;
  }
  for (const e of fresh) {
    ts.pending.set(e.seq!, e);
    ts.maxSeq = Math.max(ts.maxSeq, e.seq!);
  }
  if (setFirst) {
    ts.firstSeq = firstSeq;
    for (const s of [...ts.pending.keys()]) if (s < firstSeq) ts.pending.delete(s);
  }
  foldReady(st, ts, work);
  for (const e of fresh) if (e.type === 'deal' && e.board !== undefined && st.index.playsOf(e.board).length === 0) unknownBoard(st, ts, e, work);
  // Not awaited: the next message is folded while this one's group commits; its PUBACK waits for the group to be on
  // disk (durable), and what it publishes goes out once the group is committed (commitStages). Until then its events
  // are known as unstored (a reused seq's check).
  for (const e of fresh) ts.unstored.set(e.seq!, e);
  const writes = work.writes.length > 0 || setFirst;
  const { committed } = commitStages(st, writes ? async (tx) => {
    if (setFirst) await tx.setFirstSeq(st.c.session, ts.id, firstSeq);
    for (const w of work.writes) await w(tx);
  } : null, fresh.map((e) => ({ table: ts.id, seq: e.seq!, event: e })), writes);
  committed.then(() => {
    for (const e of fresh) if (ts.unstored.get(e.seq!) === e) ts.unstored.delete(e.seq!);
    for (const p of work.publishes) p();
    scheduleFlush(st);
  }, () => undefined);
  checkGap(st, ts);
}

/**
 * The events of a message that are new and within the gap window; the rest refused: past the window (dropped, to be
 * asked for again), or at a seq already held with other content (the first stands). A redelivery is dropped quietly.
 */
export async function admit(st: DirectorState, ts: TableState, events: TableEvent[], first: number | null, work: Work): Promise<TableEvent[]> {
  const fresh: TableEvent[] = [];
  const held: TableEvent[] = [];
  const seen = new Set<number>();
  const base = first === null ? null : Math.max(ts.fold.lastSeq, first - 1);
  let dropped = false;
  for (const e of events) {
    const seq = e.seq!;
    if ((first !== null && seq < first) || seen.has(seq)) continue;
    seen.add(seq);
    if (seq <= ts.fold.lastSeq || ts.pending.has(seq)) held.push(e);
    // Before the first seq is known there is no base: the events held are bounded by count instead.
    else if (base === null ? ts.pending.size + fresh.length >= GAP_WINDOW : seq > base + GAP_WINDOW) {
      refusedInto(st, { table: ts.id, reason: 'past-window', seq }, work);
      dropped = true;
    } else fresh.push(e);
  }
  const folded = held.filter((e) => !ts.pending.has(e.seq!) && !ts.unstored.has(e.seq!)).map((e) => e.seq!);
  const stored = await st.store!.eventsAt(st.c.session, ts.id, folded);
  for (const e of held) {
    const before = ts.pending.get(e.seq!) ?? ts.unstored.get(e.seq!) ?? stored.get(e.seq!);
    if (before && !sameJson({ ...before, seq: e.seq }, e)) refusedInto(st, { table: ts.id, reason: 'reused-seq', seq: e.seq }, work);
  }
  if (held.length > 0) st.log.debug({ table: ts.id, seqs: held.map((e) => e.seq) }, 'director: events already stored (a redelivery)');
  // What was dropped past the window is asked for again (request/events, answered from the gap on).
  if (dropped) requestEvents(st, ts);
  return fresh;
}

/** A tray record published by another source (a dealing machine's file, `tenace trays import`). */
export function onTrayRecord(st: DirectorState, payload: Buffer): void {
  if (payload.length === 0) return;
  const r = JSON.parse(payload.toString('utf8')) as TrayRecord;
  if (r.type !== 'tenace.tray' || r.session !== st.c.session || !Number.isInteger(r.board) || !Number.isInteger(r.rev) || typeof r.hands !== 'string') return;
  const have = st.records.get(r.board);
  if (have && have.rev >= r.rev) return;
  // A record from elsewhere (a dealing machine's file, `tenace trays import`, another director instance) is adopted
  // as it is. Not awaited, as a table's events are not: its PUBACK waits for the commit all the same (held-acks.ts),
  // and awaited here it held every instance's intake for a commit per record of the others' (5-110 ms each at a
  // championship's round end, issue 18).
  st.records.set(r.board, r);
  commit(st, async (tx) => { await tx.putTray(st.c.session, r); }).then(() => scheduleFlush(st), () => undefined);
}

/** An alert a table raised, stored once (a table's alerts are rate-limited). */
export async function onTableAlert(st: DirectorState, ts: TableState, payload: Buffer): Promise<void> {
  const a = JSON.parse(payload.toString('utf8')) as ClubAlert;
  if (a.type !== 'tenace.alert' || a.session !== st.c.session || typeof a.kind !== 'string') return;
  const id = `${a.kind}:${ts.id}:${a.board ?? ''}:${a.seq ?? a.at}`;
  if (st.alertIds.has(id)) return;
  if (!st.intake.allowAlert(ts.id)) return refused(st, { table: ts.id, reason: 'alert-rate' });
  const work = new Work();
  raise(st, id, { ...a, table: ts.id }, work);
  await commitWork(st, work);
}

/** A decision over MQTT: taken, and answered on its response topic. */
export async function onDecision(st: DirectorState, cmd: string, payload: Buffer): Promise<void> {
  respond(st, cmd, await takeDecision(st, cmd, payload));
}
