// USB-serial tray scanner on serialport's MockBinding: CR, LF, CR LF, no terminator (inter-byte
// timeout), bad scans, over-long lines, and reopening after an unplug.
import { SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { BoundedReadlineParser, SerialScanner, type ScannerTerminator } from '../../src/hardware/scanner-serial.js';
import { ScannerEmulator } from '../../src/hardware/scanner-emulator.js';
import type { ScanErrorEvent } from '../../src/hardware/tray-code.js';
import type { TrayEvent } from '../../src/formats/table-log.js';

// serialport's MockBinding (the same object @serialport/binding-mock exports; reached through
// serialport because @serialport/binding-mock ships no types that NodeNext resolution finds).
const MockBinding = SerialPortMock.binding;
interface MockPortBinding { emitData(data: Buffer | string): void }

const PATH = '/dev/tenace-scanner';

afterEach(() => MockBinding.reset());

async function openScanner(terminator: ScannerTerminator, extra: { interByteMs?: number } = {}) {
  MockBinding.createPort(PATH, { echo: false, record: false });
  const scanner = new SerialScanner({ path: PATH, binding: MockBinding, terminator, backoffMs: { min: 5, max: 20 }, ...extra });
  const trays: TrayEvent[] = [];
  const errors: ScanErrorEvent[] = [];
  scanner.on('tray', (e) => trays.push(e));
  scanner.on('scan-error', (e) => errors.push(e));
  await scanner.start();
  expect(scanner.isOpen()).toBe(true);
  const mock = () => scanner.serialPort!.port as unknown as MockPortBinding;
  return { scanner, trays, errors, mock };
}

async function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('SerialScanner on MockBinding', () => {
  it('CR-terminated scans, split across chunks', async () => {
    const { scanner, trays, errors, mock } = await openScanner('cr');
    mock().emitData('2026-12-02-EVE:');
    mock().emitData('7\r12\r');
    await waitFor(() => trays.length === 2);
    expect(trays.map((t) => t.code)).toEqual(['2026-12-02-eve:7', '12']);
    expect(trays[0].type).toBe('tray');
    expect(errors).toEqual([]);
    await scanner.stop();
  });

  it('LF-terminated scans', async () => {
    const { scanner, trays, mock } = await openScanner('lf');
    mock().emitData('3\n4\n');
    await waitFor(() => trays.length === 2);
    expect(trays.map((t) => t.code)).toEqual(['3', '4']);
    await scanner.stop();
  });

  it('CR LF, with `crlf` and with the default `any`', async () => {
    for (const t of ['crlf', 'any'] as const) {
      const { scanner, trays, errors, mock } = await openScanner(t);
      mock().emitData('eve:5\r');
      mock().emitData('\neve:6\r\n');
      await waitFor(() => trays.length === 2);
      expect(trays.map((x) => x.code)).toEqual(['eve:5', 'eve:6']);
      expect(errors).toEqual([]);
      await scanner.stop();
      MockBinding.reset();
    }
  });

  it('`any` also takes a bare CR and a bare LF', async () => {
    const { scanner, trays, mock } = await openScanner('any');
    mock().emitData('1\r2\n3\r\n');
    await waitFor(() => trays.length === 3);
    expect(trays.map((x) => x.code)).toEqual(['1', '2', '3']);
    await scanner.stop();
  });

  it('no terminator: a pause ends the scan (inter-byte timeout)', async () => {
    const { scanner, trays, mock } = await openScanner('none', { interByteMs: 20 });
    mock().emitData('eve:');
    mock().emitData('9');
    await new Promise((r) => setTimeout(r, 5));
    expect(trays).toEqual([]); // not yet: still within the inter-byte gap
    await waitFor(() => trays.length === 1);
    mock().emitData('10');
    await waitFor(() => trays.length === 2);
    expect(trays.map((x) => x.code)).toEqual(['eve:9', '10']);
    await scanner.stop();
  });

  it('a bad or unreadable scan gives a clear scan-error event, and the next scan still works', async () => {
    const { scanner, trays, errors, mock } = await openScanner('cr');
    mock().emitData(Buffer.from([0x31, 0xff, 0x0d])); // "1" + a byte that is not ASCII
    mock().emitData('NR\rhello\r0\r8\r');
    await waitFor(() => trays.length === 1 && errors.length === 4);
    expect(errors.map((e) => e.problem)).toEqual(['unreadable', 'unreadable', 'bad-code', 'bad-board']);
    for (const e of errors) {
      expect(e.type).toBe('scan-error');
      expect(e.error).toMatch(/^bad or unreadable scan: /);
      expect(e.source).toBe(PATH);
    }
    expect(errors[0].text).toBe('1\\xff');
    expect(trays[0].code).toBe('8');
    expect(scanner.stats).toMatchObject({ scans: 1, errors: 4 });
    await scanner.stop();
  });

  it('a line with no terminator in sight is cut at the limit, reported once, and memory stays bounded', async () => {
    const { scanner, trays, errors, mock } = await openScanner('cr');
    mock().emitData('x'.repeat(50));
    mock().emitData('y'.repeat(5000));
    mock().emitData('z'.repeat(100) + '\r7\r');
    await waitFor(() => trays.length === 1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ problem: 'too-long' });
    expect(errors[0].text.startsWith('xxxx')).toBe(true);
    expect(trays[0].code).toBe('7');
    await scanner.stop();
  });

  it('no terminator and an endless stream: reported as too long', async () => {
    const { scanner, errors, mock } = await openScanner('none', { interByteMs: 20 });
    mock().emitData('1'.repeat(200));
    await waitFor(() => errors.length >= 1);
    expect(errors[0].problem).toBe('too-long');
    await scanner.stop();
  });

  it('reopens after an unplug, with backoff, and keeps reading', async () => {
    const { scanner, trays, mock } = await openScanner('cr');
    const statuses: string[] = [];
    scanner.on('status', (s) => statuses.push(s.state));
    mock().emitData('1\r');
    await waitFor(() => trays.length === 1);
    // A read error is what the OS binding reports when the USB device goes away.
    (scanner.serialPort as unknown as { _disconnected(e: Error): void })._disconnected(new Error('device unplugged'));
    await waitFor(() => statuses.includes('closed'));
    await waitFor(() => scanner.isOpen());
    mock().emitData('2\r');
    await waitFor(() => trays.length === 2);
    expect(trays.map((t) => t.code)).toEqual(['1', '2']);
    expect(scanner.stats.disconnects).toBe(1);
    expect(scanner.stats.opens).toBe(2);
    await scanner.stop();
  });

  it('a scanner that is not plugged in yet is opened when it appears', async () => {
    const scanner = new SerialScanner({ path: PATH, binding: MockBinding, terminator: 'cr', backoffMs: { min: 5, max: 10 } });
    const statuses: { state: string; error?: string }[] = [];
    scanner.on('status', (s) => statuses.push(s));
    await scanner.start();
    expect(scanner.isOpen()).toBe(false);
    expect(statuses[0].state).toBe('closed');
    expect(statuses[0].error).toMatch(/does not exist/);
    MockBinding.createPort(PATH, { echo: false, record: false });
    await waitFor(() => scanner.isOpen());
    await scanner.stop();
    expect(scanner.isOpen()).toBe(false);
  });

  it('the scanner emulator writes scans that the scanner reads, for each terminator', async () => {
    for (const t of ['cr', 'lf', 'crlf', 'none'] as const) {
      const { scanner, trays, errors } = await openScanner(t, { interByteMs: 15 });
      const mockPort = scanner.serialPort!.port as unknown as MockPortBinding;
      // The emulator writes to a stream; here the "wire" delivers its bytes to the mock port.
      const emu = new ScannerEmulator({ terminator: t, gapMs: t === 'none' ? 40 : 0 });
      emu.attach({ write: (b: Buffer) => { mockPort.emitData(b); return true; } });
      await emu.scan('2026-12-02-eve:3');
      await emu.scan('4');
      await emu.scanUnreadable();
      await waitFor(() => trays.length === 2 && errors.length === 1);
      expect(trays.map((x) => x.code)).toEqual(['2026-12-02-eve:3', '4']);
      expect(errors[0].problem).toBe('unreadable');
      await scanner.stop();
      MockBinding.reset();
    }
  });
});

describe('BoundedReadlineParser', () => {
  it('splits like ReadlineParser and drops an over-long line whole', async () => {
    const p = new BoundedReadlineParser({ delimiter: '\n', maxLength: 8 });
    const lines: string[] = [];
    const over: string[] = [];
    p.on('data', (l: string) => lines.push(l));
    p.on('overflow', (h: string) => over.push(h));
    p.write('abc\n0123456');
    p.write('789ABCDEF');
    p.write('GHI\nok\n');
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual(['abc', 'ok']);
    expect(over).toHaveLength(1);
  });
});
