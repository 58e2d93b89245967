// `tenace run --config FILE`: the table daemon. Exit 78 for a bad config, 75 when another process holds the journal,
// 1 when it cannot start for another reason; otherwise it runs until SIGTERM/SIGINT.
// First: it tunes the heap before the daemon's modules are loaded (ES modules are evaluated in import order).
import '../daemon/heap.js';
import { readFileSync } from 'node:fs';
import { checkConfigDevices, checkConfigFiles, formatConfigErrors, loadConfig } from '../config/load.js';
import { createLogger } from '../config/logger.js';
import { Controller } from '../daemon/controller.js';
import { JournalLockedError } from '../journal/lock.js';
import { EX_USAGE, STDIO, parseCommand } from './args.js';

const USAGE = 'usage: tenace run --config FILE   (or set TENACE_CONFIG)\n';
/** sysexits EX_TEMPFAIL: the journal is in use by another daemon; starting again once it has stopped will work. */
export const EX_JOURNAL_IN_USE = 75;

/** Run the daemon; resolves to the exit code once it has stopped. */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseCommand('run', USAGE, { args: argv, options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } } }, STDIO);
  if (typeof args === 'number') return args;
  const file = args.values.config ?? process.env.TENACE_CONFIG;
  if (!file) {
    process.stderr.write(USAGE);
    return EX_USAGE;
  }
  const loaded = loadConfig(file);
  const errors = loaded.ok ? checkConfigFiles(loaded.config) : loaded.errors;
  if (!loaded.ok || errors.length) {
    process.stderr.write(`tenace run: the config cannot be used:\n${formatConfigErrors(errors, file)}\n`);
    return 78;
  }
  const config = loaded.config;
  const log = createLogger(config);
  for (const w of [...loaded.warnings, ...checkConfigDevices(config)]) log.warn({ path: w.path }, w.message);
  const password = config.mqtt.passwordFile ? readFileSync(config.mqtt.passwordFile, 'utf8').split('\n')[0] : undefined;
  const controller = new Controller({ config, log, password });
  // Listen for the stop signal before starting: systemd may stop us while the journal is still replaying.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.info({ signal }, 'stopping');
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  try {
    await controller.start();
  } catch (e) {
    // One clear line, not a stack: these are an operator's mistakes (a second daemon, a folder it cannot write).
    await controller.stop().catch(() => undefined);
    log.error({ err: (e as Error).message }, 'cannot start');
    process.stderr.write(`tenace run: cannot start: ${(e as Error).message}\n`);
    return e instanceof JournalLockedError ? EX_JOURNAL_IN_USE : 1;
  }
  await stopped;
  await controller.stop();
  return 0;
}
