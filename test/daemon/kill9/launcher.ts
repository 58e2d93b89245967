// A warm start for the kill -9 test: `node launcher.mjs run --config FILE` loads the daemon's code (bundled by
// esbuild), the serialport binding and the config validator, then waits for a `go` line on stdin, and then runs
// `tenace run --config FILE` (src/cli/run.ts, what src/cli/main.ts dispatches `run` to). Before `go` it touches nothing
// of the table: no journal, no port, no broker. Loading the code is most of a start-up on a loaded two-core machine,
// and the test restarts the daemon thirty-odd times; with a launcher kept warm, a restart costs what the daemon's own
// start costs: config, journal repair and lock takeover, broker connection, bridge resynchronisation.
import { createInterface } from 'node:readline';
import { runCommand } from '../../../src/cli/run.js';
import { parseConfig } from '../../../src/config/load.js';

const [command, ...args] = process.argv.slice(2);
if (command !== 'run') {
  process.stderr.write('usage: launcher.mjs run --config FILE\n');
  process.exit(64);
}
// The driver loads serialport (and its native binding) lazily; the validator is compiled on first use.
await import('serialport');
parseConfig('club: { id: warm }\ntable: { id: up }\n', { env: {} });

// For the test's statistics only: a line that says the launcher is ready (the daemon's own lines follow it).
process.stdout.write('{"msg":"launcher warm"}\n');

const rl = createInterface({ input: process.stdin });
const go = await new Promise<boolean>((resolve) => {
  rl.once('line', (line) => resolve(line === 'go'));
  rl.once('close', () => resolve(false));
});
rl.close();
process.stdin.destroy();
if (!go) process.exit(0);
process.exitCode = await runCommand(args);
