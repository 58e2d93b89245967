// The entry of the bundled table daemon, dist/bundle/main.js (scripts/bundle-daemon.mjs): `tenace run` and nothing
// else. bin/tenace.mjs hands `run` to it when it is built. One folder of minified modules instead of some two hundred
// files: on a Pi Zero 2 W the daemon starts sooner and holds less of their source and code (bench/README.md,
// `daemon` (b) and (c)). Every other command runs from dist/cli/main.js, as before.
import './lean.js';

if (process.argv[2] !== 'run') {
  process.stderr.write(`tenace: ${process.argv[1]} runs \`tenace run\` only; run the other commands through bin/tenace.mjs\n`);
  process.exitCode = 64;
} else {
  (await import('./args.js')).endQuietlyOnBrokenPipe();
  const { runCommand } = await import('./run.js');
  process.exitCode = await runCommand(process.argv.slice(3));
}
