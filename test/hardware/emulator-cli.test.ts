// `tenace emulate`: argument checking, exit codes, and a run on serialport's MockBinding.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SerialPortMock } from 'serialport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emulateCommand } from '../../src/cli/emulate.js';
import { virtualDeck, writeDeckFile } from '../../src/hardware/deck.js';
import type { FirmwareEmulator } from '../../src/hardware/emulator.js';
import { decodeLine } from '../../src/hardware/protocol.js';

const MockBinding = SerialPortMock.binding;
const root = resolve(import.meta.dirname, '../..');
const hand1 = resolve(root, 'test/fixtures/seed-hands/hand1.ndjson');

let dir: string;
let deck: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenace-emulate-'));
  deck = join(dir, 'deck.json');
  writeDeckFile(deck, virtualDeck('cli'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => MockBinding.reset());

async function run(argv: string[], onEmulator?: (e: FirmwareEmulator, abort: () => void) => void) {
  let out = '';
  let err = '';
  const code = await emulateCommand(argv, {
    io: { out: (s) => { out += s; }, err: (s) => { err += s; } },
    binding: MockBinding,
    signals: false,
    onEmulator,
  });
  return { code, out, err };
}

describe('tenace emulate: arguments', () => {
  it('--help prints the usage', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/usage: tenace emulate \(--port PATH \| --pty DIR\) --deck FILE --play LOG/);
  });

  const cases: [string, string[], RegExp][] = [
    ['no port', ['--deck', 'd', '--play', 'p'], /--port \(or --pty\) is required/],
    ['port and pty', ['--port', 'a', '--pty', 'b', '--deck', 'd', '--play', 'p'], /not both/],
    ['no deck', ['--port', 'a', '--play', 'p'], /--deck is required/],
    ['no play', ['--port', 'a', '--deck', 'd'], /--play is required/],
    ['bad speed', ['--port', 'a', '--deck', 'd', '--play', 'p', '--speed', 'fast'], /--speed must be a positive number/],
    ['zero speed', ['--port', 'a', '--deck', 'd', '--play', 'p', '--speed', '0'], /--speed/],
    ['bad faults', ['--port', 'a', '--deck', 'd', '--play', 'p', '--faults', 'crc:7'], /--faults: fault "crc:7"/],
    ['bad map', ['--port', 'a', '--deck', 'd', '--play', 'p', '--map', 'r0=X'], /--map: "r0=X" is not a reader mapping/],
    ['bad readers', ['--port', 'a', '--deck', 'd', '--play', 'p', '--readers', '9'], /--readers must be an integer 1..8/],
    ['wait and no-wait', ['--port', 'a', '--deck', 'd', '--play', 'p', '--wait', '5', '--no-wait'], /not both/],
    ['terminator alone', ['--port', 'a', '--deck', 'd', '--play', 'p', '--scanner-terminator', 'lf'], /needs --scanner/],
    ['bad terminator', ['--port', 'a', '--deck', 'd', '--play', 'p', '--scanner', 's', '--scanner-terminator', 'tab'], /must be one of/],
    ['unknown option', ['--port', 'a', '--bogus'], /Unknown option/],
  ];
  for (const [name, argv, re] of cases) {
    it(`usage error (64): ${name}`, async () => {
      const r = await run(argv);
      expect(r.code).toBe(64);
      expect(r.err).toMatch(re);
    });
  }

  it('a deck file that cannot be read: 66; one that is not a deck: 65', async () => {
    expect((await run(['--port', 'a', '--deck', join(dir, 'none.json'), '--play', hand1])).code).toBe(66);
    const bad = join(dir, 'bad-deck.json');
    writeFileSync(bad, '{"deck":"x","version":2,"cards":{}}');
    const r = await run(['--port', 'a', '--deck', bad, '--play', hand1]);
    expect(r.code).toBe(65);
    expect(r.err).toMatch(/"version" must be 1/);
  });

  it('a log that cannot be read: 66; a card the deck lacks, or no place/lift at all: 65', async () => {
    expect((await run(['--port', 'a', '--deck', deck, '--play', join(dir, 'none.ndjson')])).code).toBe(66);
    const partial = join(dir, 'partial.json');
    const d = virtualDeck('cli');
    writeDeckFile(partial, { ...d, cards: Object.fromEntries(Object.entries(d.cards).filter(([, c]) => c !== 'CK')) });
    const r = await run(['--port', 'a', '--deck', partial, '--play', hand1]);
    expect(r.code).toBe(65);
    expect(r.err).toMatch(/has no tag for CK/);
    const empty = join(dir, 'deal-only.ndjson');
    writeFileSync(empty, '{"type":"deal","board":1}\n');
    const e = await run(['--port', 'a', '--deck', deck, '--play', empty]);
    expect(e.code).toBe(65);
    expect(e.err).toMatch(/no place or lift/);
  });

  it('a port that cannot be opened: 69', async () => {
    const r = await run(['--port', '/dev/nowhere', '--deck', deck, '--play', hand1]);
    expect(r.code).toBe(69);
    expect(r.err).toMatch(/cannot open \/dev\/nowhere/);
  });

  it('warns about a fault that cannot fire', async () => {
    MockBinding.createPort('/dev/emu', { echo: false, record: false });
    const r = await run(['--port', '/dev/emu', '--deck', deck, '--play', hand1, '--no-wait', '--speed', 'max', '--drain', '0', '--faults', 'reset:at=500,badhello:at=107']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/at=500 will not fire: the log has 106 place\/lift events/);
    expect(r.err).toMatch(/at=107 will not fire/);
  });
});

describe('tenace emulate on MockBinding', () => {
  it('--no-wait plays the whole log: hello, then one arrive/leave per place/lift', async () => {
    MockBinding.createPort('/dev/emu', { echo: false, record: false });
    const lines: string[] = [];
    const r = await run(['--port', '/dev/emu', '--deck', deck, '--play', hand1, '--no-wait', '--speed', 'max', '--drain', '0'],
      (emu) => emu.on('tx', (l) => lines.push(l)));
    expect(r.code, r.err).toBe(0);
    const frames = lines.map((l) => decodeLine(l)).map((x) => (x.ok ? x.frame : undefined));
    expect(frames.every((f) => f !== undefined)).toBe(true);
    expect(frames[0]).toMatchObject({ seq: 0, type: 'hello', reset: 'power' });
    expect(frames.filter((f) => f!.type === 'arrive')).toHaveLength(53);
    expect(frames.filter((f) => f!.type === 'leave')).toHaveLength(53);
    expect(r.err).toMatch(/played 106 events \(1 skipped, 0 trays\)/);
  });

  it('--faults reset:at=N:hello=lost,badhello:at=M: no hello of the new boot, one foreign hello; the summary counts both', async () => {
    MockBinding.createPort('/dev/emu', { echo: false, record: false });
    const lines: string[] = [];
    let emu: FirmwareEmulator | undefined;
    const r = await run(['--port', '/dev/emu', '--deck', deck, '--play', hand1, '--no-wait', '--speed', 'max', '--drain', '0',
      '--faults', 'reset:at=5:hello=lost,badhello:at=9'], (e) => { emu = e; e.on('tx', (l) => lines.push(l)); });
    expect(r.code, r.err).toBe(0);
    const frames = lines.map((l) => decodeLine(l)).map((x) => (x.ok ? x.frame : undefined));
    expect(frames.every((f) => f !== undefined)).toBe(true);
    const hellos = frames.filter((f) => f!.type === 'hello');
    expect(hellos.map((h) => h!.proto)).toEqual([2, 9]); // the power-up hello and the foreign one
    // the reset shows only as a seq that starts over (cfg 1 again), and the foreign hello names the new boot
    expect(frames.filter((f) => f!.type === 'cfg' && f!.seq === 1)).toHaveLength(2);
    expect(hellos[1]!.boot).toBe(emu!.boot());
    expect(hellos[0]!.boot).not.toBe(emu!.boot());
    expect(r.err).toMatch(/faults: 1 resets, 1 hellos lost or corrupted, 1 foreign hellos/);
  });

  it('virtual:ID decks, a seat map, and a rate', async () => {
    MockBinding.createPort('/dev/emu', { echo: false, record: false });
    const lines: string[] = [];
    const t0 = Date.now();
    const log = join(dir, 'short.ndjson');
    writeFileSync(log, ['{"type":"place","seat":"N","card":"SA"}', '{"type":"place","seat":"E","card":"S2"}', '{"type":"lift","seat":"N","card":"SA"}'].join('\n'));
    const r = await run(['--port', '/dev/emu', '--deck', 'virtual:abc', '--play', log, '--no-wait', '--speed', '20', '--drain', '0', '--map', 'r0=E,r1=N,r2=S,r3=W'],
      (emu) => emu.on('tx', (l) => lines.push(l)));
    expect(r.code, r.err).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(3 * 50 - 20);
    const ev = lines.map((l) => decodeLine(l)).filter((x) => x.ok && (x.frame.type === 'arrive' || x.frame.type === 'leave'))
      .map((x) => (x.ok ? `${x.frame.type} ${x.frame.reader}` : ''));
    expect(ev).toEqual(['arrive 1', 'arrive 0', 'leave 1']);
  });

  it('without a host it gives up after --wait with a clear message (69)', async () => {
    MockBinding.createPort('/dev/emu', { echo: false, record: false });
    const r = await run(['--port', '/dev/emu', '--deck', deck, '--play', hand1, '--wait', '300']);
    expect(r.code).toBe(69);
    expect(r.err).toMatch(/no host asked for a snapshot or a replay within 300 ms/);
  });

  it('abort (SIGINT) stops the play: 130', async () => {
    MockBinding.createPort('/dev/emu', { echo: false, record: false });
    const r = await run(['--port', '/dev/emu', '--deck', deck, '--play', hand1, '--no-wait', '--speed', '50'],
      (_emu, abort) => setTimeout(abort, 400));
    expect(r.code).toBe(130);
    expect(r.err).toMatch(/interrupted after \d+ events/);
  });
});
