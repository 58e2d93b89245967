// Imported first by src/cli/main.ts, so that it runs before any other module of the CLI is loaded or parsed: for
// `tenace run` alone, V8's lite mode (the interpreter only, no optimizing compilers; feedback vectors allocated
// lazily). A table daemon does a few small things a second, and on a Pi Zero 2 W with 512 MB for everything its
// resident memory matters more than its peak speed (issue 20). Set here rather than in src/daemon/heap.ts: by the
// time run.ts's imports are evaluated their sources are already parsed, and the flag saved 4 MB less (bench/README.md
// `daemon` (b)). Only `run`: replay, analyse and the simulators need the optimizing compilers.
import { setFlagsFromString } from 'node:v8';

/** The V8 flag `tenace run` sets as it starts (the log and the tests name it). */
export const DAEMON_LITE_FLAG = '--lite-mode';

/** True when this process was started as `tenace run` (the command is argv[2], as src/cli/main.ts reads it). */
export function isDaemonCommand(argv: readonly string[] = process.argv): boolean {
  return argv[2] === 'run';
}

if (isDaemonCommand()) setFlagsFromString(DAEMON_LITE_FLAG);
