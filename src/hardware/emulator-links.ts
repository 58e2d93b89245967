// Where the emulator's bytes go: a Duplex you manage, a serial port path, or one end of a pty pair
// this process runs, and what "pulling the cable" means for each.
//
// Apart from the device model (emulator.ts) because it is serial-port plumbing: the device only
// sees a Duplex, and only this module loads the serialport packages.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Duplex } from 'node:stream';
import { SerialPortStream } from '@serialport/stream';
import type { PtyPair } from './pty.js';
import type { SerialBinding } from './scanner-serial.js';

/** The device's end of the wire. */
export interface EmulatorLink {
  /** Open (or, after an unplug, reopen) the device's end. */
  open(): Promise<Duplex>;
  /** Close it for good. */
  close(stream: Duplex): Promise<void>;
  /** Pull the cable. Resolves true when the port really went away (open() plugs it back in);
   * absent or false: the emulator only falls silent and deaf for the outage. */
  unplug?(stream: Duplex): Promise<boolean>;
  /** For messages. */
  readonly name: string;
}

/** A Duplex you manage (tests). */
export function streamLink(stream: Duplex, name = 'stream'): EmulatorLink {
  return { name, open: async () => stream, close: async () => undefined };
}

/** Opens a port at 115200 baud; its later errors are ignored, as bytes are lost on a real wire. */
async function openSerial(path: string, binding?: SerialBinding): Promise<SerialPortStream> {
  const b = binding ?? ((await import('serialport')).SerialPort.binding as unknown as SerialBinding);
  const port = new SerialPortStream({ binding: b, path, baudRate: 115200, autoOpen: false });
  await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
  port.on('error', () => { /* the other end went away; writes are lost as on a real wire */ });
  return port;
}

/** Closes a port opened by openSerial, if it is still open. */
async function closeSerial(stream: Duplex): Promise<void> {
  const port = stream as SerialPortStream;
  if (!port.isOpen) return;
  await new Promise<void>((res) => port.close(() => res()));
}

/** A serial port path (one end of a pty pair you run, or a real port). Unplugging falls silent:
 * closing our end would not remove the port the host has open. */
export function serialLink(path: string, binding?: SerialBinding): EmulatorLink {
  return { name: path, open: () => openSerial(path, binding), close: closeSerial };
}

/** One end (`a`) of a PtyPair this process runs: unplugging stops socat, so the host's port really
 * disappears, and plugging back in starts it again. */
export function ptyLink(pair: PtyPair, binding?: SerialBinding): EmulatorLink {
  return {
    name: pair.a,
    async open() {
      if (!pair.running) await pair.start();
      return openSerial(pair.a, binding);
    },
    close: closeSerial,
    async unplug(stream) {
      await closeSerial(stream);
      // Let socat hand over what it has read, so the host has everything sent before the pull.
      await sleep(50);
      await pair.stop();
      return true;
    },
  };
}
