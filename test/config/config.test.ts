// The daemon config: the example loads, every kind of mistake names its path and says the fix, environment
// overrides are coerced by the schema, and `tenace check-config` exits 0 or 78.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EX_CONFIG, checkConfigCommand } from '../../src/cli/check-config.js';
import { envOverrides } from '../../src/config/env.js';
import { formatConfigErrors, loadConfig, parseConfig } from '../../src/config/load.js';
import { type Log, createLogger } from '../../src/config/logger.js';
import { configSchema } from '../../src/config/schema.js';
import { errorAt, errorsOf } from './config-errors.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE = join(root, 'config/tenace.example.yaml');
const tmp = mkdtempSync(join(tmpdir(), 'tenace-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MINIMAL = 'club: { id: ely }\ntable: { id: "7" }\n';

function capture() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => { out += s; }, err: (s: string) => { err += s; } }, get out() { return out; }, get err() { return err; } };
}

describe('loading a valid config', () => {
  it('loads the commented example with no error or warning', () => {
    const r = loadConfig(EXAMPLE, {});
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    if (!r.ok) return;
    expect(r.config.club.id).toBe('ely');
    expect(r.config.table.id).toBe('7');
    expect(r.config.hardware.bridges).toHaveLength(1);
    expect(r.config.hardware.bridges[0].readers.map((x) => x.seat)).toEqual(['N', 'E', 'S', 'W']);
  });

  it('fills every default from the schema', () => {
    const r = parseConfig(MINIMAL);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config).toEqual({
      club: { id: 'ely' },
      table: { id: '7' },
      variant: 'duplicate-whist',
      journal: { dir: '/var/lib/tenace/journal', fsync: 'always', groupCommitMs: 10 },
      mqtt: { url: 'mqtt://127.0.0.1:1883', rejectUnauthorized: true, keepalive: 30, baseTopic: 'tenace' },
      feed: { embargo: 'tray-complete', director: true, analysis: false },
      hardware: { bridges: [], scanner: { mode: 'none', baudRate: 9600, terminator: 'any', interByteTimeoutMs: 50 }, decks: [] },
      http: { port: 8080, host: '0.0.0.0' },
      terminal: { tries: 5 },
      log: { level: 'info' },
    });
  });

  it('takes a numeric table id as its digits and accepts the embedded broker', () => {
    const r = parseConfig('club: { id: ely }\ntable: { id: 12 }\nmqtt: { url: embedded }\n');
    expect(r.ok && r.config.table.id).toBe('12');
    expect(r.ok && r.config.mqtt.url).toBe('embedded');
  });

  it('mqtt.protocolVersion: 4 for a broker without MQTT 5 (the session\'s embedded aedes), and nothing else', () => {
    const r = parseConfig(`${MINIMAL}mqtt: { url: "mqtt://127.0.0.1:1883", protocolVersion: 4 }\n`);
    expect(r.ok && r.config.mqtt.protocolVersion).toBe(4);
    const d = parseConfig(MINIMAL);
    expect(d.ok && d.config.mqtt.protocolVersion).toBeUndefined();
    const bad = parseConfig(`${MINIMAL}mqtt: { protocolVersion: 3 }\n`);
    expect(errorAt(bad, 'mqtt.protocolVersion').message).toMatch(/^must be 5 \(MQTT 5, the default\) or 4 for a broker that speaks only MQTT 3\.1\.1/);
  });

  it('resolves relative file paths against the config file\'s folder', () => {
    const dir = join(tmp, 'rel');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'tenace.yaml');
    writeFileSync(file, `${MINIMAL}journal: { dir: journal }\nmqtt: { ca: tls/ca.pem }\nhardware: { decks: [decks/red.yaml, /abs/blue.yaml] }\n`);
    const r = loadConfig(file, {});
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.journal.dir).toBe(join(dir, 'journal'));
    expect(r.config.mqtt.ca).toBe(join(dir, 'tls/ca.pem'));
    expect(r.config.hardware.decks).toEqual([join(dir, 'decks/red.yaml'), '/abs/blue.yaml']);
  });
});

describe('errors name the path and say the fix', () => {
  it('a seat that is not N, E, S or W, deep in a list', () => {
    const r = parseConfig(`${MINIMAL}hardware:
  bridges:
    - id: b1
      port: /dev/serial/by-id/usb-pico-if00
      readers:
        - { reader: 0, seat: N }
        - { reader: 1, seat: E }
        - { reader: 2, seat: X }
`);
    const e = errorAt(r, 'hardware.bridges[0].readers[2].seat');
    expect(e.message).toContain('must be one of N, E, S, W');
    expect(e.message).toContain('"X"');
    expect(e.line).toBe(10);
  });

  it('a missing required setting, and a missing section', () => {
    const e1 = errorAt(parseConfig('club: {}\ntable: { id: "1" }\n'), 'club.id');
    expect(e1.message).toMatch(/^is required; it must be the club's short id/);
    const e2 = errorAt(parseConfig('club: { id: ely }\n'), 'table');
    expect(e2.message).toBe('is required: add "table:" with "id"');
    const bridge = errorAt(parseConfig(`${MINIMAL}hardware: { bridges: [ { id: b1, readers: [ { reader: 0, seat: N } ] } ] }\n`), 'hardware.bridges[0].port');
    expect(bridge.message).toMatch(/is required; it must be the serial device of the bridge/);
  });

  it('a value of the wrong type, with a hint for the YAML pitfalls', () => {
    const r = parseConfig(`${MINIMAL}journal: { groupCommitMs: "10" }\nfeed: { director: yes }\nmqtt: { username: 1234 }\n`);
    expect(errorAt(r, 'journal.groupCommitMs').message).toBe('must be a whole number of milliseconds from 0 to 1000 (got "10"); remove the quotes');
    expect(errorAt(r, 'feed.director').message).toMatch(/must be true or false.*YAML 1\.2 reads yes\/no\/on\/off as text/);
    expect(errorAt(r, 'mqtt.username').message).toMatch(/put it in quotes$/);
  });

  it('a value out of range or of the wrong form', () => {
    const r = parseConfig(`club: { id: "ely/north" }\ntable: { id: "7" }\nhttp: { port: 70000 }\nmqtt: { url: "http://broker", baseTopic: "tenace/" }\nhardware: { bridges: [ { id: b, port: /dev/x, readers: [ { reader: 8, seat: N } ] } ] }\n`);
    expect(errorAt(r, 'club.id').message).toMatch(/use 1-32 letters, digits or "_"/);
    expect(errorAt(r, 'http.port').message).toBe('must be a TCP port from 0 to 65535 (0 picks a free one) (got 70000)');
    expect(errorAt(r, 'mqtt.url').message).toMatch(/must be a broker URL such as "mqtt:\/\/127\.0\.0\.1:1883"/);
    expect(errorAt(r, 'mqtt.baseTopic').message).toMatch(/without .* a leading or trailing "\/"/);
    expect(errorAt(r, 'hardware.bridges[0].readers[0].reader').message).toBe('must be the reader index on the bridge, 0 to 7 (got 8)');
  });

  it('an enum value with a near miss suggests the right one', () => {
    const r = parseConfig(`${MINIMAL}feed: { embargo: deal_end }\nvariant: duplicate-wist\n`);
    expect(errorAt(r, 'feed.embargo').message).toBe('must be one of live, deal-end, tray-complete (got "deal_end"): did you mean "deal-end"?');
    expect(errorAt(r, 'variant').message).toMatch(/did you mean "duplicate-whist"\?$/);
  });

  it('an unknown key is an error, with "did you mean" when it is close', () => {
    const r = parseConfig(`${MINIMAL}journal: { fsnyc: group, group_commit_ms: 5 }\nmqtt: { port: 1883 }\nlogging: { level: debug }\n`);
    expect(errorAt(r, 'journal.fsnyc').message).toBe('is not a known setting: did you mean "fsync"?');
    expect(errorAt(r, 'journal.group_commit_ms').message).toBe('is not a known setting: did you mean "groupCommitMs"?');
    // A key of another section points there.
    expect(errorAt(r, 'mqtt.port').message).toMatch(/did you mean "hardware\.scanner\.port" or "http\.port"\?/);
    expect(errorAt(r, 'logging').message).toBe('is not a known setting: did you mean "log"?');
  });

  it('an unknown key with nothing close lists the settings that exist there', () => {
    expect(errorAt(parseConfig(`${MINIMAL}http: { banana: 1 }\n`), 'http.banana').message).toBe('is not a known setting: the settings here are port, host');
  });

  it('settings that need each other, and duplicates', () => {
    const r = parseConfig(`${MINIMAL}mqtt: { password: x, passwordFile: /etc/p, cert: /c.pem }
hardware:
  scanner: { mode: serial }
  bridges:
    - { id: b1, port: /dev/a, readers: [ { reader: 0, seat: N }, { reader: 0, seat: S } ] }
    - { id: b1, port: /dev/a, readers: [ { reader: 1, seat: E } ] }
`);
    expect(errorAt(r, 'mqtt.passwordFile').message).toBe('cannot be used together with mqtt.password: keep one of the two');
    expect(errorAt(r, 'mqtt.key').message).toMatch(/^is required when mqtt.cert is set/);
    expect(errorAt(r, 'hardware.scanner.port').message).toMatch(/^is required when hardware.scanner.mode is serial/);
    expect(errorAt(r, 'hardware.bridges[0].readers[1].reader').message).toMatch(/^repeats reader 0 of readers\[0\]/);
    expect(errorAt(r, 'hardware.bridges[1].id').message).toMatch(/give each bridge its own id/);
    expect(errorAt(r, 'hardware.bridges[1].port').message).toMatch(/each bridge has its own serial device/);
    const hid = parseConfig(`${MINIMAL}hardware: { scanner: { mode: hid, vendorId: 0x05e0 } }\n`);
    expect(errorAt(hid, 'hardware.scanner.productId').message).toMatch(/lsusb/);
  });

  it('never echoes a password in an error', () => {
    const e = errorAt(parseConfig(`${MINIMAL}mqtt: { password: 123456 }\n`), 'mqtt.password');
    expect(e.message).not.toContain('123456');
  });

  it('YAML syntax errors, an empty file and a file that is not a mapping', () => {
    const syntax = errorsOf(parseConfig('club: { id: ely\ntable: [\n'));
    expect(syntax[0].message).toMatch(/^YAML syntax: /);
    expect(syntax[0].line).toBeGreaterThan(0);
    const dup = errorsOf(parseConfig('club: { id: a }\nclub: { id: b }\ntable: { id: "1" }\n'));
    expect(dup[0].message).toMatch(/YAML syntax: .*unique/i);
    expect(errorsOf(parseConfig(''))[0].message).toMatch(/the config is empty/);
    expect(errorsOf(parseConfig('- a\n- b\n'))[0].message).toMatch(/must be a YAML mapping of sections/);
    // An alias bomb is refused, not expanded.
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    expect(errorsOf(parseConfig(bomb.join('\n') + '\n'))[0].message).toMatch(/^YAML: .*alias/i);
  });

  it('a missing or unreadable file is an error entry, not an exception', () => {
    const missing = errorsOf(loadConfig(join(tmp, 'nope.yaml'), {}));
    expect(missing).toEqual([{ path: '', message: expect.stringMatching(/cannot read config file .*nope\.yaml: it does not exist/) }]);
    expect(errorsOf(loadConfig(tmp, {}))[0].message).toMatch(/it is a folder/);
    if (process.getuid?.() !== 0) {
      const locked = join(tmp, 'locked.yaml');
      writeFileSync(locked, MINIMAL);
      chmodSync(locked, 0o000);
      expect(errorsOf(loadConfig(locked, {}))[0].message).toMatch(/permission denied/);
    }
  });

  it('reports all the errors at once, in file order, each with a path and a sentence', () => {
    const text = `club: { id: "a b" }\ntable: { id: "7" }\nlog: { level: loud }\nhttp: { port: -1 }\n`;
    const errs = errorsOf(parseConfig(text));
    expect(errs.map((e) => e.path)).toEqual(['club.id', 'log.level', 'http.port']);
    for (const e of errs) expect(e.message).toMatch(/^(must|is) /);
    expect(formatConfigErrors(errs, 'tenace.yaml')).toBe(
      'tenace.yaml:1: club.id: must be the club\'s short id, e.g. "ely"; use 1-32 letters, digits or "_" (no "-": the tables\' broker accounts are "table-<club>-<table>"; write "bath_north", not "bath-north") (got "a b")\n' +
      'tenace.yaml:3: log.level: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")\n' +
      'tenace.yaml:4: http.port: must be a TCP port from 0 to 65535 (0 picks a free one) (got -1)\n');
  });

  it('warns about a serial port name that changes on re-plug', () => {
    const r = parseConfig(`${MINIMAL}hardware: { decks: [red.deck.json], bridges: [ { id: b, port: /dev/ttyACM0, readers: [ { reader: 0, seat: N } ] } ] }\n`);
    expect(r.ok).toBe(true);
    expect(r.warnings).toEqual([expect.objectContaining({ path: 'hardware.bridges[0].port', message: expect.stringMatching(/prefer its \/dev\/serial\/by-id/) })]);
  });
});

describe('environment overrides', () => {
  it('override the file and are coerced to the schema\'s types', () => {
    const r = parseConfig(`${MINIMAL}mqtt: { url: "mqtt://file:1883" }\n`, {
      env: {
        TENACE_MQTT_URL: 'mqtts://broker.club:8883',
        TENACE_TABLE_ID: '12',
        TENACE_MQTT_PASSWORD: ' secret with spaces ',
        TENACE_JOURNAL_GROUP_COMMIT_MS: '25',
        TENACE_JOURNAL_FSYNC: 'group',
        TENACE_MQTT_REJECT_UNAUTHORIZED: 'false',
        TENACE_FEED_DIRECTOR: 'no',
        TENACE_HARDWARE_SCANNER_MODE: 'hid',
        TENACE_HARDWARE_SCANNER_VENDOR_ID: '0x05e0',
        TENACE_HARDWARE_SCANNER_PRODUCT_ID: '4608',
        TENACE_HARDWARE_DECKS: '/d/red.yaml, /d/blue.yaml',
        TENACE_HTTP_PORT: '',
        PATH: '/usr/bin',
      },
    });
    expect(r.ok ? [] : r.errors).toEqual([]);
    if (!r.ok) return;
    const c = r.config;
    expect(c.mqtt.url).toBe('mqtts://broker.club:8883');
    expect(c.table.id).toBe('12');
    expect(c.mqtt.password).toBe(' secret with spaces ');
    expect(c.journal).toEqual({ dir: '/var/lib/tenace/journal', fsync: 'group', groupCommitMs: 25 });
    expect(c.mqtt.rejectUnauthorized).toBe(false);
    expect(c.feed.director).toBe(false);
    expect(c.hardware.scanner).toMatchObject({ mode: 'hid', vendorId: 0x05e0, productId: 4608 });
    expect(c.hardware.decks).toEqual(['/d/red.yaml', '/d/blue.yaml']);
    // An empty variable is "not set".
    expect(c.http.port).toBe(8080);
  });

  it('can supply a required setting the file lacks', () => {
    const r = parseConfig('club: { id: ely }\n', { env: { TENACE_TABLE_ID: 't3' } });
    expect(r.ok && r.config.table.id).toBe('t3');
  });

  it('a bad override is an error that names the variable', () => {
    const r = parseConfig(MINIMAL, { env: { TENACE_MQTT_KEEPALIVE: 'often', TENACE_LOG_LEVEL: 'verbose' } });
    expect(errorAt(r, 'mqtt.keepalive').message).toBe('must be a whole number of seconds from 0 to 65535 (got "often") (set by TENACE_MQTT_KEEPALIVE)');
    expect(errorAt(r, 'log.level').message).toMatch(/\(set by TENACE_LOG_LEVEL\)$/);
    expect(errorAt(r, 'log.level').line).toBeUndefined();
  });

  it('an unknown TENACE_ variable is a warning with a suggestion', () => {
    const r = parseConfig(MINIMAL, { env: { TENACE_MQTT_PASWORD: 'x', TENACE_CONFIG: '/etc/tenace/tenace.yaml' } });
    expect(r.ok).toBe(true);
    expect(r.warnings).toEqual([{ path: '', message: 'environment variable TENACE_MQTT_PASWORD is not a setting and is ignored: did you mean TENACE_MQTT_PASSWORD?' }]);
  });

  it('the variables named in the example and in env.ts exist', () => {
    const known = new Set(envOverrides().map((e) => e.name));
    const docs = readFileSync(EXAMPLE, 'utf8') + readFileSync(join(root, 'src/config/env.ts'), 'utf8');
    const named = [...docs.matchAll(/TENACE_[A-Z][A-Z_]*[A-Z]/g)].map((m) => m[0]).filter((n) => n !== 'TENACE_CONFIG');
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((n) => !known.has(n))).toEqual([]);
  });

    it('every scalar setting of the schema has exactly one variable', () => {
    const leaves: string[] = [];
    const walk = (node: { type?: string; properties?: Record<string, unknown>; items?: { type?: string } }, path: string[]) => {
      for (const [k, v] of Object.entries(node.properties ?? {})) {
        const child = v as typeof node;
        if (child.type === 'object') walk(child, [...path, k]);
        else if (child.type !== 'array' || child.items?.type === 'string') leaves.push([...path, k].join('.'));
      }
    };
    walk(configSchema as never, []);
    const env = envOverrides();
    expect(env.map((e) => e.path.join('.')).sort()).toEqual(leaves.sort());
    expect(new Set(env.map((e) => e.name)).size).toBe(env.length);
    expect(env.find((e) => e.path.join('.') === 'journal.groupCommitMs')?.name).toBe('TENACE_JOURNAL_GROUP_COMMIT_MS');
    expect(env.find((e) => e.path.join('.') === 'hardware.scanner.interByteTimeoutMs')?.name).toBe('TENACE_HARDWARE_SCANNER_INTER_BYTE_TIMEOUT_MS');
  });
});

describe('tenace check-config', () => {
  it('exits 0 and summarises a valid config', () => {
    const c = capture();
    expect(checkConfigCommand([EXAMPLE, '--skip-files'], c.io, {})).toBe(0);
    expect(c.out).toMatch(/^ok: club ely table 7, 1 bridge \(4 readers: N E S W\), no scanner, /);
    expect(c.err).toBe('');
  });

  it('exits 78 (EX_CONFIG) with the errors, one a line, naming file, line and path', () => {
    const file = join(tmp, 'bad.yaml');
    writeFileSync(file, 'club: { id: ely }\ntable: { id: "7" }\nhardware:\n  bridges:\n    - { id: b, port: /dev/x, readers: [ { reader: 0, seat: Q } ] }\n  decks: [red.deck.json]\n');
    const c = capture();
    expect(checkConfigCommand([file], c.io, {})).toBe(EX_CONFIG);
    expect(EX_CONFIG).toBe(78);
    expect(c.err).toContain(`${file}:5: hardware.bridges[0].readers[0].seat: must be one of N, E, S, W (got "Q")`);
    expect(c.err).toMatch(/1 problem: tenace run would refuse this config \(exit 78\)/);
    expect(c.out).toBe('');
  });

  it('exits 78 for a missing file and 64 for bad usage', () => {
    const c = capture();
    expect(checkConfigCommand([join(tmp, 'absent.yaml')], c.io, {})).toBe(78);
    expect(c.err).toMatch(/does not exist/);
    expect(checkConfigCommand([], capture().io, {})).toBe(64);
    expect(checkConfigCommand(['--bogus', EXAMPLE], capture().io, {})).toBe(64);
  });

  it('applies environment overrides, checks referenced files, and prints without secrets', () => {
    const dir = join(tmp, 'files');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'tenace.yaml');
    writeFileSync(file, `${MINIMAL}journal: { dir: journal }\nmqtt: { ca: ca.pem }\n`);
    const missing = capture();
    expect(checkConfigCommand([file], missing.io, {})).toBe(78);
    expect(missing.err).toContain(`${file}: mqtt.ca: ${join(dir, 'ca.pem')} does not exist`);
    writeFileSync(join(dir, 'ca.pem'), 'PEM');
    const ok = capture();
    expect(checkConfigCommand([file, '--print'], ok.io, { TENACE_MQTT_PASSWORD: 'hunter2', TENACE_TABLE_ID: '9' })).toBe(0);
    expect(ok.out).toContain('ok: club ely table 9');
    expect(ok.out).toContain('"password": "[redacted]"');
    expect(ok.out).not.toContain('hunter2');
  });

  it('--env lists the overrides', () => {
    const c = capture();
    expect(checkConfigCommand(['--env'], c.io, {})).toBe(0);
    expect(c.out).toMatch(/^TENACE_MQTT_URL +mqtt\.url: /m);
    expect(c.out.trim().split('\n')).toHaveLength(envOverrides().length);
  });
});

describe('logger', () => {
  it('writes JSON lines with the configured level, club and table, and hides passwords', () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, cb) { lines.push(...String(chunk).trim().split('\n')); cb(); } });
    const logger = createLogger({ log: { level: 'warn' }, club: { id: 'ely' }, table: { id: '7' } }, sink);
    const asLog: Log = logger; // the journal's Log interface accepts the daemons' logger
    asLog.info({ n: 1 }, 'not shown');
    asLog.warn({ mqtt: { password: 'hunter2', url: 'mqtt://x' } }, 'shown');
    expect(lines).toHaveLength(1);
    const o = JSON.parse(lines[0]);
    expect(o).toMatchObject({ level: 'warn', club: 'ely', table: '7', msg: 'shown', mqtt: { password: '[redacted]', url: 'mqtt://x' } });
    expect(Number.isNaN(Date.parse(o.time))).toBe(false);
  });

  it('takes its level from a loaded config', () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const r = parseConfig(`${MINIMAL}log: { level: error }\n`);
    if (!r.ok) throw new Error('config should load');
    const logger = createLogger(r.config, sink);
    logger.warn('dropped');
    logger.error('kept');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['kept']);
  });
});
