// The in-process serial lines that let `tenace simulate` (and `npm start`) run without socat: the binding's
// semantics through SerialPortStream, then whole simulations forced onto it, with and without the cable pulled.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPortStream } from '@serialport/stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackBinding } from '../../src/daemon/loopback.js';
import { startSimulation } from '../../src/daemon/simulation.js';
import { waitFor } from '../feed/broker.js';
import { SEED_HANDS, captureLog, readLog } from './helpers.js';

const opened: SerialPortStream[] = [];
afterEach(async () => {
  for (const p of opened.splice(0)) if (p.isOpen) await new Promise<void>((r) => p.close(() => r()));
});

async function open(binding: LoopbackBinding, path: string): Promise<SerialPortStream> {
  const port = new SerialPortStream({ binding, path, baudRate: 115200, autoOpen: false });
  await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
  opened.push(port);
  return port;
}

function tryOpen(binding: LoopbackBinding, path: string): Promise<Error | null> {
  const port = new SerialPortStream({ binding, path, baudRate: 9600, autoOpen: false });
  return new Promise((res) => port.open((e) => {
    if (!e) opened.push(port);
    res(e ?? null);
  }));
}

function collect(port: SerialPortStream): { text: () => string } {
  let s = '';
  port.on('data', (b: Buffer) => { s += b.toString('latin1'); });
  return { text: () => s };
}

function write(port: SerialPortStream, data: string): Promise<void> {
  return new Promise((res, rej) => port.write(data, (e) => (e ? rej(e) : port.drain(() => res()))));
}

describe('LoopbackBinding', () => {
  it('carries bytes both ways between the two ends of a pair, in order', async () => {
    const binding = new LoopbackBinding();
    binding.pair('loop:a', 'loop:b');
    const a = await open(binding, 'loop:a');
    const b = await open(binding, 'loop:b');
    const atA = collect(a);
    const atB = collect(b);
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(i % 97)}\n`);
    for (const l of lines) await write(a, l);
    await write(b, 'pong\r\n');
    await waitFor(() => atB.text().length === lines.join('').length && atA.text() === 'pong\r\n', 2000, 'the bytes');
    expect(atB.text()).toBe(lines.join(''));
    expect((await binding.list()).map((p) => p.path).sort()).toEqual(['loop:a', 'loop:b']);
  });

  it('keeps what is written to a closed end until it is opened, and flush discards it', async () => {
    const binding = new LoopbackBinding();
    binding.pair('loop:a', 'loop:b');
    const a = await open(binding, 'loop:a');
    await write(a, 'early\n');
    const b = await open(binding, 'loop:b');
    const atB = collect(b);
    await waitFor(() => atB.text() === 'early\n', 2000, 'the buffered bytes');

    await new Promise<void>((r) => b.close(() => r()));
    await write(a, 'stale\n');
    const b2 = await open(binding, 'loop:b');
    await new Promise<void>((r) => b2.flush(() => r()));
    const atB2 = collect(b2);
    await write(a, 'fresh\n');
    await waitFor(() => atB2.text() === 'fresh\n', 2000, 'the bytes after the flush');
  });

  it('refuses unknown paths and a second open of the same end', async () => {
    const binding = new LoopbackBinding();
    binding.pair('loop:a', 'loop:b');
    expect((await tryOpen(binding, 'loop:nope'))?.message).toMatch(/No such file or directory, cannot open loop:nope/);
    await open(binding, 'loop:a');
    expect((await tryOpen(binding, 'loop:a'))?.message).toMatch(/Cannot lock port/);
    expect(() => binding.pair('loop:a', 'loop:c')).toThrow(/exists already/);
  });

  it('closes quietly (canceled, not a disconnect) when the port is closed during a read', async () => {
    const binding = new LoopbackBinding();
    binding.pair('loop:a', 'loop:b');
    const a = await open(binding, 'loop:a');
    collect(a); // a read is in progress
    const closed = new Promise<Error | null>((r) => a.once('close', (e: Error | null) => r(e)));
    await new Promise<void>((r) => setTimeout(r, 20));
    a.close();
    expect(await closed).toBeNull();
  });

  it('unplugging hangs up both ends, as a pulled USB cable does; plugging back in lets them reopen', async () => {
    const binding = new LoopbackBinding();
    const pair = binding.pair('loop:dev', 'loop:host');
    const dev = await open(binding, 'loop:dev');
    const host = await open(binding, 'loop:host');
    collect(dev);
    collect(host);
    const hostClosed = new Promise<Error & { disconnected?: boolean }>((r) => host.once('close', (e: Error) => r(e)));
    await new Promise<void>((r) => setTimeout(r, 20));
    pair.unplug();
    const e = await hostClosed;
    expect(e.disconnected).toBe(true);
    expect(e.message).toMatch(/unplugged/);
    await waitFor(() => !dev.isOpen, 2000, 'the device end to close');
    expect((await tryOpen(binding, 'loop:host'))?.message).toMatch(/No such file or directory/);
    expect(await binding.list()).toEqual([]);

    pair.plug();
    const dev2 = await open(binding, 'loop:dev');
    const host2 = await open(binding, 'loop:host');
    const atHost = collect(host2);
    await write(dev2, 'hello again\n');
    await waitFor(() => atHost.text() === 'hello again\n', 2000, 'bytes after replugging');
  });
});

describe('startSimulation over the loopback serial lines', () => {
  async function run(faults?: string) {
    const journal = mkdtempSync(join(tmpdir(), 'tenace-loop-'));
    const { log, lines } = captureLog();
    const sim = await startSimulation({
      club: 'demo', table: '1', events: readLog(join(SEED_HANDS, 'hand1.ndjson')), speed: 'max', journal, httpPort: 0, log,
      serial: 'loopback', faults,
    });
    try {
      expect(sim.serial).toBe('loopback');
      await sim.done;
      const result = sim.controller.table.results().at(-1);
      const state = sim.controller.feed!.publicState();
      return { result, state, lines, lastSeq: sim.controller.journal.lastSeq };
    } finally {
      await sim.stop();
      rmSync(journal, { recursive: true, force: true });
    }
  }

  it('plays hand 1 through the emulator, the loopback line and the real driver: N-S 11, E-W 2', async () => {
    const { result, state, lines, lastSeq } = await run();
    expect(result?.tricksWon, lines.join('\n')).toEqual({ NS: 11, EW: 2 });
    expect(result?.findings).toEqual([]);
    expect(lastSeq).toBe(107);
    expect(state.deal).toMatchObject({ board: 1, status: 'ended', tricksWon: { NS: 11, EW: 2 } });
  }, 30_000);

  it('survives the cable being pulled mid-deal: the driver reconnects and nothing is lost', async () => {
    const { result, lines, lastSeq } = await run('unplug:at=40:for=300');
    expect(lines.some((l) => l.includes('the device was unplugged')), lines.join('\n')).toBe(true);
    expect(result?.tricksWon, lines.join('\n')).toEqual({ NS: 11, EW: 2 });
    expect(result?.findings).toEqual([]);
    expect(lastSeq).toBe(107);
  }, 30_000);
});
