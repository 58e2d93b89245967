// `tenace director --config club.yaml --setup`: the director page opens on the set-up screens instead of a session
// (src/club/director/setup.ts). The club's config needs only `club:` (and where the store and the page are); Start
// writes `<session>.yaml` beside it, and the director then runs that session on the same port.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { formatConfigErrors } from '../config/load.js';
import { ConsoleAuth } from '../club/director/auth.js';
import { consoleApi } from '../club/director/console-api.js';
import { parseDirectorConfig } from '../club/director/config.js';
import { Players } from '../club/director/players.js';
import { setupApi } from '../club/director/setup.js';
import { DirectorStore } from '../club/director/store.js';
import { startDirectorWeb } from '../club/director/web.js';

const EX_CONFIG = 78;

export interface SetupRun {
  /** The page's address. */
  url: string;
  /** Resolves with the session config's path once the director has pressed Start (and the page has closed). */
  started: Promise<string>;
  close(): Promise<void>;
}

/** Serve the set-up screens for the club config `file` (`db`: a SQLite file instead of its store). */
export async function startSetup(file: string, db?: string): Promise<SetupRun | { error: string; code: number }> {
  let base: string;
  try {
    base = readFileSync(file, 'utf8');
  } catch (e) {
    return { code: EX_CONFIG, error: `cannot read config file ${file}: ${(e as Error).message}` };
  }
  // The club's config may name no session yet: check it with a stand-in session, for its store, page and broker.
  const raw = (parseDocument(base).toJS() ?? {}) as Record<string, unknown>;
  const probe = parseDirectorConfig(stringify({ session: 'setup', movement: { name: 'mitchell', tables: 3 }, ...raw }), dirname(resolve(file)));
  if (!probe.ok) return { code: EX_CONFIG, error: `the config cannot be used:\n${formatConfigErrors(probe.errors, file)}` };
  const c = probe.config;
  if (db) c.store.url = `sqlite:${resolve(db)}`;
  const store = await DirectorStore.open(c.store.url);
  let done: (f: string) => void = () => undefined;
  const started = new Promise<string>((r) => { done = r; });
  const console = consoleApi({
    auth: new ConsoleAuth({ db: store.db, sync: () => store.sync() }), players: new Players(store.db, 'setup', {}, () => store.sync()), participants: () => [],
    decide: async () => ({ ok: false, error: 'session: none is running yet; finish the set-up and press Start' }), pairsChanged: async () => undefined,
    pins: () => ({}), handScored: () => [],
  });
  let port = 0;
  const web = await startDirectorWeb({
    host: c.http.host, port: c.http.port, allowedHosts: c.http.allowedHosts, snapshot: () => null, subscribe: () => () => undefined, setup: true,
    console: setupApi({ console, db: store.db, sync: () => store.sync(), base, dir: dirname(resolve(file)), club: c.club.id, port: () => port, onStart: (f) => done(f) }),
  });
  port = Number(new URL(web.url).port);
  const close = async () => { await web.close(); await store.close(); };
  return { url: web.url, close, started: started.then(async (f) => { await close(); return f; }) };
}
