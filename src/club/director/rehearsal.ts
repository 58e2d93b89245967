// A rehearsal before the first table connects (issue 18), on a SQLite director: the session's first tray played at
// two of its tables, made up from a fixed seed, taken by a director of its own on an in-memory store through the
// same modules as the real one (intake, fold, result, tray record and its check, group commit, standings, snapshot),
// then dropped. V8 compiles each function at its first call, Kysely builds each statement's first query, and the
// first sort by ids pages in ICU's collation data: without it, round 1's end took 80-95 ms to reach the standings in
// the club bench, against 25-45 ms for the rounds after.
import { createRng } from '../../sim/prng.js';
import { simulateDeal } from '../../sim/simulate.js';
import { DirectorState } from './state.js';
import { DirectorStore } from './store.js';
import { durable } from './commit.js';
import { ingest } from './messages.js';
import { rebuild } from './restore.js';
import { flushNow } from './standings.js';
import { snapshot, snapshotJson } from './snapshot.js';

/** What a rehearsal got through: its results, tray records and scored boards. */
export interface Rehearsal { results: number; records: number; scored: number }

/** Rehearse the first tray's original and first overplay on a throwaway state; nothing of it is kept or published. */
export async function rehearse(st: DirectorState): Promise<Rehearsal> {
  const board = st.index.boards()[0];
  const plays = board === undefined ? [] : st.index.playsOf(board).slice(0, 2);
  // A PostgreSQL instance (a championship) would load better-sqlite3 for it, a driver it never otherwise carries.
  if (plays.length === 0 || st.store?.engine !== 'sqlite') return { results: 0, records: 0, scored: 0 };
  const store = await DirectorStore.open('sqlite::memory:');
  const { cluster: _, ...config } = st.c;
  const r = new DirectorState({
    ...st.opts, config: { ...config, store: { url: 'sqlite::memory:' } }, store, schedule: st.schedule, web: false,
    log: st.log.child({ rehearsal: true }, { level: 'silent' }),
    // Its store failing is not the session's: the real director's owner must not restart it for that.
    onFatal: () => undefined,
  });
  try {
    await rebuild(r);
    for (const [i, p] of plays.entries()) {
      const ts = r.tables.get(r.byNo.get(p.table)!)!;
      // The same deal both times: the original (no hands: it makes the tray record), then an overplay of the record.
      const deal = simulateDeal(createRng(board), { variant: st.c.variant, board, withHands: i > 0, firstSeq: 1 });
      await ingest(r, ts, deal.events, 1);
    }
    await durable(r);
    flushNow(r);
    snapshotJson(r, snapshot(r));
  } catch (err) {
    // A variant the simulator does not deal (a two-handed game) rehearses what it reached; the session is unharmed.
    st.log.debug({ err: (err as Error).message }, 'director: the rehearsal stopped early');
  } finally {
    r.stopped = true;
    r.flushCancel?.();
    if (r.snapTimer) clearTimeout(r.snapTimer);
    await store.close();
  }
  return { results: r.results.size, records: r.records.size, scored: r.standings?.boards.length ?? 0 };
}
