// A hand-scored table in a championship (issue 17 with issue 18's cluster): the leader takes its results as decisions,
// and every instance must hold them, corrections included, since any instance may lead next. Two instances on
// PostgreSQL; table 2 is hand-scored and in the partition of the instance that does not lead.
import { describe, expect, it } from 'vitest';
import type { RoundAssignment, ScoreReport } from '../../src/club/types.js';
import { uid, waitFor } from '../feed/broker.js';
import { Observer, cleanupAfterEach, clusterStarter } from '../club/director-rig.js';
import { freshDb } from '../club/store-engines.js';

const T = 20_000;

describe('a hand-scored table\'s results in a cluster of director instances', () => {
  const cleanup = cleanupAfterEach();

  it('a corrected result reaches the instance that follows the table: once it leads, its standings show the correction', async () => {
    const club = uid('handcluster');
    const db = await freshDb('postgres');
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const start = clusterStarter(cleanup, club, db.url, (instance) => ({ variant: 'bridge', handScored: ['2'], cluster: { partitions: 2, leaseSeconds: 3, heartbeatSeconds: 1, instance } }), { syncMs: 500 });
    const a = await start('a');
    const b = await start('b');
    await waitFor(async () => JSON.stringify((await a.store.leaseOps.leases('s1')).map((r) => r.holder)) === '["a","b"]', T, 'one partition each');
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 1, T, 'round 1 assignments');

    // a leads (partition 0) and takes the decisions; table 2 is b's. The table enters 4H by East making 10, then the
    // director corrects it to 9 tricks.
    const entered = await a.s.decide('table-result', JSON.stringify({ transaction: 'r1', table: '2', board: 2, round: 1, contract: '4HE', tricks: 10 }));
    expect(entered.ok, JSON.stringify(entered)).toBe(true);
    const tricksOf = (st?: ScoreReport) => {
      const t = st?.boards.find((x) => x.board === 2)?.results.find((r) => String(r.table) === '2')?.tricks;
      return typeof t === 'number' ? t : undefined;
    };
    await waitFor(() => tricksOf(obs.get<ScoreReport>('club/s1/standings')) === 10, T, 'the standings with 10 tricks');
    const corrected = await a.s.decide('table-result', JSON.stringify({ transaction: 'r2', table: '2', board: 2, round: 1, contract: '4HE', tricks: 9, reason: 'entered wrongly' }));
    expect(corrected.ok, JSON.stringify(corrected)).toBe(true);
    await waitFor(() => tricksOf(obs.get<ScoreReport>('club/s1/standings')) === 9, T, 'the standings with the correction');
    expect((await a.store.results('s1')).map((r) => r.traveller.tricks)).toEqual([9]);

    // b has read back what a stored (the notification, and the poll at 500 ms): it holds the correction.
    await waitFor(() => b.s.travellers().some((t) => t.board === 2 && String(t.table) === '2'), T, 'b holds table 2\'s result');
    expect(b.s.travellers().filter((t) => t.board === 2).map((t) => t.tricks)).toEqual([9]);

    // a stops: b takes partition 0 and publishes the standings, which still show the correction.
    await a.stop();
    await waitFor(async () => JSON.stringify((await b.store.leaseOps.leases('s1')).map((r) => r.holder)) === '["b","b"]', T, 'b holds both partitions');
    const before = obs.get<ScoreReport>('club/s1/standings');
    await b.s.decide('adjust-score', JSON.stringify({ transaction: 'x1', table: '1', board: 1, adjusted: 'average' }));
    await waitFor(() => obs.get<ScoreReport>('club/s1/standings') !== before, T, 'standings published by b');
    expect(tricksOf(obs.get<ScoreReport>('club/s1/standings'))).toBe(9);
  }, 60_000);
});
