// Dup. V.1: "If more than two tables are in play, the hands must be rectified and then passed to the next table; the
// table at which the error was discovered must not overplay the deal but shall take the average score." The
// director applies that average itself, from its fouled-tray alert, and the director's own decision replaces it.
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore } from '../../src/club/director/store.js';
import type { RoundAssignment, Schedule, ScoreReport } from '../../src/club/types.js';
import { uid, waitFor } from '../feed/broker.js';
import { BROKER, cleanupAfterEach, EXPECTED, FakeTable, Observer, quietLog, seedHand, swapCards, testConfig } from './director-rig.js';
import { freshDb } from './store-engines.js';

const T = 15_000;

/** Three tables: each deals its own tray in round 1; in round 2 table 2 overplays tray 1. */
const THREE: Schedule = {
  movement: 'test-three', tables: 3, kind: 'pairs', boardsPerRound: 1, trays: 3, participants: ['1NS', '1EW', '2NS', '2EW', '3NS', '3EW'],
  rounds: [
    { round: 1, tables: [1, 2, 3].map((t) => ({ table: t, ns: `${t}NS`, ew: `${t}EW`, trays: [t], original: [true] })) },
    { round: 2, tables: [{ table: 1, ns: '1NS', ew: '3EW', trays: [3] }, { table: 2, ns: '2NS', ew: '1EW', trays: [1] }, { table: 3, ns: '3NS', ew: '2EW', trays: [2] }] },
  ],
};

describe('the average score for a fouled tray (Dup. V.1, IV.9-10)', () => {
  const cleanup = cleanupAfterEach();

  it('Dup. V.1: with three tables, the table that overplayed a fouled tray takes the average score; a director\'s adjusted score replaces it', async () => {
    const club = uid('avg');
    const db = await freshDb('sqlite');
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const tables: FakeTable[] = [];
    for (const id of ['1', '2', '3']) {
      const t = await FakeTable.connect(club, id);
      tables.push(t);
      cleanup.push(() => t.close());
    }
    const config = testConfig(club, db.url, { movement: { name: 'test-three', tables: 3 }, tables: ['1', '2', '3'] });
    const store = await DirectorStore.open(db.url);
    // The real tray functions and scoring (no stand-ins): the average is the scoring's own.
    const s = new DirectorService({ config, log: quietLog, schedule: THREE, store, web: false, requestRetryMs: 400 });
    await s.start();
    // Cleanup runs last first: the director stops, then its broker session is cleared (not the other way round: a
    // client that takes the director's id while it runs kicks it off with QoS 1 messages in flight).
    cleanup.push(async () => { await (await mqtt.connectAsync(BROKER, { clientId: s.clientId, clean: true, protocolVersion: 5 })).endAsync(); });
    cleanup.push(async () => { await s.stop(); await store.close(); });
    await waitFor(() => obs.get<RoundAssignment>('2/assignment') !== undefined, T, 'assignments');

    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await waitFor(() => obs.get('trays/s1/1') !== undefined, T, 'the record of tray 1');
    // Table 2 overplays tray 1, but N's CK and E's C5 were in each other's pockets.
    await tables[1].play([{ type: 'tray', code: 'T1' }, ...swapCards(seedHand(1, true), 'CK', 'C5')]);
    await waitFor(() => obs.alerts.some((a) => a.kind === 'fouled-tray'), T, 'the fouled-tray alert');
    const alert = obs.alerts.find((a) => a.kind === 'fouled-tray')!;
    expect(alert).toMatchObject({ table: '2', board: 1, law: 'Dup. V.1', outcome: { remedy: 'rectify-and-average' } });

    const two = () => s.travellers().find((t) => t.board === 1 && String(t.table) === '2');
    await waitFor(() => two() !== undefined, T, 'table 2 on the traveller of tray 1');
    expect(two()!.adjusted).toBe('average');
    expect(s.travellers().find((t) => t.board === 1 && String(t.table) === '1')!.adjusted).toBeUndefined();
    // Scored: the average of the other table's result (table 1's, the only other), in the published standings.
    const won = EXPECTED.hands[0].tricksWon;
    const resultOf = (r: ScoreReport | undefined, table: string) => r?.boards.find((b) => b.board === 1)?.results.find((x) => String(x.table) === table);
    await waitFor(() => resultOf(obs.get<ScoreReport>('club/s1/standings'), '2') !== undefined, T, 'the standings with table 2');
    expect(resultOf(obs.get<ScoreReport>('club/s1/standings'), '2')!.tricks).toEqual(won);

    // The director decides otherwise: the decision stands in place of the law's average.
    await obs.decide('adjust-score', { transaction: 'adj-1', board: 1, table: '2', adjusted: { NS: 7, EW: 6 } });
    await waitFor(() => typeof two()!.adjusted === 'object', T, 'the director\'s adjusted score');
    expect(two()!.adjusted).toEqual({ NS: 7, EW: 6 });
  });
});
