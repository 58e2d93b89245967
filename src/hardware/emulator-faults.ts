// Fault injection for the firmware emulator: the SPEC string of `tenace emulate --faults`.
//
//   SPEC    = item *( "," item )
//   item    = "crc:" RATE | "lose:" RATE | "flicker:" RATE          each line, with probability RATE
//           | "reset:at=" N [ ":reason=" CAUSE ] [ ":hello=" ( "lost" | "crc" ) ]   the bridge restarts
//           | "unplug:at=" N ":for=" MS [ ":play=" K ]                  the USB cable is pulled
//           | "badhello:at=" N                                         one foreign hello (protocol 9)
//           | "seed:" INT                                              the random stream (default 1)
//   RATE    = a probability 0..1, written as a number ("0.01") or "p=0.01"
//   N       = the 1-based index of a played RFID event (place or lift): the fault happens just
//             before that event is played
//
// Example: `crc:0.01,flicker:0.05,lose:0.01,reset:at=120:hello=lost,unplug:at=200:for=1500`.
//
// What each fault does on the wire (see emulator.ts for the device model):
// - crc      one bit of the line's body is flipped: the host sees `bad-crc` (or `bad-char`), and the
//            line's seq shows up as a gap at the next good line. Never applied to `hello` by the
//            rate (a lost hello is its own fault: `reset:…:hello=`).
// - lose     the line is dropped after its seq was used, as when the transmit buffer overflows;
//            an `err overflow <n>` goes out before the next line (PROTOCOL.md §4, §5). The dropped
//            line is still in the event log (§11), as on the device. Never applied to `hello`,
//            snapshot or replay lines (the device waits for room for a whole snapshot or replay).
//            While a log is played, the next event waits until the host has resynchronised (a
//            clean snapshot after the fault, or a clean replay that covers it;
//            PlayOptions.waitAfterFaults): people play far slower than a resynchronisation takes,
//            and an emulator at full speed must not outrun it. The wait starts after the next
//            line, which shows the host the gap; so a card whose place and lift are adjacent
//            events could still be missed by a host that only takes snapshots (not so in real play).
// - flicker  the emulator's choice: RC522 flicker that the firmware's debounce absorbs never reaches
//            the wire, so it is not modelled as a leave/arrive pair (that would be a real lift and
//            place). It is modelled as the noise a correct host must absorb idempotently
//            (PROTOCOL.md §11): an `arrive` or `leave` line is sent a second time with a new seq.
//            A v1 device does not do this; a host that turns it into a second place/lift is wrong.
// - reset    the bridge restarts (default cause `watchdog`): a new boot id, hello (seq 0) and cfg,
//            its presence sets and its event log (RAM) start empty, the first poll re-sees every
//            card still on the table (an `arrive` each), and readers are `W` until `misses` polls
//            have passed. `hello=lost`: that hello never reaches the host (a real reset re-enumerates
//            USB, and a host that reopens the port late misses it; no `err overflow` follows, the
//            device does not know). `hello=crc`: it arrives with one bit flipped. Either way the
//            host learns of the reset from the boot id of the next `hb` (PROTOCOL.md §4).
// - unplug   the cable is out for MS ms: no lines, no commands. With a pty pair the emulator owns
//            (`--pty`, PtyPair in tests) the port really disappears and comes back; on a plain
//            `--port` it falls silent instead (closing our end would end the user's socat). K log
//            events (default 0) are played while the cable is out: they change the table, and the
//            bridge, powered up again with reset cause `power`, sees the result. A card both placed
//            and lifted within those K events cannot be seen by any hardware. A power cut: the
//            event log is lost and the bridge comes back with a new boot id.
// - badhello one line `0 hello <fw> 9 <readers> <reset> <boot>` with a valid CRC (the current boot
//            id; it uses no seq of the device, whose next line goes on from the last): a host must
//            report a protocol it does not implement, keep listening, and take the next valid v2
//            `identity`/`hello`. The play then waits for the host to resynchronise, as after `lose`.
import { RESET_CAUSES } from './protocol.js';

export type ResetCause = (typeof RESET_CAUSES)[number];

export interface FaultPlan {
  crc: number;
  lose: number;
  flicker: number;
  resets: { at: number; reason: ResetCause; hello?: HelloFault }[];
  unplugs: { at: number; forMs: number; play: number }[];
  /** Where a foreign (protocol 9) hello is injected. */
  badHellos: number[];
  seed: number;
}

/** What happens to the hello after a `reset` fault: it is lost, or corrupted. */
export const HELLO_FAULTS = ['lost', 'crc'] as const;
export type HelloFault = (typeof HELLO_FAULTS)[number];

export class FaultSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultSpecError';
  }
}

export function noFaults(): FaultPlan {
  return { crc: 0, lose: 0, flicker: 0, resets: [], unplugs: [], badHellos: [], seed: 1 };
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
        const p = params(item, rest, ['at', 'reason', 'hello'], ['at']);
        const reason = (p.reason ?? 'watchdog') as ResetCause;
        if (!RESET_CAUSES.includes(reason)) throw new FaultSpecError(`fault "${item}": reason must be one of ${RESET_CAUSES.join(', ')}`);
        const hello = p.hello as HelloFault | undefined;
        if (hello !== undefined && !HELLO_FAULTS.includes(hello)) throw new FaultSpecError(`fault "${item}": hello must be one of ${HELLO_FAULTS.join(', ')}`);
        plan.resets.push({ at: int(item, 'at', p.at, 1), reason, ...(hello ? { hello } : {}) });
        break;
      }
      case 'badhello': {
        const p = params(item, rest, ['at'], ['at']);
        plan.badHellos.push(int(item, 'at', p.at, 1));
        break;
      }
      case 'unplug': {
        const p = params(item, rest, ['at', 'for', 'play'], ['at', 'for']);
        plan.unplugs.push({ at: int(item, 'at', p.at, 1), forMs: int(item, 'for', p.for, 0), play: p.play === undefined ? 0 : int(item, 'play', p.play, 0) });
        break;
      }
      default:
        throw new FaultSpecError(`unknown fault "${name}" in "${item}": use crc, lose, flicker, reset, unplug, badhello or seed`);
    }
  }
  plan.resets.sort((a, b) => a.at - b.at);
  plan.unplugs.sort((a, b) => a.at - b.at);
  plan.badHellos.sort((a, b) => a - b);
  return plan;
}

/** The SPEC text of a plan (parseFaultSpec(formatFaultSpec(p)) equals p). */
export function formatFaultSpec(p: FaultPlan): string {
  const out: string[] = [];
  if (p.crc) out.push(`crc:${p.crc}`);
  if (p.lose) out.push(`lose:${p.lose}`);
  if (p.flicker) out.push(`flicker:${p.flicker}`);
  for (const r of p.resets) out.push(`reset:at=${r.at}${r.reason === 'watchdog' ? '' : `:reason=${r.reason}`}${r.hello ? `:hello=${r.hello}` : ''}`);
  for (const u of p.unplugs) out.push(`unplug:at=${u.at}:for=${u.forMs}${u.play ? `:play=${u.play}` : ''}`);
  for (const at of p.badHellos) out.push(`badhello:at=${at}`);
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
