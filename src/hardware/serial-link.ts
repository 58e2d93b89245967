// The serial port under a driver: opened as configured, reopened with capped exponential backoff
// (250 ms doubling to 5 s by default) when lost (unplugged: 'close' with a disconnect error;
// ENOENT/EACCES/EBUSY on open), closed on stop. What a connection means (state to forget, the
// greeting, the status to report) is the driver's: the link calls its host at each step.
//
// Paths: configure the stable `/dev/serial/by-id/usb-…` (or `/dev/tenace-bridge-<serial>` from
// hardware/99-tenace.rules) path. It is opened as given, so a replug that renumbers ttyACM0 →
// ttyACM1 still finds the bridge; the symlink is resolved only to log where it points.
import { realpath } from 'node:fs/promises';
import { SerialPortStream } from '@serialport/stream';
import type { BindingInterface, DriverStats, Logger } from './driver-types.js';

/** The platform binding of `serialport`, loaded on first use (tests inject MockBinding instead). */
let defaultBinding: BindingInterface | undefined;

/** Where the link is: never started, opening, open, waiting to reopen, or stopped. */
export type LinkState = 'idle' | 'opening' | 'open' | 'waiting' | 'stopped';

/** What a SerialLink needs from its driver. */
export interface SerialLinkHost {
  readonly bridge: string;
  readonly path: string;
  readonly log: Logger;
  readonly stats: DriverStats;
  /** The port is open: forget the previous connection (before any byte is read). */
  opened(): void;
  /** Bytes received. */
  data(chunk: Buffer): void;
  /** The port is flushed and read from: greet the bridge. */
  ready(): void;
  /** An open failed (`first`: the first of a series); the link tries again later. */
  openFailed(err: Error, first: boolean): void;
  /** The open port closed; unless `stopped`, the link reopens it after this returns. */
  closed(err: Error | null, stopped: boolean): void;
}

/** Backoff and line settings of a SerialLink. */
export interface SerialLinkOptions {
  baudRate: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
}

/** One driver's serial port, kept open until stopped. */
export class SerialLink {
  state: LinkState = 'idle';
  private port?: SerialPortStream;
  /** Failed opens in a row (the backoff exponent); reset when valid lines come. */
  private attempt = 0;
  private opens = 0;
  private reopenTimer?: NodeJS.Timeout;

  constructor(
    private readonly host: SerialLinkHost,
    private readonly binding: BindingInterface | undefined,
    private readonly opts: SerialLinkOptions,
  ) {}

  /** True while the port is open. */
  get isOpen(): boolean {
    return this.port?.isOpen === true;
  }

  /** Arms the link (false when it runs already); `open()` then opens the port. */
  arm(): boolean {
    if (this.state !== 'idle' && this.state !== 'stopped') return false;
    this.state = 'waiting';
    this.attempt = 0;
    return true;
  }

  /** Stops reopening; true when the link was running. `close()` then closes the port. */
  stop(): boolean {
    const wasRunning = this.state !== 'stopped' && this.state !== 'idle';
    this.state = 'stopped';
    clearTimeout(this.reopenTimer);
    this.reopenTimer = undefined;
    return wasRunning;
  }

  /** Closes the port, if open, without calling `closed` (the driver stops on purpose). */
  async close(): Promise<void> {
    const port = this.port;
    this.port = undefined;
    if (port?.isOpen) {
      await new Promise<void>((res) => port.close(() => res()));
    }
  }

  /** The bridge answers: the next loss starts the backoff from its shortest delay. */
  resetBackoff(): void {
    this.attempt = 0;
  }

  /** Writes text to the port, if open (a failed write is only logged: the protocol recovers). */
  write(text: string): void {
    const port = this.port;
    if (!port?.isOpen) return;
    port.write(text, (e) => {
      if (e) this.host.log.debug({ bridge: this.host.bridge, err: e.message }, 'write failed');
    });
  }

  /** Opens the port (once armed, and again after each loss until stopped). */
  async open(): Promise<void> {
    if (this.state !== 'waiting') return;
    this.state = 'opening';
    const { host } = this;
    if (!this.binding && !defaultBinding) {
      try {
        // The module that defines SerialPort alone: the package's index also loads its ten parsers, which we never use.
        defaultBinding = (await import('serialport/dist/serialport.js')).SerialPort.binding as unknown as BindingInterface;
      } catch (e) {
        host.log.error({ bridge: host.bridge, err: (e as Error).message }, 'cannot load the serialport binding');
      }
    }
    let port: SerialPortStream;
    try {
      port = new SerialPortStream({
        binding: this.binding ?? (defaultBinding as BindingInterface),
        path: host.path,
        baudRate: this.opts.baudRate,
        autoOpen: false,
      });
    } catch (e) {
      this.failed(e as Error);
      return;
    }
    port.on('error', (err: Error) => host.log.warn({ bridge: host.bridge, err: err.message }, 'serial port error'));
    const err = await new Promise<Error | null>((res) => port.open((e) => res(e ?? null)));
    if ((this.state as LinkState) === 'stopped') {
      if (!err && port.isOpen) port.close();
      return;
    }
    if (err) {
      this.failed(err);
      return;
    }
    this.state = 'open';
    this.port = port;
    if (this.opens++ > 0) host.stats.reconnects++;
    host.opened();
    realpath(host.path).then(
      (real) => host.log.info({ bridge: host.bridge, path: host.path, device: real }, 'bridge port open'),
      () => host.log.info({ bridge: host.bridge, path: host.path }, 'bridge port open'),
    );
    // §12.1: flush input, then the host greets (a bare "\n" ends any half line in the device's input buffer).
    port.on('close', (e: Error | null) => this.onClose(port, e));
    await new Promise<void>((res) => port.flush(() => res()));
    if (this.port !== port) return;
    port.on('data', (chunk: Buffer) => host.data(chunk));
    host.ready();
  }

  private failed(err: Error): void {
    this.host.stats.openFailures++;
    this.state = 'waiting';
    this.host.openFailed(err, this.attempt === 0);
    this.scheduleReopen();
  }

  private scheduleReopen(): void {
    if (this.state !== 'waiting') return;
    const delay = Math.min(this.opts.reconnectMaxMs, this.opts.reconnectMinMs * 2 ** Math.min(this.attempt, 20));
    this.attempt++;
    clearTimeout(this.reopenTimer);
    this.reopenTimer = setTimeout(() => void this.open(), delay);
  }

  private onClose(port: SerialPortStream, err: Error | null): void {
    if (port !== this.port) return;
    this.port = undefined;
    const stopped = this.state === 'stopped';
    if (!stopped) this.state = 'waiting';
    this.host.closed(err, stopped);
    if (!stopped) this.scheduleReopen();
  }
}
