// Test rig: `tenace director --instance NAME` processes sharing one store, as a championship runs them, with the fake
// tables and the observer of the director rig (test/club/director-rig.ts) on the real Mosquitto.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { onTestFailed } from 'vitest';
import { stringify } from 'yaml';
import type { ScoreReport } from '../../src/club/types.js';
import { uid } from '../feed/broker.js';
import { type CliRun, startCli } from '../cli/spawn-cli.js';
import { BROKER, FakeTable, Observer, SCHEDULE } from '../club/director-rig.js';

export { cleanupAfterEach } from '../club/director-rig.js';

/** "board@table" of every result in the standings, sorted. */
export const resultsIn = (st?: ScoreReport): string[] => (st?.boards ?? []).flatMap((x) => x.results.map((r) => `${x.board}@${r.table}`)).sort();

/** The club of a test: its observer, its two fake tables, and the director instances it launches. */
export interface ProcessRig {
  club: string;
  obs: Observer;
  tables: FakeTable[];
  procs: Map<string, CliRun>;
  /** Start `tenace director --instance name` on the rig's config. */
  launch(name: string): CliRun;
}

/**
 * Write a config (the rig's two-table schedule, two partitions, `leaseSeconds`) on `storeUrl`, connect the observer
 * and the tables; everything made is handed to `cleanup`, last made first closed.
 */
export async function processRig(prefix: string, storeUrl: string, leaseSeconds: number, cleanup: (() => Promise<unknown>)[]): Promise<ProcessRig> {
  const club = uid(prefix);
  const dir = mkdtempSync(join(tmpdir(), `tenace-${prefix}-`));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'schedule.json'), JSON.stringify(SCHEDULE));
  writeFileSync(join(dir, 'club.yaml'), stringify({
    club: { id: club }, session: 's1', movement: { schedule: 'schedule.json' }, mqtt: { url: BROKER }, store: { url: storeUrl },
    http: { enabled: false }, cluster: { partitions: 2, leaseSeconds, heartbeatSeconds: 1 }, log: { level: process.env.TENACE_DIRECTOR_LOG ?? 'warn' },
  }));
  const obs = await Observer.connect(club);
  cleanup.push(() => obs.close());
  const tables = [await FakeTable.connect(club, '1'), await FakeTable.connect(club, '2')];
  for (const t of tables) cleanup.push(() => t.close());
  const procs = new Map<string, CliRun>();
  // The instances' persistent sessions at the broker go with the test.
  cleanup.push(async () => {
    for (const name of procs.keys()) await (await mqtt.connectAsync(BROKER, { clientId: `tenace-director-${club}-s1-${name}`, clean: true, protocolVersion: 5 })).endAsync();
  });
  return {
    club, obs, tables, procs,
    launch(name) {
      const p = startCli(['director', '--config', join(dir, 'club.yaml'), '--instance', name]);
      procs.set(name, p);
      cleanup.push(() => p.dispose());
      onTestFailed(() => console.error(`${name}:\n${p.out().slice(-3000)}\n${p.err().slice(-2000)}`));
      return p;
    },
  };
}
