// Persist before publishing: the standings must never show a result whose commit has not finished. The director
// folds in memory first and commits after; a slow commit (here held 400 ms) is when a flush timer could publish the
// memory's result ahead of the store, as a gap fill of 88 events and its result once did in the failover test.
// Persist before acknowledging: the PUBACK of the message that made the result waits, further, until the commit is
// on disk (SQLite's WAL sync, here held 400 ms too); the standings do not wait for that (commit.ts, commitStages).
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore, type StoreOps } from '../../src/club/director/store.js';
import type { DirectorState } from '../../src/club/director/state.js';
import type { RoundAssignment, ScoreReport } from '../../src/club/types.js';
import { sleep, uid, waitFor } from '../feed/broker.js';
import { cleanupAfterEach, FakeTable, Observer, quietLog, SCHEDULE, seedHand, STUBS, testConfig } from './director-rig.js';
import { freshDb } from './store-engines.js';

const T = 15_000;

describe('the director publishes standings only from what is committed', () => {
  const cleanup = cleanupAfterEach();

  it('a result reaches the standings only after the transaction that stores it has committed, and its PUBACK only once that is on disk', async () => {
    const club = uid('pac');
    const db = await freshDb('sqlite');
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const table = await FakeTable.connect(club, '1');
    cleanup.push(() => table.close());
    const store = await DirectorStore.open(db.url);
    // Every commit is held 400 ms, and so is every sync of SQLite's WAL after it. When each commit finished, and each
    // sync, with how many results the store held then (at a sync's start: a result is on disk once a sync begun after
    // it is done), is noted.
    const committed: { at: number; results: number }[] = [];
    const synced: { at: number; results: number }[] = [];
    const transaction = store.transactionUnsynced.bind(store);
    store.transactionUnsynced = async <R>(fn: (tx: StoreOps) => Promise<R>): Promise<R> => {
      await sleep(400);
      const r = await transaction(fn);
      committed.push({ at: Date.now(), results: (await store.results('s1')).length });
      return r;
    };
    const sync = store.sync.bind(store);
    store.sync = async () => {
      const results = (await store.results('s1')).length;
      await sleep(400);
      await sync();
      synced.push({ at: Date.now(), results });
    };
    const s = new DirectorService({ config: testConfig(club, db.url), log: quietLog, schedule: SCHEDULE, store, club: STUBS, web: false, requestRetryMs: 60_000 });
    await s.start();
    cleanup.push(async () => { await s.stop(); await store.close(); });
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined, T, 'round 1');
    // When the director acknowledged each of the table's answers (the director may ask twice: each has the whole hand).
    const client = (s as unknown as { st: DirectorState }).st.client as MqttClient;
    const answers = new Map<number, number>();
    client.on('packetreceive', (p) => { if (p.cmd === 'publish' && p.topic.endsWith('/response/events') && p.messageId !== undefined) answers.set(p.messageId, 0); });
    client.on('packetsend', (p) => { if (p.cmd === 'puback' && p.messageId !== undefined && answers.has(p.messageId)) answers.set(p.messageId, Date.now()); });

    // The whole hand in one answer to request/events: one transaction for every event and the result they make.
    await table.play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)], { publish: false });
    let shownAt = 0;
    const watch = setInterval(() => {
      if (shownAt === 0 && (obs.get<ScoreReport>('club/s1/standings')?.boards.length ?? 0) > 0) shownAt = Date.now();
    }, 2);
    cleanup.push(async () => clearInterval(watch));
    await table.status('online'); // the director asks an online table for the events it has not seen
    await waitFor(() => shownAt > 0, T, 'the standings with the result');
    await waitFor(() => answers.size > 0 && [...answers.values()].every((at) => at > 0), T, 'the PUBACKs of the answers');
    const ackedAt = Math.max(...answers.values());
    const results = await store.results('s1');
    expect(results).toHaveLength(1);
    const commitOfResult = committed.find((c) => c.results > 0)!;
    const syncOfResult = synced.find((c) => c.results > 0)!;
    expect(commitOfResult).toBeDefined();
    expect(syncOfResult).toBeDefined();
    // The commit that stored the result finished before the standings showed it; they did not wait for its sync.
    expect(commitOfResult.at, `the result was committed ${commitOfResult.at - shownAt} ms after the standings showed it`).toBeLessThanOrEqual(shownAt);
    expect(shownAt, 'the standings waited for the WAL sync').toBeLessThan(syncOfResult.at);
    // The answer that stored it was acknowledged only once on disk.
    expect(ackedAt, `the last answer was acknowledged ${syncOfResult.at - ackedAt} ms before its sync returned`).toBeGreaterThanOrEqual(syncOfResult.at);
    expect((await store.events('s1', '1')).length).toBe(table.journal.length);
  });
});
