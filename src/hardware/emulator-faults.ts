// Fault injection for the firmware emulator: the SPEC string of `tenace emulate --faults`.
//
//   SPEC    = item *( "," item )
//   item    = "crc:" RATE | "lose:" RATE | "flicker:" RATE          each line, with probability RATE
//           | "reset:at=" N [ ":reason=" CAUSE ]                       the bridge restarts
//           | "unplug:at=" N ":for=" MS [ ":play=" K ]                  the USB cable is pulled
//           | "seed:" INT                                              the random stream (default 1)
//   RATE    = a probability 0..1, written as a number ("0.01") or "p=0.01"
//   N       = the 1-based index of a played RFID event (place or lift): the fault happens just
//             before that event is played
//
// Example: `crc:0.01,flicker:0.05,lose:0.01,reset:at=120,unplug:at=200:for=1500`.
//
// What each fault does on the wire (see emulator.ts for the device model):
// - crc      one bit of the line's body is flipped: the host sees `bad-crc` (or `bad-char`), and the
//            line's seq shows up as a gap at the next good line. Never applied to `hello` (without
//            the hello the host cannot tell a reset from stale lines; PROTOCOL.md §4 keys on it).
// - lose     the line is dropped after its seq was used, as when the transmit buffer overflows;
//            an `err overflow <n>` goes out before the next line (PROTOCOL.md §4, §5). Never
//            applied to `hello` or snapshot lines (the device waits for room for a whole snapshot).
//            While a log is played, the next event waits until the host has resynchronised (a
//            clean snapshot after the fault; PlayOptions.waitAfterFaults): people play far slower
//            than a resynchronisation takes, and an emulator at full speed must not outrun it.
//            The wait starts after the next line, which shows the host the gap; so a card whose
//            place and lift are adjacent events could still be missed (not so in real play).
// - flicker  the emulator's choice: RC522 flicker that the firmware's debounce absorbs never reaches
//            the wire, so it is not modelled as a leave/arrive pair (that would be a real lift and
//            place). It is modelled as the noise a correct host must absorb idempotently
//            (PROTOCOL.md §11): an `arrive` or `leave` line is sent a second time with a new seq.
//            A v1 device does not do this; a host that turns it into a second place/lift is wrong.
// - reset    the bridge restarts (default cause `watchdog`): hello (seq 0) and cfg, its presence
//            sets start empty, the first poll re-sees every card still on the table (an `arrive`
//            each), and readers are `W` until `misses` polls have passed.
// - unplug   the cable is out for MS ms: no lines, no commands. With a pty pair the emulator owns
//            (`--pty`, PtyPair in tests) the port really disappears and comes back; on a plain
//            `--port` it falls silent instead (closing our end would end the user's socat). K log
//            events (default 0) are played while the cable is out: they change the table, and the
//            bridge, powered up again with reset cause `power`, sees the result. A card both placed
//            and lifted within those K events cannot be seen by any hardware.
import { RESET_CAUSES } from './protocol.js';

export type ResetCause = (typeof RESET_CAUSES)[number];

export interface FaultPlan {
  crc: number;
  lose: number;
  flicker: number;
  resets: { at: number; reason: ResetCause }[];
  unplugs: { at: number; forMs: number; play: number }[];
  seed: number;
}

export class FaultSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultSpecError';
  }
}

export function noFaults(): FaultPlan {
  return { crc: 0, lose: 0, flicker: 0, resets: [], unplugs: [], seed: 1 };
}

function rate(item: string, v: string | undefined): number {
  const t = v?.startsWith('p=') ? v.slice(2) : v;
  const n = t === undefined || t === '' ? NaN : Number(t);
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw new FaultSpecError(`fault "${item}": the rate must be a probability from 0 to 1, e.g. ${item.split(':')[0]}:0.01`);
  }
  return n;
}

function params(item: string, parts: string[], allowed: string[], required: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of parts) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new FaultSpecError(`fault "${item}": "${p}" must be name=value`);
    const k = p.slice(0, eq);
    if (!allowed.includes(k)) throw new FaultSpecError(`fault "${item}": unknown parameter "${k}" (expected ${allowed.join(', ')})`);
    if (k in out) throw new FaultSpecError(`fault "${item}": "${k}" is given twice`);
    out[k] = p.slice(eq + 1);
  }
  for (const k of required) if (!(k in out)) throw new FaultSpecError(`fault "${item}": "${k}=" is required`);
  return out;
}

function int(item: string, name: string, v: string, min: number): number {
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) {
    throw new FaultSpecError(`fault "${item}": ${name} must be an integer ≥ ${min} (got "${v}")`);
  }
  return Number(v);
}

/** Parse a fault SPEC; throws FaultSpecError naming the item at fault. An empty spec means none. */
export function parseFaultSpec(spec: string): FaultPlan {
  const plan = noFaults();
  const seen = new Set<string>();
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const [name, ...rest] = item.split(':');
    switch (name) {
      case 'crc':
      case 'lose':
      case 'flicker':
      case 'seed': {
        if (seen.has(name)) throw new FaultSpecError(`fault "${name}" is given twice`);
        seen.add(name);
        if (rest.length !== 1) throw new FaultSpecError(`fault "${item}": write ${name}:${name === 'seed' ? '42' : '0.01'}`);
        if (name === 'seed') plan.seed = int(item, 'the seed', rest[0], 0);
        else plan[name] = rate(item, rest[0]);
        break;
      }
      case 'reset': {
        const p = params(item, rest, ['at', 'reason'], ['at']);
        const reason = (p.reason ?? 'watchdog') as ResetCause;
        if (!RESET_CAUSES.includes(reason)) throw new FaultSpecError(`fault "${item}": reason must be one of ${RESET_CAUSES.join(', ')}`);
        plan.resets.push({ at: int(item, 'at', p.at, 1), reason });
        break;
      }
      case 'unplug': {
        const p = params(item, rest, ['at', 'for', 'play'], ['at', 'for']);
        plan.unplugs.push({ at: int(item, 'at', p.at, 1), forMs: int(item, 'for', p.for, 0), play: p.play === undefined ? 0 : int(item, 'play', p.play, 0) });
        break;
      }
      default:
        throw new FaultSpecError(`unknown fault "${name}" in "${item}": use crc, lose, flicker, reset, unplug or seed`);
    }
  }
  plan.resets.sort((a, b) => a.at - b.at);
  plan.unplugs.sort((a, b) => a.at - b.at);
  return plan;
}

/** The SPEC text of a plan (parseFaultSpec(formatFaultSpec(p)) equals p). */
export function formatFaultSpec(p: FaultPlan): string {
  const out: string[] = [];
  if (p.crc) out.push(`crc:${p.crc}`);
  if (p.lose) out.push(`lose:${p.lose}`);
  if (p.flicker) out.push(`flicker:${p.flicker}`);
  for (const r of p.resets) out.push(`reset:at=${r.at}${r.reason === 'watchdog' ? '' : `:reason=${r.reason}`}`);
  for (const u of p.unplugs) out.push(`unplug:at=${u.at}:for=${u.forMs}${u.play ? `:play=${u.play}` : ''}`);
  if (p.seed !== 1) out.push(`seed:${p.seed}`);
  return out.join(',');
}

/** A small seeded generator (mulberry32): the same seed gives the same faults. */
export class FaultRandom {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** True with probability p (p = 0 never draws, so a plan without faults uses no randomness). */
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** Flip one bit of one body byte of an encoded line (`body*HH`), keeping the checksum: the CRC no
 * longer matches (CRC-8 detects every single-bit error). The flipped byte stays printable, so the
 * line is not split in two and the host sees exactly one bad line. */
export function corruptLine(line: string, rnd: FaultRandom): string {
  const star = line.lastIndexOf('*');
  for (;;) {
    const i = rnd.int(star);
    const c = line.charCodeAt(i) ^ (1 << rnd.int(7));
    if (c < 0x20 || c > 0x7e) continue;
    return line.slice(0, i) + String.fromCharCode(c) + line.slice(i + 1);
  }
}
