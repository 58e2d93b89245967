// Group commit (issue 18): the events of several tables that arrive while a transaction is on its way are committed
// together in the next, and no event's PUBACK leaves the director before the transaction that stores it has
// committed and is on disk: on SQLite, once the WAL's fdatasync begun after that commit has returned (wal-sync.ts).
// A group of events alone is written as one statement, without BEGIN and COMMIT.
// Seen from the director's own MQTT client (packetreceive / packetsend), on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore, type StoreOps } from '../../src/club/director/store.js';
import type { DirectorState } from '../../src/club/director/state.js';
import type { RoundAssignment } from '../../src/club/types.js';
import { sleep, uid, waitFor } from '../feed/broker.js';
import { cleanupAfterEach, FakeTable, Observer, quietLog, SCHEDULE, seedHand, STUBS, testConfig } from './director-rig.js';
import { freshDb } from './store-engines.js';

const T = 20_000;

describe.each(['sqlite', 'postgres'] as const)('group commit on %s', (engine) => {
  const cleanup = cleanupAfterEach();

  it('events that arrive during a commit share the next transaction, and each PUBACK follows its own commit', async () => {
    const club = uid('grp');
    const db = await freshDb(engine);
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const tables = [await FakeTable.connect(club, '1'), await FakeTable.connect(club, '2')];
    cleanup.push(...tables.map((t) => () => t.close()));
    const store = await DirectorStore.open(db.url);
    // Each transaction takes 30 ms more (a slow disk): the events of both tables pile up meanwhile. What each one
    // stored is known once it has committed.
    const committed = new Set<string>();
    const sizes: number[] = [];
    const transaction = store.transactionUnsynced.bind(store);
    store.transactionUnsynced = async <R>(fn: (tx: StoreOps) => Promise<R>): Promise<R> => {
      const inserted: string[] = [];
      const r = await transaction(async (tx) => {
        const insert = tx.insertEvents.bind(tx);
        tx.insertEvents = async (session, rows, received) => {
          for (const r of rows) inserted.push(`${r.table}:${r.seq}`);
          return insert(session, rows, received);
        };
        await sleep(30);
        return fn(tx);
      });
      for (const k of inserted) committed.add(k);
      if (inserted.length > 0) sizes.push(inserted.length);
      return r;
    };
    // A group of events alone is one statement outside any transaction (no BEGIN and COMMIT round trips): the same
    // 30 ms, and committed once it returns.
    let alone = 0;
    const insertAlone = store.insertEventsUnsynced.bind(store);
    store.insertEventsUnsynced = async (session, rows, received) => {
      await sleep(30);
      await insertAlone(session, rows, received);
      alone++;
      for (const r of rows) committed.add(`${r.table}:${r.seq}`);
      if (rows.length > 0) sizes.push(rows.length);
    };
    // On disk: what was committed when a sync began, once it has returned (PostgreSQL: at its commit).
    const onDisk = store.durableOnCommit ? committed : new Set<string>();
    let syncs = 0;
    const sync = store.sync.bind(store);
    store.sync = async () => {
      const covered = [...committed];
      await sync();
      syncs++;
      for (const k of covered) onDisk.add(k);
    };
    expect(store.durableOnCommit, 'SQLite in WAL mode syncs off the event loop; PostgreSQL commits durably').toBe(engine === 'postgres');
    const s = new DirectorService({ config: testConfig(club, db.url), log: quietLog, schedule: SCHEDULE, store, club: STUBS, web: false, requestRetryMs: 60_000 });
    await s.start();
    cleanup.push(async () => { await s.stop(); await store.close(); });
    await waitFor(() => obs.get<RoundAssignment>('2/assignment') !== undefined, T, 'round 1');

    // The director's side of the wire: which event each incoming packet id carries, and whether it was committed
    // when its PUBACK was sent.
    const client = (s as unknown as { st: DirectorState }).st.client as MqttClient;
    const carried = new Map<number, string>();
    const early: string[] = [];
    let acked = 0;
    client.on('packetreceive', (p) => {
      if (p.cmd !== 'publish' || !p.topic.endsWith('/director/event') || p.messageId === undefined) return;
      const table = p.topic.split('/').at(-3)!;
      carried.set(p.messageId, `${table}:${(JSON.parse(String(p.payload)) as { seq: number }).seq}`);
    });
    client.on('packetsend', (p) => {
      if (p.cmd !== 'puback' || p.messageId === undefined) return;
      const key = carried.get(p.messageId);
      if (key === undefined) return;
      carried.delete(p.messageId);
      acked++;
      if (!onDisk.has(key)) early.push(key);
    });

    await Promise.all(tables.map((t, i) => t.play([{ type: 'tray', code: `T${i + 1}` }, ...seedHand(i + 1, false)])));
    const total = tables.reduce((n, t) => n + t.journal.length, 0);
    await waitFor(async () => (await store.events('s1')).length === total, T, 'every event stored');
    await waitFor(() => acked === total, T, `every event acknowledged (${acked} of ${total})`);

    expect(early, 'PUBACKs sent before the commit that stores their event is on disk').toEqual([]);
    if (engine === 'sqlite') expect(syncs, 'WAL syncs').toBeGreaterThan(0);
    // Every event stored once, in each table's order.
    const stored = await store.events('s1');
    for (const [i, t] of tables.entries()) expect(stored.filter((e) => e.table === String(i + 1)).map((e) => e.event)).toEqual(t.journal);
    // Fewer transactions than events: with 30 ms a commit, the events that came meanwhile went in together.
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
    expect(sizes.length, `transactions for ${total} events: ${sizes.join(' ')}`).toBeLessThan(total / 2);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
    expect(alone, 'groups of events alone, written without a transaction').toBeGreaterThan(0);
  });
});

describe('group commit on SQLite: the WAL sync', () => {
  const cleanup = cleanupAfterEach();

  it('a WAL sync that fails stops the director: the events it covered are never acknowledged', async () => {
    const club = uid('grpsync');
    const db = await freshDb('sqlite');
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const table = await FakeTable.connect(club, '1');
    cleanup.push(() => table.close());
    const store = await DirectorStore.open(db.url);
    expect(store.durableOnCommit).toBe(false);
    let failing = false;
    const sync = store.sync.bind(store);
    store.sync = async () => {
      if (failing) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      return sync();
    };
    const fatal: string[] = [];
    const s = new DirectorService({ config: testConfig(club, db.url), log: quietLog, schedule: SCHEDULE, store, club: STUBS, web: false, requestRetryMs: 60_000, onFatal: (e) => fatal.push(e.message) });
    await s.start();
    cleanup.push(async () => { await s.stop(); await store.close(); });
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined, T, 'round 1');
    const client = (s as unknown as { st: DirectorState }).st.client as MqttClient;
    let acked = 0;
    client.on('packetsend', (p) => { if (p.cmd === 'puback') acked++; });
    failing = true;
    void table.play([{ type: 'tray', code: 'T1' }]).catch(() => undefined);
    await waitFor(() => fatal.length > 0, T, 'the director stopped');
    await sleep(200);
    expect(fatal[0]).toMatch(/cannot sync the store .*: EIO/);
    expect(acked, 'PUBACKs after a failed sync').toBe(0);
  });
});
