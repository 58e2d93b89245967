// check-config and the hardware a config names (issue 11 item 11): a serial port that is not there is a warning naming
// the setting and the udev link to expect; bridges without a deck are an error, for tenace run as well.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EX_CONFIG, checkConfigCommand } from '../../src/cli/check-config.js';
import { checkConfigDevices, parseConfig } from '../../src/config/load.js';

const tmp = mkdtempSync(join(tmpdir(), 'tenace-config-hw-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DECK = join(tmp, 'red.deck.json');
writeFileSync(DECK, JSON.stringify({ deck: 'red', version: 1, cards: {} }));
const JOURNAL = join(tmp, 'journal');
mkdirSync(JOURNAL);
// A file stands in for a serial device that is present: it exists and this user may read and write it.
const PRESENT = join(tmp, 'tenace-bridge-E6614103');
writeFileSync(PRESENT, '');

function capture() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => { out += s; }, err: (s: string) => { err += s; } }, get out() { return out; }, get err() { return err; } };
}

function config(name: string, hardware: string): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(file, `club: { id: ely }\ntable: { id: "7" }\njournal: { dir: ${JSON.stringify(JOURNAL)} }\nhardware:\n${hardware}`);
  return file;
}

const bridge = (port: string, id = 'b') => `  bridges:\n    - { id: ${id}, port: ${JSON.stringify(port)}, readers: [ { reader: 0, seat: N } ] }\n`;

describe('check-config and the serial ports', () => {
  it('warns, naming hardware.bridges[i].port and the udev link, when a bridge port does not exist; still exit 0', () => {
    const file = config('missing-port', `${bridge(PRESENT)}${bridge('/dev/serial/by-id/usb-nope-if00', 'b2').replace('  bridges:\n', '')}  decks: [${JSON.stringify(DECK)}]\n`);
    const c = capture();
    expect(checkConfigCommand([file], c.io, {})).toBe(0);
    expect(c.err).toBe(`warning: ${file}: hardware.bridges[1].port: /dev/serial/by-id/usb-nope-if00 does not exist: plug the bridge in and check the path; `
      + 'with hardware/99-tenace.rules installed it appears as /dev/tenace-bridge-<serial> (ls -l /dev/tenace-bridge-* /dev/serial/by-id/)\n');
    expect(c.out).toMatch(/^ok: club ely table 7, 2 bridges/);
  });

  it('names the scanner\'s udev link for a serial scanner port that does not exist', () => {
    const file = config('missing-scanner', `${bridge(PRESENT)}  decks: [${JSON.stringify(DECK)}]\n  scanner: { mode: serial, port: /dev/tenace-scanner-nope }\n`);
    const c = capture();
    expect(checkConfigCommand([file], c.io, {})).toBe(0);
    expect(c.err).toMatch(/^warning: .*: hardware\.scanner\.port: \/dev\/tenace-scanner-nope does not exist: .* appears as \/dev\/tenace-scanner /);
  });

  it('says nothing about ports that are there, nor with --skip-files (checking on another machine)', () => {
    const present = capture();
    expect(checkConfigCommand([config('present', `${bridge(PRESENT)}  decks: [${JSON.stringify(DECK)}]\n`)], present.io, {})).toBe(0);
    expect(present.err).toBe('');
    const skipped = capture();
    expect(checkConfigCommand([config('skipped', `${bridge('/dev/tenace-bridge-nope')}  decks: [${JSON.stringify(DECK)}]\n`), '--skip-files'], skipped.io, {})).toBe(0);
    expect(skipped.err).toBe('');
  });

  it('checkConfigDevices, which tenace run logs at start, gives the same warnings', () => {
    const r = parseConfig(`club: { id: ely }\ntable: { id: "7" }\nhardware:\n${bridge('/dev/tenace-bridge-nope')}  decks: [x.json]\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(checkConfigDevices(r.config)).toEqual([{ path: 'hardware.bridges[0].port', message: expect.stringMatching(/^\/dev\/tenace-bridge-nope does not exist: /) }]);
  });
});

describe('bridges without a deck', () => {
  it('is an error at hardware.decks (exit 78): every card would be an unknown tag', () => {
    const file = config('no-decks', bridge(PRESENT));
    const c = capture();
    expect(checkConfigCommand([file], c.io, {})).toBe(EX_CONFIG);
    expect(c.err).toContain(`${file}:4: hardware.decks: is empty but a bridge is configured: every card would be an unknown tag; list the deck files`);
    expect(c.out).toBe('');
  });

  it('is refused by the loader itself, so tenace run refuses it too; no bridge needs no deck', () => {
    const r = parseConfig(`club: { id: ely }\ntable: { id: "7" }\nhardware:\n${bridge('/dev/x')}  decks: []\n`);
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['hardware.decks']);
    expect(parseConfig('club: { id: ely }\ntable: { id: "7" }\nhardware: { decks: [] }\n').ok).toBe(true);
  });
});
