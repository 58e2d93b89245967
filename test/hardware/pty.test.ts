// PtyPair: a socat pseudo-terminal pair that can be "unplugged" and plugged back in; and the serial
// tray scanner reading the scanner emulator across it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';
import { beforeAll, describe, expect, it } from 'vitest';
import { PtyPair, findSocat, requireSocat } from '../../src/hardware/pty.js';
import { ScannerEmulator } from '../../src/hardware/scanner-emulator.js';
import { SerialScanner } from '../../src/hardware/scanner-serial.js';
import type { ScanErrorEvent } from '../../src/hardware/tray-code.js';
import type { TrayEvent } from '../../src/formats/table-log.js';

beforeAll(() => {
  if (spawnSync('which', ['socat']).status !== 0) throw new Error('socat is not installed: the pty tests need it (apt-get install socat)');
});

function open(path: string): Promise<SerialPort> {
  return new Promise((res, rej) => {
    const p = new SerialPort({ path, baudRate: 115200 }, (e) => (e ? rej(e) : res(p)));
  });
}

async function waitFor(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('PtyPair', () => {
  it('finds socat', () => {
    expect(findSocat()).toMatch(/socat$/);
    expect(requireSocat()).toBe(findSocat());
  });

  it('joins two ends both ways; stopping it hangs up the ends and removes the links; it starts again', async () => {
    const pair = await PtyPair.create();
    try {
      expect(existsSync(pair.a) && existsSync(pair.b)).toBe(true);
      const a = await open(pair.a);
      const b = await open(pair.b);
      let atB = '';
      let atA = '';
      b.on('data', (d: Buffer) => { atB += d.toString(); });
      a.on('data', (d: Buffer) => { atA += d.toString(); });
      a.write('0 hello\n');
      b.write('1 ping\n');
      await waitFor(() => atB === '0 hello\n' && atA === '1 ping\n');

      const closed = new Promise<Error | null>((r) => b.once('close', (e: Error | null) => r(e)));
      a.on('error', () => undefined);
      b.on('error', () => undefined);
      await pair.stop();
      expect(pair.running).toBe(false);
      const err = await closed; // the host end sees the device go away
      expect((err as { disconnected?: boolean } | null)?.disconnected).toBe(true);
      expect(existsSync(pair.a) || existsSync(pair.b)).toBe(false);
      if (a.isOpen) await new Promise((r) => a.close(() => r(undefined)));

      await pair.start();
      const a2 = await open(pair.a);
      const b2 = await open(pair.b);
      let got = '';
      b2.on('data', (d: Buffer) => { got += d.toString(); });
      a2.write('again\n');
      await waitFor(() => got === 'again\n');
      await new Promise((r) => a2.close(() => r(undefined)));
      await new Promise((r) => b2.close(() => r(undefined)));
    } finally {
      await pair.close();
    }
    expect(existsSync(pair.dir)).toBe(false);
  });

  it('the serial tray scanner reads the scanner emulator across a pty pair (CR and no terminator)', async () => {
    for (const terminator of ['cr', 'none'] as const) {
      const pair = await PtyPair.create();
      const scanner = new SerialScanner({ path: pair.b, terminator, interByteMs: 30 });
      const emu = new ScannerEmulator({ terminator, gapMs: 120 });
      try {
        const trays: TrayEvent[] = [];
        const errors: ScanErrorEvent[] = [];
        scanner.on('tray', (t) => trays.push(t));
        scanner.on('scan-error', (e) => errors.push(e));
        await scanner.start();
        expect(scanner.isOpen()).toBe(true);
        await emu.open(pair.a);
        await emu.scan('2026-12-02-EVE:7');
        await emu.scanUnreadable();
        await emu.scan('12');
        await waitFor(() => trays.length === 2 && errors.length === 1);
        expect(trays.map((t) => t.code)).toEqual(['2026-12-02-eve:7', '12']);
        expect(errors[0]).toMatchObject({ type: 'scan-error', problem: 'unreadable', source: pair.b });
      } finally {
        await emu.close();
        await scanner.stop();
        await pair.close();
      }
    }
  });
});
