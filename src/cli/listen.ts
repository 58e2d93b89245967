// `tenace listen --port PATH --deck FILE [--deck FILE2] --log OUT.ndjson [--bridge ID] [--map r0=N,r1=E,r2=S,r3=W]
//                [--idle-exit MS] [--heartbeat-timeout MS] [--stamp] [--wait] [--verbose | --quiet]`
//
// The real seat-reader driver on one bridge: every place/lift it sees is appended to OUT as one
// TableEvent per line (DESIGN §4), written with one write(2) per line so nothing sits in a buffer.
// Runs until SIGINT/SIGTERM (or `--idle-exit MS` without an event), then closes the port and the
// file cleanly. Status and diagnostics go to stderr; a lost port is reopened, never fatal. A port that is not there
// at the start is a mistake more often than a bridge still to be plugged in: exit 66 naming it, unless --wait.
//
// Restarting on an existing OUT continues it: the cards that OUT says are on the table seed the
// driver's presence set, and the `src` of its last line from this bridge is where the driver
// resumes: it asks the bridge for the lines after it (`since`), so what happened meanwhile comes
// in order, never twice; if the bridge has reset since, a snapshot reconciles it, order unknown.
import { type CliIo, LOUDNESS_OPTIONS, STDIO, catchStopSignals, parseCommand, usageError } from './args.js';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import {
  type BindingInterface,
  BridgeDriver,
  type Logger,
  presenceFromEvents,
  type ResumePoint,
  resumePoints,
  type SeatEvent,
} from '../hardware/bridge-driver.js';
import { DeckSet, loadDecks } from '../hardware/deck.js';
import { SeatMap } from '../hardware/seat-map.js';
import { deviceProblem } from '../config/devices.js';

/** sysexits EX_NOINPUT: the serial port cannot be opened. */
export const EX_NOINPUT = 66;

export interface ListenDeps {
  io?: CliIo;
  /** serialport binding (tests: MockBinding); with one, the port is not looked for on the file system. */
  binding?: BindingInterface;
  /** Install SIGINT/SIGTERM handlers (default true). */
  signals?: boolean;
  /** Called once the driver is created (tests use it to watch or stop it). */
  onDriver?: (driver: BridgeDriver, stop: () => void) => void;
}

const USAGE = `usage: tenace listen --port PATH --deck FILE [--deck FILE2] --log OUT.ndjson [--bridge ID]
                     [--map r0=N,r1=E,r2=S,r3=W] [--idle-exit MS] [--heartbeat-timeout MS] [--stamp] [--wait] [--verbose | --quiet]
  PATH: prefer /dev/serial/by-id/usb-... or /dev/tenace-bridge-<serial> (stable across replugging)
  --wait: wait for PATH to appear instead of exiting 66 when it cannot be opened
`;

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;

/** A logger of the driver's shape writing one readable line per record. */
export function textLogger(write: (s: string) => unknown, min: keyof typeof LEVELS, prefix: string): Logger {
  const make = (level: keyof typeof LEVELS) => (obj: object, msg?: string) => {
    if (LEVELS[level] < LEVELS[min]) return;
    const fields = Object.entries(obj)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    write(`${prefix}: ${level === 'info' ? '' : `${level}: `}${msg ?? ''}${fields ? ` (${fields})` : ''}\n`);
  };
  return { debug: make('debug'), info: make('info'), warn: make('warn'), error: make('error') };
}

function positiveInt(s: string | undefined, name: string): number | undefined | Error {
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isInteger(n) || n <= 0) return new Error(`${name} must be a positive integer (milliseconds), got "${s}"`);
  return n;
}

export async function listenCommand(argv: string[], deps: ListenDeps = {}): Promise<number> {
  const io = deps.io ?? STDIO;
  const args = parseCommand('listen', USAGE, {
      args: argv,
      options: {
        port: { type: 'string', short: 'p' },
        deck: { type: 'string', multiple: true },
        log: { type: 'string' },
        bridge: { type: 'string' },
        map: { type: 'string' },
        'idle-exit': { type: 'string' },
        'heartbeat-timeout': { type: 'string' },
        stamp: { type: 'boolean' },
        wait: { type: 'boolean' },
        ...LOUDNESS_OPTIONS,
        help: { type: 'boolean', short: 'h' },
      },
    }, io);
  if (typeof args === 'number') return args;
  const v = args.values;
  if (!v.port || !v.log) return usageError(io, 'listen', '--port and --log are required', USAGE);
  const idleArg = positiveInt(v['idle-exit'], '--idle-exit');
  const hbArg = positiveInt(v['heartbeat-timeout'], '--heartbeat-timeout');
  for (const x of [idleArg, hbArg]) {
    if (x instanceof Error) return usageError(io, 'listen', x.message);
  }
  const idle = idleArg as number | undefined;
  const hbTimeout = hbArg as number | undefined;
  const bridgeId = v.bridge ?? basename(v.port);
  let seatMap: SeatMap;
  try {
    seatMap = v.map ? SeatMap.parseSpec(v.map, bridgeId) : SeatMap.default(bridgeId);
  } catch (e) {
    io.err(`tenace listen: --map: ${(e as Error).message}\n`);
    return 64;
  }
  const log = textLogger(io.err, v.verbose ? 'debug' : v.quiet ? 'warn' : 'info', 'tenace listen');
  let decks: DeckSet;
  try {
    decks = loadDecks(v.deck ?? []);
  } catch (e) {
    io.err(`tenace listen: ${(e as Error).message}\n`);
    return 65;
  }
  if (decks.size === 0) log.warn({}, 'no --deck given: every tag will be reported as unknown');
  // Checked before the log file is made: a mistyped port leaves nothing behind.
  const portProblem = deps.binding ? undefined : deviceProblem(v.port, 'bridge');
  if (portProblem && !v.wait) {
    io.err(`tenace listen: --port: ${portProblem}; or add --wait to wait for it\n`);
    return EX_NOINPUT;
  }
  if (portProblem) log.warn({}, `--wait: waiting for the port: ${portProblem}`);

  // Continue an existing log: what it says is on the table seeds the presence set.
  let initial: ReturnType<typeof presenceFromEvents> = [];
  let resume: ResumePoint | undefined;
  if (existsSync(v.log)) {
    try {
      const lines = readFileSync(v.log, 'utf8').split('\n');
      const events: unknown[] = [];
      for (const l of lines) {
        if (l.trim() === '') continue;
        try {
          events.push(JSON.parse(l));
        } catch {
          /* a torn last line from a crash: ignore it */
        }
      }
      initial = presenceFromEvents(events);
      if (initial.length) log.info({ cards: initial.length }, `continuing ${v.log}: cards on the table`);
      resume = resumePoints(events).get(bridgeId);
      if (resume) log.info({}, `continuing ${v.log}: resuming after boot ${resume.boot} seq ${resume.seq}`);
    } catch (e) {
      io.err(`tenace listen: cannot read ${v.log}: ${(e as Error).message}\n`);
      return 66;
    }
  }
  let fd: number;
  try {
    fd = openSync(v.log, 'a');
  } catch (e) {
    io.err(`tenace listen: cannot open ${v.log}: ${(e as Error).message}\n`);
    return 73;
  }

  const driver = new BridgeDriver({
    path: v.port,
    bridgeId,
    binding: deps.binding,
    seatMap,
    decks,
    initialPresence: initial,
    resume,
    heartbeatTimeoutMs: hbTimeout,
    logger: log,
  });

  let finish!: (why: string) => void;
  const done = new Promise<string>((res) => (finish = res));
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdle = () => {
    if (idle === undefined) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => finish(`no event for ${idle} ms`), idle);
  };
  let writeError: Error | undefined;
  driver.on('event', (ev: SeatEvent) => {
    const line = JSON.stringify(v.stamp ? { ...ev, at: new Date().toISOString() } : ev) + '\n';
    try {
      writeSync(fd, line);
    } catch (e) {
      writeError = e as Error;
      finish(`cannot write ${v.log}: ${(e as Error).message}`);
    }
    armIdle();
  });
  driver.on('bridge-status', (s) => {
    const lvl = s.status === 'online' || s.status === 'connecting' || s.status === 'stopped' ? 'info' : s.status === 'incompatible' ? 'error' : 'warn';
    log[lvl]({ bridge: s.bridge, ...(s.fw ? { fw: s.fw } : {}) }, `bridge ${s.status}${s.detail ? `: ${s.detail}` : ''}`);
  });
  driver.on('reader-status', (s) => {
    log[s.status === 'ok' ? 'info' : 'warn']({ bridge: s.bridge, reader: s.reader, ...(s.seat ? { seat: s.seat } : {}) }, `reader ${s.status}${s.code ? ` (${s.code})` : ''}`);
  });

  let signalled = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled) {
      io.err(`tenace listen: ${sig} again: exiting without waiting\n`);
      process.exit(130);
    }
    signalled = true;
    finish(sig);
  };
  const releaseSignals = catchStopSignals(deps.signals !== false, onSignal);
  deps.onDriver?.(driver, () => finish('stopped'));
  driver.start();
  armIdle();

  const why = await done;
  clearTimeout(idleTimer);
  releaseSignals();
  await driver.stop();
  try {
    fsyncSync(fd);
  } catch {
    /* not every file supports fsync */
  }
  closeSync(fd);
  const s = driver.stats;
  log.info(
    {
      places: s.places,
      lifts: s.lifts,
      linesOk: s.linesOk,
      bad: s.badTotal,
      gaps: s.gaps,
      duplicates: s.duplicates,
      reconnects: s.reconnects,
      unknownTags: s.unknownTags,
    },
    `stopped (${why})`,
  );
  return writeError ? 74 : 0;
}
