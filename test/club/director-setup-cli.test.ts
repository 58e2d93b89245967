// `tenace director --config club.yaml --setup` as a club runs it: the page opens on the set-up (the club's config names
// no session), the director signs in and starts a session through the page's API, and the same process then runs the
// director of that session on the same port (http.port 0 included: the session keeps the set-up's port).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { DirectorStore } from '../../src/club/director/store.js';
import type { DirectorSnapshot } from '../../src/club/types.js';
import { startCli } from '../cli/spawn-cli.js';
import { uid, waitFor } from '../feed/broker.js';
import { ConsoleClient } from './console-rig.js';
import { BROKER } from './director-rig.js';

describe('tenace director --setup', () => {
  it('serves the set-up, writes the session\'s config on Start, and runs that session on the same port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenace-setup-cli-'));
    const club = uid('setup');
    writeFileSync(join(dir, 'club.yaml'), `club: { id: ${club} }\nstore: { url: "sqlite:club.db" }\nhttp: { port: 0 }\nlog: { level: warn }\n`);
    const run = startCli(['director', '--config', join(dir, 'club.yaml'), '--setup']);
    try {
      await run.waitFor(/set up the session on the director page: (http:\S+)/);
      const url = /director page: (http:\S+)/.exec(run.out())![1];
      const c = new ConsoleClient(url);
      expect((await c.call('info.json')).body).toEqual({ exports: false, console: true, setup: true });
      expect((await c.call('api/first-password', { password: 'the club night starts' })).status).toBe(200);
      const start = await c.call('api/setup/start', { session: 'cli-1', variant: 'duplicate-whist', movement: { name: 'mitchell', tables: 3, boardsPerRound: 2 }, manual: ['2'] });
      expect(start.body).toEqual({ ok: true, file: join(dir, 'cli-1.yaml'), session: 'cli-1' });
      await run.waitFor(/starting the director/);
      await waitFor(async () => (await fetch(new URL('snapshot.json', url)).then((r) => r.json()).catch(() => null) as DirectorSnapshot | null)?.session === 'cli-1', 20_000, 'the session on the same port');
      const snap = await (await fetch(new URL('snapshot.json', url))).json() as DirectorSnapshot;
      expect(snap.tables.map((t) => [t.table, t.manual ?? false])).toEqual([['1', false], ['2', true], ['3', false]]);
      expect(readFileSync(join(dir, 'cli-1.yaml'), 'utf8')).toContain(`port: ${new URL(url).port}`);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      // The director's persistent session at the broker goes with the test.
      const store = await DirectorStore.open(`sqlite:${join(dir, 'club.db')}`);
      const id = (await store.instanceId()).slice(0, 8);
      await store.close();
      await (await mqtt.connectAsync(BROKER, { clientId: `tenace-director-${club}-cli-1-${id}`, clean: true, protocolVersion: 5 })).endAsync();
    } finally {
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
