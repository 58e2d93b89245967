// A tray scanner emulator in USB-serial mode: writes scans, each followed by the configured suffix,
// to a serial port (one end of a pty pair) or to any writable stream.
//
// With terminator `none` the receiver splits scans by silence, so the emulator keeps at least
// `gapMs` between two scans (set it above the receiver's inter-byte timeout).
import { SerialPortStream } from '@serialport/stream';
import type { ScannerTerminator, SerialBinding } from './scanner-serial.js';

export interface ScanWriter {
  write(data: Buffer): unknown;
}

export interface ScannerEmulatorOptions {
  /** The suffix after each scan. Default `cr` (the factory default of most scanners). `any` writes CR. */
  terminator?: ScannerTerminator;
  /** Silence kept between two scans, in ms. Default 0, or 100 with terminator `none`. */
  gapMs?: number;
}

const SUFFIX: Record<ScannerTerminator, string> = { cr: '\r', lf: '\n', crlf: '\r\n', any: '\r', none: '' };

export class ScannerEmulator {
  private out: ScanWriter | undefined;
  private port: SerialPortStream | undefined;
  private lastWrite = 0;
  private readonly terminator: ScannerTerminator;
  private readonly gapMs: number;
  /** How many scans were written. */
  scans = 0;

  constructor(opts: ScannerEmulatorOptions = {}) {
    this.terminator = opts.terminator ?? 'cr';
    this.gapMs = opts.gapMs ?? (this.terminator === 'none' ? 100 : 0);
  }

  /** Write to a stream you manage. */
  attach(out: ScanWriter): void {
    this.out = out;
  }

  /** Open a serial port (a pty end) and write to it. `binding` defaults to the OS binding. */
  async open(path: string, binding?: SerialBinding): Promise<void> {
    const b = binding ?? ((await import('serialport')).SerialPort.binding as unknown as SerialBinding);
    const port = new SerialPortStream({ binding: b, path, baudRate: 9600, autoOpen: false });
    await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
    port.on('error', () => { /* a closed pty: scans are lost, as with an unplugged scanner */ });
    this.port = port;
    this.out = port;
  }

  async close(): Promise<void> {
    const p = this.port;
    this.port = undefined;
    this.out = undefined;
    if (p?.isOpen) await new Promise<void>((res) => p.drain(() => p.close(() => res())));
  }

  /** Scan a label: its text and the suffix. */
  async scan(text: string): Promise<void> {
    await this.send(Buffer.from(text + SUFFIX[this.terminator], 'latin1'));
  }

  /** A misread: bytes that are no tray code (a control byte and a non-ASCII byte), then the suffix. */
  async scanUnreadable(): Promise<void> {
    await this.send(Buffer.concat([Buffer.from([0x31, 0x07, 0xfe]), Buffer.from(SUFFIX[this.terminator], 'latin1')]));
  }

  private async send(data: Buffer): Promise<void> {
    if (!this.out) throw new Error('scanner emulator: not attached to a port');
    const wait = this.lastWrite + this.gapMs - Date.now();
    if (this.scans > 0 && wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.out.write(data);
    this.scans++;
    this.lastWrite = Date.now();
    if (this.port) await new Promise<void>((res) => this.port!.drain(() => res()));
  }
}
