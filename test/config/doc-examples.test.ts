// Examples that cannot drift (issue 22, item 6): every config, deck and seat-map example in docs/, hardware/ and
// config/ is read by the code that reads the real files, and must fit what it meets on a Pi: the udev rules (the
// links, the scanner's vendor, the bridge's serial) and the broker's ACL (the table's account name).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseDirectorConfig } from '../../src/club/director/config.js';
import { describeConfig } from '../../src/cli/check-config.js';
import { parseConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { parseDeck } from '../../src/hardware/deck.js';
import { SeatMap } from '../../src/hardware/seat-map.js';

const ROOT = join(import.meta.dirname, '..', '..');
const RULES = readFileSync(join(ROOT, 'hardware', '99-tenace.rules'), 'utf8');
const ACL = readFileSync(join(ROOT, 'mosquitto', 'acl'), 'utf8');

/** The Markdown files whose examples a builder copies. */
function docs(): string[] {
  const out: string[] = [];
  for (const dir of ['docs', 'hardware']) {
    for (const f of readdirSync(join(ROOT, dir))) if (f.endsWith('.md')) out.push(join(ROOT, dir, f));
  }
  return out;
}

interface Block { file: string; line: number; lang: string; text: string }

/** Every fenced block of a Markdown file, with its language and first line. */
function blocks(file: string): Block[] {
  const out: Block[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    out.push({ file: relative(ROOT, file), line: start + 1, lang: open[1], text: body.join('\n') });
  }
  return out;
}

const allBlocks = docs().flatMap(blocks);
const where = (b: Block) => `${b.file}:${b.line}`;

// The links the udev rules make, by subsystem, and the vendors each subsystem's rules match.
const rules = RULES.replace(/\\\n/g, ' ').split('\n').filter((l) => /^SUBSYSTEM==/.test(l));
const links = (subsystem: string) => new Set(rules.filter((r) => r.includes(`SUBSYSTEM=="${subsystem}"`)).flatMap((r) => [...r.matchAll(/SYMLINK\+="([^"$]+)/g)].map((m) => m[1])));
const vendors = (subsystem: string) => new Set(rules.filter((r) => r.includes(`SUBSYSTEM=="${subsystem}"`)).flatMap((r) => [...r.matchAll(/ATTRS\{idVendor\}=="([0-9a-f]{4})"/g)].map((m) => m[1])));
// The table account's form, from the ACL's own description of it ("table account "table-<club>-<table>"").
const tableAccount = /table account "([^"]+)"/.exec(ACL)?.[1];

/** The ways a config must fit the Pi: returns one sentence per misfit. */
function fits(c: Record<string, any>, at: string): string[] {
  const bad: string[] = [];
  const user = c.mqtt?.username;
  if (user !== undefined && /^table-/.test(user)) {
    const want = tableAccount!.replace('<club>', c.club.id).replace('<table>', c.table.id);
    if (user !== want) bad.push(`${at}: mqtt.username ${user} is not the ACL's table account for this table, ${want}`);
  }
  const s = c.hardware?.scanner ?? {};
  if (s.mode === 'serial' && !links('tty').has(String(s.port).replace('/dev/', ''))) bad.push(`${at}: scanner port ${s.port} is not a link the udev rules make for a serial scanner (${[...links('tty')].join(', ')})`);
  if (s.mode === 'hid' && s.port !== undefined && !links('hidraw').has(String(s.port).replace('/dev/', ''))) bad.push(`${at}: scanner port ${s.port} is not a hidraw link of the udev rules`);
  if (s.vendorId !== undefined) {
    const v = s.vendorId.toString(16).padStart(4, '0');
    const sub = s.mode === 'serial' ? 'tty' : 'hidraw';
    if (!vendors(sub).has(v)) bad.push(`${at}: scanner vendor ${v} has no ${sub} rule in 99-tenace.rules, so its device stays root-only`);
  }
  for (const b of c.hardware?.bridges ?? []) {
    if (!bridgePort(b.port)) bad.push(`${at}: bridge port ${b.port} is neither /dev/tenace-bridge-<16 hex digits> nor its /dev/serial/by-id/ path`);
  }
  for (const d of c.hardware?.decks ?? []) if (!String(d).endsWith('.deck.json')) bad.push(`${at}: deck ${d} is not a .deck.json file (tenace enrol writes those)`);
  return bad;
}

/** A bridge path as the udev rules and the Pico's serial number make it. */
function bridgePort(p: string): boolean {
  // The rules link tenace-bridge-$env{ID_SERIAL_SHORT}: the Pico's serial, 16 hex digits of its flash id.
  if (!rules.some((r) => r.includes('SYMLINK+="tenace-bridge-$env{ID_SERIAL_SHORT}"'))) throw new Error('99-tenace.rules no longer links tenace-bridge-<serial>: update this test');
  return /^\/dev\/tenace-bridge-[0-9A-F]{16}$/.test(p) || /^\/dev\/serial\/by-id\/usb-Raspberry_Pi_Pico_[0-9A-F]{16}-if00$/.test(p);
}

/** A config snippet (a section or two) completed with a club and table, then read as the daemon reads it. */
function readConfig(text: string, at: string): Record<string, any> {
  const raw = parse(text) as Record<string, unknown>;
  const full = { club: { id: 'ely' }, table: { id: '7' }, ...raw };
  const r = parseConfig(JSON.stringify(full), { baseDir: ROOT });
  if (!r.ok) throw new Error(`${at}: ${r.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  return r.config as unknown as Record<string, any>;
}

const configKeys = new Set(Object.keys((configSchema as { properties: Record<string, unknown> }).properties));

describe('the examples in docs/, hardware/ and config/', () => {
  it('finds the examples it checks (a config, a deck and a seat map at least)', () => {
    expect(allBlocks.filter((b) => b.lang === 'yaml').length).toBeGreaterThanOrEqual(3);
    expect(allBlocks.some((b) => b.lang === 'json' && b.text.includes('"cards"'))).toBe(true);
    expect(allBlocks.some((b) => b.lang === 'yaml' && b.text.includes('readers:'))).toBe(true);
    expect(tableAccount, 'mosquitto/acl no longer describes the table account').toBe('table-<club>-<table>');
  });

  it('every yaml block is a tenace.yaml the daemon accepts and that fits the udev rules and the ACL', () => {
    const bad: string[] = [];
    for (const b of allBlocks.filter((x) => x.lang === 'yaml')) {
      const keys = Object.keys(parse(b.text) ?? {});
      const unknown = keys.filter((k) => !configKeys.has(k));
      if (unknown.length) { bad.push(`${where(b)}: ${unknown.join(', ')} is not a tenace.yaml section`); continue; }
      try { bad.push(...fits(readConfig(b.text, where(b)), where(b))); } catch (e) { bad.push((e as Error).message); }
    }
    expect(bad).toEqual([]);
  });

  it('every json block with cards is a deck file the loader accepts', () => {
    const decks = allBlocks.filter((b) => b.lang === 'json' && b.text.includes('"cards"'));
    for (const b of decks) expect(() => parseDeck(b.text, where(b)), where(b)).not.toThrow();
  });

  it('every seat map given on a command line (--map) parses', () => {
    const text = docs().map((f) => readFileSync(f, 'utf8')).join('\n');
    const maps = [...text.matchAll(/--map (\S+?)`/g)].map((m) => m[1]);
    expect(maps.length).toBeGreaterThan(0);
    for (const m of maps) expect(() => SeatMap.parseSpec(m), m).not.toThrow();
  });

  it('config/tenace.example.yaml is accepted, and so is each of its commented-out examples once set', () => {
    const file = join(ROOT, 'config', 'tenace.example.yaml');
    const text = readFileSync(file, 'utf8');
    const c = readConfig(text, 'config/tenace.example.yaml');
    expect(fits(c, 'config/tenace.example.yaml')).toEqual([]);
    // The commented settings a builder turns on: the account, and the scanner in each mode.
    const commented = (key: string) => {
      const m = new RegExp(`^\\s*# ${key}: (\\S+)`, 'm').exec(text);
      if (!m) throw new Error(`config/tenace.example.yaml has no commented "${key}:" example any more: update this test`);
      return parse(m[1]) as unknown;
    };
    const withAccount = { ...parse(text), mqtt: { username: commented('username'), passwordFile: commented('passwordFile') } };
    expect(fits(readConfig(JSON.stringify(withAccount), 'example, mqtt'), 'example, mqtt')).toEqual([]);
    const serial = { hardware: { scanner: { mode: 'serial', port: commented('port') } } };
    expect(fits(readConfig(JSON.stringify(serial), 'example, serial scanner'), 'example, serial scanner')).toEqual([]);
    const hid = { hardware: { scanner: { mode: 'hid', vendorId: commented('vendorId'), productId: commented('productId') } } };
    expect(fits(readConfig(JSON.stringify(hid), 'example, hid scanner'), 'example, hid scanner')).toEqual([]);
  });

  it('the environment overrides shown in the example and the docs are accepted and fit', () => {
    const sources = [join(ROOT, 'config', 'tenace.example.yaml'), ...docs()];
    const env: Record<string, string> = {};
    for (const f of sources) for (const m of readFileSync(f, 'utf8').matchAll(/\b(TENACE_[A-Z_]+)=([^\s`'"]+)/g)) {
      if (!['TENACE_MQTT_PASSWORD', 'TENACE_PASSWD_FILE', 'TENACE_ACL_FILE'].includes(m[1])) env[m[1]] = m[2];
    }
    expect(Object.keys(env)).toContain('TENACE_HARDWARE_DECKS');
    const r = parseConfig('club: { id: ely }\ntable: { id: "7" }\n', { env, baseDir: ROOT });
    if (!r.ok) throw new Error(r.errors.map((e) => `${e.path} ${e.message}`).join('; '));
    expect(fits(r.config as unknown as Record<string, any>, 'the TENACE_* examples')).toEqual([]);
  });

  it('every bridge link or by-id path named in the docs has the Pico\'s 16-hex-digit serial', () => {
    const bad: string[] = [];
    for (const f of [...docs(), join(ROOT, 'config', 'tenace.example.yaml'), join(ROOT, 'hardware', '99-tenace.rules')]) {
      for (const m of readFileSync(f, 'utf8').matchAll(/(?:tenace-bridge-|Raspberry_Pi_Pico_)([0-9A-Za-z]+)/g)) {
        if (!/^[0-9A-F]{16}$/.test(m[1])) bad.push(`${relative(ROOT, f)}: ${m[0]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the scanner options the docs name are the config\'s, with its default terminator', () => {
    const scanner = (configSchema as any).properties.hardware.properties.scanner.properties as Record<string, { default?: unknown; enum?: string[] }>;
    const text = readFileSync(join(ROOT, 'hardware', 'tray-barcode.md'), 'utf8');
    const setup = text.slice(text.indexOf('## Scanner setup'));
    const named = [...setup.matchAll(/`([a-z]+[A-Z][A-Za-z]*)`/g)].map((m) => m[1]).filter((n) => !/Scanner$|Emulator$/.test(n));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((n) => !(n in scanner))).toEqual([]);
    const stated = /`terminator`\s+defaults to `(\w+)`/.exec(setup)?.[1];
    expect(stated).toBe(scanner.terminator.default);
    for (const m of setup.matchAll(/terminator: (\w+)/g)) expect(scanner.terminator.enum).toContain(m[1]);
  });

  it('a hid scanner given by its udev link alone is accepted, and check-config names the link', () => {
    const c = readConfig('hardware:\n  scanner: { mode: hid, port: /dev/tenace-scanner-hid }\n', 'hid by port');
    expect(describeConfig(c as never)).toContain('HID scanner on /dev/tenace-scanner-hid');
    const r = parseConfig('club: { id: ely }\ntable: { id: "7" }\nhardware: { scanner: { mode: hid } }\n');
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['hardware.scanner.vendorId', 'hardware.scanner.productId']);
  });

  it('the udev rules under hardware/ and systemd/ are the same file', () => {
    expect(readFileSync(join(ROOT, 'systemd', '99-tenace.rules'), 'utf8')).toBe(RULES);
  });

  it('config/club.example.yaml is accepted by the director', () => {
    const r = parseDirectorConfig(readFileSync(join(ROOT, 'config', 'club.example.yaml'), 'utf8'), join(ROOT, 'config'));
    expect(r.ok ? [] : r.errors).toEqual([]);
  });
});
