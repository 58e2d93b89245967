// Director instances as a championship runs them: `tenace director --instance NAME` processes sharing one PostgreSQL
// database, against the real Mosquitto. One is killed (-9) in the middle of a deal: once its leases expire another
// takes its tables, asks them for what it missed, and the standings go on updating with nothing lost or doubled.
import { describe, expect, it } from 'vitest';
import { DirectorStore } from '../../src/club/director/store.js';
import type { RoundAssignment, ScoreReport } from '../../src/club/types.js';
import { waitFor } from '../feed/broker.js';
import { EXPECTED, seedHand } from '../club/director-rig.js';
import { freshDb } from '../club/store-engines.js';
import { cleanupAfterEach, processRig, resultsIn } from './process-rig.js';

const T = 30_000;

describe('director instances as processes on PostgreSQL', () => {
  const cleanup = cleanupAfterEach();

  it('kill -9 of the instance following a table mid-deal: another takes the table over, the standings keep updating, every event and result once', async () => {
    const db = await freshDb('postgres');
    cleanup.push(() => db.drop());
    const { obs, tables, procs, launch } = await processRig('failover', db.url, 3, cleanup);
    launch('d1');
    launch('d2');
    const store = await DirectorStore.open(db.url);
    cleanup.push(() => store.close());
    const holders = async () => (await store.leaseOps.leases('s1').catch(() => [])).map((r) => r.holder);
    await waitFor(async () => { const h = await holders(); return h.length === 2 && h[0] !== null && h[1] !== null && h[0] !== h[1]; }, T, 'one partition each');
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 1, T, 'round 1 assignments');

    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await tables[1].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    await waitFor(() => resultsIn(obs.get<ScoreReport>('club/s1/standings')).length === 2, T, 'standings with both tables');
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 2, T, 'table 2 in round 2');

    const victim = (await holders())[1]!;
    const hand = [{ type: 'tray', code: 'T1' } as const, ...seedHand(1, false)];
    await tables[1].play(hand.slice(0, 25));
    await waitFor(async () => (await store.events('s1', '2')).length === tables[1].journal.length, T, 'the first half stored');
    procs.get(victim)!.child.kill('SIGKILL');
    expect(await procs.get(victim)!.exited).toBe(137);
    await tables[1].play(hand.slice(25));
    await tables[0].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    const survivor = victim === 'd1' ? 'd2' : 'd1';
    await waitFor(async () => JSON.stringify(await holders()) === JSON.stringify([survivor, survivor]), T, `${survivor} holds both partitions`);
    await waitFor(() => resultsIn(obs.get<ScoreReport>('club/s1/standings')).length === 4, T, 'standings with all four results');
    expect(resultsIn(obs.get<ScoreReport>('club/s1/standings'))).toEqual(['1@1', '1@2', '2@1', '2@2']);
    const st = obs.get<ScoreReport>('club/s1/standings')!;
    expect(st.boards.find((b) => b.board === 1)!.results.map((r) => r.tricks)).toEqual([EXPECTED.hands[0].tricksWon, EXPECTED.hands[0].tricksWon]);
    // A deal's last lifts come after the card that completes it, so the standings can show it (on the next turn after
    // the result) before they are stored: wait for them, then every event is stored once.
    for (const [i, t] of tables.entries()) {
      await waitFor(async () => (await store.events('s1', String(i + 1))).length >= t.journal.length, T, `table ${i + 1}'s events stored`);
      expect((await store.events('s1', String(i + 1))).map((e) => e.seq)).toEqual(t.journal.map((e) => e.seq));
    }
    expect((await store.results('s1')).map((r) => `${r.traveller.board}@${r.table}`).sort()).toEqual(['1@1', '1@2', '2@1', '2@2']);
    // The killed instance comes back: it gets its share again, and nothing is stored twice.
    launch(`${victim}`);
    await waitFor(async () => new Set(await holders()).size === 2, T, 'the shares balanced again');
    expect((await store.results('s1')).length).toBe(4);
  });
});
