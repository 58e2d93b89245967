// Cluster mode on PostgreSQL (issue 18): an instance's commit of a result is notified to the others (NOTIFY, delivered
// at commit) with the result itself, and the holder of partition 0 takes it and publishes the standings at once, not
// at its next poll.
// The poll is set to a minute here, so only the notification can bring the other instance's result in time.
import { describe, expect, it } from 'vitest';
import type { RoundAssignment, ScoreReport } from '../../src/club/types.js';
import { uid, waitFor } from '../feed/broker.js';
import { FakeTable, Observer, cleanupAfterEach, clusterStarter, seedHand } from '../club/director-rig.js';
import { freshDb } from '../club/store-engines.js';

const T = 20_000;

describe('director instances on PostgreSQL tell each other what they stored', () => {
  const cleanup = cleanupAfterEach();

  it('the other instance\'s result reaches the standings within seconds with the poll at a minute', async () => {
    const club = uid('notify');
    const db = await freshDb('postgres');
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const tables = [await FakeTable.connect(club, '1'), await FakeTable.connect(club, '2')];
    for (const t of tables) cleanup.push(() => t.close());
    const start = clusterStarter(cleanup, club, db.url, (instance) => ({ cluster: { partitions: 2, leaseSeconds: 4, heartbeatSeconds: 1, instance } }), { syncMs: 60_000 });
    const { store } = await start('a');
    await start('b');
    await waitFor(async () => JSON.stringify((await store.leaseOps.leases('s1')).map((r) => r.holder)) === '["a","b"]', T, 'one partition each');
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 1, T, 'round 1 assignments');

    // Table 2 is b's; a holds partition 0 and publishes the standings. b's notification carries the result it stored,
    // so a reads back neither the keys of every result of the session nor table 2's results.
    let wholeReadBacks = 0;
    let tableReadBacks = 0;
    const heads = store.resultHeads.bind(store);
    store.resultHeads = async (session) => { wholeReadBacks++; return heads(session); };
    const resultsOf = store.resultsOf.bind(store);
    store.resultsOf = async (session, tables) => { tableReadBacks++; return resultsOf(session, tables); };
    await tables[1].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    const boardsIn = (st?: ScoreReport) => (st?.boards ?? []).flatMap((x) => x.results.map((r) => `${x.board}@${r.table}`));
    await waitFor(() => boardsIn(obs.get<ScoreReport>('club/s1/standings')).length === 1, T, 'the standings with table 2\'s result');
    expect(boardsIn(obs.get<ScoreReport>('club/s1/standings'))).toEqual(['2@2']);
    expect(wholeReadBacks, 'read-backs of every result\'s key (the note was not used)').toBe(0);
    expect(tableReadBacks, 'read-backs of a table\'s results (the result carried was not used)').toBe(0);
  });
});
