// USB-HID keyboard-mode scanner: the boot-report decoder on byte arrays, and the scanner on a fake device.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { HidKeyboardDecoder, UNMAPPED, decodeHidReports, encodeHidReports } from '../../src/hardware/hid-keyboard.js';
import { type HidDevice, HidScanner } from '../../src/hardware/scanner-hid.js';
import type { ScanErrorEvent } from '../../src/hardware/tray-code.js';
import type { TrayEvent } from '../../src/formats/table-log.js';

const UP = [0, 0, 0, 0, 0, 0, 0, 0];
const key = (code: number, mods = 0) => [mods, 0, code, 0, 0, 0, 0, 0];
const ENTER = key(0x28);
const SHIFT = 0x02;
const RSHIFT = 0x20;

describe('HidKeyboardDecoder', () => {
  it('digits then Enter, each key followed by a key-up report', () => {
    // "7" = 0x24, "2" = 0x1f
    expect(decodeHidReports([key(0x24), UP, key(0x1f), UP, ENTER, UP])).toEqual(['72']);
  });

  it('key-up reports type nothing, and nothing is emitted before Enter', () => {
    const d = new HidKeyboardDecoder();
    expect(d.push(UP)).toEqual([]);
    expect(d.push(key(0x1e))).toEqual([]);
    expect(d.push(UP)).toEqual([]);
    expect(d.pending()).toBe('1');
    expect(d.push(ENTER)).toEqual([{ text: '1', overflow: false }]);
  });

  it('shift gives upper case and the shifted symbols; either shift key works', () => {
    // "E" "v" ":" "!" then "e"
    const reports = [key(0x08, SHIFT), UP, key(0x19), UP, key(0x33, RSHIFT), UP, key(0x1e, SHIFT), UP, key(0x08), UP, ENTER, UP];
    expect(decodeHidReports(reports)).toEqual(['Ev:!e']);
  });

  it('the shift key pressed alone (modifier byte only) types nothing', () => {
    expect(decodeHidReports([[SHIFT, 0, 0, 0, 0, 0, 0, 0], key(0x04, SHIFT), [SHIFT, 0, 0, 0, 0, 0, 0, 0], UP, ENTER])).toEqual(['A']);
  });

  it('a repeated character needs a release between: "11" is press, up, press', () => {
    expect(decodeHidReports([key(0x1e), UP, key(0x1e), UP, ENTER, UP])).toEqual(['11']);
  });

  it('the same keycode in consecutive reports (held, or the idle-rate repeat) is one press', () => {
    expect(decodeHidReports([key(0x1e), key(0x1e), key(0x1e), UP, ENTER, UP])).toEqual(['1']);
  });

  it('rollover: a second key appears while the first is held, and a key moves slots', () => {
    const r = [
      [0, 0, 0x1e, 0, 0, 0, 0, 0], // 1
      [0, 0, 0x1e, 0x1f, 0, 0, 0, 0], // 1 held, 2 new
      [0, 0, 0x1f, 0, 0, 0, 0, 0], // 1 released, 2 held (moved to slot 1)
      [0, 0, 0x1f, 0x20, 0x21, 0, 0, 0], // 3 and 4 new, in slot order
      UP, ENTER, UP,
    ];
    expect(decodeHidReports(r)).toEqual(['1234']);
  });

  it('ErrorRollOver reports are ignored without changing what is held', () => {
    const phantom = [0, 0, 1, 1, 1, 1, 1, 1];
    expect(decodeHidReports([key(0x1e), phantom, key(0x1e), UP, ENTER])).toEqual(['1']);
  });

  it('keypad digits and keypad Enter', () => {
    // KP1 = 0x59, KP0 = 0x62, KP Enter = 0x58
    expect(decodeHidReports([key(0x59), UP, key(0x62), UP, key(0x58), UP])).toEqual(['10']);
  });

  it('a 9-byte report with a leading report ID', () => {
    expect(decodeHidReports([[1, ...key(0x24)], [1, ...UP], [1, ...ENTER], [1, ...UP]])).toEqual(['7']);
  });

  it('Ctrl/Alt combinations and unknown keys type U+FFFD (refused later as unreadable)', () => {
    expect(decodeHidReports([key(0x24, 0x04), UP, key(0x1e), UP, key(0x3a), UP, ENTER])).toEqual([`${UNMAPPED}1${UNMAPPED}`]);
  });

  it('several scans in a row, and Tab ends a scan only when asked', () => {
    const reports = [...encodeHidReports('eve:1'), ...encodeHidReports('2')];
    expect(decodeHidReports(reports)).toEqual(['eve:1', '2']);
    const tab = [key(0x24), UP, key(0x2b), UP];
    expect(decodeHidReports(tab, { tabEnds: true })).toEqual(['7']);
    expect(decodeHidReports(tab)).toEqual([]);
  });

  it('an over-long scan is cut and flagged', () => {
    const d = new HidKeyboardDecoder({ maxLength: 3 });
    const out = encodeHidReports('12345').flatMap((r) => d.push(r));
    expect(out).toEqual([{ text: '123', overflow: true }]);
  });

  it('encodeHidReports round-trips every printable character of a tray code', () => {
    const text = '2026-12-02-EVE:07*A3 ]C0_.';
    expect(decodeHidReports(encodeHidReports(text))).toEqual([text]);
  });
});

class FakeHid extends EventEmitter implements HidDevice {
  closed = false;
  close(): void { this.closed = true; }
}

describe('HidScanner', () => {
  it('turns reports into tray and scan-error events, and reopens after an error', async () => {
    const devices: FakeHid[] = [];
    let failFirst = true;
    const scanner = new HidScanner({
      target: { path: '/dev/hidraw9' },
      backoffMs: { min: 5, max: 20 },
      open: async () => {
        if (failFirst) { failFirst = false; throw new Error('ENOENT /dev/hidraw9'); }
        const d = new FakeHid();
        devices.push(d);
        return d;
      },
    });
    const trays: TrayEvent[] = [];
    const errors: ScanErrorEvent[] = [];
    const statuses: string[] = [];
    scanner.on('tray', (e) => trays.push(e));
    scanner.on('scan-error', (e) => errors.push(e));
    scanner.on('status', (s) => statuses.push(s.state));
    await scanner.start();
    expect(scanner.isOpen()).toBe(false);
    await waitFor(() => devices.length === 1);
    for (const r of encodeHidReports('2026-12-02-EVE:7')) devices[0].emit('data', Buffer.from(r));
    for (const r of encodeHidReports('NR')) devices[0].emit('data', Buffer.from(r));
    devices[0].emit('error', new Error('could not read from HID device'));
    await waitFor(() => devices.length === 2);
    expect(devices[0].closed).toBe(true);
    for (const r of encodeHidReports('12')) devices[1].emit('data', Buffer.from(r));
    await scanner.stop();
    expect(trays.map((t) => t.code)).toEqual(['2026-12-02-eve:7', '12']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ problem: 'unreadable', source: '/dev/hidraw9' });
    expect(statuses).toEqual(['closed', 'open', 'closed', 'open']);
  });

  it('node-hid is loaded lazily: importing the scanner module does not load it', async () => {
    // This test file imported scanner-hid.ts above and never started a real device.
    const loaded = Object.keys((await import('node:module')).createRequire(import.meta.url).cache ?? {})
      .some((k) => k.includes('node-hid'));
    expect(loaded).toBe(false);
  });
});

async function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 2));
  }
}
