// `tenace simulate`: an emulated table (firmware bridge, tray scanner), the real daemon, and by default an embedded
// broker with the browser table view. `npm start` runs it with the four Hoyle illustrative hands.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../config/logger.js';
import type { TableEvent } from '../formats/table-log.js';
import { startSimulation } from '../daemon/simulation.js';
import { EX_USAGE, STDIO, parseCommand } from './args.js';
import { loadLog } from './load-log.js';

const USAGE = 'usage: tenace simulate [--broker URL] [--club C] [--table T] [--play FILE]... [--speed X|max] [--journal DIR] [--http-port P] [--faults SPEC] [--serial auto|pty|loopback] [--exit]\n';
const SEED_HANDS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'seed-hands');

/** Run the simulation; with --exit it stops once the log is played, else on SIGINT/SIGTERM. */
export async function simulateCommand(argv: string[]): Promise<number> {
  const args = parseCommand('simulate', USAGE, {
      args: argv,
      options: {
        broker: { type: 'string' }, club: { type: 'string' }, table: { type: 'string' }, play: { type: 'string', multiple: true },
        speed: { type: 'string' }, journal: { type: 'string' }, 'http-port': { type: 'string' }, faults: { type: 'string' },
        exit: { type: 'boolean' }, 'log-level': { type: 'string' }, serial: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
    }, STDIO);
  if (typeof args === 'number') return args;
  const v = args.values;
  const speed = v.speed === undefined ? 4 : v.speed === 'max' ? 'max' : Number(v.speed);
  if (speed !== 'max' && !(speed > 0)) {
    process.stderr.write(`tenace simulate: --speed must be a positive number of events per second or "max"\n${USAGE}`);
    return EX_USAGE;
  }
  const httpPort = v['http-port'] === undefined ? 8080 : Number(v['http-port']);
  if (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535) {
    process.stderr.write(`tenace simulate: --http-port must be a TCP port from 0 to 65535 (0 picks a free one)\n${USAGE}`);
    return EX_USAGE;
  }
  const serial = v.serial ?? 'auto';
  if (serial !== 'auto' && serial !== 'pty' && serial !== 'loopback') {
    process.stderr.write(`tenace simulate: --serial must be auto (socat pty pairs when socat is installed, else in-process), pty or loopback\n${USAGE}`);
    return EX_USAGE;
  }
  const files = v.play ?? [1, 2, 3, 4].map((n) => join(SEED_HANDS, `hand${n}.ndjson`));
  const events: TableEvent[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch (e) {
      process.stderr.write(`tenace simulate: cannot read ${f}: ${(e as Error).message}\n`);
      return 66;
    }
    const log = loadLog(text, f);
    for (const e of log.errors) process.stderr.write(`${f}:${e.line}: ${e.message}\n`);
    events.push(...log.events);
  }
  const log = createLogger({ log: { level: (v['log-level'] ?? 'warn') as 'warn' } });
  const sim = await startSimulation({
    broker: v.broker, club: v.club ?? 'demo', table: v.table ?? '1', events, speed,
    journal: v.journal, httpPort, faults: v.faults, log, serial,
  });
  process.stdout.write(sim.serial === 'pty'
    ? 'tenace: emulated devices on socat pseudo-terminal pairs\n'
    : `tenace: emulated devices on in-process serial lines${serial === 'auto' ? ' (socat is not installed)' : ''}\n`);
  if (!sim.url && !v.broker) process.stderr.write(`tenace simulate: the table view did not start (is port ${httpPort} in use? try --http-port 0)\n`);
  if (sim.url) process.stdout.write(`tenace: table view at ${sim.url}${v.broker ? '' : ' (embedded broker, MQTT over WebSocket at /mqtt)'}\n`);
  process.stdout.write(`tenace: playing ${events.length} events from ${files.length} file(s) at ${speed === 'max' ? 'full speed' : `${speed} events/s`}\n`);
  const finished = sim.done.then(() => 'done' as const, (err: Error) => { process.stderr.write(`tenace simulate: ${err.message}\n`); return 'failed' as const; });
  let onSignal = (): void => undefined;
  const signalled = new Promise<'signal'>((r) => { onSignal = () => r('signal'); });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    let outcome = await Promise.race([finished, signalled]);
    if (outcome === 'done') {
      const r = sim.controller.table.results().at(-1);
      process.stdout.write(`tenace: all played; last deal: board ${r?.board ?? '?'}, N-S ${r?.tricksWon.NS ?? 0}, E-W ${r?.tricksWon.EW ?? 0}\n`);
      if (!v.exit) outcome = await signalled;
    }
    return outcome === 'failed' ? 1 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await sim.stop();
  }
}
