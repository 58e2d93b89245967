// In-process serial lines, for `tenace simulate` on a machine without socat (a fresh clone must run `npm start`).
//
// A LoopbackBinding is a serialport binding (the BindingInterface that SerialPortStream drives) whose ports are the
// two ends of in-memory wires: what one end writes, the other end reads. The firmware emulator and the scanner
// emulator open the device ends, and the real BridgeDriver and SerialScanner open the host ends, all through the same
// binding, so every byte still goes through SerialPortStream, the line splitter and the protocol codec exactly as on
// a pty pair. Only the kernel is left out.
//
// The model follows a socat pty pair (src/hardware/pty.ts):
// - bytes written while the other end is closed wait for it (up to a bound), and `flush()` discards them;
// - `unplug()` hangs up both ends: a read in progress fails with a disconnect error (not `canceled`), so the
//   SerialPortStream closes with `disconnected`, and `open()` fails with "No such file or directory" until `plug()`.
import type { BindingInterface } from '../hardware/bridge-driver.js';
import { type EmulatorLink, serialLink } from '../hardware/emulator.js';

type PortInterface = Awaited<ReturnType<BindingInterface['open']>>;
type OpenOptions = Parameters<BindingInterface['open']>[0];
type PortInfo = Awaited<ReturnType<BindingInterface['list']>>[number];

/** Bytes kept for an end nobody reads (a pty's buffer is about this size); older bytes beyond it are dropped. */
const MAX_BUFFERED = 1 << 20;

interface BindingError extends Error {
  canceled?: boolean;
  code?: string;
}

function error(message: string, extra: Partial<BindingError> = {}): BindingError {
  return Object.assign(new Error(message), extra);
}

/** One end of a wire: a path, what has arrived for it, and the port open on it (if any). */
export class LoopbackEnd {
  peer!: LoopbackEnd;
  port: LoopbackPort | null = null;
  private chunks: Buffer[] = [];
  private bytes = 0;
  /** Bytes dropped because nobody read them. */
  dropped = 0;

  constructor(readonly path: string, readonly pair: LoopbackPair) {}

  get buffered(): number {
    return this.bytes;
  }

  /** Bytes from the other end. */
  deliver(data: Buffer): void {
    if (data.length === 0) return;
    this.chunks.push(data);
    this.bytes += data.length;
    while (this.bytes > MAX_BUFFERED && this.chunks.length > 0) {
      const old = this.chunks.shift()!;
      this.bytes -= old.length;
      this.dropped += old.length;
    }
    this.port?.wake();
  }

  /** Copy up to `length` buffered bytes into `buffer` at `offset`; returns how many. */
  take(buffer: Buffer, offset: number, length: number): number {
    let n = 0;
    while (n < length && this.chunks.length > 0) {
      const head = this.chunks[0];
      const k = Math.min(head.length, length - n);
      head.copy(buffer, offset + n, 0, k);
      n += k;
      if (k === head.length) this.chunks.shift();
      else this.chunks[0] = head.subarray(k);
    }
    this.bytes -= n;
    return n;
  }

  discard(): void {
    this.chunks = [];
    this.bytes = 0;
  }
}

/** A port open on one end of a wire (what the binding's `open()` returns). */
export class LoopbackPort implements PortInterface {
  readonly openOptions: Required<OpenOptions>;
  isOpen = true;
  private hungUp = false;
  private pending: { buffer: Buffer; offset: number; length: number; resolve: (r: { buffer: Buffer; bytesRead: number }) => void; reject: (e: Error) => void } | null = null;

  constructor(private readonly end: LoopbackEnd, options: OpenOptions) {
    this.openOptions = {
      dataBits: 8, lock: true, stopBits: 1, parity: 'none', rtscts: false, xon: false, xoff: false, xany: false, hupcl: true,
      ...options,
    } as Required<OpenOptions>;
  }

  async close(): Promise<void> {
    if (!this.isOpen) throw error('Port is not open');
    this.isOpen = false;
    if (this.end.port === this) this.end.port = null;
    const p = this.pending;
    this.pending = null;
    p?.reject(error('Port is closed', { canceled: true }));
  }

  read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
    if (this.hungUp) return Promise.reject(this.hangupError());
    if (!this.isOpen) return Promise.reject(error('Port is not open', { canceled: true }));
    if (this.pending) return Promise.reject(error('a read is already in progress'));
    if (length <= 0) return Promise.resolve({ buffer, bytesRead: 0 });
    return new Promise((resolve, reject) => {
      this.pending = { buffer, offset, length, resolve, reject };
      this.wake();
    });
  }

  async write(buffer: Buffer): Promise<void> {
    if (this.hungUp) throw this.hangupError();
    if (!this.isOpen) throw error('Port is not open', { canceled: true });
    // A copy: SerialPortStream may reuse the buffer once the write resolves.
    this.end.peer.deliver(Buffer.from(buffer));
  }

  async update(options: { baudRate: number }): Promise<void> {
    if (!this.isOpen) throw error('Port is not open');
    if (!Number.isInteger(options.baudRate) || options.baudRate <= 0) throw error(`invalid baud rate ${options.baudRate}`);
    this.openOptions.baudRate = options.baudRate;
  }

  async set(): Promise<void> {
    if (!this.isOpen) throw error('Port is not open');
  }

  async get(): Promise<{ cts: boolean; dsr: boolean; dcd: boolean }> {
    if (!this.isOpen) throw error('Port is not open');
    return { cts: true, dsr: true, dcd: true };
  }

  async getBaudRate(): Promise<{ baudRate: number }> {
    if (!this.isOpen) throw error('Port is not open');
    return { baudRate: this.openOptions.baudRate };
  }

  async flush(): Promise<void> {
    if (!this.isOpen) throw error('Port is not open');
    this.end.discard();
  }

  async drain(): Promise<void> {
    if (!this.isOpen) throw error('Port is not open');
  }

  /** A read is waiting for bytes: the reader has taken everything before it. */
  get reading(): boolean {
    return this.pending !== null;
  }

  /** Data arrived: complete the read in progress. */
  wake(): void {
    const p = this.pending;
    if (!p || this.end.buffered === 0) return;
    this.pending = null;
    const n = this.end.take(p.buffer, p.offset, p.length);
    p.resolve({ buffer: p.buffer, bytesRead: n });
  }

  /** The wire went away under the port: what an unplugged USB device does to an open tty. */
  hangUp(): void {
    this.hungUp = true;
    const p = this.pending;
    this.pending = null;
    p?.reject(this.hangupError());
  }

  private hangupError(): BindingError {
    return error(`${this.end.path}: the device was unplugged`, { code: 'EIO' });
  }
}

/** Two linked ends. */
export class LoopbackPair {
  readonly a: LoopbackEnd;
  readonly b: LoopbackEnd;
  private plugged = true;

  constructor(a: string, b: string) {
    this.a = new LoopbackEnd(a, this);
    this.b = new LoopbackEnd(b, this);
    this.a.peer = this.b;
    this.b.peer = this.a;
  }

  /** True while the wire is plugged in (both paths can be opened). */
  get present(): boolean {
    return this.plugged;
  }

  /** Pull the cable: both open ports hang up, buffered bytes are lost, and opening fails until plug(). */
  unplug(): void {
    if (!this.plugged) return;
    this.plugged = false;
    for (const end of [this.a, this.b]) {
      end.discard();
      const port = end.port;
      end.port = null;
      port?.hangUp();
    }
  }

  /** Plug the cable back in. */
  plug(): void {
    this.plugged = true;
  }
}

/** A serialport binding whose ports are the ends of in-memory wires (see the module comment). */
export class LoopbackBinding implements BindingInterface {
  private readonly ends = new Map<string, LoopbackEnd>();

  /** Create a wire between two new paths, e.g. `loopback:bridge-device` and `loopback:bridge-host`. */
  pair(a: string, b: string): LoopbackPair {
    for (const p of [a, b]) if (this.ends.has(p)) throw new Error(`loopback: ${p} exists already`);
    if (a === b) throw new Error('loopback: the two ends need two paths');
    const pair = new LoopbackPair(a, b);
    this.ends.set(a, pair.a);
    this.ends.set(b, pair.b);
    return pair;
  }

  async list(): Promise<PortInfo[]> {
    return [...this.ends.values()].filter((e) => e.pair.present).map((e) => ({
      path: e.path, manufacturer: 'tenace loopback', serialNumber: undefined, pnpId: undefined, locationId: undefined,
      productId: undefined, vendorId: undefined,
    }));
  }

  async open(options: OpenOptions): Promise<LoopbackPort> {
    if (!options || typeof options.path !== 'string') throw new TypeError('"path" is not a valid port');
    if (!Number.isInteger(options.baudRate) || options.baudRate <= 0) throw new TypeError('"baudRate" must be a positive integer');
    const end = this.ends.get(options.path);
    if (!end || !end.pair.present) throw error(`Error: No such file or directory, cannot open ${options.path}`, { code: 'ENOENT' });
    if (end.port) throw error(`Error Resource temporarily unavailable Cannot lock port ${options.path}`, { code: 'EAGAIN' });
    const port = new LoopbackPort(end, options);
    end.port = port;
    return port;
  }
}

/**
 * The firmware emulator's end (`a`) of a loopback wire, like ptyLink for a socat pair: unplugging hangs up the
 * host's port for real, and opening again plugs the wire back in.
 */
export function loopbackLink(pair: LoopbackPair, binding: LoopbackBinding): EmulatorLink {
  const serial = serialLink(pair.a.path, binding);
  return {
    name: pair.a.path,
    async open() {
      pair.plug();
      const stream = await serial.open();
      // A USB bridge's first words after a replug wait in the device until the host opens its tty; here the host's
      // driver discards what lies in its end when it opens, so a hello sent before that is lost. Wait for the host
      // (it retries with a backoff), at most 5 s.
      const until = Date.now() + 5000;
      while (!pair.b.port && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      return stream;
    },
    close: serial.close,
    async unplug(stream) {
      await serial.close(stream);
      // Let the host take what was sent before the pull, as ptyLink lets socat hand it over: until its port has read
      // every byte and waits for more (a fixed 50 ms lost a line on a loaded CI machine), at most 2 s.
      const host = pair.b;
      const until = Date.now() + 2000;
      while (host.port && (host.buffered > 0 || !host.port.reading) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 10));
      pair.unplug();
      return true;
    },
  };
}
