// Tray scanner in USB-serial mode (CDC-ACM, or RS-232 behind an adapter).
//
// The scanner sends each scan as ASCII text followed by its configured suffix: CR, LF, CR LF, or
// nothing at all. With a suffix we split lines with serialport's ReadlineParser (bounded: see
// BoundedReadlineParser); without one, a pause in the bytes ends a scan (InterByteTimeoutParser).
// Each scan becomes a `tray` TableEvent, or a `scan-error` event that says why it was refused.
// An unplugged scanner is reopened with a capped backoff; the driver never throws or exits over it.
import { EventEmitter } from 'node:events';
import type { TransformCallback } from 'node:stream';
import { ReadlineParser } from '@serialport/parser-readline';
import { InterByteTimeoutParser } from '@serialport/parser-inter-byte-timeout';
import { SerialPortStream, type OpenOptions } from '@serialport/stream';
import type { TrayEvent } from '../formats/table-log.js';
import { MAX_SCAN_LENGTH, type ScanErrorEvent, printableScan, scanToEvent } from './tray-code.js';
import { isoNow } from '../formats/iso-time.js';

/** A serialport binding (the OS one, or MockBinding in tests). */
export type SerialBinding = OpenOptions['binding'];
type BindingInterface = SerialBinding;

/** `any` accepts CR, LF and CR LF alike (the default); `none`: the scanner sends no suffix. */
export type ScannerTerminator = 'cr' | 'lf' | 'crlf' | 'any' | 'none';
export const SCANNER_TERMINATORS: readonly ScannerTerminator[] = ['cr', 'lf', 'crlf', 'any', 'none'];

/** Reconnection delays: `min` doubling up to `max`, back to `min` after a successful open. */
export class Backoff {
  private next: number;
  constructor(private readonly min = 250, private readonly max = 8000) {
    this.next = min;
  }
  /** The delay to wait now; the following one doubles, up to the cap. */
  take(): number {
    const d = this.next;
    this.next = Math.min(this.max, this.next * 2);
    return d;
  }
  reset(): void {
    this.next = this.min;
  }
}

/**
 * ReadlineParser with a maximum line length. ReadlineParser buffers without limit until it sees the
 * delimiter; this one drops a line once it passes `maxLength` bytes, discards the rest of it up to
 * the next delimiter, and emits `overflow` (with the first bytes) instead of a truncated line.
 * With `anyEol` every CR becomes LF first, so CR, LF and CR LF all end a line (CR LF then also
 * yields an empty line, which callers ignore).
 */
export class BoundedReadlineParser extends ReadlineParser {
  private discarding = false;
  private readonly maxLength: number;
  private readonly anyEol: boolean;
  private readonly last: number;

  constructor(opts: { delimiter: string; maxLength: number; anyEol?: boolean }) {
    super({ delimiter: opts.delimiter, encoding: 'latin1' });
    this.maxLength = opts.maxLength;
    this.anyEol = opts.anyEol ?? false;
    this.last = opts.delimiter.charCodeAt(opts.delimiter.length - 1);
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, cb: TransformCallback): void {
    let data = chunk;
    if (this.anyEol) {
      data = Buffer.from(chunk);
      for (let i = 0; i < data.length; i++) if (data[i] === 0x0d) data[i] = 0x0a;
    }
    if (this.discarding) {
      const end = data.indexOf(this.last);
      if (end < 0) return cb();
      this.discarding = false;
      data = data.subarray(end + 1);
    }
    super._transform(data, encoding, (err?: Error | null) => {
      if (err) return cb(err);
      const self = this as unknown as { buffer: Buffer };
      if (self.buffer.length > this.maxLength) {
        const head = self.buffer.subarray(0, 32).toString('latin1');
        self.buffer = Buffer.alloc(0);
        this.discarding = true;
        this.emit('overflow', head);
      }
      cb();
    });
  }
}

export interface SerialScannerOptions {
  /** The scanner's port: /dev/serial/by-id/usb-… or /dev/tenace-scanner (hardware/99-tenace.rules). */
  path: string;
  /** Baud rate for RS-232 scanners; USB CDC ignores it. Default 9600. */
  baudRate?: number;
  terminator?: ScannerTerminator;
  /** `none` only: a pause this long ends a scan. Default 50 ms (scanners send a whole code in a few ms). */
  interByteMs?: number;
  /** Longest scan, in bytes. Default MAX_SCAN_LENGTH (64). */
  maxLength?: number;
  /** Reopen delays after an unplug or a failed open. Default 250 ms doubling to 8 s. */
  backoffMs?: { min: number; max: number };
  /** serialport binding; default the OS binding (tests pass MockBinding). */
  binding?: BindingInterface;
}

export type ScannerStatus =
  | { state: 'open'; source: string }
  | { state: 'closed'; source: string; error?: string; retryInMs: number };

export interface ScannerEvents {
  tray: [TrayEvent];
  'scan-error': [ScanErrorEvent];
  status: [ScannerStatus];
}

/**
 * What the serial and the HID scanner share: start and stop, reopening with a capped backoff after a failed open or an
 * unplug (never throwing over it), a scan's text turned into its event, and the counters. The subclass holds the
 * device (`open`, `closeDevice`).
 */
export abstract class ReopeningScanner extends EventEmitter<ScannerEvents> {
  protected timer: NodeJS.Timeout | undefined;
  protected stopped = true;
  protected readonly backoff: Backoff;
  /** Counters for the status page. */
  readonly stats = { scans: 0, errors: 0, opens: 0, disconnects: 0 };

  /** `source` names the device in the events and statuses. */
  constructor(protected readonly source: string, backoffMs: { min: number; max: number } | undefined) {
    super();
    this.backoff = new Backoff(backoffMs?.min ?? 250, backoffMs?.max ?? 8000);
  }

  /** Try to open the device once; on failure call `retry`, and while stopped do nothing. */
  protected abstract open(): Promise<void>;
  /** Close the device held, if any, and forget it. */
  protected abstract closeDevice(): Promise<void>;

  /** Start reading; resolves after the first open attempt (whether or not it succeeded). */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.open();
  }

  /** Stop for good: cancel any reopen and close the device. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.closeDevice();
  }

  /** Feed the text of one scan as if it had been read (for tests and the emulator). */
  handleScan(text: string): void {
    const ev = scanToEvent(text, this.source);
    if (ev.type === 'tray') {
      this.stats.scans++;
      this.emit('tray', ev);
    } else {
      this.stats.errors++;
      this.emit('scan-error', ev);
    }
  }

  /** Report the device closed and try again after the next backoff delay (unless stopped). */
  protected retry(error: string): void {
    if (this.stopped) return;
    const d = this.backoff.take();
    this.emit('status', { state: 'closed', source: this.source, error, retryInMs: d });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.open();
    }, d);
  }
}

/**
 * A serial tray scanner. `start()` opens the port (retrying until it exists); listen for `tray`,
 * `scan-error` and `status`. `stop()` closes it for good.
 */
export class SerialScanner extends ReopeningScanner {
  private port: SerialPortStream | undefined;
  private readonly opts: Required<Omit<SerialScannerOptions, 'binding' | 'backoffMs'>> & { binding?: BindingInterface };

  constructor(opts: SerialScannerOptions) {
    super(opts.path, opts.backoffMs);
    this.opts = {
      path: opts.path,
      baudRate: opts.baudRate ?? 9600,
      terminator: opts.terminator ?? 'any',
      interByteMs: opts.interByteMs ?? 50,
      maxLength: opts.maxLength ?? MAX_SCAN_LENGTH,
      binding: opts.binding,
    };
    if (!SCANNER_TERMINATORS.includes(this.opts.terminator)) {
      throw new RangeError(`scanner terminator must be one of ${SCANNER_TERMINATORS.join(', ')} (got "${this.opts.terminator}")`);
    }
  }

  protected async closeDevice(): Promise<void> {
    const p = this.port;
    this.port = undefined;
    if (p?.isOpen) await new Promise<void>((res) => p.close(() => res()));
  }

  /** The open port, if any (tests reach the MockBinding through it). */
  get serialPort(): SerialPortStream | undefined {
    return this.port;
  }

  /** True while the port is open. */
  isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  protected async open(): Promise<void> {
    if (this.stopped) return;
    const binding = this.opts.binding ?? (await defaultBinding());
    const port = new SerialPortStream({ binding, path: this.opts.path, baudRate: this.opts.baudRate, autoOpen: false });
    const err = await new Promise<Error | null>((res) => port.open((e) => res(e ?? null)));
    if (this.stopped) {
      if (!err) port.close();
      return;
    }
    if (err) {
      this.retry(err.message);
      return;
    }
    this.port = port;
    this.stats.opens++;
    this.backoff.reset();
    this.attachParser(port);
    port.on('error', () => { /* a close follows; reported there */ });
    port.once('close', (e: Error | null) => {
      if (this.port === port) this.port = undefined;
      if (this.stopped) return;
      this.stats.disconnects++;
      this.retry(e?.message ?? 'port closed');
    });
    this.emit('status', { state: 'open', source: this.opts.path });
  }

  private attachParser(port: SerialPortStream): void {
    const t = this.opts.terminator;
    if (t === 'none') {
      const p = port.pipe(new InterByteTimeoutParser({ interval: this.opts.interByteMs, maxBufferSize: this.opts.maxLength + 1 }));
      p.on('data', (buf: Buffer) => {
        if (buf.length > this.opts.maxLength) this.tooLong(buf.toString('latin1'));
        else this.handleScan(buf.toString('latin1'));
      });
      return;
    }
    const p = port.pipe(new BoundedReadlineParser({
      delimiter: t === 'cr' ? '\r' : t === 'crlf' ? '\r\n' : '\n',
      anyEol: t === 'any',
      maxLength: this.opts.maxLength,
    }));
    p.on('data', (line: string) => {
      if (line.length === 0) return;
      this.handleScan(line);
    });
    p.on('overflow', (head: string) => this.tooLong(head));
  }

  private tooLong(head: string): void {
    this.stats.errors++;
    this.emit('scan-error', {
      type: 'scan-error',
      problem: 'too-long',
      error: `bad or unreadable scan: longer than ${this.opts.maxLength} characters (is the scanner's suffix set to ${this.opts.terminator}?)`,
      text: printableScan(head),
      source: this.opts.path,
      at: isoNow(),
    });
  }
}

let osBinding: BindingInterface | undefined;
/** The OS serial binding, loaded on first use (so tests on MockBinding never load the addon). */
async function defaultBinding(): Promise<BindingInterface> {
  if (!osBinding) {
    // The module that defines SerialPort alone: the package's index also loads its ten parsers, which we never use.
    const { SerialPort } = await import('serialport/dist/serialport.js');
    osBinding = SerialPort.binding as unknown as BindingInterface;
  }
  return osBinding;
}
