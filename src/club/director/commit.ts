// The director's serial chain and its commits: one message at a time, persisted before it is acknowledged, with a
// full or read-only store waited out and any other store failure fatal.
import { type StoreOps, storeFault } from './store.js';
import { type DirectorState, Work, StoreFailure, STORE_RETRY_MS } from './state.js';
import { scheduleFlush } from './standings.js';

/** Run `fn` after everything queued before it: the director's state changes one message at a time. */
export function enqueue(st: DirectorState, fn: () => Promise<void>): Promise<void> {
  const next = st.chain.then(() => {
    if (st.failed) throw new Error('director: the store failed; not acknowledging');
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
 * Commit a message's writes. A fault the operator can fix (a full disk, a read-only file) is waited out here: the
 * message is not acknowledged meanwhile, so the broker keeps it and all after it; said in one line, tried again
 * with back-off, and said again once written. Any other failure stops the service (a restart rebuilds).
 */
export async function commit(st: DirectorState, fn: (tx: StoreOps) => Promise<void>, events = 0): Promise<void> {
  const started = performance.now();
  for (let wait = STORE_RETRY_MS; ; wait = Math.min(2 * wait, st.opts.storeRetryMaxMs ?? 30_000)) {
    try {
      await st.store!.transaction(fn);
      if (wait > STORE_RETRY_MS) st.log.warn({ store: st.store!.where, seconds: Math.round((performance.now() - started) / 1000) }, 'director: the store takes writes again; acknowledging again');
      return;
    } catch (err) {
      // Stopped while waiting: the message stays unacknowledged, for the next start.
      if (st.stopped) throw new StoreFailure((err as Error).message);
      const fault = storeFault(err);
      if (fault === null) {
        // The in-memory state now runs ahead of the store: stop acknowledging; a restart rebuilds from the store.
        fail(st, err as Error);
        throw new StoreFailure((err as Error).message);
      }
      if (wait === STORE_RETRY_MS) {
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
