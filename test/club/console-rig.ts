// A director with its page and console on a free port, fake tables on the real Mosquitto, the rig's two-table
// schedule (table 2 marked hand-scored), and the real scorer (so an adjusted score shows in the standings): for the console's tests.
import mqtt from 'mqtt';
import { scoreTravellers } from '../../src/club/scoring/index.js';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore } from '../../src/club/director/store.js';
import { uid } from '../feed/broker.js';
import { BROKER, FakeTable, Observer, SCHEDULE, STUBS, quietLog, testConfig } from './director-rig.js';
import { freshDb } from './store-engines.js';

export interface ConsoleRig { club: string; url: string; s: DirectorService; store: DirectorStore; obs: Observer; tables: FakeTable[]; close(): Promise<void> }

/** Start the rig; `close` stops everything and removes the store and the director's broker session. */
export async function startConsoleRig(): Promise<ConsoleRig> {
  const club = uid('con');
  const db = await freshDb('sqlite');
  const obs = await Observer.connect(club);
  const tables = [await FakeTable.connect(club, '1'), await FakeTable.connect(club, '2')];
  const store = await DirectorStore.open(db.url);
  const config = { ...testConfig(club, db.url), http: { enabled: true, host: '127.0.0.1', port: 0, allowedHosts: ['director.club.example'] }, tableOptions: { 2: { manual: true } } };
  const s = new DirectorService({ config, log: quietLog, schedule: SCHEDULE, store, club: { ...STUBS, scoreTravellers }, web: true, requestRetryMs: 400 });
  await s.start();
  const url = (s as unknown as { web: { url: string } }).web.url;
  return {
    club, url, s, store, obs, tables,
    async close() {
      await s.stop().catch(() => undefined);
      await store.close().catch(() => undefined);
      for (const t of tables) await t.close().catch(() => undefined);
      await obs.close().catch(() => undefined);
      await (await mqtt.connectAsync(BROKER, { clientId: s.clientId, clean: true, protocolVersion: 5 })).endAsync().catch(() => undefined);
      await db.drop();
    },
  };
}

/** A small HTTP client that keeps the director's cookie, as a browser would. */
export class ConsoleClient {
  cookie = '';
  csrf = '';
  constructor(readonly url: string) {}

  async call(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const r = await fetch(new URL(path, this.url), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(this.cookie ? { cookie: this.cookie } : {}), ...(this.csrf ? { 'x-tenace-csrf': this.csrf } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const set = r.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0];
    const out = await r.json() as Record<string, unknown>;
    if (typeof out.csrf === 'string') this.csrf = out.csrf;
    return { status: r.status, body: out };
  }
}
