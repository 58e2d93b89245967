// Several director instances on one store (docs/championship.md), in one process against the real Mosquitto, on
// SQLite and on PostgreSQL: each follows the tables of the partitions it holds, the holder of partition 0 publishes
// the standings from the store, and when an instance stops its tables are taken up by another with nothing lost or
// counted twice.
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../src/broker/embedded.js';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore } from '../../src/club/director/store.js';
import type { RoundAssignment, ScoreReport } from '../../src/club/types.js';
import { uid, waitFor } from '../feed/broker.js';
import { BROKER, EXPECTED, FakeTable, Observer, SCHEDULE, STUBS, quietLog, seedHand, testConfig } from '../club/director-rig.js';
import { ENGINES, type EngineDb, freshDb } from '../club/store-engines.js';

const T = 20_000;

// Each engine on the real Mosquitto (MQTT 5), and SQLite on the embedded aedes (MQTT 3.1.1, the demo's broker).
const CASES = [...ENGINES.map((engine) => ({ engine, broker: 'mosquitto' as const })), { engine: 'sqlite' as const, broker: 'aedes' as const }];

describe.each(CASES)('director instances sharing a store on $engine, broker $broker', ({ engine, broker }) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => undefined);
    cleanup.length = 0;
  });

  it('two instances split the tables; the standings hold every table\'s result once; a stopped instance\'s table is taken up mid-deal', async () => {
    const club = uid('cluster');
    const db: EngineDb = await freshDb(engine);
    cleanup.push(() => db.drop());
    let url = BROKER;
    if (broker === 'aedes') {
      const aedes = await startEmbeddedBroker();
      cleanup.push(() => aedes.close());
      url = aedes.url;
    }
    const obs = await Observer.connect(club, url);
    cleanup.push(() => obs.close());
    const tables = [await FakeTable.connect(club, '1', 's1', 1, url), await FakeTable.connect(club, '2', 's1', 1, url)];
    for (const t of tables) cleanup.push(() => t.close());
    const ids: string[] = [];
    const start = async (instance: string) => {
      const store = await DirectorStore.open(db.url);
      const config = testConfig(club, db.url, {
        cluster: { partitions: 2, leaseSeconds: 4, heartbeatSeconds: 1, instance },
        mqtt: { url, keepalive: 30, baseTopic: 'tenace', protocolVersion: broker === 'aedes' ? 4 : 5, maxMessageBytes: 262144 },
      });
      const s = new DirectorService({ config, log: quietLog, schedule: SCHEDULE, store, club: STUBS, web: false, requestRetryMs: 400 });
      await s.start();
      ids.push(s.clientId);
      const stop = async () => { await s.stop(); await store.close(); };
      cleanup.push(stop);
      return { s, store, stop };
    };
    cleanup.push(async () => {
      for (const id of ids) await (await mqtt.connectAsync(url, { clientId: id, clean: true, protocolVersion: broker === 'aedes' ? 4 : 5 })).endAsync();
    });
    const a = await start('a');
    const b = await start('b');
    const holders = async () => (await a.store.leaseOps.leases('s1')).map((r) => r.holder);
    // a took both partitions alone; at its next heartbeats it gives partition 1 (table 2) to b.
    await waitFor(async () => JSON.stringify(await holders()) === '["a","b"]', T, 'one partition each');
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 1, T, 'round 1 assignments');

    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await tables[1].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    const boardsIn = (st?: ScoreReport) => (st?.boards ?? []).flatMap((x) => x.results.map((r) => `${x.board}@${r.table}`)).sort();
    await waitFor(() => boardsIn(obs.get<ScoreReport>('club/s1/standings')).length === 2, T, 'standings with both tables');
    expect(boardsIn(obs.get<ScoreReport>('club/s1/standings'))).toEqual(['1@1', '2@2']);
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 2, T, 'table 2 in round 2');
    // A decision goes to the holder of partition 0 (a), and the instance following the table (b) reads it back.
    await obs.decide('adjust-score', { transaction: 'adj-1', board: 2, table: '2', adjusted: { NS: 60, EW: 40 } });
    await waitFor(() => obs.responses.some((r) => r.body.transaction === 'adj-1'), T, 'the decision answered');
    expect(obs.responses.find((r) => r.body.transaction === 'adj-1')!.body).toEqual({ transaction: 'adj-1', ok: true });
    await waitFor(() => b.s.travellers().find((t) => t.board === 2 && t.table === 2)?.adjusted !== undefined, T, 'b reads the decision back');

    // b stops while table 2 is in the middle of tray 1; the table goes on playing; a takes partition 1 and asks the
    // table for what it missed.
    const hand = [{ type: 'tray', code: 'T1' } as const, ...seedHand(1, false)];
    await tables[1].play(hand.slice(0, 20));
    await waitFor(async () => (await a.store.events('s1', '2')).length >= tables[1].journal.length, T, 'the first half stored by b');
    await b.stop();
    await tables[1].play(hand.slice(20));
    await tables[0].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    await waitFor(async () => JSON.stringify(await holders()) === '["a","a"]', T, 'a holds both partitions');
    await waitFor(() => boardsIn(obs.get<ScoreReport>('club/s1/standings')).length === 4, T, 'standings with all four results');
    expect(boardsIn(obs.get<ScoreReport>('club/s1/standings'))).toEqual(['1@1', '1@2', '2@1', '2@2']);
    const hoyle = EXPECTED.hands;
    const st = obs.get<ScoreReport>('club/s1/standings')!;
    expect(st.boards.find((x) => x.board === 1)!.results.map((r) => r.tricks)).toEqual([hoyle[0].tricksWon, hoyle[0].tricksWon]);
    // A deal's last lifts come after the card that completes it, so the standings can show it (on the next turn after
    // the result) before they are stored: wait for them, then every event is stored once.
    for (const [i, t] of tables.entries()) {
      await waitFor(async () => (await a.store.events('s1', String(i + 1))).length >= t.journal.length, T, `table ${i + 1}'s events stored`);
      const stored = await a.store.events('s1', String(i + 1));
      expect(stored.map((e) => e.seq)).toEqual(t.journal.map((e) => e.seq));
    }
    expect((await a.store.results('s1')).length).toBe(4);
    expect(obs.get<{ boards: number[] }>('club/s1/released')?.boards).toEqual([1, 2]);
  });
});
