// Sequence numbers (PROTOCOL.md §4): the wrapping order of device and host seqs, and the host's
// tracking of the device's stream (restart, gap, duplicate).
//
// Apart from the codec because it is about the stream, not a line: the driver, the stream resync and
// the emulator use it on frames already decoded.
import { SEQ_MAX } from './protocol-types.js';

/** Next device seq after `last` (wraps 65535 → 1; 0 is reserved for hello). */
export function nextDeviceSeq(last: number): number {
  return last >= SEQ_MAX ? 1 : last + 1;
}
/**
 * True when device seq `a` comes after `b` in the wrapping order of PROTOCOL.md §4:
 * 1 ≤ (a − b) mod 65535 < 32767. `b` may be 0 (the hello).
 */
export function seqAfter(a: number, b: number): boolean {
  const d = (a - b + SEQ_MAX) % SEQ_MAX;
  return d >= 1 && d < Math.floor(SEQ_MAX / 2);
}

/** Next host seq (wraps 65535 → 0). */
export function nextHostSeq(last: number): number {
  return last >= SEQ_MAX ? 0 : last + 1;
}

export type SeqVerdict =
  | { verdict: 'restart' }
  | { verdict: 'first' }
  | { verdict: 'in-order' }
  | { verdict: 'gap'; lost: number }
  | { verdict: 'duplicate' };

const RESTART: SeqVerdict = Object.freeze({ verdict: 'restart' });
const FIRST: SeqVerdict = Object.freeze({ verdict: 'first' });
const IN_ORDER: SeqVerdict = Object.freeze({ verdict: 'in-order' });
const DUPLICATE: SeqVerdict = Object.freeze({ verdict: 'duplicate' });

/** Host-side device sequence tracking (PROTOCOL.md §4; reference firmware-bridge/src/seq.cpp). */
export class SeqTracker {
  private last = 0;
  private have = false;

  /** Forget the history: the next line is "first" (call when the port is (re)opened). */
  reset(): void {
    this.have = false;
    this.last = 0;
  }

  /** Classify the next device line's seq against the last one seen. */
  accept(seq: number, isHello: boolean): SeqVerdict {
    if (isHello) {
      this.have = true;
      this.last = 0;
      return RESTART;
    }
    if (!this.have) {
      this.have = true;
      this.last = seq;
      return FIRST;
    }
    const expected = nextDeviceSeq(this.last);
    if (seq === expected) {
      this.last = seq;
      return IN_ORDER;
    }
    const ring = SEQ_MAX;
    const d = (seq + ring - expected) % ring;
    if (d < Math.floor(ring / 2)) {
      this.last = seq;
      return { verdict: 'gap', lost: d };
    }
    return DUPLICATE;
  }
}
