// The integration test over a real pseudo-terminal pair (socat): `tenace emulate` (the firmware
// emulator) on one end, `tenace listen` (the real driver) on the other. The TableEvents out must be
// the place/lift events of the log in: in order, and after faults (unplug, reset, line noise) with
// no event lost and none invented; where no hardware could see the order (cards played while the
// cable was out), the events say so (orderUnknown).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulateCommand } from '../../src/cli/emulate.js';
import { listenCommand } from '../../src/cli/listen.js';
import { loadLog } from '../../src/cli/load-log.js';
import type { BridgeDriver } from '../../src/hardware/bridge-driver.js';
import { virtualDeck, writeDeckFile } from '../../src/hardware/deck.js';
import { invisibleIn } from '../../src/hardware/emulator.js';
import type { FirmwareEmulator } from '../../src/hardware/emulator.js';
import { PtyPair } from '../../src/hardware/pty.js';
import { SerialScanner } from '../../src/hardware/scanner-serial.js';
import type { TableEvent } from '../../src/formats/table-log.js';

const root = resolve(import.meta.dirname, '../..');
const hand = (n: number) => resolve(root, `test/fixtures/seed-hands/hand${n}.ndjson`);

let dir: string;
let deckPath: string;

beforeAll(() => {
  // Not a skip: without socat this suite must fail, loudly.
  const which = spawnSync('which', ['socat'], { encoding: 'utf8' });
  if (which.status !== 0) throw new Error('socat is not installed: the pty integration tests need it (apt-get install socat)');
  dir = mkdtempSync(join(tmpdir(), 'tenace-it-'));
  deckPath = join(dir, 'deck.json');
  writeDeckFile(deckPath, virtualDeck('integration'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Io = { out(s: string): unknown; err(s: string): unknown; text: () => string };
function capture(): Io {
  let t = '';
  return { out: (s: string) => { t += s; }, err: (s: string) => { t += s; }, text: () => t };
}

/** The place/lift events of a log, as the driver writes them (type, seat, card). */
function placeLift(events: readonly TableEvent[]): string[] {
  return events
    .filter((e) => e.type === 'place' || e.type === 'lift')
    .map((e) => {
      const x = e as { type: string; seat: string; card?: string; tag?: string };
      return `${x.type} ${x.seat} ${x.card ?? `tag:${x.tag}`}`;
    });
}

function readRaw(path: string): TableEvent[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as TableEvent);
}

function readOut(path: string): string[] {
  return placeLift(readRaw(path));
}

/** The events marked orderUnknown, as placeLift strings. */
function unknownOrder(events: readonly TableEvent[]): string[] {
  return placeLift(events.filter((e) => (e as { orderUnknown?: true }).orderUnknown));
}

async function waitFor(cond: () => boolean, ms: number, why: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(why());
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Run {
  out: string[];
  raw: TableEvent[];
  emulateCode: number;
  listenCode: number;
  driver: BridgeDriver;
  emu: FirmwareEmulator;
  listenLog: string;
  emulateLog: string;
}

/**
 * Start `listen` on the host end, then `emulate` on the device end; when the emulator has played
 * the log and drained, wait for the driver to have written `expected` events (and a little longer,
 * to catch a phantom), stop it, and return what it wrote.
 */
async function run(name: string, logPath: string, expected: number, emulateArgs: string[], ports: { host: string; device: string[] }): Promise<Run> {
  const out = join(dir, `${name}.ndjson`);
  rmSync(out, { force: true });
  const lio = capture();
  const eio = capture();
  let driver!: BridgeDriver;
  let stopListen!: () => void;
  const listening = listenCommand(['--port', ports.host, '--deck', deckPath, '--log', out, '--wait'], {
    signals: false,
    io: lio,
    onDriver: (d, stop) => {
      driver = d;
      stopListen = stop;
    },
  });
  let emu!: FirmwareEmulator;
  const emulateCode = await emulateCommand(
    [...ports.device, '--deck', deckPath, '--play', logPath, '--drain', '300', '--wait', '15000', ...emulateArgs],
    { signals: false, io: eio, onEmulator: (e) => { emu = e; } },
  );
  try {
    await waitFor(() => driver.stats.places + driver.stats.lifts >= expected, 5000,
      () => `the driver wrote ${driver.stats.places + driver.stats.lifts} of ${expected} events\n--- listen:\n${lio.text()}\n--- emulate:\n${eio.text()}`);
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    stopListen();
  }
  const listenCode = await listening;
  return { out: readOut(out), raw: readRaw(out), emulateCode, listenCode, driver, emu, listenLog: lio.text(), emulateLog: eio.text() };
}

describe('emulate ⇄ listen over a socat pty pair', () => {
  it('socat is installed (these tests fail, not skip, without it)', () => {
    expect(spawnSync('which', ['socat']).status).toBe(0);
  });

  for (const n of [1, 2, 3, 4]) {
    it(`seed hand ${n}: the place/lift events out equal the log's, in order`, async () => {
      const events = loadLog(readFileSync(hand(n), 'utf8'), hand(n)).events;
      const want = placeLift(events);
      expect(want.length).toBeGreaterThan(100);
      const pair = await PtyPair.create();
      try {
        const r = await run(`hand${n}`, hand(n), want.length, ['--speed', 'max'], { host: pair.b, device: ['--port', pair.a] });
        expect(r.emulateCode, r.emulateLog).toBe(0);
        expect(r.listenCode, r.listenLog).toBe(0);
        expect(r.out).toEqual(want);
        expect(unknownOrder(r.raw)).toEqual([]);
        expect(r.driver.stats.badTotal).toBe(0);
        expect(r.driver.stats.gaps).toBe(0);
        expect(r.driver.stats.unknownTags).toBe(0);
        // The turned trump card is a place and a lift like any other.
        expect(r.out[0]).toBe(want[0]);
      } finally {
        await pair.close();
      }
    });
  }

  it('tray events of the log go to the tray scanner on another pty pair; the rest is unchanged', async () => {
    const text = readFileSync(hand(2), 'utf8');
    const log = join(dir, 'with-tray.ndjson');
    writeFileSync(log, `{"type":"tray","code":"2026-12-02-EVE:2"}\n${text}`);
    const want = placeLift(loadLog(text, hand(2)).events);
    const pair = await PtyPair.create();
    const scanPair = await PtyPair.create();
    const scanner = new SerialScanner({ path: scanPair.b, terminator: 'crlf' });
    const trays: string[] = [];
    scanner.on('tray', (t) => trays.push(t.code));
    try {
      await scanner.start();
      const r = await run('tray', log, want.length, ['--speed', 'max', '--scanner', scanPair.a, '--scanner-terminator', 'crlf'], { host: pair.b, device: ['--port', pair.a] });
      expect(r.emulateCode, r.emulateLog).toBe(0);
      expect(r.emulateLog).toMatch(/1 trays/);
      expect(r.out).toEqual(want);
      await waitFor(() => trays.length === 1, 2000, () => 'the scanner read no tray');
      expect(trays).toEqual(['2026-12-02-eve:2']);
    } finally {
      await scanner.stop();
      await scanPair.close();
      await pair.close();
    }
  });

  it('a reset mid-deal: the bridge re-announces the cards on the table, and nothing is invented twice', async () => {
    const events = loadLog(readFileSync(hand(2), 'utf8'), hand(2)).events;
    const want = placeLift(events);
    const pair = await PtyPair.create();
    try {
      const r = await run('reset', hand(2), want.length, ['--speed', 'max', '--faults', 'reset:at=30'], { host: pair.b, device: ['--port', pair.a] });
      expect(r.emulateCode, r.emulateLog).toBe(0);
      expect(r.emu.stats.resets).toBe(1);
      expect(r.out).toEqual(want);
      expect(r.driver.stats.redundant).toBeGreaterThan(0); // the re-announced cards were absorbed
    } finally {
      await pair.close();
    }
  });

  it('unplug mid-deal (socat stopped, then started again) while the table waits: the same events, in order', async () => {
    const events = loadLog(readFileSync(hand(3), 'utf8'), hand(3)).events;
    const want = placeLift(events);
    const ptyDir = join(dir, 'pty-unplug-hold');
    // listen starts first and retries until emulate's socat creates the port.
    const r = await run('unplug-hold', hand(3), want.length, ['--speed', 'max', '--faults', 'unplug:at=42:for=1200'], {
      host: join(ptyDir, 'bridge'), device: ['--pty', ptyDir],
    });
    expect(r.emulateCode, r.emulateLog).toBe(0);
    expect(r.emu.stats.unplugs).toBe(1);
    expect(r.driver.stats.reconnects, r.listenLog).toBeGreaterThanOrEqual(1);
    expect(r.listenLog).toMatch(/disconnected/);
    expect(r.out).toEqual(want);
  });

  it('unplug mid-deal while the players go on: the cards played meanwhile come back as late events, none lost, none invented', async () => {
    const events = loadLog(readFileSync(hand(4), 'utf8'), hand(4)).events;
    const want = placeLift(events);
    const at = 25;
    const play = 3;
    const rfid = events.filter((e) => e.type === 'place' || e.type === 'lift');
    const window = rfid.slice(at - 1, at - 1 + play);
    // The test's own precondition: no card is both placed and lifted while the cable is out (no
    // hardware could see that).
    expect(invisibleIn(window)).toEqual([]);
    expect(window.some((e) => e.type === 'lift') && window.some((e) => e.type === 'place')).toBe(true);
    const ptyDir = join(dir, 'pty-unplug-play');
    const r = await run('unplug-play', hand(4), want.length, ['--speed', 'max', '--faults', `unplug:at=${at}:for=1200:play=${play}`], {
      host: join(ptyDir, 'bridge'), device: ['--pty', ptyDir],
    });
    expect(r.emulateCode, r.emulateLog).toBe(0);
    expect(r.driver.stats.reconnects, r.listenLog).toBeGreaterThanOrEqual(1);
    // Before and after the outage: the same sequence. During it: the same events, as late ones, in
    // the order reconciliation emits them (lifts, then places), each marked orderUnknown: no
    // hardware saw in which order they were played.
    const before = want.slice(0, at - 1);
    const during = want.slice(at - 1, at - 1 + play);
    const after = want.slice(at - 1 + play);
    expect(r.out.slice(0, before.length)).toEqual(before);
    expect([...r.out.slice(before.length, before.length + play)].sort()).toEqual([...during].sort());
    expect(r.out.slice(before.length + play)).toEqual(after);
    expect(r.out).toHaveLength(want.length);
    expect(r.driver.stats.orderUnknown).toBe(play);
    expect(unknownOrder(r.raw).sort()).toEqual([...during].sort());
  });

  it('line noise (bad CRC, lost lines, repeated lines): every card placed and lifted exactly once, in the order of play (replayed, never guessed)', async () => {
    const events = loadLog(readFileSync(hand(1), 'utf8'), hand(1)).events;
    const want = placeLift(events);
    const pair = await PtyPair.create();
    try {
      const r = await run('noise', hand(1), want.length, ['--speed', 'max', '--drain', '1500', '--faults', 'crc:0.03,lose:0.03,flicker:0.1,seed:7'], {
        host: pair.b, device: ['--port', pair.a],
      });
      expect(r.emulateCode, r.emulateLog).toBe(0);
      expect(r.emulateLog).not.toMatch(/did not resynchronise/);
      const st = r.emu.stats;
      expect(st.corrupted + st.lost + st.flickers).toBeGreaterThan(5);
      expect(r.driver.stats.badTotal).toBeGreaterThanOrEqual(st.corrupted);
      expect(r.out).toEqual(want);
      expect(unknownOrder(r.raw)).toEqual([]);
      expect(r.driver.stats.replays).toBeGreaterThan(0);
    } finally {
      await pair.close();
    }
  });
});
