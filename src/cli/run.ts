// `tenace run --config FILE`: the table daemon. Exit 78 for a bad config; otherwise runs until SIGTERM/SIGINT.
import { readFileSync } from 'node:fs';
import { checkConfigFiles, formatConfigErrors, loadConfig } from '../config/load.js';
import { createLogger } from '../config/logger.js';
import { Controller } from '../daemon/controller.js';
import { EX_USAGE, STDIO, parseCommand } from './args.js';

const USAGE = 'usage: tenace run --config FILE   (or set TENACE_CONFIG)\n';

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
  for (const w of loaded.warnings) log.warn({ path: w.path }, w.message);
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
  await controller.start();
  await stopped;
  await controller.stop();
  return 0;
}
