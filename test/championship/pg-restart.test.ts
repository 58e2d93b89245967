// PostgreSQL restarted under two director instances mid-session: the instances stop acknowledging while it is down,
// restart their service once it answers again, take their leases back, and the standings end with every result once.
// A private PostgreSQL on a free port (the machine's own on 5432 is shared by other tests and must not be stopped).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { stringify } from 'yaml';
import { DirectorStore } from '../../src/club/director/store.js';
import type { RoundAssignment, ScoreReport } from '../../src/club/types.js';
import { sleep, uid, waitFor } from '../feed/broker.js';
import { startCli, type CliRun } from '../cli/spawn-cli.js';
import { BROKER, FakeTable, Observer, SCHEDULE, seedHand } from '../club/director-rig.js';
import { startPostgres } from './private-postgres.js';

const T = 40_000;
const resultsIn = (st?: ScoreReport): string[] => (st?.boards ?? []).flatMap((x) => x.results.map((r) => `${x.board}@${r.table}`)).sort();

describe('PostgreSQL restarted mid-session', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => undefined);
    cleanup.length = 0;
  });

  it('the director instances reconnect, and nothing is lost or counted twice', async () => {
    const pg = await startPostgres();
    cleanup.push(() => pg.dispose());
    const url = await pg.createDb('championship');
    const club = uid('pgrestart');
    const dir = mkdtempSync(join(tmpdir(), 'tenace-pg-restart-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'schedule.json'), JSON.stringify(SCHEDULE));
    writeFileSync(join(dir, 'club.yaml'), stringify({
      club: { id: club }, session: 's1', movement: { schedule: 'schedule.json' }, mqtt: { url: BROKER }, store: { url },
      http: { enabled: false }, cluster: { partitions: 2, leaseSeconds: 4, heartbeatSeconds: 1 }, log: { level: 'warn' },
    }));
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const tables = [await FakeTable.connect(club, '1'), await FakeTable.connect(club, '2')];
    for (const t of tables) cleanup.push(() => t.close());
    const procs: CliRun[] = [];
    for (const name of ['d1', 'd2']) {
      const p = startCli(['director', '--config', join(dir, 'club.yaml'), '--instance', name]);
      procs.push(p);
      cleanup.push(() => p.dispose());
      onTestFailed(() => console.error(`${name}:\n${p.out().slice(-3000)}\n${p.err().slice(-2000)}`));
    }
    cleanup.push(async () => {
      for (const name of ['d1', 'd2']) await (await mqtt.connectAsync(BROKER, { clientId: `tenace-director-${club}-s1-${name}`, clean: true, protocolVersion: 5 })).endAsync();
    });
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 1, T, 'round 1 assignments');
    await tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await tables[1].play([{ type: 'tray', code: 'T2' }, ...seedHand(2, false)]);
    await waitFor(() => resultsIn(obs.get<ScoreReport>('club/s1/standings')).length === 2, T, 'standings with both tables');

    // Round 2: each table plays half its tray, PostgreSQL goes down, the tables play on, it comes back 3 s later.
    const halves = [[{ type: 'tray', code: 'T2' } as const, ...seedHand(2, false)], [{ type: 'tray', code: 'T1' } as const, ...seedHand(1, false)]];
    await tables[0].play(halves[0].slice(0, 20));
    await tables[1].play(halves[1].slice(0, 20));
    await pg.stop();
    await tables[0].play(halves[0].slice(20, 40));
    await tables[1].play(halves[1].slice(20, 40));
    await sleep(3000);
    await pg.start();
    await tables[0].play(halves[0].slice(40));
    await tables[1].play(halves[1].slice(40));

    await waitFor(() => resultsIn(obs.get<ScoreReport>('club/s1/standings')).length === 4, T, 'standings with all four results');
    expect(resultsIn(obs.get<ScoreReport>('club/s1/standings'))).toEqual(['1@1', '1@2', '2@1', '2@2']);
    const store = await DirectorStore.open(url);
    cleanup.push(() => store.close());
    for (const [i, t] of tables.entries()) {
      await waitFor(async () => (await store.events('s1', String(i + 1))).length >= t.journal.length, T, `every event of table ${i + 1}`);
      expect((await store.events('s1', String(i + 1))).map((e) => e.seq)).toEqual(t.journal.map((e) => e.seq));
    }
    expect((await store.results('s1')).length).toBe(4);
    // Both instances lived through it (the service restarted inside each process) and still share the partitions.
    for (const p of procs) expect(p.child.exitCode).toBeNull();
    await waitFor(async () => new Set((await store.leaseOps.leases('s1')).map((l) => l.holder)).size === 2, T, 'one partition each again');
  }, 120_000);
});
