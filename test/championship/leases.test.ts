// Partition leases (src/club/director/leases.ts) on both engines: one holder per partition, a dead holder's leases
// taken once they expire, the partitions shared out fairly as instances come and go.
import { Writable } from 'node:stream';
import { createLogger } from '../../src/config/logger.js';
import { afterEach, describe, expect, it } from 'vitest';
import { PartitionLeases, fairShare, partitionOf } from '../../src/club/director/leases.js';
import { DirectorStore } from '../../src/club/director/store.js';
import { ENGINES, type EngineDb, freshDb } from '../club/store-engines.js';
import { quietLog } from '../club/director-rig.js';

describe('partitions', () => {
  it('a table goes to partition (number - 1) mod partitions; an instance aims at its share, rounded up', () => {
    expect([1, 2, 3, 4, 5].map((n) => partitionOf(n, 4))).toEqual([0, 1, 2, 3, 0]);
    expect(fairShare(16, 3)).toBe(6);
    expect(fairShare(16, 0)).toBe(16);
  });
});

describe.each(ENGINES)('partition leases on %s', (engine) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => undefined);
    cleanup.length = 0;
  });

  async function setup() {
    const db: EngineDb = await freshDb(engine);
    cleanup.push(() => db.drop());
    const store = await DirectorStore.open(db.url);
    cleanup.push(() => store.close());
    let clock = 1_000_000;
    const changes: Record<string, { gained: number[]; lost: number[] }[]> = {};
    const failures: string[] = [];
    const make = (instance: string) => {
      changes[instance] = [];
      return new PartitionLeases({
        ops: store.leaseOps, session: 's1', instance, partitions: 4, leaseMs: 10_000, heartbeatMs: 60_000, log: quietLog, now: () => clock,
        onChange: async (gained, lost) => { changes[instance].push({ gained, lost }); },
        onFailure: (err) => failures.push(err.message),
      });
    };
    return { store, make, changes, failures, advance: (ms: number) => { clock += ms; } };
  }

  it('one instance alone holds every partition; a second gets half at the next heartbeats; each partition has one holder', async () => {
    const { store, make, changes } = await setup();
    const a = make('a');
    await a.start();
    cleanup.push(() => a.stop(false));
    expect([...a.held].sort()).toEqual([0, 1, 2, 3]);
    expect(a.leader).toBe(true);
    const b = make('b');
    await b.start();
    cleanup.push(() => b.stop(false));
    expect(b.held.size).toBe(0); // all taken and unexpired
    await a.tick(); // a sees b alive: its share is 2, it gives up the highest partitions but keeps 0
    expect([...a.held].sort()).toEqual([0, 1]);
    expect(changes.a.at(-1)).toEqual({ gained: [], lost: [3, 2] });
    await b.tick();
    expect([...b.held].sort()).toEqual([2, 3]);
    expect(b.leader).toBe(false);
    const rows = await store.leaseOps.leases('s1');
    expect(rows.map((r) => r.holder)).toEqual(['a', 'a', 'b', 'b']);
  });

  it('a holder that stops renewing (kill -9) loses its leases once they expire, not before', async () => {
    const { make, advance, changes } = await setup();
    const a = make('a');
    const b = make('b');
    await a.start();
    await b.start();
    await a.tick();
    await b.tick();
    cleanup.push(() => b.stop(false));
    // a dies: no more heartbeats. Before its leases expire b takes nothing.
    advance(5_000);
    await b.tick();
    expect([...b.held].sort()).toEqual([2, 3]);
    advance(5_001);
    await b.tick();
    expect([...b.held].sort()).toEqual([0, 1, 2, 3]);
    expect(changes.b.at(-1)).toEqual({ gained: [0, 1], lost: [] });
    expect(b.leader).toBe(true);
    // a comes back (a pause, not a death): its renewals fail, so it learns it lost them.
    await a.tick();
    expect(changes.a.at(-1)?.lost.sort()).toEqual([0, 1]);
  });

  it('a store that stops answering is said once an outage, not at every heartbeat; one that outlasts the lease fails the service', async () => {
    const { store, failures } = await setup();
    const lines: string[] = [];
    const log = createLogger({ log: { level: 'warn' } }, new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } }));
    let down = false;
    const ops = new Proxy(store.leaseOps, {
      get: (t, k) => (k === 'heartbeat' ? async (...a: [string, string, number]) => { if (down) throw new Error('connect ECONNREFUSED'); return t.heartbeat(...a); } : Reflect.get(t, k)),
    });
    let clock = 5_000_000;
    const a = new PartitionLeases({
      ops, session: 's1', instance: 'a', partitions: 4, leaseMs: 10_000, heartbeatMs: 60_000, log, now: () => clock,
      onChange: async () => undefined, onFailure: (err) => failures.push(err.message),
    });
    await a.start();
    cleanup.push(() => a.stop(false));
    down = true;
    for (let i = 0; i < 4; i++) { clock += 2_000; await a.tick(); }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('cannot renew the partition leases');
    expect(failures).toEqual([]);
    down = false;
    await a.tick();
    down = true;
    for (let i = 0; i < 6; i++) { clock += 2_000; await a.tick(); }
    // A second outage is a second line; it outlasted the lease (10 s), so the service is told, once.
    expect(lines).toHaveLength(2);
    expect(failures).toEqual(['connect ECONNREFUSED']);
  });

  it('a clean stop gives the leases up at once, and two instances racing for one free lease cannot both win', async () => {
    const { store, make } = await setup();
    const a = make('a');
    await a.start();
    await a.stop(true);
    expect((await store.leaseOps.leases('s1')).every((r) => r.holder === null)).toBe(true);
    const now = 2_000_000;
    const wins = await Promise.all(['x', 'y', 'z'].map((i) => store.leaseOps.acquire('s1', 2, i, now, now + 10_000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});
