// Cluster mode on PostgreSQL (issue 18): while an instance's LISTEN connection is open, every commit another
// instance shares is notified, so the full read-back (five queries that hold the instance's intake) runs only as a
// safety net; while that connection is lost it runs every syncMs, as on SQLite, and once more as soon as it listens
// again, for what was committed meanwhile. The read-backs are counted by their first query (resultHeads).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CHANGE_CHANNEL } from '../../src/club/director/store-ops.js';
import type { RoundAssignment } from '../../src/club/types.js';
import { uid, waitFor } from '../feed/broker.js';
import { Observer, cleanupAfterEach, clusterStarter } from '../club/director-rig.js';
import { freshDb } from '../club/store-engines.js';

const T = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the full read-back of a cluster instance on PostgreSQL, with and without its LISTEN connection', () => {
  const cleanup = cleanupAfterEach();

  /** Two instances, one partition each, round 1 assigned; a's full read-backs counted, and a way to cut LISTEN. */
  async function cluster(syncMs: number, listenedSyncMs: number) {
    const club = uid('listen-poll');
    const db = await freshDb('postgres');
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const start = clusterStarter(cleanup, club, db.url, (instance) => ({ cluster: { partitions: 2, leaseSeconds: 4, heartbeatSeconds: 1, instance } }), { syncMs, listenedSyncMs });
    const { store } = await start('a');
    await start('b');
    await waitFor(async () => JSON.stringify((await store.leaseOps.leases('s1')).map((r) => r.holder)) === '["a","b"]', T, 'one partition each');
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 1, T, 'round 1 assignments');
    const counter = { readBacks: 0 };
    const heads = store.resultHeads.bind(store);
    store.resultHeads = async (session) => { counter.readBacks++; return heads(session); };
    // The read-back on first listening, at start, may still be on its way on a loaded machine: counted from here.
    await sleep(500);
    counter.readBacks = 0;
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    cleanup.push(() => admin.end());
    const listening = async () => (await admin.query('select count(*)::int as n from pg_stat_activity where datname = current_database() and query = $1', [`LISTEN ${CHANGE_CHANNEL}`])).rows[0].n as number;
    const cut = async () => (await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = $1', [`LISTEN ${CHANGE_CHANNEL}`])).rowCount;
    return { counter, listening, cut };
  }

  it('every syncMs only while LISTEN is lost, and only every listenedSyncMs while it is open', async () => {
    const c = await cluster(50, 60_000);
    // Listening: 1.5 s is 30 polls of 50 ms, none of which reads everything back.
    await sleep(1500);
    expect(c.counter.readBacks, 'full read-backs while LISTEN is open (listenedSyncMs is a minute)').toBe(0);
    // Lost: the store opens the connections again a second later; meanwhile a reads back every 50 ms.
    expect(await c.cut(), 'the two instances\' LISTEN connections').toBe(2);
    await waitFor(() => c.counter.readBacks >= 5, T, 'full read-backs every syncMs while LISTEN is lost');
    // Listening again: no more.
    await waitFor(async () => (await c.listening()) === 2, T, 'both instances listening again');
    await sleep(300);
    const settled = c.counter.readBacks;
    await sleep(1500);
    expect(c.counter.readBacks - settled, 'full read-backs once LISTEN is open again').toBe(0);
  }, 60_000);

  it('a read-back as soon as LISTEN is open again, for what was committed while it was lost', async () => {
    // No poll in the test's time: the read-back can only be the one on listening again.
    const c = await cluster(60_000, 60_000);
    expect(await c.cut(), 'the two instances\' LISTEN connections').toBe(2);
    await waitFor(async () => (await c.listening()) === 2, T, 'both instances listening again');
    await waitFor(() => c.counter.readBacks >= 1, T, 'the read-back on listening again');
    await sleep(500);
    expect(c.counter.readBacks, 'one read-back, not a poll').toBe(1);
  }, 60_000);
});
