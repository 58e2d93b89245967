// Issue 7: "kill -9 of the director mid-session: after restart nothing is lost or doubled."
//
// The real `tenace director` (a child process, SQLite store in a scratch folder) follows two fake tables on the real
// Mosquitto (the same on a PostgreSQL store). The tables play four seed hands (two originals, two overplays) event
// by event at a steady pace and do not wait for the director to start or catch up (only for the kill itself, so that
// two kills never overlap); at seeded moments the director gets SIGKILL, stays down 0 to 300 ms (play goes on: the
// broker keeps what is published for the director's persistent session) and is started again. Then the director is
// stopped with SIGTERM and its store must hold every table event exactly once, in seq order, and one traveller per
// (board, table) with Hoyle's tricks, and both tables must have been given round 2.
//
// Reproduce a failure with the seed it prints: DIRECTOR_KILL9_SEED=<seed> npx vitest run test/club/director-kill9.test.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { stringify } from 'yaml';
import { afterAll, expect, it } from 'vitest';
import { DirectorStore } from '../../src/club/director/store.js';
import type { RoundAssignment } from '../../src/club/types.js';
import { createRng } from '../../src/sim/prng.js';
import { type CliRun, startCli } from '../cli/spawn-cli.js';
import { sleep, uid, waitFor } from '../feed/broker.js';
import { BROKER, EXPECTED, FakeTable, Observer, SCHEDULE, seedHand } from './director-rig.js';
import { ENGINES, freshDb } from './store-engines.js';

const SEED = process.env.DIRECTOR_KILL9_SEED ? Number(process.env.DIRECTOR_KILL9_SEED) : 0x6b396469; // "k9di"
const KILLS = 4;
const PACE_MS = 8;

const dir = mkdtempSync(join(tmpdir(), 'tenace-director-kill9-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it.each(ENGINES)(`the director on %s killed with kill -9 ${KILLS} times mid-session loses and doubles nothing (seed ${SEED})`, async (engine) => {
  const rng = createRng(SEED);
  const club = uid('k9');
  const edb = engine === 'postgres' ? await freshDb('postgres') : null;
  const storeUrl = edb?.url ?? `sqlite:${join(dir, `club-${club}.db`)}`;
  writeFileSync(join(dir, 'schedule.json'), JSON.stringify(SCHEDULE));
  const config = join(dir, 'club.yaml');
  writeFileSync(config, stringify({
    club: { id: club }, session: 's1', movement: { schedule: 'schedule.json' }, mqtt: { url: BROKER }, store: { url: storeUrl },
    http: { enabled: false }, log: { level: 'warn' },
  }));
  const obs = await Observer.connect(club);
  const t1 = await FakeTable.connect(club, '1');
  const t2 = await FakeTable.connect(club, '2');
  let run: CliRun | null = null;
  const runs: CliRun[] = [];
  const start = () => {
    run = startCli(['director', '--config', config]);
    runs.push(run);
  };
  try {
    start();
    await waitFor(() => obs.get<RoundAssignment>('1/assignment') !== undefined && obs.get<RoundAssignment>('2/assignment') !== undefined, 30_000, 'the first assignments');

    // Both tables' plays, interleaved event by event: round 1 the originals, round 2 the overplays.
    const plays: [FakeTable, ReturnType<typeof seedHand>][] = [
      [t1, [{ type: 'tray', code: 'T1' }, ...seedHand(1, false), { type: 'tray', code: 'T2' }, ...seedHand(2, true)]],
      [t2, [{ type: 'tray', code: 'T2' }, ...seedHand(2, false), { type: 'tray', code: 'T1' }, ...seedHand(1, true)]],
    ];
    const total = plays.reduce((n, [, evs]) => n + evs.length, 0);
    const killAt = new Set<number>();
    while (killAt.size < KILLS) killAt.add(20 + rng.int(total - 40));
    let step = 0;
    const killer: Promise<void>[] = [];
    for (let k = 0; k < Math.max(...plays.map(([, e]) => e.length)); k++) {
      for (const [t, evs] of plays) {
        if (k >= evs.length) continue;
        await t.play([evs[k]]);
        step++;
        if (killAt.has(step)) {
          const victim = run!;
          const down = rng.int(300);
          // The play waits for the kill and the time down, not for the new director to start.
          killer.push((async () => {
            await sleep(rng.int(20));
            victim.child.kill('SIGKILL');
            await victim.exited;
            await sleep(down);
            start();
          })());
          await killer.at(-1);
        }
        await sleep(PACE_MS);
      }
    }
    await Promise.all(killer);

    const store = await DirectorStore.open(storeUrl);
    try {
      await waitFor(async () => (await store.results('s1')).length === 4 && (await store.events('s1')).length === total, 60_000, 'every event and four travellers in the store');
    } finally {
      await store.close();
    }
    await waitFor(() => obs.get<RoundAssignment>('1/assignment')?.round === 2 && obs.get<RoundAssignment>('2/assignment')?.round === 2, 15_000, 'round 2 for both tables');
    run!.child.kill('SIGTERM');
    expect(await run!.exited).toBe(0);

    const after = await DirectorStore.open(storeUrl);
    try {
      const events = await after.events('s1');
      expect(events.filter((e) => e.table === '1').map((e) => e.seq)).toEqual(t1.journal.map((e) => e.seq));
      expect(events.filter((e) => e.table === '2').map((e) => e.seq)).toEqual(t2.journal.map((e) => e.seq));
      expect(events.filter((e) => e.table === '1').map((e) => e.event)).toEqual(t1.journal);
      const results = (await after.results('s1')).map((r) => [r.traveller.board, r.table, r.traveller.round, r.traveller.ns, r.traveller.ew, r.traveller.tricks]);
      expect(results).toEqual([
        [1, '1', 1, '1NS', '1EW', EXPECTED.hands[0].tricksWon],
        [1, '2', 2, '2NS', '1EW', EXPECTED.hands[0].tricksWon],
        [2, '1', 2, '1NS', '2EW', EXPECTED.hands[1].tricksWon],
        [2, '2', 1, '2NS', '2EW', EXPECTED.hands[1].tricksWon],
      ]);
      const assignments = await after.assignments('s1');
      expect(assignments.map((a) => [a.table, a.round])).toEqual([['1', 1], ['1', 2], ['2', 1], ['2', 2]]);
      const alerts = await after.alerts('s1');
      expect(new Set(alerts.map((a) => a.id)).size).toBe(alerts.length);
    } finally {
      await after.close();
    }
  } finally {
    for (const r of runs) await r.dispose();
    await t1.close();
    await t2.close();
    await obs.close();
    const idStore = await DirectorStore.open(storeUrl);
    const clientId = `tenace-director-${club}-s1-${(await idStore.instanceId()).slice(0, 8)}`;
    await idStore.close();
    await (await mqtt.connectAsync(BROKER, { clientId, clean: true, protocolVersion: 5 })).endAsync();
    await edb?.drop();
  }
}, 180_000);
