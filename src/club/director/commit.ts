// The director's serial chain and its commits: one message at a time folded in memory, its writes committed in a
// group with those of the messages around it, and acknowledged once committed; a full or read-only store waited out
// and any other store failure fatal.
import { type StoreOps, type StoredEvent, storeFault } from './store.js';
import { type CommitGroup, type DirectorState, Work, StoreFailure, STORE_RETRY_MS, SYNCS_IN_FLIGHT } from './state.js';
import { scheduleFlush } from './standings.js';

/** Run `fn` after everything queued before it: the director's state changes one message at a time. */
export function enqueue(st: DirectorState, fn: () => Promise<void>): Promise<void> {
  const next = st.chain.then(() => {
    if (st.failed) throw new Error('director: the store failed; not acknowledging');
    for (let task = st.urgent.shift(); task; task = st.urgent.shift()) task();
    return fn();
  });
  st.chain = next.catch(() => undefined);
  return next;
}

/** The store or the leases failed: stop acknowledging, and let the owner restart the service. */
export function fail(st: DirectorState, err: Error): void {
  if (st.failed) return;
  st.failed = true;
  st.log.fatal({ err: err.message }, 'director: the store failed; no further message is acknowledged');
  st.opts.onFatal?.(err);
}

/**
 * Commit writes, grouped (issue 18): the writes of every message folded while the transaction before was on its way
 * go into the next transaction together, so a burst of events costs one fsync, not one each. The promise resolves
 * once the group is committed and on disk: a caller that awaits it has its writes stored, and a message's PUBACK
 * waits for it (durable; held-acks.ts), so nothing is acknowledged before it is stored.
 */
export function commit(st: DirectorState, fn: ((tx: StoreOps) => Promise<void>) | null, events: readonly StoredEvent[] = [], shared = true): Promise<void> {
  return commitStages(st, fn, events, shared).durable;
}

/**
 * As commit(), with the moment the group is committed as well as the one it is on disk. What a table's message makes
 * (a result in the standings, the next round's assignment, an alert) is published once committed, before SQLite's
 * WAL sync (13-21 ms at p99 in the club bench): only its PUBACK waits for the disk. A power cut in between loses
 * nothing the table has not still got: its events were not acknowledged, so the broker gives them again (or the
 * table, asked for the gap) and the director makes the same result from them.
 */
export function commitStages(st: DirectorState, fn: ((tx: StoreOps) => Promise<void>) | null, events: readonly StoredEvent[] = [], shared = true): { committed: Promise<void>; durable: Promise<void> } {
  if (st.failed) {
    const failed = Promise.reject(new StoreFailure('director: the store failed; not acknowledging'));
    return { committed: failed, durable: failed };
  }
  const g = st.openGroup ??= newGroup();
  if (fn) g.writes.push(fn);
  for (const e of events) g.events.push(e);
  // Only table events, which no other instance reads back: no need to tell them (cluster mode).
  if (shared) g.shared = true;
  kick(st);
  return { committed: g.committed, durable: g.done };
}

/** A promise that resolves once everything committed so far, and everything queued, is on disk. */
export function durable(st: DirectorState): Promise<void> {
  // Groups are settled in order: the newest one's promise covers all before it.
  return st.openGroup?.done ?? st.committing?.done ?? st.unsynced.at(-1)?.done ?? st.syncing.at(-1)?.at(-1)?.done ?? Promise.resolve();
}

function newGroup(): CommitGroup {
  let resolve!: () => void;
  let rejectDone!: (e: Error) => void;
  const done = new Promise<void>((res, rej) => { resolve = res; rejectDone = rej; });
  let resolveCommitted!: () => void;
  let rejectCommitted!: (e: Error) => void;
  const committed = new Promise<void>((res, rej) => { resolveCommitted = res; rejectCommitted = rej; });
  // A group whose failure nobody awaits (a message already answered) must not be an unhandled rejection.
  done.catch(() => undefined);
  committed.catch(() => undefined);
  // A group that fails before its commit fails both; one that fails at its sync was committed already.
  const reject = (e: Error) => { rejectCommitted(e); rejectDone(e); };
  return { writes: [], events: [], shared: false, done, resolve, reject, committed, resolveCommitted };
}

/** Start the open group's transaction once the one before is done; setImmediate lets the messages already read join it. */
function kick(st: DirectorState): void {
  if (st.committing || st.groupScheduled || !st.openGroup) return;
  st.groupScheduled = true;
  setImmediate(() => {
    st.groupScheduled = false;
    const g = st.openGroup;
    if (st.committing || !g) return;
    st.openGroup = null;
    st.committing = g;
    void runGroup(st, g).then(() => {
      g.resolveCommitted();
      // On SQLite in WAL mode the commit is not yet on disk: the next group may commit meanwhile (it waits for no
      // fsync), and this one is settled once a sync begun after its commit is done.
      if (st.store!.durableOnCommit) g.resolve();
      else {
        st.unsynced.push(g);
        syncGroups(st);
      }
    }, g.reject).finally(() => {
      st.committing = null;
      kick(st);
    });
  });
}

/**
 * Make the committed groups durable with fdatasyncs on the thread pool, up to SYNCS_IN_FLIGHT at once: a sync covers
 * every group committed before it began, so a group committed while one runs starts its own at once instead of
 * waiting for it (issue 18: at a round's end that wait was a second sync's time added to the result's). A sync that
 * ends settles its groups and every earlier group still waiting, in order. A failed sync is fatal, as any store
 * failure that is not a fault the operator can fix: what the WAL held may be lost, and a restart rebuilds from what
 * the store has.
 */
function syncGroups(st: DirectorState): void {
  if (st.syncing.length >= SYNCS_IN_FLIGHT || st.unsynced.length === 0) return;
  const batch = st.unsynced.splice(0);
  if (st.failed) {
    for (const g of batch) g.reject(new StoreFailure('director: the store failed; not acknowledging'));
    return;
  }
  st.syncing.push(batch);
  st.store!.sync().then(() => {
    // This sync began after every batch before it was committed: it covers them too.
    const i = st.syncing.indexOf(batch);
    for (const b of st.syncing.splice(0, i + 1)) for (const g of b) g.resolve();
  }, (err: Error) => {
    fail(st, new Error(`cannot sync the store ${st.store!.where} to disk: ${err.message}`));
    const e = new StoreFailure(err.message);
    const i = st.syncing.indexOf(batch);
    for (const b of i < 0 ? [] : st.syncing.splice(0, i + 1)) for (const g of b) g.reject(e);
  }).finally(() => syncGroups(st));
}

/**
 * One group's transaction. A fault the operator can fix (a full disk, a read-only file) is waited out here: its
 * messages are not acknowledged meanwhile, so the broker keeps them and all after them; said in one line, tried again
 * with back-off, and said again once written. Any other failure stops the service (a restart rebuilds).
 */
async function runGroup(st: DirectorState, g: CommitGroup): Promise<void> {
  const started = performance.now();
  for (let wait = STORE_RETRY_MS; ; wait = Math.min(2 * wait, st.opts.storeRetryMaxMs ?? 30_000)) {
    if (st.failed) throw new StoreFailure('director: the store failed; not acknowledging');
    try {
      // The other instances read back at once what this group stored (cluster.ts), instead of at their next poll.
      const notify = g.shared && st.c.cluster !== undefined && st.store!.engine === 'postgres';
      // Most groups are table events and nothing else: one statement, atomic by itself, without BEGIN and COMMIT
      // (issue 18: on the championship's PostgreSQL, writing those round trips to the socket took a third of each
      // instance's CPU).
      if (g.writes.length === 0 && !notify) await st.store!.insertEventsUnsynced(st.c.session, g.events, st.now().toISOString());
      else {
        await st.store!.groupUnsynced(async (tx) => {
          // All tables' events in one statement, gathered with what they made (GroupOps writes them at the end).
          if (g.events.length > 0) await tx.insertEvents(st.c.session, g.events, st.now().toISOString());
          for (const w of g.writes) await w(tx);
          if (notify) await tx.notifyChange(st.c.session, st.instance);
        });
      }
      if (wait > STORE_RETRY_MS) st.log.warn({ store: st.store!.where, seconds: Math.round((performance.now() - started) / 1000) }, 'director: the store takes writes again; acknowledging again');
      return;
    } catch (err) {
      // Stopped while waiting: the messages stay unacknowledged, for the next start.
      if (st.stopped) throw new StoreFailure((err as Error).message);
      const fault = storeFault(err);
      if (fault === null) {
        // The in-memory state now runs ahead of the store: stop acknowledging; a restart rebuilds from the store.
        fail(st, err as Error);
        throw new StoreFailure((err as Error).message);
      }
      if (wait === STORE_RETRY_MS) {
        const events = g.events.length + (st.openGroup?.events.length ?? 0);
        st.log.error({ store: st.store!.where, err: (err as Error).message, waiting: events },
          `director: cannot write the store ${st.store!.where}: ${fault}; ${events} event${events === 1 ? '' : 's'} wait, not acknowledged (the broker keeps the rest); trying again with back-off`);
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, wait);
        st.wakeRetry = () => { clearTimeout(t); r(); };
      });
      st.wakeRetry = null;
    }
  }
}

/** Commit a message's work, then publish what it made. */
export async function commitWork(st: DirectorState, work: Work): Promise<void> {
  if (!work.changed) return;
  if (work.writes.length > 0) await commit(st, async (tx) => { for (const w of work.writes) await w(tx); });
  for (const p of work.publishes) p();
  scheduleFlush(st);
}
