// Tray scanner in USB-HID keyboard mode, read from hidraw through node-hid.
//
// node-hid is an optional dependency with a native addon (hidapi, libusb/hidraw). It is imported
// only when a HID scanner is started, so a daemon configured without one runs on a machine where
// node-hid is missing or cannot load. A load failure is reported as a status, never thrown later.
//
// The reports are decoded by HidKeyboardDecoder (hid-keyboard.ts); each Enter ends one scan, which
// becomes a `tray` TableEvent or a `scan-error` event exactly as for the serial scanner.
import { EventEmitter } from 'node:events';
import { HidKeyboardDecoder } from './hid-keyboard.js';
import { Backoff, type ScannerEvents } from './scanner-serial.js';
import { MAX_SCAN_LENGTH, printableScan, scanToEvent } from './tray-code.js';

/** The part of node-hid's HIDAsync we use (so tests can pass a fake). */
export interface HidDevice extends EventEmitter {
  close(): Promise<void> | void;
}

/** Opens a HID device by hidraw path, or by vendor and product id. */
export type HidOpener = (target: HidTarget) => Promise<HidDevice>;

export type HidTarget = { path: string } | { vendorId: number; productId: number };

export interface HidScannerOptions {
  /** /dev/hidraw* or the /dev/tenace-scanner-hid link, or the USB ids. */
  target: HidTarget;
  /** Longest scan in characters. Default MAX_SCAN_LENGTH. */
  maxLength?: number;
  backoffMs?: { min: number; max: number };
  /** How to open the device; default node-hid's HIDAsync.open, loaded lazily. */
  open?: HidOpener;
}

let nodeHid: Promise<HidOpener> | undefined;

/** Load node-hid on first use. Rejects with a sentence a user can act on when it is unavailable. */
export function loadNodeHid(): Promise<HidOpener> {
  nodeHid ??= import('node-hid').then(
    (mod) => {
      const m = ((mod as unknown as { default?: typeof mod }).default ?? mod) as typeof mod;
      try { m.setDriverType?.('hidraw'); } catch { /* only one driver built */ }
      return async (t: HidTarget): Promise<HidDevice> => {
        const dev = 'path' in t ? await m.HIDAsync.open(t.path) : await m.HIDAsync.open(t.vendorId, t.productId);
        return dev as unknown as HidDevice;
      };
    },
    (e: unknown) => {
      nodeHid = undefined;
      throw new Error(`the HID scanner needs the optional package node-hid, which could not be loaded (${(e as Error).message}); install it, or set the scanner to USB serial mode`);
    },
  );
  return nodeHid;
}

/** Close a device without letting a late read error escape as an unhandled 'error' event. */
async function quietClose(dev: HidDevice): Promise<void> {
  dev.removeAllListeners('data');
  dev.removeAllListeners('error');
  dev.on('error', () => undefined);
  try {
    await dev.close();
  } catch {
    /* already gone */
  }
}

function describeTarget(t: HidTarget): string {
  return 'path' in t ? t.path : `hid:${t.vendorId.toString(16).padStart(4, '0')}:${t.productId.toString(16).padStart(4, '0')}`;
}

/** A HID keyboard-mode tray scanner: same events as SerialScanner. */
export class HidScanner extends EventEmitter<ScannerEvents> {
  private dev: HidDevice | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly decoder: HidKeyboardDecoder;
  private readonly backoff: Backoff;
  private readonly source: string;
  private readonly maxLength: number;
  readonly stats = { scans: 0, errors: 0, opens: 0, disconnects: 0 };

  constructor(private readonly opts: HidScannerOptions) {
    super();
    this.maxLength = opts.maxLength ?? MAX_SCAN_LENGTH;
    this.decoder = new HidKeyboardDecoder({ maxLength: this.maxLength });
    this.backoff = new Backoff(opts.backoffMs?.min ?? 250, opts.backoffMs?.max ?? 8000);
    this.source = describeTarget(opts.target);
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.open();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const d = this.dev;
    this.dev = undefined;
    if (d) await quietClose(d);
  }

  isOpen(): boolean {
    return this.dev !== undefined;
  }

  /** Feed one input report as if the device had sent it (tests, emulators). */
  handleReport(report: ArrayLike<number>): void {
    for (const scan of this.decoder.push(report)) {
      if (scan.text.length === 0) continue; // a bare Enter
      if (scan.overflow) {
        this.stats.errors++;
        this.emit('scan-error', {
          type: 'scan-error', problem: 'too-long', source: this.source, at: new Date().toISOString(),
          error: `bad or unreadable scan: longer than ${this.maxLength} characters (does the scanner end each scan with Enter?)`,
          text: printableScan(scan.text),
        });
        continue;
      }
      const ev = scanToEvent(scan.text, this.source);
      if (ev.type === 'tray') {
        this.stats.scans++;
        this.emit('tray', ev);
      } else {
        this.stats.errors++;
        this.emit('scan-error', ev);
      }
    }
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    let opener: HidOpener;
    try {
      opener = this.opts.open ?? (await loadNodeHid());
    } catch (e) {
      this.retry((e as Error).message);
      return;
    }
    let dev: HidDevice;
    try {
      dev = await opener(this.opts.target);
    } catch (e) {
      this.retry((e as Error).message);
      return;
    }
    if (this.stopped) {
      await quietClose(dev);
      return;
    }
    this.dev = dev;
    this.stats.opens++;
    this.backoff.reset();
    this.decoder.reset();
    dev.on('data', (data: Buffer) => this.handleReport(data));
    dev.once('error', (e: Error) => {
      if (this.dev !== dev) return;
      this.dev = undefined;
      void quietClose(dev);
      this.stats.disconnects++;
      this.retry(e.message);
    });
    this.emit('status', { state: 'open', source: this.source });
  }

  private retry(error: string): void {
    if (this.stopped) return;
    const d = this.backoff.take();
    this.emit('status', { state: 'closed', source: this.source, error, retryInMs: d });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.open();
    }, d);
  }
}
