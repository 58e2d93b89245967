// Imported first by src/cli/main.ts, so that it runs before any other module of the CLI is loaded or parsed: for
// `tenace run` alone, V8 tuned for memory rather than speed (issue 20). A table daemon does a few small things a
// second, and on a Pi Zero 2 W with 512 MB for everything its resident memory matters more than its peak speed.
// - --no-opt: no TurboFan. Optimising the start-up code and its hot loops cost the daemon megabytes of compiler
//   memory and of the node binary's compiler pages; the interpreter and Sparkplug (the baseline compiler) remain.
// - --optimize-for-size: smaller heap growth and caches. Alone it saved nothing; with --no-opt, 9 MB idle.
// - --semi-space-growth-factor=1: the young generation kept at its first size. src/daemon/heap.ts sets it too, but
//   only once run.ts's imports are parsed, and by then their start-up garbage had grown it to 6.8 MB (3.3 MB of RSS).
// Not --lite-mode, which saves about 1 MB more: it implies --jitless, and set at run time (the daemon cannot be given
// flags on node's command line: systemd, npm's bin shim and the bench start it as `node <script> run`) WebAssembly
// then crashes the process (a segfault in `tenace run` under tsx, whose module lexer is WebAssembly).
// Set here rather than in src/daemon/heap.ts: by the time run.ts's imports are evaluated their sources are already
// parsed and the flags saved 4 MB less (bench/README.md `daemon` (b)). Only `run`: replay, analyse and the simulators
// need the optimising compiler. node:v8 is imported only then: it loads a dozen internal modules (issue 20, replay).

/** The V8 flags `tenace run` sets as it starts (bench/README.md names them). */
export const DAEMON_LEAN_FLAGS = '--optimize-for-size --no-opt --semi-space-growth-factor=1';

/** True when this process was started as `tenace run` (the command is argv[2], as src/cli/main.ts reads it). */
export function isDaemonCommand(argv: readonly string[] = process.argv): boolean {
  return argv[2] === 'run';
}

if (isDaemonCommand()) (await import('node:v8')).setFlagsFromString(DAEMON_LEAN_FLAGS);
