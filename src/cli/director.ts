// `tenace director --config club.yaml [--db PATH]`: the director service (docs/club.md). Exit 78 for a bad config,
// 1 when it cannot start (the store, the schedule); otherwise it runs until SIGTERM/SIGINT and stops cleanly.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatConfigErrors } from '../config/load.js';
import { createLogger } from '../config/logger.js';
import { loadDirectorConfig, publishedDirectorSchemaText } from '../club/director/config.js';
import { DirectorService } from '../club/director/service.js';
import { EX_USAGE, STDIO, parseCommand } from './args.js';

const USAGE = `usage: tenace director --config FILE [--db PATH] [--check] [--schema]
  --config FILE  the director's YAML config (config/club.example.yaml)
  --db PATH      a SQLite database file, instead of the config's store.url
  --check        check the config, print "ok: ..." and exit (0 valid, 78 invalid)
  --schema       print the config's JSON Schema (config/club.schema.json) and exit
`;

const EX_CONFIG = 78;

/** Run `tenace director`; resolves to the exit code once it has stopped. */
export async function directorCommand(argv: string[]): Promise<number> {
  const args = parseCommand('director', USAGE, {
    args: argv,
    options: {
      config: { type: 'string', short: 'c' }, db: { type: 'string' }, check: { type: 'boolean' }, schema: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }, STDIO);
  if (typeof args === 'number') return args;
  if (args.values.schema) {
    process.stdout.write(publishedDirectorSchemaText());
    return 0;
  }
  const file = args.values.config;
  if (!file) {
    process.stderr.write(USAGE);
    return EX_USAGE;
  }
  const loaded = loadDirectorConfig(file);
  if (!loaded.ok) {
    process.stderr.write(`tenace director: the config cannot be used:\n${formatConfigErrors(loaded.errors, file)}`);
    return EX_CONFIG;
  }
  const config = loaded.config;
  if (args.values.db) config.store.url = `sqlite:${resolve(args.values.db)}`;
  if (args.values.check) {
    process.stdout.write(`ok: club ${config.club.id} session ${config.session}, ${config.movement.name} on ${config.movement.tables} tables (${config.tables.join(', ')}), ${config.variant}, mqtt ${config.mqtt.url} under ${config.mqtt.baseTopic}/${config.club.id}/, store ${config.store.url.replace(/\/\/[^@/]*@/, '//')}\n`);
    return 0;
  }
  const log = createLogger({ log: config.log, club: config.club });
  let password: string | undefined;
  try {
    password = config.mqtt.passwordFile ? readFileSync(config.mqtt.passwordFile, 'utf8').split('\n')[0] : undefined;
  } catch (e) {
    process.stderr.write(`tenace director: mqtt.passwordFile: ${(e as Error).message}\n`);
    return EX_CONFIG;
  }
  let fatal: Error | null = null;
  let wake: () => void = () => undefined;
  // Listen for the stop signal before starting: a stop may come while the store is still being read.
  const stopped = new Promise<void>((r) => {
    wake = r;
    const stop = (signal: string) => {
      log.info({ signal }, 'stopping');
      r();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  let service: DirectorService | undefined;
  try {
    service = new DirectorService({ config, log, password, onFatal: (err) => { fatal = err; wake(); } });
    await service.start();
  } catch (e) {
    await service?.stop().catch(() => undefined);
    log.error({ err: (e as Error).message }, 'cannot start');
    process.stderr.write(`tenace director: cannot start: ${(e as Error).message}\n`);
    return 1;
  }
  log.info({ session: config.session, store: config.store.url.replace(/\/\/[^@/]*@/, '//'), tables: config.tables }, 'director running');
  await stopped;
  await service!.stop();
  return fatal ? 1 : 0;
}
