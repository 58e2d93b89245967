// PostgreSQL restarted under two director instances mid-session: the instances stop acknowledging while it is down,
// restart their service once it answers again, take their leases back, and the standings end with every result once.
// A private PostgreSQL on a free port (the machine's own on 5432 is shared by other tests and must not be stopped).
import { describe, expect, it } from 'vitest';
import { DirectorStore } from '../../src/club/director/store.js';
import type { RoundAssignment, ScoreReport } from '../../src/club/types.js';
import { sleep, waitFor } from '../feed/broker.js';
import { seedHand } from '../club/director-rig.js';
import { startOwnPostgres } from '../helpers/own-postgres.js';
import { cleanupAfterEach, processRig, resultsIn } from './process-rig.js';

const T = 40_000;

describe('PostgreSQL restarted mid-session', () => {
  const cleanup = cleanupAfterEach();

  it('the director instances reconnect, and nothing is lost or counted twice', async () => {
    const pg = await startOwnPostgres();
    cleanup.push(() => pg.stop('SIGKILL', true));
    const url = await pg.createDb('championship');
    const { obs, tables, procs, launch } = await processRig('pgrestart', url, 4, cleanup);
    launch('d1');
    launch('d2');
    const store = await DirectorStore.open(url);
    cleanup.push(() => store.close());
    const holders = async () => new Set((await store.leaseOps.leases('s1')).flatMap((l) => (l.holder === null ? [] : [l.holder]))).size === 2;
    // Both instances running (each holds a partition) before the store goes down: an instance still starting then
    // would fail its first start, which is the operator's to see (a wrong store URL), not a restart's.
    await waitFor(holders, T, 'one partition each');
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 1, T, 'round 1 assignments');
    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await tables[1].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    await waitFor(() => resultsIn(obs.get<ScoreReport>('club/s1/standings')).length === 2, T, 'standings with both tables');

    // Round 2: each table plays half its tray, PostgreSQL goes down, the tables play on, it comes back 3 s later.
    const halves = [[{ type: 'tray', code: 'T2' } as const, ...seedHand(2, false)], [{ type: 'tray', code: 'T1' } as const, ...seedHand(1, false)]];
    await tables[0].play(halves[0].slice(0, 20));
    await tables[1].play(halves[1].slice(0, 20));
    await pg.stop('SIGINT');
    await tables[0].play(halves[0].slice(20, 40));
    await tables[1].play(halves[1].slice(20, 40));
    await sleep(3000);
    await pg.restart();
    await tables[0].play(halves[0].slice(40));
    await tables[1].play(halves[1].slice(40));

    await waitFor(() => resultsIn(obs.get<ScoreReport>('club/s1/standings')).length === 4, T, 'standings with all four results');
    expect(resultsIn(obs.get<ScoreReport>('club/s1/standings'))).toEqual(['1@1', '1@2', '2@1', '2@2']);
    for (const [i, t] of tables.entries()) {
      await waitFor(async () => (await store.events('s1', String(i + 1))).length >= t.journal.length, T, `every event of table ${i + 1}`);
      expect((await store.events('s1', String(i + 1))).map((e) => e.seq)).toEqual(t.journal.map((e) => e.seq));
    }
    expect((await store.results('s1')).length).toBe(4);
    // Both instances lived through it (the service restarted inside each process) and still share the partitions.
    for (const p of procs.values()) expect(p.child.exitCode).toBeNull();
    await waitFor(holders, T, 'one partition each again');
  }, 120_000);
});
