// What every `tenace` command does with its arguments: parse them, and answer a usage error or --help itself.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a command writes (tests capture it). */
export interface CliIo {
  out(s: string): unknown;
  err(s: string): unknown;
}

/** The process's own streams. */
export const STDIO: CliIo = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

/** Exit code for a usage error (sysexits EX_USAGE). */
export const EX_USAGE = 64;

/** Parse `tenace NAME` arguments; prints and returns the exit code for a usage error (64) or --help (0). */
export function parseCommand<const T extends ParseArgsConfig>(name: string, usage: string, config: T, io: CliIo): ReturnType<typeof parseArgs<T>> | number {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (e) {
    io.err(`tenace ${name}: ${(e as Error).message}\n${usage}`);
    return EX_USAGE;
  }
  if ((parsed.values as Record<string, unknown>).help) {
    io.out(usage);
    return 0;
  }
  return parsed;
}
