// The director's store (src/club/director/store.ts): one schema and one set of queries, the same tests on SQLite and
// on PostgreSQL 15: migrations run once, an event stored twice is stored once, a reopened store holds everything.
import { afterEach, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { DirectorStore, MIGRATIONS, migrationProvider } from '../../src/club/director/store.js';
import type { ClubAlert, RoundAssignment, TrayRecord } from '../../src/club/types.js';
import { ENGINES, type EngineDb, freshDb } from './store-engines.js';

const AT = '2026-12-03T10:00:00.000Z';

const record = (board: number, rev: number): TrayRecord => ({
  schema: 1, type: 'tenace.tray', session: 's1', board, dealer: 'W', rev,
  hands: 'N:J4.T72.J.AKQ9864 9.KJ43.QT9763.J5 AK732.AQ96.42.72 QT865.85.AK85.T3',
  source: rev === 1 ? { kind: 'original-play', table: '1', fromSeq: 1, toSeq: 60, at: AT } : { kind: 'correction', by: 'director', reason: 'r', at: AT },
});

describe.each(ENGINES)('the director store on %s', (engine) => {
  let dbs: EngineDb[] = [];
  const stores: DirectorStore[] = [];
  const open = async (db?: EngineDb) => {
    const d = db ?? await freshDb(engine);
    if (!db) dbs.push(d);
    const s = await DirectorStore.open(d.url);
    stores.push(s);
    return { s, d };
  };
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close().catch(() => undefined);
    for (const d of dbs) await d.drop();
    dbs = [];
  });

  it('runs every migration once, and again finds nothing to do', async () => {
    const { s, d } = await open();
    expect(await s.applied()).toEqual(Object.keys(MIGRATIONS));
    await s.close();
    stores.pop();
    const again = await DirectorStore.open(d.url);
    stores.push(again);
    expect(await again.migrate()).toEqual([]);
    expect(await again.applied()).toEqual(Object.keys(MIGRATIONS));
  });

  it('the store\'s id is made once: the same after a reopen, another for another database', async () => {
    const { s, d } = await open();
    const id = await s.instanceId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await s.instanceId()).toBe(id);
    await s.close();
    stores.pop();
    const again = await DirectorStore.open(d.url);
    stores.push(again);
    expect(await again.instanceId()).toBe(id);
    const other = await open();
    expect(await other.s.instanceId()).not.toBe(id);
  });

  it('an event inserted twice is stored once (insert-or-ignore by session, table, seq), the first one standing', async () => {
    const { s } = await open();
    await s.insertEvents('s1', [{ table: '1', seq: 5, event: { type: 'place', seat: 'N', card: 'SA', seq: 5 } }], AT);
    // A group's insert: a redelivery of (s1, 1, 5) beside new events of two tables.
    await s.insertEvents('s1', [
      { table: '1', seq: 5, event: { type: 'place', seat: 'N', card: 'HK', seq: 5 } },
      { table: '2', seq: 5, event: { type: 'place', seat: 'E', card: 'HA', seq: 5 } },
      { table: '1', seq: 3, event: { type: 'tray', code: 'x', seq: 3 } },
    ], AT);
    await s.insertEvents('s2', [{ table: '1', seq: 5, event: { type: 'place', seat: 'N', card: 'SA', seq: 5 } }], AT);
    const evs = await s.events('s1');
    expect(evs.map((e) => [e.table, e.seq])).toEqual([['1', 3], ['1', 5], ['2', 5]]);
    expect(evs[1].event).toEqual({ type: 'place', seat: 'N', card: 'SA', seq: 5 });
    expect((await s.events('s2')).map((e) => [e.table, e.seq])).toEqual([['1', 5]]);
  });

  it('a group of more events than one statement takes is stored whole', async () => {
    const { s } = await open();
    const rows = Array.from({ length: 450 }, (_, i) => ({ table: String(1 + (i % 3)), seq: 1 + Math.floor(i / 3), event: { type: 'tray' as const, code: `c${i}`, seq: 1 + Math.floor(i / 3) } }));
    await s.insertEvents('s1', rows, AT);
    expect(await s.events('s1')).toHaveLength(450);
  });

  it('a group commit writes its results and assignments together, the last write of a key standing', async () => {
    const { s } = await open();
    const result = (tricks: number) => ({ table: '3', fromSeq: 1, toSeq: 60, traveller: { board: 1, ns: '3NS', ew: '3EW', table: 3, round: 1, tricks: { NS: tricks, EW: 13 - tricks } } });
    const assignment = (round: number, at: string) => ({ schema: 1, type: 'tenace.assignment', session: 's1', table: '3', round, at } as unknown as RoundAssignment);
    let before: number | undefined;
    await s.transaction(async (tx) => {
      await tx.putResult('s1', result(7));
      await tx.putResult('s1', { ...result(9), table: '4', traveller: { ...result(9).traveller, table: 4, ns: '4NS', ew: '4EW' } });
      await tx.putResult('s1', result(8));
      await tx.putAssignment('s1', assignment(2, AT));
      await tx.putAssignment('s1', assignment(2, '2026-12-05T10:00:00.000Z'));
      // Gathered, not written yet: the group writes them once its other writes are done.
      before = (await tx.results('s1')).length;
    }, true);
    expect(before).toBe(0);
    expect((await s.results('s1')).map((r) => [r.table, (r.traveller.tricks as { NS: number }).NS])).toEqual([['3', 8], ['4', 9]]);
    expect((await s.assignments('s1')).map((a) => [a.round, a.at])).toEqual([[2, '2026-12-05T10:00:00.000Z']]);
  });

  it('a group commit\'s first tray records: the one stored before stands, and the group is told which of its own were taken', async () => {
    const { s } = await open();
    const rec = (board: number, by: string) => ({ type: 'tenace.tray', session: 's1', board, rev: 1, hands: by, source: { kind: 'play', at: AT } } as unknown as TrayRecord);
    await s.putTray('s1', rec(2, 'other instance'));
    const taken: number[] = [];
    await s.transaction(async (tx) => {
      for (const b of [1, 2, 3]) await tx.putFirstTray('s1', rec(b, 'this group'), async (t) => { taken.push((await t.tray('s1', b))!.board); });
    }, true);
    expect(taken).toEqual([2]);
    expect((await s.trays('s1')).map((r) => [r.board, r.hands])).toEqual([[1, 'this group'], [2, 'other instance'], [3, 'this group']]);
  });

  it('a transaction that fails stores none of its writes', async () => {
    const { s } = await open();
    await expect(s.transaction(async (tx) => {
      await tx.insertEvents('s1', [{ table: '1', seq: 1, event: { type: 'tray', code: 'x', seq: 1 } }], AT);
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await s.events('s1')).toEqual([]);
  });

  it('a table that plays a tray in two rounds (a Howell of six pairs) has two results; a store made before 0004 keeps its results', async () => {
    const { s } = await open();
    await s.putResult('s1', { table: '3', fromSeq: 1, toSeq: 60, traveller: { board: 1, ns: '3NS', ew: '3EW', table: 3, round: 1, tricks: { NS: 7, EW: 6 } } });
    await s.putResult('s1', { table: '3', fromSeq: 300, toSeq: 360, traveller: { board: 1, ns: '1EW', ew: '2NS', table: 3, round: 5, tricks: { NS: 5, EW: 8 } } });
    expect((await s.results('s1')).map((x) => [x.traveller.round, x.traveller.ns])).toEqual([[1, '3NS'], [5, '1EW']]);

    // Down to 0003 (one result per tray and table, round nullable), a result without a round, and up again.
    await open();
    const old = stores.at(-1)!;
    const migrator = new Migrator({ db: old.db, provider: migrationProvider });
    expect((await migrator.migrateTo('0003-cluster')).error).toBeUndefined();
    await sql`insert into results (session, board, table_id, round, ns, ew, json, from_seq, to_seq) values ('s1', 2, '1', null, '1NS', '1EW', ${JSON.stringify({ board: 2, ns: '1NS', ew: '1EW', table: 1, tricks: { NS: 9, EW: 4 } })}, 1, 60)`.execute(old.db);
    expect(await old.migrate()).toEqual(['0004-result-round', ...Object.keys(MIGRATIONS).filter((m) => m > '0004-result-round')]);
    expect((await old.results('s1')).map((x) => [x.traveller.board, x.traveller.tricks])).toEqual([[2, { NS: 9, EW: 4 }]]);
  });

  it('results are one per (session, board, table, round): a second put replaces the first', async () => {
    const { s } = await open();
    await s.putResult('s1', { table: '1', fromSeq: 1, toSeq: 60, traveller: { board: 1, ns: '1NS', ew: '1EW', table: 1, round: 1, tricks: { NS: 7, EW: 6 } } });
    await s.putResult('s1', { table: '1', fromSeq: 1, toSeq: 62, traveller: { board: 1, ns: '1NS', ew: '1EW', table: 1, round: 1, tricks: { NS: 8, EW: 5 } } });
    await s.putResult('s1', { table: '2', fromSeq: 1, toSeq: 55, traveller: { board: 1, ns: '2NS', ew: '2EW', table: 2, round: 1, tricks: { NS: 6, EW: 7 } } });
    const r = await s.results('s1');
    expect(r.map((x) => [x.table, x.toSeq, x.traveller.tricks])).toEqual([['1', 62, { NS: 8, EW: 5 }], ['2', 55, { NS: 6, EW: 7 }]]);
  });

  it('tray records, alerts, decisions and assignments are idempotent by their keys and survive a reopen', async () => {
    const { s, d } = await open();
    expect(await s.putTray('s1', record(1, 1))).toBe(true);
    expect(await s.putTray('s1', record(1, 1))).toBe(false);
    expect(await s.putTray('s1', record(1, 2))).toBe(true);
    const alert: ClubAlert = { schema: 1, type: 'tenace.alert', kind: 'fouled-tray', session: 's1', table: '2', board: 1, message: 'm', at: AT };
    expect(await s.putAlert('s1', 'fouled-tray:2:1:40', alert)).toBe(true);
    expect(await s.putAlert('s1', 'fouled-tray:2:1:40', alert)).toBe(false);
    const dec = { transaction: 't1', cmd: 'advance-round', digest: 'ab', request: { a: 1 }, response: { ok: true }, at: AT };
    expect(await s.putDecision('s1', dec)).toBe(true);
    expect(await s.putDecision('s1', { ...dec, response: { ok: false } })).toBe(false);
    const a: RoundAssignment = { schema: 1, type: 'tenace.assignment', session: 's1', movement: 'm', round: 1, table: '1', trays: [1, 2], tables: 2, variant: 'duplicate-whist', at: AT };
    await s.putAssignment('s1', a);
    await s.putAssignment('s1', { ...a, trays: [1, 2, 5] });
    await s.setFirstSeq('s1', '1', 7);
    await s.close();
    stores.pop();

    const r = await DirectorStore.open(d.url);
    stores.push(r);
    expect((await r.trays('s1')).map((t) => [t.board, t.rev, t.source.kind])).toEqual([[1, 1, 'original-play'], [1, 2, 'correction']]);
    expect(await r.alerts('s1')).toEqual([{ id: 'fouled-tray:2:1:40', alert }]);
    expect(await r.decision('s1', 't1')).toEqual(dec);
    expect(await r.decision('s1', 't2')).toBeUndefined();
    expect((await r.assignments('s1')).map((x) => x.trays)).toEqual([[1, 2, 5]]);
    expect(await r.firstSeqs('s1')).toEqual(new Map([['1', 7]]));
  });

  it('a cluster instance reads the keys, then the bodies of only what it lacks (results, records, alerts, decisions)', async () => {
    const { s } = await open();
    const result = (table: string, board: number, round: number, toSeq: number) => ({ table, fromSeq: 1, toSeq, traveller: { board, ns: `${table}NS`, ew: `${table}EW`, table: Number(table), round, tricks: { NS: 7, EW: 6 } } });
    await s.putResult('s1', result('2', 1, 1, 60));
    await s.putResult('s1', result('1', 2, 2, 61));
    await s.putResult('s1', result('1', 1, 1, 62));
    await s.putResult('s2', result('3', 1, 1, 63));
    expect((await s.resultHeads('s1')).sort((x, y) => x.toSeq - y.toSeq)).toEqual([
      { table: '2', board: 1, round: 1, fromSeq: 1, toSeq: 60 }, { table: '1', board: 2, round: 2, fromSeq: 1, toSeq: 61 }, { table: '1', board: 1, round: 1, fromSeq: 1, toSeq: 62 },
    ]);
    // Those of the tables asked for, in the order of results(): board, table, round.
    expect((await s.resultsOf('s1', ['1'])).map((r) => [r.table, r.traveller.board, r.toSeq])).toEqual([['1', 1, 62], ['1', 2, 61]]);
    expect(await s.resultsOf('s1', ['1', '2'])).toEqual(await s.results('s1'));
    await s.putTray('s1', record(1, 1));
    await s.putTray('s1', record(1, 2));
    await s.putTray('s1', record(3, 1));
    expect(await s.trayRevs('s1')).toEqual(new Map([[1, 2], [3, 1]]));
    const alert = (id: string, at: string): ClubAlert => ({ schema: 1, type: 'tenace.alert', kind: 'late-play', session: 's1', table: '1', board: 1, message: id, at });
    await s.putAlert('s1', 'b', alert('b', '2026-12-03T10:00:02.000Z'));
    await s.putAlert('s1', 'a', alert('a', '2026-12-03T10:00:03.000Z'));
    await s.putAlert('s1', 'c', alert('c', '2026-12-03T10:00:01.000Z'));
    expect((await s.alertIds('s1')).sort()).toEqual(['a', 'b', 'c']);
    expect((await s.alertsAt('s1', ['a', 'c'])).map((x) => x.id)).toEqual(['c', 'a']);
    const dec = (transaction: string, at: string) => ({ transaction, cmd: 'advance-round', digest: 'ab', request: {}, response: { ok: true }, at });
    await s.putDecision('s1', dec('t2', '2026-12-03T10:00:01.000Z'));
    await s.putDecision('s1', dec('t1', '2026-12-03T10:00:02.000Z'));
    expect((await s.decisionIds('s1')).sort()).toEqual(['t1', 't2']);
    expect(await s.decisionsAt('s1', ['t1', 't2'])).toEqual(await s.decisions('s1'));
    expect(await s.decisionsAt('s1', [])).toEqual([]);
  });
});
