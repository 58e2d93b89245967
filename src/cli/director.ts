// `tenace director --config club.yaml [--db PATH]`: the director service (docs/club.md). Exit 78 for a bad config,
// 1 when it cannot start (the store, the schedule); otherwise it runs until SIGTERM/SIGINT and stops cleanly: a store
// that fails later never makes it exit (src/club/director/README.md, "Persist before acknowledging").
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { formatConfigErrors } from '../config/load.js';
import { createLogger } from '../config/logger.js';
import { loadDirectorConfig, publishedDirectorSchemaText } from '../club/director/config.js';
import { DirectorService } from '../club/director/service.js';
import { EX_USAGE, STDIO, parseCommand } from './args.js';

const USAGE = `usage: tenace director --config FILE [--db PATH] [--instance NAME] [--check] [--schema]
  --config FILE  the director's YAML config (config/club.example.yaml)
  --db PATH      a SQLite database file, instead of the config's store.url
  --instance NAME  this instance's name among several sharing the store (sets cluster.instance; implies cluster:)
  --check        check the config, print "ok: ..." and exit (0 valid, 78 invalid)
  --setup        open the director page on the set-up screens (movement, tables, players), then run the session set up
  --set-password set the password of the director's console in the store (asked twice, or the first line of stdin) and exit
  --schema       print the config's JSON Schema (config/club.schema.json) and exit
`;

const EX_CONFIG = 78;

/** Run `tenace director`; resolves to the exit code once it has stopped. */
export async function directorCommand(argv: string[]): Promise<number> {
  const args = parseCommand('director', USAGE, {
    args: argv,
    options: {
      config: { type: 'string', short: 'c' }, db: { type: 'string' }, instance: { type: 'string' }, check: { type: 'boolean' }, schema: { type: 'boolean' }, 'set-password': { type: 'boolean' }, setup: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }, STDIO);
  if (typeof args === 'number') return args;
  if (args.values.schema) {
    process.stdout.write(publishedDirectorSchemaText());
    return 0;
  }
  let file = args.values.config;
  if (!file) {
    process.stderr.write(USAGE);
    return EX_USAGE;
  }
  if (args.values.setup) {
    const setup = await (await import('./director-setup.js')).startSetup(file, args.values.db);
    if ('error' in setup) {
      process.stderr.write(`tenace director: ${setup.error}\n`);
      return setup.code;
    }
    process.stdout.write(`set up the session on the director page: ${setup.url}\n`);
    const stop = () => { void setup.close().then(() => process.exit(0)); };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    file = await setup.started;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.stdout.write(`the session's config is ${file}; starting the director\n`);
  }
  const loaded = loadDirectorConfig(file);
  if (!loaded.ok) {
    process.stderr.write(`tenace director: the config cannot be used:\n${formatConfigErrors(loaded.errors, file)}`);
    return EX_CONFIG;
  }
  const config = loaded.config;
  if (args.values.db) config.store.url = `sqlite:${resolve(args.values.db)}`;
  // SQLite creates the file but not its folder: say which folder, and the setting that names it, before starting.
  const folder = missingSqliteFolder(config.store.url);
  if (folder !== null) {
    process.stderr.write(`tenace director: store.url: the folder ${folder} of ${config.store.url} does not exist: create it (mkdir -p ${folder}) or set store.url (or --db FILE) to a file in a folder that exists\n`);
    return EX_CONFIG;
  }
  if (args.values.instance !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(args.values.instance)) {
      process.stderr.write(`tenace director: --instance: "${args.values.instance}" cannot name an instance; use 1-64 letters, digits, "-", "_" or "."\n`);
      return EX_USAGE;
    }
    config.cluster = { partitions: 16, leaseSeconds: 10, heartbeatSeconds: 2, ...config.cluster, instance: args.values.instance };
  }
  if (args.values.check) {
    const cl = config.cluster;
    process.stdout.write(`ok: club ${config.club.id} session ${config.session}, ${config.movement.name} on ${config.movement.tables} tables (${config.tables.join(', ')}), ${config.variant}, mqtt ${config.mqtt.url} under ${config.mqtt.baseTopic}/${config.club.id}/, store ${config.store.url.replace(/\/\/[^@/]*@/, '//')}${cl ? `, one of several instances (${cl.partitions} partitions, lease ${cl.leaseSeconds} s)` : ''}\n`);
    return 0;
  }
  if (args.values['set-password']) return (await import('./director-password.js')).setPasswordCommand(config.store.url);
  const log = createLogger({ log: config.log, club: config.club });
  let password: string | undefined;
  try {
    password = config.mqtt.passwordFile ? readFileSync(config.mqtt.passwordFile, 'utf8').split('\n')[0] : undefined;
  } catch (e) {
    process.stderr.write(`tenace director: mqtt.passwordFile: ${(e as Error).message}\n`);
    return EX_CONFIG;
  }
  let signalled = false;
  let wake: () => void = () => undefined;
  // Listen for the stop signal before starting: a stop may come while the store is still being read.
  const stop = (signal: string) => {
    log.info({ signal }, 'stopping');
    signalled = true;
    wake();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  const sleep = (ms: number) => new Promise<void>((r) => {
    const t = setTimeout(r, ms);
    wake = () => { clearTimeout(t); r(); };
  });
  // The first start must succeed (a wrong store URL is the operator's to fix). After that, a failed store (PostgreSQL
  // restarted, a disk gone) restarts the service in this process once the store answers again: nothing was
  // acknowledged that was not committed, so the broker gives the rest again and the tables fill any gap. (A full disk
  // or a read-only file is waited out inside the service, without a restart.) The waits double from 1 s to 30 s, and
  // a store that stays down is said once, not at every try.
  let first = true;
  let restarts = 0;
  let down = 0;
  const backoff = () => Math.min(30_000, 1000 * 2 ** Math.min(down++, 5));
  while (!signalled) {
    let fatal: Error | null = null;
    const failed = new Promise<void>((r) => { wake = r; });
    const service = new DirectorService({ config, log, password, onFatal: (err) => { fatal = err; wake(); } });
    try {
      await service.start();
    } catch (e) {
      await service.stop().catch(() => undefined);
      if (first) {
        log.error({ err: (e as Error).message }, 'cannot start');
        process.stderr.write(`tenace director: cannot start: ${(e as Error).message}\n`);
        return 1;
      }
      if (down === 0) log.warn({ err: (e as Error).message }, 'director: the store is not back yet; trying again with back-off');
      await sleep(backoff());
      continue;
    }
    if (first) log.info({ session: config.session, store: config.store.url.replace(/\/\/[^@/]*@/, '//'), tables: config.tables, instance: service.instance || undefined }, 'director running');
    else log.info({ restarts }, 'director: running again after the store failed');
    first = false;
    const upSince = Date.now();
    if (!signalled) await failed;
    // A service that failed at once (the store takes reads but not writes) backs off further; one that ran a while
    // starts again from the shortest wait.
    if (Date.now() - upSince > 60_000) down = 0;
    await service.stop().catch((e: unknown) => log.warn({ err: (e as Error).message }, 'director: did not stop cleanly'));
    if (fatal === null || signalled) break;
    restarts++;
    await sleep(backoff());
  }
  return 0;
}

/** The folder a `sqlite:PATH` store would be created in when it does not exist, else null (PostgreSQL, :memory:). */
export function missingSqliteFolder(url: string): string | null {
  if (!url.startsWith('sqlite:')) return null;
  const path = url.slice('sqlite:'.length);
  if (path === ':memory:') return null;
  const folder = dirname(resolve(path));
  return existsSync(folder) ? null : folder;
}
