// What every `tenace` command does with its arguments and its output: parse the arguments, answer a usage error,
// --help or --version itself, and end quietly when the reader of its output goes away.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../config/suggest.js';

/** Where a command writes (tests capture it). */
export interface CliIo {
  out(s: string): unknown;
  err(s: string): unknown;
}

/** The process's own streams. */
export const STDIO: CliIo = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

/** Exit code for a usage error (sysexits EX_USAGE). */
export const EX_USAGE = 64;

/** The package's version, from package.json (two levels up from src/cli and from dist/cli alike). */
export function tenaceVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** parseArgs' message, or for a mistyped long option "unknown option --jsno: did you mean --json?". */
function suggestion(message: string, options: readonly string[]): string {
  const typed = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
  const near = typed === undefined ? undefined : closest(typed, options);
  return near ? `unknown option --${typed}: did you mean --${near}?` : message;
}

/** --verbose and --quiet, for the commands that report as they run (emulate, listen). */
export const LOUDNESS_OPTIONS = { verbose: { type: 'boolean', short: 'v' }, quiet: { type: 'boolean', short: 'q' } } as const;

/** Print `tenace NAME: message` (then the usage text, when given) and return the usage-error exit code. */
export function usageError(io: CliIo, name: string, message: string, usage = ''): number {
  io.err(`tenace ${name}: ${message}\n${usage}`);
  return EX_USAGE;
}

/** Parse `tenace NAME` arguments; prints and returns the exit code for a usage error (64), --help or --version (0). */
export function parseCommand<const T extends ParseArgsConfig>(name: string, usage: string, config: T, io: CliIo): ReturnType<typeof parseArgs<T>> | number {
  // Every command answers --version, so it is added here rather than to each command's options.
  const options = { version: { type: 'boolean' as const }, ...config.options };
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs({ ...config, options }) as ReturnType<typeof parseArgs<T>>;
  } catch (e) {
    io.err(`tenace ${name}: ${suggestion((e as Error).message, Object.keys(options))}\n${usage}`);
    return EX_USAGE;
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.help) {
    io.out(usage);
    return 0;
  }
  if (values.version) {
    io.out(`tenace ${tenaceVersion()}\n`);
    return 0;
  }
  return parsed;
}

/** Hand SIGINT and SIGTERM to `handler` until the returned function is called; when `on` is false (tests), nothing. */
export function catchStopSignals(on: boolean, handler: (sig: NodeJS.Signals) => void): () => void {
  if (!on) return () => {};
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/**
 * When the reader of stdout or stderr goes away (`tenace replay x | head`), end quietly instead of dying of EPIPE with
 * a stack: a one-shot command exits, a long-running one shuts down as on SIGTERM so that it cleans up after itself.
 */
export function endQuietlyOnBrokenPipe(): void {
  let gone = false;
  const onError = (err: NodeJS.ErrnoException): void => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    if (gone) return;
    gone = true;
    if (process.listenerCount('SIGTERM') > 0) process.emit('SIGTERM');
    else process.exit(process.exitCode ?? 0);
  };
  process.stdout.on('error', onError);
  process.stderr.on('error', onError);
}
