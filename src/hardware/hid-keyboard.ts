// Decode USB-HID boot keyboard reports (what a barcode scanner in keyboard mode sends) into text.
//
// A boot keyboard input report is 8 bytes: [modifiers, reserved, key1 .. key6]. Each report lists
// the keys held down at that moment; a key "types" a character when it appears in a report and was
// not in the previous one. A report with no keys is the key-up. So:
//   - key-up (all-zero) reports type nothing; they only release keys;
//   - a key still held in the next report (the same keycode again, no key-up between) is one press,
//     not two: a scanner always releases a key before typing the same character again;
//   - several new keys in one report (rollover) type in slot order;
//   - ErrorRollOver (keycode 0x01 in the key slots: too many keys) is ignored as a whole.
// Shift (left 0x02, right 0x20) selects upper case and the shifted symbols of the US layout, which
// is what scanners emit unless told otherwise. Ctrl, Alt or GUI with a key (e.g. Alt+keypad codes
// for characters outside ASCII) types U+FFFD, so the scan is refused as unreadable, not misread.
// Enter (0x28) and keypad Enter (0x58) end a scan. Some interfaces prefix a report ID byte: a
// 9-byte report drops its first byte.

/** Keycode → [plain, shifted] on the US layout (USB HID Usage Tables, Keyboard/Keypad page 0x07). */
const US: Record<number, [string, string]> = (() => {
  const m: Record<number, [string, string]> = {};
  for (let i = 0; i < 26; i++) {
    const c = String.fromCharCode(0x61 + i);
    m[0x04 + i] = [c, c.toUpperCase()];
  }
  const digits = '1234567890';
  const shifted = '!@#$%^&*()';
  for (let i = 0; i < 10; i++) m[0x1e + i] = [digits[i], shifted[i]];
  const rest: [number, string, string][] = [
    [0x2b, '\t', '\t'], [0x2c, ' ', ' '], [0x2d, '-', '_'], [0x2e, '=', '+'], [0x2f, '[', '{'], [0x30, ']', '}'],
    [0x31, '\\', '|'], [0x32, '#', '~'], [0x33, ';', ':'], [0x34, "'", '"'], [0x35, '`', '~'], [0x36, ',', '<'],
    [0x37, '.', '>'], [0x38, '/', '?'], [0x64, '\\', '|'],
    // keypad: the same character with or without shift (NumLock assumed on, as scanners send it)
    [0x54, '/', '/'], [0x55, '*', '*'], [0x56, '-', '-'], [0x57, '+', '+'], [0x63, '.', '.'],
  ];
  for (const [k, a, b] of rest) m[k] = [a, b];
  const kp = '1234567890';
  for (let i = 0; i < 10; i++) m[0x59 + i] = [kp[i], kp[i]];
  return m;
})();

const KEY_ENTER = 0x28;
const KEY_KP_ENTER = 0x58;
const KEY_ERROR_ROLLOVER = 0x01;
const MOD_SHIFT = 0x02 | 0x20;
const MOD_OTHER = 0x01 | 0x04 | 0x08 | 0x10 | 0x40 | 0x80; // ctrl, alt, GUI (left and right)

export const UNMAPPED = '\uFFFD';

export interface HidKeyboardOptions {
  /** Longest scan kept, in characters; the rest of a longer one is dropped (and the scan reported
   * with `overflow`). Default 256. */
  maxLength?: number;
  /** Also end a scan on Tab (some scanners are set to suffix Tab). Default false. */
  tabEnds?: boolean;
}

export interface DecodedScan {
  text: string;
  /** True when characters were dropped because the scan exceeded `maxLength`. */
  overflow: boolean;
}

/** Stateful decoder: feed it reports in order; it returns the scans each report completes. */
export class HidKeyboardDecoder {
  private held = new Set<number>();
  private text = '';
  private overflow = false;
  private readonly maxLength: number;
  private readonly tabEnds: boolean;

  constructor(opts: HidKeyboardOptions = {}) {
    this.maxLength = opts.maxLength ?? 256;
    this.tabEnds = opts.tabEnds ?? false;
  }

  /** Feed one input report (8 bytes, or 9 with a leading report ID). Returns completed scans. */
  push(report: ArrayLike<number>): DecodedScan[] {
    let r = Array.from(report);
    if (r.length === 9) r = r.slice(1);
    if (r.length < 3) return [];
    const mods = r[0];
    const keys = r.slice(2).filter((k) => k !== 0);
    if (keys.includes(KEY_ERROR_ROLLOVER)) return [];
    const out: DecodedScan[] = [];
    const now = new Set(keys);
    for (const k of keys) {
      if (this.held.has(k)) continue; // still held from the previous report: not a new press
      if (k === KEY_ENTER || k === KEY_KP_ENTER || (this.tabEnds && k === 0x2b)) {
        out.push({ text: this.text, overflow: this.overflow });
        this.text = '';
        this.overflow = false;
        continue;
      }
      if (k >= 0xe0 && k <= 0xe7) continue; // modifier keys reported as keys (non-boot reports)
      const entry = US[k];
      let ch: string;
      if (entry === undefined || (mods & MOD_OTHER) !== 0) ch = UNMAPPED;
      else ch = entry[(mods & MOD_SHIFT) !== 0 ? 1 : 0];
      if (this.text.length < this.maxLength) this.text += ch;
      else this.overflow = true;
    }
    this.held = now;
    return out;
  }

  /** Text typed since the last Enter (a scan not yet terminated). */
  pending(): string {
    return this.text;
  }

  /** Forget held keys and any partial scan (after the device was reopened). */
  reset(): void {
    this.held.clear();
    this.text = '';
    this.overflow = false;
  }
}

/** Decode a whole sequence of reports; returns the text of every completed scan. */
export function decodeHidReports(reports: Iterable<ArrayLike<number>>, opts?: HidKeyboardOptions): string[] {
  const d = new HidKeyboardDecoder(opts);
  const out: string[] = [];
  for (const r of reports) for (const s of d.push(r)) out.push(s.text);
  return out;
}

/** The reports a scanner would send to type `text` then Enter: key-down and key-up for each
 * character (US layout). Throws on a character the layout cannot type. Used by tests and emulators. */
export function encodeHidReports(text: string, opts: { enter?: boolean } = {}): number[][] {
  const out: number[][] = [];
  const up = [0, 0, 0, 0, 0, 0, 0, 0];
  for (const ch of text) {
    let found: [number, number] | undefined;
    for (const [k, [a, b]] of Object.entries(US)) {
      const code = Number(k);
      if ((code >= 0x54 && code <= 0x63) || code === 0x32 || code === 0x64) continue; // US keys, not keypad or ISO extras
      if (a === ch) { found = [code, 0]; break; }
      if (b === ch) { found = [code, 0x02]; break; }
    }
    if (!found) throw new RangeError(`cannot type ${JSON.stringify(ch)} on a US keyboard`);
    out.push([found[1], 0, found[0], 0, 0, 0, 0, 0], up.slice());
  }
  if (opts.enter ?? true) out.push([0, 0, KEY_ENTER, 0, 0, 0, 0, 0], up.slice());
  return out;
}
