// A whole table with no hardware: the firmware emulator and a scanner emulator on pseudo-terminal pairs (socat), or
// on in-process loopback wires where socat is missing (loopback.ts), the real daemon (drivers, journal, engine, feed,
// web view) on the other ends, and by default the embedded broker.
// The simulator also plays the club's part: it starts each deal (as a director's `start-deal` command would) and
// records claims, while every card goes through the emulated RFID readers and the real driver.
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../config/logger.js';
import { parseConfig, formatConfigErrors } from '../config/load.js';
import type { TableEvent } from '../formats/table-log.js';
import type { UnstampedEvent } from '../journal/index.js';
import type { BindingInterface } from '../hardware/bridge-driver.js';
import { type EmulatorLink, FirmwareEmulator, ptyLink } from '../hardware/emulator.js';
import { PtyPair, findSocat } from '../hardware/pty.js';
import { ScannerEmulator } from '../hardware/scanner-emulator.js';
import { virtualDeck, writeDeckFile } from '../hardware/deck.js';
import { type FaultPlan, parseFaultSpec } from '../hardware/emulator-faults.js';
import { Controller } from './controller.js';
import { LoopbackBinding, loopbackLink } from './loopback.js';

/** How the emulated devices reach the daemon's drivers. */
export type SerialTransport = 'pty' | 'loopback';

export interface SimulationOptions {
  /** Broker URL; undefined runs the embedded aedes broker (MQTT over WebSocket for the browser view). */
  broker?: string;
  club: string;
  table: string;
  /** Table-log events to play (deal, place, lift, claim, tray...). */
  events: readonly TableEvent[];
  /** RFID events per second, or 'max'. */
  speed: number | 'max';
  /** Journal folder, created when missing and kept; default a fresh temporary folder, removed by stop(). */
  journal?: string;
  /** HTTP port of the table view (0: any free port). */
  httpPort: number;
  faults?: string;
  log: Logger;
  /**
   * `pty`: socat pseudo-terminal pairs (the OS serial binding, as with real hardware); `loopback`: in-process wires;
   * `auto` (default): pty when socat is installed, else loopback.
   */
  serial?: SerialTransport | 'auto';
  /** Default true. False: nothing is played until `begin()` (a test opens its view first). */
  autoplay?: boolean;
  /** The club session this table plays in (config `session`): the club layer's tray records and assignments. */
  session?: string;
  /** More config lines (YAML) for the table, e.g. the club settings of a session. */
  extraConfig?: string[];
  /** MQTT protocol of the feed: 4 for a broker without MQTT 5 (an embedded aedes started elsewhere); default 5 with `broker`. */
  protocolVersion?: 4 | 5;
  /** The embargo policy of the table's public feed; default `live`. */
  embargo?: 'live' | 'deal-end' | 'tray-complete';
  /** Config `feed.analysis`: the spectators' live double-dummy analysis; default false. */
  analysis?: boolean;
}

export interface Simulation {
  controller: Controller;
  /** The journal folder in use. */
  journal: string;
  /** True when the journal folder is temporary: stop() (or the process exiting) removes it. */
  temporaryJournal: boolean;
  /** The table view, e.g. http://127.0.0.1:8080/ */
  url: string | null;
  /** The serial lines in use. */
  serial: SerialTransport;
  /** Start playing (only needed with `autoplay: false`; idempotent). */
  begin(): void;
  /** Resolves when the whole log has been played and every event is journaled and delivered (or on stop()). */
  done: Promise<void>;
  /**
   * Play more events as the autoplay does (cards through the emulated bridge, trays through the emulated scanner,
   * anything else ingested as the club layer would send it); resolves when the daemon has journaled them.
   */
  playEvents(events: readonly TableEvent[]): Promise<void>;
  stop(): Promise<void>;
}

/** The two serial lines, device ends and host ends. */
interface SerialLines {
  transport: SerialTransport;
  bridgeLink: EmulatorLink;
  bridgeHost: string;
  scannerDevice: string;
  scannerHost: string;
  /** Undefined: the OS binding. */
  binding?: BindingInterface;
  close(): Promise<void>;
}

async function serialLines(want: SerialTransport | 'auto', log: Logger): Promise<SerialLines> {
  const transport: SerialTransport = want === 'auto' ? (findSocat() ? 'pty' : 'loopback') : want;
  if (transport === 'pty') {
    const bridgePty = await PtyPair.create({ names: ['bridge-device', 'bridge-host'] });
    let scannerPty: PtyPair;
    try {
      scannerPty = await PtyPair.create({ names: ['scanner-device', 'scanner-host'] });
    } catch (e) {
      await bridgePty.close();
      throw e;
    }
    log.info({ bridge: bridgePty.b, scanner: scannerPty.b }, 'emulated devices on socat pseudo-terminal pairs');
    return {
      transport, bridgeLink: ptyLink(bridgePty), bridgeHost: bridgePty.b, scannerDevice: scannerPty.a, scannerHost: scannerPty.b,
      async close() {
        await bridgePty.close();
        await scannerPty.close();
      },
    };
  }
  const binding = new LoopbackBinding();
  const bridge = binding.pair('loopback:bridge-device', 'loopback:bridge-host');
  const scanner = binding.pair('loopback:scanner-device', 'loopback:scanner-host');
  log.info(want === 'auto' ? 'socat not found: emulated devices on in-process loopback serial lines' : 'emulated devices on in-process loopback serial lines');
  return {
    transport, bridgeLink: loopbackLink(bridge, binding), bridgeHost: bridge.b.path, scannerDevice: scanner.a.path, scannerHost: scanner.b.path,
    binding, close: async () => undefined,
  };
}

/**
 * Why `dir` cannot be the journal folder, or undefined once it exists as a writable folder (it is created when
 * missing). The sentence says what to do.
 */
export function journalDirProblem(dir: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is a file, not a folder: give a folder (it is created when missing)`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return `${dir} cannot be a folder: a part of that path is a file; give a folder path`;
    if (code !== 'ENOENT') return `cannot use ${dir} (${code}): give a folder you can write to`;
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e2) {
      const c2 = (e2 as NodeJS.ErrnoException).code;
      return c2 === 'ENOTDIR' || c2 === 'EEXIST'
        ? `cannot create the folder ${dir}: a part of that path is a file; give a folder path`
        : `cannot create the folder ${dir} (${c2}): give a folder you can write to`;
    }
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    return `${dir} is not writable by this user: give a folder you can write to`;
  }
  return undefined;
}

// Temporary journals still on disk: a process that ends without stop() (an uncaught error, process.exit) removes
// them on its way out, as PtyPair does with its socat.
const temporaryJournals = new Set<string>();
let exitHook = false;

function temporaryJournal(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tenace-sim-'));
  temporaryJournals.add(dir);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => { for (const d of temporaryJournals) rmSync(d, { recursive: true, force: true }); });
  }
  return dir;
}

function removeTemporaryJournal(dir: string): void {
  if (!temporaryJournals.delete(dir)) return;
  rmSync(dir, { recursive: true, force: true });
}

/** Start the emulated table and the daemon, and begin playing. Refused options leave nothing behind. */
export async function startSimulation(opts: SimulationOptions): Promise<Simulation> {
  // What can be refused is checked before a socat, a port or a folder exists.
  const faults = opts.faults ? parseFaultSpec(opts.faults) : undefined;
  if (opts.journal !== undefined) {
    const problem = journalDirProblem(opts.journal);
    if (problem) throw new Error(`journal: ${problem}`);
  }
  const journal = opts.journal ?? temporaryJournal();
  try {
    return await startIn(journal, faults, opts);
  } catch (e) {
    removeTemporaryJournal(journal);
    throw e;
  }
}

async function startIn(journal: string, faults: FaultPlan | undefined, opts: SimulationOptions): Promise<Simulation> {
  const deckPath = join(journal, 'virtual-deck.json');
  const deck = virtualDeck('sim');
  writeDeckFile(deckPath, deck);
  const lines = await serialLines(opts.serial ?? 'auto', opts.log);
  const yaml = [
    `club: { id: ${JSON.stringify(opts.club)} }`,
    `table: { id: ${JSON.stringify(opts.table)} }`,
    ...(opts.session ? [`session: ${JSON.stringify(opts.session)}`] : []),
    `journal: { dir: ${JSON.stringify(journal)}, fsync: group, groupCommitMs: 5 }`,
    `mqtt: { url: ${JSON.stringify(opts.broker ?? 'embedded')} }`,
    `feed: { embargo: ${opts.embargo ?? 'live'}${opts.analysis ? ', analysis: true' : ''} }`,
    `http: { port: ${opts.httpPort}, host: 127.0.0.1 }`,
    `hardware:`,
    `  decks: [${JSON.stringify(deckPath)}]`,
    `  bridges: [{ id: sim, port: ${JSON.stringify(lines.bridgeHost)}, readers: [{reader: 0, seat: N}, {reader: 1, seat: E}, {reader: 2, seat: S}, {reader: 3, seat: W}] }]`,
    `  scanner: { mode: serial, port: ${JSON.stringify(lines.scannerHost)}, terminator: cr }`,
    ...(opts.extraConfig ?? []),
  ].join('\n');
  const parsed = parseConfig(yaml, { env: {} });
  if (!parsed.ok) {
    await lines.close();
    throw new Error(`simulation config: ${formatConfigErrors(parsed.errors)}`);
  }

  const controller = new Controller({ config: parsed.config, log: opts.log, watchdog: noWatchdog, binding: lines.binding, protocolVersion: opts.protocolVersion });
  const emulator = new FirmwareEmulator({ readers: 4, faults });
  const scanner = new ScannerEmulator({ terminator: 'cr' });
  try {
    await controller.start();
    await emulator.start(lines.bridgeLink);
    await scanner.open(lines.scannerDevice, lines.binding);
  } catch (e) {
    await scanner.close().catch(() => undefined);
    await emulator.stop().catch(() => undefined);
    await controller.stop().catch(() => undefined);
    await lines.close();
    throw e;
  }

  const abort = new AbortController();
  let begin!: () => void;
  const gate = new Promise<void>((r) => { begin = r; });
  abort.signal.addEventListener('abort', () => begin());
  if (opts.autoplay !== false) begin();
  const done = gate.then(() => play(opts.events, opts, controller, emulator, scanner, deck, abort.signal));
  done.catch((err) => opts.log.error({ err }, 'simulation stopped'));
  let stopping: Promise<void> | null = null;
  return {
    controller,
    journal,
    temporaryJournal: opts.journal === undefined,
    url: controller.web?.url ?? null,
    serial: lines.transport,
    begin: () => begin(),
    done,
    playEvents: (events) => play(events, opts, controller, emulator, scanner, deck, abort.signal),
    stop() {
      stopping ??= (async () => {
        abort.abort();
        await done.catch(() => undefined);
        await scanner.close();
        await emulator.stop();
        await controller.stop();
        await lines.close();
        removeTemporaryJournal(journal);
      })();
      return stopping;
    },
  };
}

/**
 * Play the log in order: runs of place/lift go through the emulated bridge; before any other event the run is
 * waited for until the daemon has journaled all of it, then the event goes in as the club layer would send it.
 */
async function play(events: readonly TableEvent[], opts: SimulationOptions, c: Controller, emulator: FirmwareEmulator, scanner: ScannerEmulator,
  deck: ReturnType<typeof virtualDeck>, signal: AbortSignal): Promise<void> {
  let run: TableEvent[] = [];
  // Each wait counts from the journal as it stands: the club layer may journal events of its own (a scan's deal).
  const flush = async () => {
    if (run.length === 0) return;
    const expected = c.journal.lastSeq + run.length;
    await emulator.play(run, { deck, speed: opts.speed, signal });
    run = [];
    await until(() => c.journal.lastSeq >= expected || signal.aborted, 15_000, 'the daemon to journal the played cards');
  };
  for (const ev of events) {
    if (signal.aborted) return;
    if (ev.type === 'place' || ev.type === 'lift') {
      run.push(ev);
      continue;
    }
    await flush();
    if (ev.type === 'tray') {
      const expected = c.journal.lastSeq + 1;
      await scanner.scan(ev.code);
      await until(() => c.journal.lastSeq >= expected || signal.aborted, 5000, 'the tray scan');
      continue;
    }
    const { seq: _s, at: _a, ...rest } = ev;
    await c.ingest(rest as UnstampedEvent);
    if (opts.speed !== 'max') await sleep(1000 / opts.speed);
  }
  await flush();
  // However long the broker takes: the journal holds the events meanwhile, and stop() (the abort) ends the wait.
  await c.feed?.whenDelivered(c.journal.lastSeq, Infinity, signal).catch((e: Error) => { if (!signal.aborted) throw e; });
}

const noWatchdog = { enabled: false, intervalMs: undefined, ready() {}, status() {}, ping() {}, stop: async () => {} };

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
