// The emulator's public shapes: its options, its counters, its events and its error.
//
// Apart from the device class so that the parts it is built from (emulator-readers.ts,
// emulator-play.ts) can name them without importing the class.
import type { FaultPlan, ResetCause } from './emulator-faults.js';

export interface FirmwareEmulatorOptions {
  /** Readers fitted, 1..8. Default 4. */
  readers?: number;
  /** Firmware version string. Default "1.0.0-emu". */
  fw?: string;
  /** Heartbeat period. Default 1000 ms (§10). */
  heartbeatMs?: number;
  /** Time from a reset to its hello. Default 20 ms. */
  bootMs?: number;
  /** Longest wait for settled readers before a snapshot goes out anyway (§11). Default 2000 ms. */
  snapshotMaxWaitMs?: number;
  /** Faults: a SPEC string (emulator-faults.ts) or a parsed plan. */
  faults?: string | FaultPlan;
  /** Cause reported in the first hello. Default `power`. */
  resetCause?: ResetCause;
}

export interface EmulatorStats {
  linesSent: number;
  hostLines: number;
  acks: number;
  naks: number;
  lineErrors: number;
  snapshots: number;
  corrupted: number;
  lost: number;
  flickers: number;
  resets: number;
  unplugs: number;
  /** Replays sent (answers to `since`), and `since` commands answered `nak gone`. */
  replays: number;
  gone: number;
  /** Hellos lost or corrupted by `reset:…:hello=`, and foreign hellos injected by `badhello`. */
  helloFaults: number;
  badHellos: number;
}

export interface EmulatorEvents {
  /** A line as written to the wire (after fault injection), without its terminator. */
  tx: [line: string];
  /** A host line as received. */
  rx: [line: string];
}

/** A misuse of the emulator (a reader not fitted, a log it cannot play, started twice...). */
export class EmulatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmulatorError';
  }
}
