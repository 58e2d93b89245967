// `tenace simulate`: an emulated table (firmware bridge, tray scanner), the real daemon, and by default an embedded
// broker with the browser table view. `npm start` runs it with the demo deals in demo/.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleLogger } from '../config/console-log.js';
import type { TableEvent } from '../formats/table-log.js';
import { type Simulation, journalDirProblem, startSimulation } from '../daemon/simulation.js';
import { FaultSpecError, parseFaultSpec } from '../hardware/emulator-faults.js';
import { JournalLockedError } from '../journal/lock.js';
import { EX_USAGE, STDIO, parseCommand } from './args.js';
import { EX_JOURNAL_IN_USE } from './run.js';
import { loadLog } from './load-log.js';

const USAGE = 'usage: tenace simulate [--broker URL] [--club C] [--table T] [--play FILE]... [--speed X|max] [--journal DIR] [--http-port P] [--faults SPEC] [--serial auto|pty|loopback] [--exit] [--broker-wait S] [--log-level L] [--log-json]\n'
  + '  --journal DIR    keep the journal in DIR (created when missing); without it a temporary folder is used and removed on exit\n'
  + '  --broker-wait S  with --broker and --exit: give up after S seconds without the broker (default 30)\n'
  + '  --log-json       the log as JSON lines even on a terminal (it is JSON whenever stdout is not a terminal)\n';
/** sysexits: EX_UNAVAILABLE (no broker), EX_CANTCREAT (journal folder). */
const EX_UNAVAILABLE = 69;
const EX_CANTCREAT = 73;
const DEMO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'demo');
/** What `npm start` plays (demo/README.md): a bridge contract, then a whist deal with a renounce, a lead out of turn and a fouled tray. */
export const DEMO_DEALS: readonly string[] = ['1-bridge-4S.ndjson', '2-whist-irregularities.ndjson'].map((f) => join(DEMO, f));

/** Run the simulation; with --exit it stops once the log is played, else on SIGINT/SIGTERM. */
export async function simulateCommand(argv: string[]): Promise<number> {
  const args = parseCommand('simulate', USAGE, {
      args: argv,
      options: {
        broker: { type: 'string' }, club: { type: 'string' }, table: { type: 'string' }, play: { type: 'string', multiple: true },
        speed: { type: 'string' }, journal: { type: 'string' }, 'http-port': { type: 'string' }, faults: { type: 'string' },
        exit: { type: 'boolean' }, 'log-level': { type: 'string' }, 'log-json': { type: 'boolean' }, serial: { type: 'string' }, 'broker-wait': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
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
  const brokerWait = v['broker-wait'] === undefined ? 30 : Number(v['broker-wait']);
  if (!(brokerWait > 0)) {
    process.stderr.write(`tenace simulate: --broker-wait must be a positive number of seconds\n${USAGE}`);
    return EX_USAGE;
  }
  try {
    if (v.faults !== undefined) parseFaultSpec(v.faults);
  } catch (e) {
    if (!(e instanceof FaultSpecError)) throw e;
    process.stderr.write(`tenace simulate: --faults: ${e.message}\n${USAGE}`);
    return EX_USAGE;
  }
  const journalProblem = v.journal === undefined ? undefined : journalDirProblem(v.journal);
  if (journalProblem) {
    process.stderr.write(`tenace simulate: --journal: ${journalProblem}\n`);
    return EX_CANTCREAT;
  }
  const files = v.play ?? DEMO_DEALS;
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
  const log = consoleLogger({ level: v['log-level'] ?? 'warn', fd: 1, logJson: v['log-json'] });
  // Signals count from here: a Ctrl-C while the table starts still stops it cleanly (no socat or folder left behind),
  // and a second one exits at once, through the exit hooks that kill socat and remove the temporary journal.
  let signals = 0;
  let onSignal = (): void => undefined;
  const signalled = new Promise<'signal'>((r) => {
    onSignal = () => {
      if (++signals > 1) process.exit(130);
      r('signal');
    };
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let sim: Simulation | undefined;
  let watch: BrokerWatch | undefined;
  try {
    try {
      sim = await startSimulation({
        broker: v.broker, club: v.club ?? 'demo', table: v.table ?? '1', events, speed,
        journal: v.journal, httpPort, faults: v.faults, log, serial,
      });
    } catch (e) {
      process.stderr.write(`tenace simulate: ${(e as Error).message}\n`);
      return e instanceof JournalLockedError ? EX_JOURNAL_IN_USE : 1;
    }
    process.stdout.write(`tenace: journal in ${sim.journal}${sim.temporaryJournal ? ' (temporary: removed on exit; --journal DIR keeps one)' : ''}\n`);
    process.stdout.write(sim.serial === 'pty'
      ? 'tenace: emulated devices on socat pseudo-terminal pairs\n'
      : `tenace: emulated devices on in-process serial lines${serial === 'auto' ? ' (socat is not installed)' : ''}\n`);
    if (!sim.url && !v.broker) process.stderr.write(`tenace simulate: the table view did not start (is port ${httpPort} in use? try --http-port 0)\n`);
    if (sim.url) {
      process.stdout.write(`tenace: table view at ${sim.url}${v.broker ? '' : ' (embedded broker, MQTT over WebSocket at /mqtt)'}\n`);
      process.stdout.write(`tenace: director view at ${sim.url}?director=1 (the hands still held, and every finding as it happens)\n`);
      process.stdout.write(`tenace: table terminal at ${sim.url}terminal/ (PIN ${sim.controller.terminalPin}: the players enter the contract, claims and the result)\n`);
    }
    process.stdout.write(`tenace: playing ${events.length} events from ${v.play ? `${files.length} file(s)` : 'the demo deals in demo/'} at ${speed === 'max' ? 'full speed' : `${speed} events/s`}\n`);
    if (v.broker) watch = watchBroker(sim, v.broker, v.exit ? brokerWait : undefined);
    const finished = sim.done.then(() => 'done' as const, (err: Error) => { process.stderr.write(`tenace simulate: ${err.message}\n`); return 'failed' as const; });
    const racers = [finished, signalled, ...(watch ? [watch.gaveUp] : [])];
    let outcome = await Promise.race(racers);
    if (outcome === 'done') {
      const r = sim.controller.table.results().at(-1);
      const penalties = r && (r.scored.NS !== r.tricksWon.NS || r.scored.EW !== r.tricksWon.EW) ? ` (after penalties N-S ${r.scored.NS}, E-W ${r.scored.EW})` : '';
      process.stdout.write(`tenace: all played; last deal: board ${r?.board ?? '?'}, N-S ${r?.tricksWon.NS ?? 0}, E-W ${r?.tricksWon.EW ?? 0}${penalties}\n`);
      if (!v.exit) outcome = await signalled;
    }
    return outcome === 'failed' ? 1 : outcome === 'no-broker' ? EX_UNAVAILABLE : 0;
  } finally {
    watch?.stop();
    await sim?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

interface BrokerWatch {
  /** Resolves when --exit gives up on the broker. */
  gaveUp: Promise<'no-broker'>;
  stop(): void;
}

/**
 * Say when the table waits for an external broker (and where), and when it is reached. With `giveUpS`, give up after
 * that long without a connection, with a sentence that says what to do.
 */
function watchBroker(sim: Simulation, url: string, giveUpS?: number): BrokerWatch {
  const feed = sim.controller.feed!;
  let waiting = false;
  let giveUp: NodeJS.Timeout | undefined;
  let resolveGaveUp!: (r: 'no-broker') => void;
  const gaveUp = new Promise<'no-broker'>((r) => { resolveGaveUp = r; });
  const armGiveUp = () => {
    if (giveUpS === undefined || giveUp) return;
    giveUp = setTimeout(() => {
      process.stderr.write(`tenace simulate: no broker at ${url} after ${giveUpS} s: start it (is mosquitto running?), or leave out --broker to use the embedded one\n`);
      resolveGaveUp('no-broker');
    }, giveUpS * 1000);
  };
  const say = setTimeout(() => {
    if (feed.connected) return;
    waiting = true;
    process.stdout.write(`tenace: waiting for the broker at ${url}; the events wait in the journal${giveUpS === undefined ? '' : ` (giving up after ${giveUpS} s)`}\n`);
  }, 1000);
  const onConnect = () => {
    clearTimeout(giveUp);
    giveUp = undefined;
    if (waiting) process.stdout.write(`tenace: connected to the broker at ${url}\n`);
    waiting = false;
  };
  const onClose = () => armGiveUp();
  feed.on('connect', onConnect);
  feed.on('close', onClose);
  if (!feed.connected) armGiveUp();
  return {
    gaveUp,
    stop() {
      clearTimeout(say);
      clearTimeout(giveUp);
      feed.off('connect', onConnect);
      feed.off('close', onClose);
    },
  };
}
