// How the emulated bridge answers a line from the host before acting on it: a command to run, a
// `nak <hseq> <code>`, an `err line <code>`, or nothing (PROTOCOL.md §6-§8). The classification
// follows firmware-bridge/src/command.cpp.
//
// Apart from the device class because it is a pure function of the line: the device only carries
// out the verdict.
import { type Frame, SEQ_MAX, decodeLine, isDeviceType } from './protocol.js';

/** What the device does with a host line. */
export type HostLineVerdict =
  | { kind: 'command'; frame: Frame }
  | { kind: 'nak'; hseq: number; code: string }
  | { kind: 'line-error'; code: string }
  | { kind: 'ignore' };

const IGNORE: HostLineVerdict = Object.freeze({ kind: 'ignore' });

/** Classify one received host line (without its terminator; a trailing CR is allowed). */
export function classifyHostLine(item: string): HostLineVerdict {
  const r = decodeLine(item);
  if (r.ok) {
    if (isDeviceType(r.frame.type)) return { kind: 'nak', hseq: r.frame.seq, code: 'unknown-type' };
    return { kind: 'command', frame: r.frame };
  }
  if (r.error === 'empty') return IGNORE;
  if (r.error === 'too-long' || r.error === 'bad-char' || r.error === 'no-checksum' || r.error === 'bad-crc' || r.error === 'bad-frame') {
    return { kind: 'line-error', code: r.error };
  }
  // The CRC and framing were good: the first token decides whether the hseq can be trusted.
  const body = item.replace(/\r$/, '').slice(0, -3);
  const tok = body.split(' ');
  if (!/^(0|[1-9][0-9]{0,4})$/.test(tok[0]) || Number(tok[0]) > SEQ_MAX) return { kind: 'line-error', code: 'bad-seq' };
  const hseq = Number(tok[0]);
  if (tok.length >= 2 && isDeviceType(tok[1])) return { kind: 'nak', hseq, code: 'unknown-type' };
  return { kind: 'nak', hseq, code: r.error === 'bad-seq' ? 'unknown-type' : r.error };
}
