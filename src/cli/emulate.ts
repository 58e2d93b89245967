// `tenace emulate --port PATH --deck FILE --play LOG [--speed X|max] [--faults SPEC] [--map r0=N,...]`
//
// Plays a table log (.ndjson, .pbn or .lin) onto a serial port as the firmware bridge would
// (firmware-bridge/PROTOCOL.md): hello and heartbeats, answers to the host's commands, and an
// `arrive`/`leave` for every place/lift of the log, on the reader under the event's seat, with the
// UID of the card in the deck. It waits until a host (`tenace listen`, the daemon) has connected and
// resynchronised (a snapshot or a replay), plays the log, keeps the bridge running for `--drain` ms so the host sees the
// last lines and a heartbeat, then exits.
//
// Usually the port is one end of a pty pair:
//   socat -d -d pty,raw,echo=0,link=/tmp/t/emulator pty,raw,echo=0,link=/tmp/t/bridge &
//   tenace emulate --port /tmp/t/emulator --deck deck.json --play hand1.ndjson &
//   tenace listen  --port /tmp/t/bridge   --deck deck.json --log out.ndjson --idle-exit 3000
// or `--pty /tmp/t`, which runs that socat itself (and makes `unplug` faults remove the port).
import { type CliIo, LOUDNESS_OPTIONS, STDIO, catchStopSignals, parseCommand, usageError } from './args.js';
import { readFileSync } from 'node:fs';
import { DeckError, type DeckFile, loadDeckFile, virtualDeck } from '../hardware/deck.js';
import {
  EmulatorError, type EmulatorLink, FirmwareEmulator, type PlayResult, planSteps, ptyLink, serialLink,
} from '../hardware/emulator.js';
import { type FaultPlan, FaultSpecError, parseFaultSpec } from '../hardware/emulator-faults.js';
import { PtyPair } from '../hardware/pty.js';
import { ScannerEmulator } from '../hardware/scanner-emulator.js';
import { SCANNER_TERMINATORS, type ScannerTerminator, type SerialBinding } from '../hardware/scanner-serial.js';
import { SeatMap } from '../hardware/seat-map.js';
import { loadLog } from './load-log.js';

export interface EmulateDeps {
  io?: CliIo;
  /** serialport binding (tests: MockBinding). */
  binding?: SerialBinding;
  /** Install SIGINT/SIGTERM handlers (default true). */
  signals?: boolean;
  /** Called once the emulator is running (tests watch it, or stop it with `abort`). */
  onEmulator?: (emu: FirmwareEmulator, abort: () => void) => void;
}

const USAGE = `usage: tenace emulate (--port PATH | --pty DIR) --deck FILE --play LOG [--speed X|max] [--faults SPEC]
                      [--map r0=N,r1=E,r2=S,r3=W] [--readers N] [--fw VERSION] [--drain MS] [--wait MS | --no-wait]
                      [--scanner PATH [--scanner-terminator cr|lf|crlf|none]] [--verbose | --quiet]
  --port PATH    the emulator's end of a pty pair (socat), or a serial port
  --pty DIR      run socat here: the emulator uses DIR/emulator, the host opens DIR/bridge
  --deck FILE    the deck whose tags carry the cards (\`tenace deck --virtual\`), or virtual:ID
  --play LOG     a table log (.ndjson), PBN or LIN file
  --speed X      place/lift events per second, or max (default 10)
  --faults SPEC  e.g. crc:0.01,flicker:0.05,lose:0.01,reset:at=120:hello=lost,unplug:at=200:for=1500,badhello:at=9
                 (see src/hardware/emulator-faults.ts)
  --wait MS      wait this long for the host to connect (default 60000); --no-wait plays at once
  --drain MS     keep running this long after the last event (default 1500)
  --scanner PATH write the log's tray events to a tray-scanner port (another pty end)
`;


function nonNegInt(s: string | undefined, name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined | Error {
  if (s === undefined) return undefined;
  if (!/^\d+$/.test(s) || Number(s) < min || Number(s) > max) return new Error(`${name} must be an integer ${min}..${max === Number.MAX_SAFE_INTEGER ? '' : max} (got "${s}")`);
  return Number(s);
}

/** Run `tenace emulate`; resolves to the exit code. */
export async function emulateCommand(argv: string[], deps: EmulateDeps = {}): Promise<number> {
  const io = deps.io ?? STDIO;
  const args = parseCommand('emulate', USAGE, {
      args: argv,
      options: {
        port: { type: 'string', short: 'p' },
        pty: { type: 'string' },
        deck: { type: 'string' },
        play: { type: 'string' },
        speed: { type: 'string' },
        faults: { type: 'string' },
        map: { type: 'string' },
        readers: { type: 'string' },
        fw: { type: 'string' },
        drain: { type: 'string' },
        wait: { type: 'string' },
        'no-wait': { type: 'boolean' },
        scanner: { type: 'string' },
        'scanner-terminator': { type: 'string' },
        ...LOUDNESS_OPTIONS,
        help: { type: 'boolean', short: 'h' },
      },
    }, io);
  if (typeof args === 'number') return args;
  const v = args.values;
  const usage = (msg: string) => usageError(io, 'emulate', msg, USAGE);
  if (!v.port === !v.pty) return usage(v.port ? 'give --port or --pty, not both' : '--port (or --pty) is required');
  if (!v.deck) return usage('--deck is required');
  if (!v.play) return usage('--play is required');

  let speed: number | 'max' = 10;
  if (v.speed !== undefined) {
    if (v.speed === 'max') speed = 'max';
    else if (/^\d+(\.\d+)?$/.test(v.speed) && Number(v.speed) > 0) speed = Number(v.speed);
    else return usage(`--speed must be a positive number of events per second, or max (got "${v.speed}")`);
  }
  const readers = nonNegInt(v.readers, '--readers', 1, 8);
  const drain = nonNegInt(v.drain, '--drain');
  const waitMs = nonNegInt(v.wait, '--wait', 1);
  for (const x of [readers, drain, waitMs]) if (x instanceof Error) return usage(x.message);
  if (v['no-wait'] && v.wait !== undefined) return usage('give --wait or --no-wait, not both');
  const terminator = (v['scanner-terminator'] ?? 'cr') as ScannerTerminator;
  if (!SCANNER_TERMINATORS.includes(terminator)) return usage(`--scanner-terminator must be one of ${SCANNER_TERMINATORS.join(', ')}`);
  if (v['scanner-terminator'] !== undefined && !v.scanner) return usage('--scanner-terminator needs --scanner');

  let faults: FaultPlan;
  try {
    faults = parseFaultSpec(v.faults ?? '');
  } catch (e) {
    if (e instanceof FaultSpecError) return usage(`--faults: ${e.message}`);
    throw e;
  }
  let seatMap: SeatMap;
  try {
    seatMap = v.map ? SeatMap.parseSpec(v.map) : SeatMap.default();
  } catch (e) {
    return usage(`--map: ${(e as Error).message}`);
  }

  let deck: DeckFile;
  try {
    deck = v.deck.startsWith('virtual:') ? virtualDeck(v.deck.slice(8)) : loadDeckFile(v.deck);
  } catch (e) {
    io.err(`tenace emulate: ${(e as Error).message}\n`);
    return e instanceof DeckError && /cannot read/.test((e as Error).message) ? 66 : 65;
  }

  let text: string;
  try {
    text = readFileSync(v.play, 'utf8');
  } catch (e) {
    io.err(`tenace emulate: cannot read ${v.play}: ${(e as Error).message}\n`);
    return 66;
  }
  const log = loadLog(text, v.play);
  for (const e of log.errors) io.err(`${v.play}:${e.line}: ${e.message}\n`);
  const nReaders = (readers as number | undefined) ?? 4;
  try {
    planSteps(log.events, deck, seatMap, nReaders);
  } catch (e) {
    if (e instanceof EmulatorError) {
      io.err(`tenace emulate: ${e.message}\n`);
      return 65;
    }
    throw e;
  }
  const rfid = log.events.filter((e) => e.type === 'place' || e.type === 'lift').length;
  if (rfid === 0) {
    io.err(`tenace emulate: ${v.play} holds no place or lift event to play\n`);
    return 65;
  }
  for (const f of [...faults.resets, ...faults.unplugs, ...faults.badHellos.map((at) => ({ at }))]) {
    if (f.at > rfid) io.err(`tenace emulate: warning: a fault at=${f.at} will not fire: the log has ${rfid} place/lift events\n`);
  }

  const say = (s: string) => { if (!v.quiet) io.err(`tenace emulate: ${s}\n`); };
  let pair: PtyPair | undefined;
  let link: EmulatorLink;
  try {
    if (v.pty) {
      pair = await PtyPair.create({ dir: v.pty, names: ['emulator', 'bridge'] });
      link = ptyLink(pair, deps.binding);
      say(`pty pair ready: the host opens ${pair.b}`);
    } else {
      link = serialLink(v.port!, deps.binding);
    }
  } catch (e) {
    io.err(`tenace emulate: ${(e as Error).message}\n`);
    return 69;
  }

  let scanner: ScannerEmulator | undefined;
  const emu = new FirmwareEmulator({ readers: nReaders, fw: v.fw, faults });
  if (v.verbose) {
    emu.on('tx', (l) => io.err(`dev  -> ${l}\n`));
    emu.on('rx', (l) => io.err(`host -> ${l}\n`));
  }
  const abort = new AbortController();
  let releaseSignals = () => {};
  let code = 0;
  let result: PlayResult | undefined;
  try {
    if (v.scanner) {
      scanner = new ScannerEmulator({ terminator });
      try {
        await scanner.open(v.scanner, deps.binding);
      } catch (e) {
        io.err(`tenace emulate: cannot open the scanner port ${v.scanner}: ${(e as Error).message}\n`);
        return 69;
      }
    }
    try {
      await emu.start(link);
    } catch (e) {
      io.err(`tenace emulate: cannot open ${link.name}: ${(e as Error).message}\n`);
      return 69;
    }
    releaseSignals = catchStopSignals(deps.signals !== false, () => abort.abort());
    deps.onEmulator?.(emu, () => abort.abort());
    await emu.whenReady();
    if (!v['no-wait']) {
      const ms = (waitMs as number | undefined) ?? 60_000;
      say(`bridge up on ${link.name}; waiting for the host to connect (at most ${ms} ms)`);
      const synced = await Promise.race([
        emu.whenHostSynced(ms),
        new Promise<boolean>((r) => abort.signal.addEventListener('abort', () => r(false), { once: true })),
      ]);
      if (!synced) {
        io.err(abort.signal.aborted
          ? 'tenace emulate: interrupted\n'
          : `tenace emulate: no host asked for a snapshot or a replay within ${ms} ms: start \`tenace listen --port ${pair ? pair.b : '<the other end>'} …\`, or pass --no-wait\n`);
        code = abort.signal.aborted ? 130 : 69;
        return code;
      }
    }
    say(`playing ${rfid} place/lift events of ${v.play} at ${speed === 'max' ? 'full speed' : `${speed} per second`}`);
    result = await emu.play(log.events, {
      deck, seatMap, speed, waitForHost: !v['no-wait'], waitAfterFaults: !v['no-wait'], hostWaitMs: (waitMs as number | undefined) ?? 10_000,
      onTray: scanner ? (c) => scanner!.scan(c) : undefined,
      signal: abort.signal,
    });
    if (!result.aborted) {
      const ms = (drain as number | undefined) ?? 1500;
      await new Promise<void>((r) => {
        const t = setTimeout(r, ms);
        abort.signal.addEventListener('abort', () => { clearTimeout(t); r(); }, { once: true });
      });
    }
    code = result.aborted || abort.signal.aborted ? 130 : 0;
  } finally {
    releaseSignals();
    await emu.stop();
    await scanner?.close();
    await pair?.close();
  }

  if (result) {
    const st = emu.stats;
    for (const e of result.impossible) io.err(`tenace emulate: warning: ${JSON.stringify(e)} cannot happen on the table (the card is ${e.type === 'place' ? 'already there' : 'not there'}); nothing was sent\n`);
    for (const o of result.outages) {
      if (o.invisible.length) io.err(`tenace emulate: note: ${o.invisible.length} events during the unplug at ${o.at} could not be seen by any bridge: ${o.invisible.map((e) => JSON.stringify(e)).join(' ')}\n`);
    }
    const f = [
      st.corrupted && `${st.corrupted} corrupted`, st.lost && `${st.lost} lost`, st.flickers && `${st.flickers} repeated`,
      st.resets && `${st.resets} resets`, st.helloFaults && `${st.helloFaults} hellos lost or corrupted`,
      st.unplugs && `${st.unplugs} unplugs`, st.badHellos && `${st.badHellos} foreign hellos`,
    ].filter(Boolean);
    say(`${result.aborted ? 'interrupted after' : 'played'} ${result.played} events (${result.skipped} skipped, ${result.trays} trays); ${st.linesSent} lines sent, ${st.hostLines} host lines${f.length ? `; faults: ${f.join(', ')}` : ''}`);
    if (result.hostWaitTimeouts) io.err(`tenace emulate: warning: the host did not resynchronise ${result.hostWaitTimeouts} time(s) after a reset or unplug\n`);
    if (result.resyncTimeouts) io.err(`tenace emulate: warning: the host did not resynchronise ${result.resyncTimeouts} time(s) after a lost or corrupted line\n`);
  }
  return code;
}
