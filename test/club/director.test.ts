// The director service (src/club/director/service.ts) against the real Mosquitto, on SQLite and on PostgreSQL: fake
// tables publish Hoyle's illustrative hands (test/fixtures/seed-hands) event by event, as the table daemon does, and
// the director must store each event once, fold it through the engine and derive the traveller, the tray record, the
// standings, the released trays and the next round's assignment.
import { createServer } from 'node:net';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore } from '../../src/club/director/store.js';
import type { ClubAlert, DirectorSnapshot, RoundAssignment, ScoreReport, TrayRecord } from '../../src/club/types.js';
import { uid, waitFor } from '../feed/broker.js';
import { BROKER, EXPECTED, FakeTable, Observer, SCHEDULE, STUBS, quietLog, seedHand, swapCards, testConfig } from './director-rig.js';
import { ENGINES, type EngineDb, freshDb } from './store-engines.js';

const T = 15_000;

describe.each(ENGINES)('the director on %s', (engine) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => undefined);
    cleanup.length = 0;
  });

  async function setup(opts: { tables?: number; retryMs?: number; web?: number } = {}) {
    const club = uid('dir');
    const db: EngineDb = await freshDb(engine);
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const tables: FakeTable[] = [];
    for (let i = 1; i <= (opts.tables ?? 2); i++) {
      const t = await FakeTable.connect(club, String(i));
      tables.push(t);
      cleanup.push(() => t.close());
    }
    const config = testConfig(club, db.url);
    const services: DirectorService[] = [];
    const fatals: Error[] = [];
    const start = async () => {
      const store = await DirectorStore.open(db.url);
      const cfg = opts.web !== undefined ? { ...config, http: { enabled: true, host: '127.0.0.1', port: opts.web } } : config;
      const s = new DirectorService({
        config: cfg, log: quietLog, schedule: SCHEDULE, store, club: STUBS, web: opts.web !== undefined, requestRetryMs: opts.retryMs ?? 400,
        onFatal: (err) => fatals.push(err),
      });
      await s.start();
      services.push(s);
      const stop = async () => { await s.stop(); await store.close(); };
      cleanup.push(stop);
      return { s, store, stop };
    };
    // The director's persistent session at the broker goes with the test.
    cleanup.push(async () => {
      for (const id of new Set(services.map((x) => x.clientId))) await (await mqtt.connectAsync(BROKER, { clientId: id, clean: true, protocolVersion: 5 })).endAsync();
    });
    return { club, db, obs, tables, start, config, fatals };
  }

  it('a whole seed hand played at a table becomes its traveller, the tray record, the standings and the next round', async () => {
    const { obs, tables, start } = await setup();
    const { s, store } = await start();
    await waitFor(() => obs.get<RoundAssignment>('1/assignment')?.round === 1, T, 'round 1 assignment of table 1');
    expect(obs.get<RoundAssignment>('1/assignment')).toMatchObject({ type: 'tenace.assignment', session: 's1', table: '1', trays: [1], ns: '1NS', ew: '1EW', tables: 2 });
    // Published after the assignments on the same connection, but it may reach the observer in a later read.
    await waitFor(() => obs.get('club/s1/schedule') !== undefined, T, 'the schedule');
    expect(obs.get('club/s1/schedule')).toEqual(SCHEDULE);

    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    const hoyle = EXPECTED.hands[0];
    await waitFor(() => obs.get<TrayRecord>('trays/s1/1') !== undefined, T, 'the tray record of board 1');
    const rec = obs.get<TrayRecord>('trays/s1/1')!;
    expect(rec).toMatchObject({ board: 1, hands: hoyle.deal, rev: 1, source: { kind: 'original-play', table: '1' } });
    await waitFor(() => obs.get<ScoreReport>('club/s1/standings') !== undefined, T, 'standings');
    const st = obs.get<ScoreReport>('club/s1/standings')!;
    expect(st.boards).toEqual([{ board: 1, results: [{ table: 1, ns: '1NS', ew: '1EW', tricks: hoyle.tricksWon }] }]);
    expect((await store.results('s1')).map((r) => r.traveller)).toEqual([{ board: 1, ns: '1NS', ew: '1EW', table: 1, round: 1, tricks: hoyle.tricksWon }]);
    await waitFor(async () => (await store.events('s1')).length === tables[0].journal.length, T, 'every event of table 1');
    // Table 1 has played its tray of round 1: round 2 is tray 2 against pair 2EW.
    await waitFor(() => obs.get<RoundAssignment>('1/assignment')?.round === 2, T, 'round 2 assignment of table 1');
    expect(obs.get<RoundAssignment>('1/assignment')).toMatchObject({ round: 2, trays: [2], ns: '1NS', ew: '2EW' });
    expect(obs.get<RoundAssignment>('2/assignment')?.round).toBe(1);
    // Not released: table 2 has still to play tray 1.
    expect(obs.get<{ boards: number[] }>('club/s1/released')?.boards).toEqual([]);

    // Table 2 overplays tray 1 with the record's hands: the same deal, so no alert; now tray 1 is released.
    await tables[1].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, true)]);
    await waitFor(() => (obs.get<{ boards: number[] }>('club/s1/released')?.boards ?? []).includes(1), T, 'tray 1 released');
    await waitFor(() => s.snapshot().trays.find((t) => t.board === 1)?.released === true, T, 'snapshot');
    await waitFor(() => s.snapshot().tables.every((v, i) => v.lastSeq === tables[i].journal.length), T, 'every event in the snapshot');
    const snap = s.snapshot();
    expect(snap.trays.find((t) => t.board === 1)).toMatchObject({ board: 1, playedAt: ['1', '2'], released: true, record: { hands: hoyle.deal } });
    expect(snap.alerts).toEqual([]);
    expect(snap.tables.map((t) => [t.table, t.lastSeq, t.done])).toEqual([['1', tables[0].journal.length, [1]], ['2', tables[1].journal.length, [1]]]);
    await waitFor(() => obs.get<DirectorSnapshot>('club/s1/director')?.trays.find((t) => t.board === 1)?.released === true, T, 'retained snapshot');
  });

  it('a redelivered event counts once, and a whole hand published twice gives one traveller', async () => {
    const { obs, tables, start } = await setup();
    const { store } = await start();
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined, T, 'assignment');
    const t = tables[0];
    await t.play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    for (const ev of t.journal) await t.publishEvent(ev);
    await t.publishEvent(t.journal[5]);
    await waitFor(async () => (await store.results('s1')).length === 1, T, 'the traveller');
    // A marker after the repeats: once it is stored, every repeat before it has been handled.
    await t.play([{ type: 'tray', code: 'END' }]);
    await waitFor(async () => (await store.events('s1')).length === t.journal.length, T, 'every event stored');
    const evs = await store.events('s1');
    expect(evs.map((e) => e.seq)).toEqual(t.journal.map((e) => e.seq));
    expect((await store.results('s1')).map((r) => r.traveller.tricks)).toEqual([EXPECTED.hands[0].tricksWon]);
  });

  it('a gap is filled by request/events: events the director never got are asked for after the last seq it holds', async () => {
    const { obs, tables, start } = await setup();
    const { store } = await start();
    await waitFor(() => obs.get<RoundAssignment>('2/assignment') !== undefined, T, 'assignment');
    const t = tables[1];
    // Events 10 to 40 are journaled at the table but their messages are lost.
    await t.play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)], { publish: (seq) => seq < 10 || seq > 40 });
    await waitFor(async () => (await store.results('s1')).length === 1, T, 'the traveller after the gap is filled');
    await waitFor(async () => (await store.events('s1')).length === t.journal.length, T, 'every event');
    expect((await store.events('s1')).map((e) => e.seq)).toEqual(t.journal.map((e) => e.seq));
    expect(t.requests.some((r) => r.after === 9)).toBe(true);
    const r = (await store.results('s1'))[0];
    expect(r.traveller).toMatchObject({ board: 2, table: 2, ns: '2NS', ew: '2EW', tricks: EXPECTED.hands[1].tricksWon });
    expect(r.fromSeq).toBe(2);
  });

  it('events journaled before the director starts, and while it is down, are fetched; a restart rebuilds without doubling', async () => {
    const { obs, tables, start } = await setup();
    // Table 1 plays its first tray before any director runs (nothing published: no one listened).
    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)], { publish: false });
    const first = await start();
    await waitFor(async () => (await first.store.results('s1')).length === 1, T, 'the traveller from the journal');
    await waitFor(() => obs.get<RoundAssignment>('1/assignment')?.round === 2, T, 'round 2 for table 1');
    await first.stop();
    // While the director is down, table 2 plays its tray and publishes (the broker keeps it for the director's session).
    await tables[1].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    const second = await start();
    await waitFor(async () => (await second.store.results('s1')).length === 2, T, 'both travellers');
    await waitFor(() => obs.get<ScoreReport>('club/s1/standings')?.boards.length === 2, T, 'standings of both boards');
    await waitFor(async () => (await second.store.events('s1')).length === tables[0].journal.length + tables[1].journal.length, T, 'every event');
    const events = await second.store.events('s1');
    expect(events.filter((e) => e.table === '1').map((e) => e.seq)).toEqual(tables[0].journal.map((e) => e.seq));
    expect(events.filter((e) => e.table === '2').map((e) => e.seq)).toEqual(tables[1].journal.map((e) => e.seq));
    expect((await second.store.trays('s1')).map((r) => [r.board, r.rev])).toEqual([[1, 1], [2, 1]]);
    expect((await second.store.assignments('s1')).filter((a) => a.round === 2).map((a) => a.table)).toEqual(['1', '2']);
    expect(second.s.travellers().map((t) => [t.board, t.tricks])).toEqual([[1, EXPECTED.hands[0].tricksWon], [2, EXPECTED.hands[1].tricksWon]]);
  });

  it('Dup. III.2: a second original play of a tray with other hands raises a fouled-tray alert naming the cards and the doctor\'s moves', async () => {
    const { obs, tables, start } = await setup();
    const { store } = await start();
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined, T, 'assignment');
    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await waitFor(() => obs.get<TrayRecord>('trays/s1/1') !== undefined, T, 'the record');
    // Table 2 also deals tray 1 as an original, but N's CK and E's C5 were in each other's pockets.
    await tables[1].play([{ type: 'tray', code: 'T1' }, ...swapCards(seedHand(1, false), 'CK', 'C5')]);
    await waitFor(() => obs.alerts.some((a) => a.kind === 'fouled-tray'), T, 'the fouled-tray alert');
    const a = obs.alerts.find((x) => x.kind === 'fouled-tray') as ClubAlert;
    expect(a).toMatchObject({ table: '2', board: 1, session: 's1' });
    expect(a.differences).toEqual(expect.arrayContaining([{ card: 'CK', record: 'N', table: 'E' }, { card: 'C5', record: 'E', table: 'N' }]));
    expect(a.differences).toHaveLength(2);
    expect(a.moves).toEqual(expect.arrayContaining([{ card: 'CK', from: 'E', to: 'N' }, { card: 'C5', from: 'N', to: 'E' }]));
    expect(a.outcome?.remedy).toBe('new-deal');
    // The first record stands.
    expect((await store.trays('s1')).map((r) => [r.board, r.rev, r.hands])).toEqual([[1, 1, EXPECTED.hands[0].deal]]);
    expect((await store.alerts('s1')).map((x) => x.alert.kind)).toEqual(['fouled-tray']);
  });

  it('director decisions are journaled exactly once by transaction id and answered from the journal on a retry', async () => {
    const { obs, tables, start, db } = await setup();
    const first = await start();
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined, T, 'assignment');
    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await waitFor(() => obs.get<TrayRecord>('trays/s1/1') !== undefined, T, 'the record');

    await obs.decide('adjust-score', { transaction: 'a1', board: 1, table: '1', adjusted: { NS: 60, EW: 40 } });
    await obs.decide('adjust-score', { transaction: 'a1', board: 1, table: '1', adjusted: { NS: 60, EW: 40 } });
    await obs.decide('adjust-score', { transaction: 'a1', board: 1, table: '1', adjusted: 'average' });
    await obs.decide('adjust-score', { transaction: 'a2', board: 9, table: '1', adjusted: 'average' });
    await obs.decide('correct-tray', { transaction: 'c1', board: 1, hands: EXPECTED.hands[1].deal, reason: 'the dealing machine sheet' });
    await obs.decide('advance-round', { transaction: 'r1', table: '2' });
    await waitFor(() => obs.responses.length >= 6, T, 'six responses');
    const rs = obs.responses.map((r) => r.body);
    expect(rs[0]).toEqual({ transaction: 'a1', ok: true });
    expect(rs[1]).toEqual(rs[0]);
    expect(rs[2]).toMatchObject({ transaction: 'a1', ok: false, error: expect.stringMatching(/^transaction: .*another decision/) });
    expect(rs[3]).toMatchObject({ transaction: 'a2', ok: false, error: expect.stringMatching(/^board: 9 is not a tray/) });
    expect(rs[4]).toMatchObject({ transaction: 'c1', ok: true, record: { board: 1, rev: 2, hands: EXPECTED.hands[1].deal, source: { kind: 'correction' } } });
    expect(rs[5]).toMatchObject({ transaction: 'r1', ok: true });
    await waitFor(() => obs.get<TrayRecord>('trays/s1/1')?.rev === 2, T, 'the corrected record');
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 2, T, 'table 2 forced to round 2');
    // Table 2 left round 1 without playing tray 2: the director is told.
    await waitFor(() => obs.alerts.some((a) => a.kind === 'missing-result'), T, 'missing-result alert');
    expect(obs.alerts.find((a) => a.kind === 'missing-result')).toMatchObject({ table: '2', board: 2, round: 1 });
    expect(first.s.travellers()).toEqual([
      { board: 1, ns: '1NS', ew: '1EW', table: 1, round: 1, tricks: EXPECTED.hands[0].tricksWon, adjusted: { NS: 60, EW: 40 } },
    ]);
    expect((await first.store.decisions('s1')).map((d) => d.cmd)).toEqual(['adjust-score', 'correct-tray', 'advance-round']);

    // After a restart the decisions hold, and a retry is still answered, not applied.
    await first.stop();
    const again = await start();
    expect(again.s.travellers()[0].adjusted).toEqual({ NS: 60, EW: 40 });
    expect(again.s.trayRecords().map((r) => r.rev)).toEqual([2]);
    await obs.decide('advance-round', { transaction: 'r1', table: '2' });
    await waitFor(() => obs.responses.length >= 7, T, 'the retried response');
    expect(obs.responses[6].body).toEqual(rs[5]);
    expect((await again.store.decisions('s1')).length).toBe(3);
    void db;
  });

  it('late play: a tray moved to a later round is added to the table\'s assignment; fouled board: its tables are scored in groups (Law 87B)', async () => {
    const { obs, tables, start } = await setup();
    const { s } = await start();
    await waitFor(() => obs.get<RoundAssignment>('2/assignment') !== undefined, T, 'assignment');
    await obs.decide('advance-round', { transaction: 1, table: '2' });
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 2, T, 'table 2 in round 2');
    await obs.decide('late-play', { transaction: 2, board: 2, table: '2', reason: 'slow play' });
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.trays.length === 2, T, 'tray 2 added to table 2');
    expect(obs.get<RoundAssignment>('2/assignment')).toMatchObject({ round: 2, trays: [1, 2] });
    await waitFor(() => obs.alerts.some((a) => a.kind === 'late-play'), T, 'the late-play alert');
    // Table 2 plays its late tray: the result is its round-1 line of the schedule.
    await tables[1].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await tables[1].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, true)]);
    await waitFor(() => s.travellers().length === 3, T, 'three travellers');
    expect(s.travellers().find((t) => t.board === 2)).toMatchObject({ table: 2, round: 1, ns: '2NS', ew: '2EW' });
    await obs.decide('fouled-board', { transaction: 3, board: 1, groups: [['1'], ['2']] });
    await obs.decide('fouled-board', { transaction: 4, board: 1, groups: [['1', '2'], ['2']] });
    await waitFor(() => obs.responses.length >= 4, T, 'responses');
    expect(obs.responses.map((r) => r.body.ok)).toEqual([true, true, true, false]);
    expect(obs.responses[3].body.error).toMatch(/^groups: a table is in two groups/);
    expect(s.travellers().filter((t) => t.board === 1).map((t) => [t.table, t.version])).toEqual([[1, 1], [2, 2]]);
  });

  it('a table coming online is asked for the events the director has not got', async () => {
    const { obs, tables, start } = await setup({ retryMs: 60_000 });
    const t = tables[0];
    t.silent = true;
    await t.play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)], { publish: false });
    const { store } = await start();
    await waitFor(() => t.requests.length >= 1, T, 'the first request');
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined, T, 'assignment');
    expect(await store.events('s1')).toEqual([]);
    t.silent = false;
    await t.status('online');
    await waitFor(async () => (await store.events('s1')).length === t.journal.length, T, 'the events after the table came online');
    await waitFor(async () => (await store.results('s1')).length === 1, T, 'the traveller');
  });

  it('the director page failing to start (its port taken) is logged, not fatal: the director goes on', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    cleanup.push(() => new Promise((r) => taken.close(r)));
    const { obs, tables, start } = await setup({ web: (taken.address() as { port: number }).port });
    const { store } = await start();
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined, T, 'assignment');
    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await waitFor(async () => (await store.results('s1')).length === 1, T, 'the traveller');
  });

  it('persist before acknowledging: an event the store could not take is not acknowledged, and the broker gives it again after a restart', async () => {
    const { obs, tables, start, fatals } = await setup({ retryMs: 60_000 });
    const t = tables[0];
    // The table never answers request/events: the broker's redelivery is the only way back for a lost event.
    t.silent = true;
    const first = await start();
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined, T, 'assignment');
    await t.play([{ type: 'tray', code: 'T1' }]);
    await waitFor(async () => (await first.store.events('s1')).length === 1, T, 'the first event');
    await first.store.close();
    await t.play([{ type: 'tray', code: 'T9' }]);
    await waitFor(() => fatals.length > 0, T, 'the store failure');
    await first.s.stop();
    const again = await start();
    await waitFor(async () => (await again.store.events('s1')).length === 2, T, 'the unacknowledged event, delivered again');
    expect((await again.store.events('s1')).map((e) => [e.seq, (e.event as { code?: string }).code])).toEqual([[1, 'T1'], [2, 'T9']]);
  });

  it('a hand record from a dealing machine (tenace trays import, retained) is adopted, and a play with other hands is a fouled tray', async () => {
    const { club, obs, tables, start } = await setup();
    const rec: TrayRecord = {
      schema: 1, type: 'tenace.tray', session: 's1', board: 1, hands: EXPECTED.hands[0].deal, dealer: 'W', rev: 1,
      source: { kind: 'hand-record', file: 'dealer4.pbn', at: '2026-12-03T09:00:00.000Z' },
    };
    const pub = await mqtt.connectAsync(BROKER, { clientId: `import-${club}`, protocolVersion: 4 });
    await pub.publishAsync(`tenace/${club}/trays/s1/1`, JSON.stringify(rec), { qos: 1, retain: true });
    await pub.endAsync();
    const { s, store } = await start();
    await waitFor(async () => (await store.trays('s1')).length === 1, T, 'the imported record stored');
    expect(s.trayRecords()).toEqual([rec]);
    await tables[0].play([{ type: 'tray', code: 'T1' }, ...swapCards(seedHand(1, false), 'SA', 'DA')]);
    await waitFor(() => obs.alerts.some((a) => a.kind === 'fouled-tray'), T, 'the fouled-tray alert');
    expect(obs.alerts.find((a) => a.kind === 'fouled-tray')?.differences).toEqual(expect.arrayContaining([{ card: 'SA', record: 'S', table: 'W' }, { card: 'DA', record: 'W', table: 'S' }]));
    expect((await store.trays('s1')).map((r) => r.source.kind)).toEqual(['hand-record']);
  });
});
