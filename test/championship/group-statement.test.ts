// A group commit on PostgreSQL (issue 18): the events, results and round assignments a group gathered, and the NOTIFY
// that tells the other instances, go to the database in one statement (a data-modifying WITH), not one round trip
// each: under the championship's load a round trip took 5-100 ms. What is stored, and what the notification
// carries, are the same as statement by statement.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANGE_CHANNEL, type DirectorDb, DirectorStore, GroupOps, parseChangePayload } from '../../src/club/director/store.js';
import type { RoundAssignment } from '../../src/club/types.js';
import { freshDb } from '../club/store-engines.js';

const result = (table: string, board: number, toSeq: number) => ({ table, fromSeq: toSeq - 10, toSeq, traveller: { board, ns: `${table}NS`, ew: `${table}EW`, table: Number(table), round: 1, tricks: { NS: 7, EW: 6 } } });
const assignment = (table: string, round: number): RoundAssignment => ({ schema: 1, type: 'tenace.assignment', session: 's1', table, round, trays: [round], ns: `${table}NS`, ew: `${table}EW`, at: `2026-12-05T10:0${round}:00.000Z` } as unknown as RoundAssignment);

describe('a group commit on PostgreSQL', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => undefined);
    cleanup.length = 0;
  });

  /** A fresh database, its store, and a client that hears the store's NOTIFYs. */
  async function storeAndListener() {
    const db = await freshDb('postgres');
    cleanup.push(() => db.drop());
    const store = await DirectorStore.open(db.url);
    cleanup.push(() => store.close());
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    cleanup.push(() => listener.end());
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
    return { db, store, heard };
  }

  it('writes its events, results, assignments and NOTIFY in one statement, and stores and carries all of them', async () => {
    const { db, store, heard } = await storeAndListener();
    const statements: string[] = [];
    const k = new Kysely<DirectorDb>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: db.url, max: 1 }) }),
      log: (e) => { if (!/^(begin|commit)$/.test(e.query.sql)) statements.push(e.query.sql); },
    });
    cleanup.push(() => k.destroy());

    const events = Array.from({ length: 5 }, (_, i) => ({ table: String(1 + (i % 2)), seq: 10 + i, event: { type: 'place', seat: 'N', card: 'SA', seq: 10 + i } as never }));
    const results = [result('1', 3, 14), result('2', 4, 13)];
    await k.transaction().execute(async (trx) => {
      const ops = new GroupOps(trx, true);
      await ops.insertEvents('s1', events, '2026-12-05T10:00:00.000Z');
      for (const r of results) await ops.putResult('s1', r);
      await ops.putAssignment('s1', assignment('1', 2));
      await ops.putAssignment('s1', assignment('2', 2));
      await ops.notifyChange('s1', 'dir-2');
      expect(statements, 'nothing is written before the flush').toEqual([]);
      await ops.flush();
    });
    expect(statements.length, statements.join('\n')).toBe(1);
    expect(statements[0]).toMatch(/^with .*insert into "events".*insert into "results".*insert into "assignments".*select pg_notify/s);

    expect((await store.events('s1')).map((e) => `${e.table}:${e.seq}`).sort()).toEqual(events.map((e) => `${e.table}:${e.seq}`).sort());
    expect((await store.results('s1')).map((r) => [r.table, r.traveller.board, r.toSeq]).sort()).toEqual([['1', 3, 14], ['2', 4, 13]]);
    expect((await store.resultsOf('s1', ['1', '2'])).length).toBe(2);
    const deadline = Date.now() + 5000;
    while (heard.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const note = parseChangePayload(heard[0])?.note;
    expect(note?.carried).toEqual(results);
    expect(note?.assignments).toBe(true);
  });

  it('without BEGIN and COMMIT when the group makes one statement; in a transaction when it writes anything else or more rows', async () => {
    const { store, heard } = await storeAndListener();
    let transactions = 0;
    const tx = store.transactionUnsynced.bind(store);
    store.transactionUnsynced = (fn, grouped) => { transactions++; return tx(fn, grouped); };

    // Events, results, assignments and the NOTIFY: one statement, no transaction around it.
    const events = [{ table: '1', seq: 20, event: { type: 'place', seat: 'N', card: 'SK', seq: 20 } as never }];
    await store.groupUnsynced(async (ops) => {
      await ops.insertEvents('s1', events, '2026-12-06T21:00:00.000Z');
      await ops.putResult('s1', result('1', 5, 20));
      await ops.putAssignment('s1', assignment('1', 3));
      await ops.notifyChange('s1', 'dir-1');
    });
    expect(transactions, 'a transaction for a group that makes one statement').toBe(0);
    expect((await store.results('s1')).map((r) => [r.table, r.traveller.board])).toEqual([['1', 5]]);
    expect((await store.events('s1')).map((e) => e.seq)).toEqual([20]);
    const deadline = Date.now() + 5000;
    while (heard.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(parseChangePayload(heard[0])?.note?.carried).toEqual([result('1', 5, 20)]);

    // An alert is written as it comes: the group goes in one transaction, with nothing written before it.
    await store.groupUnsynced(async (ops) => {
      await ops.putResult('s1', result('2', 6, 30));
      await ops.putAlert('s1', 'a1', { schema: 1, type: 'tenace.alert', kind: 'fouled-tray', session: 's1', at: '2026-12-06T21:00:00.000Z' } as never);
    });
    expect(transactions, 'the group with an alert').toBe(1);
    expect(await store.alertIds('s1')).toEqual(['a1']);
    expect((await store.results('s1')).map((r) => r.table).sort()).toEqual(['1', '2']);

    // More results than one statement takes: a transaction, so that the statements commit together.
    await store.groupUnsynced(async (ops) => {
      for (let b = 100; b < 301; b++) await ops.putResult('s1', result('3', b, b));
    });
    expect(transactions, 'the group of 201 results').toBe(2);
    expect((await store.results('s1')).length).toBe(203);
  });
});
