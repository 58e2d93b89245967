// Tray scanner in USB-HID keyboard mode, read from hidraw through node-hid.
//
// node-hid is an optional dependency with a native addon (hidapi, libusb/hidraw). It is imported
// only when a HID scanner is started, so a daemon configured without one runs on a machine where
// node-hid is missing or cannot load. A load failure is reported as a status, never thrown later.
//
// The reports are decoded by HidKeyboardDecoder (hid-keyboard.ts); each Enter ends one scan, which
// becomes a `tray` TableEvent or a `scan-error` event exactly as for the serial scanner.
import type { EventEmitter } from 'node:events';
import { HidKeyboardDecoder } from './hid-keyboard.js';
import { ReopeningScanner } from './scanner-serial.js';
import { MAX_SCAN_LENGTH, printableScan } from './tray-code.js';
import { isoNow } from '../formats/iso-time.js';

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
export class HidScanner extends ReopeningScanner {
  private dev: HidDevice | undefined;
  private readonly decoder: HidKeyboardDecoder;
  private readonly maxLength: number;

  constructor(private readonly opts: HidScannerOptions) {
    super(describeTarget(opts.target), opts.backoffMs);
    this.maxLength = opts.maxLength ?? MAX_SCAN_LENGTH;
    this.decoder = new HidKeyboardDecoder({ maxLength: this.maxLength });
  }

  protected async closeDevice(): Promise<void> {
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
          type: 'scan-error', problem: 'too-long', source: this.source, at: isoNow(),
          error: `bad or unreadable scan: longer than ${this.maxLength} characters (does the scanner end each scan with Enter?)`,
          text: printableScan(scan.text),
        });
        continue;
      }
      this.handleScan(scan.text);
    }
  }

  protected async open(): Promise<void> {
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
}
