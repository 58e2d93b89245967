// The daemons' own JSON-lines logger (src/config/logger.ts), which took pino's place (issue 20): the lines keep
// pino's shape, so journald filters, the readable console lines and the kill -9 rig read them as before.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, fdDestination } from '../../src/config/logger.js';
import { readableLines } from '../../src/config/console-log.js';

function recorder(): { lines: string[]; dest: { write(s: string): void } } {
  const lines: string[] = [];
  return { lines, dest: { write: (s: string) => { lines.push(s); } } };
}

const dir = mkdtempSync(join(tmpdir(), 'tenace-logger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the daemons\' logger', () => {
  it('writes one line a record: level, time, pid, club and table first, the fields, then msg last', () => {
    const r = recorder();
    const log = createLogger({ club: { id: 'ely' }, table: { id: '7' } }, r.dest);
    log.info({ board: 3 }, 'deal started');
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0].endsWith('}\n')).toBe(true);
    expect(Object.keys(JSON.parse(r.lines[0]))).toEqual(['level', 'time', 'pid', 'club', 'table', 'board', 'msg']);
    expect(JSON.parse(r.lines[0])).toMatchObject({ level: 'info', pid: process.pid, club: 'ely', table: '7', board: 3, msg: 'deal started' });
  });

  it('leaves out club and table when the config has none, and takes a message alone', () => {
    const r = recorder();
    createLogger({}, r.dest).warn('broker offline');
    expect(JSON.parse(r.lines[0])).toEqual({ level: 'warn', time: expect.any(String), pid: process.pid, msg: 'broker offline' });
  });

  it('writes nothing below its level, and a level set later takes effect', () => {
    const r = recorder();
    const log = createLogger({ log: { level: 'warn' } }, r.dest);
    log.trace({}, 'a'); log.debug({}, 'b'); log.info({}, 'c');
    expect(r.lines).toHaveLength(0);
    log.level = 'debug';
    expect(log.level).toBe('debug');
    log.debug({}, 'd');
    expect(r.lines.map((l) => JSON.parse(l).msg)).toEqual(['d']);
    createLogger({ log: { level: 'silent' } }, r.dest).fatal({}, 'never');
    expect(r.lines).toHaveLength(1);
  });

  it('a child adds its fields to every line and may have its own level', () => {
    const r = recorder();
    const log = createLogger({ club: { id: 'ely' } }, r.dest);
    const child = log.child({ bridge: 'under-table' });
    child.info({ seq: 4 }, 'frame');
    child.child({ reader: 2 }).warn({}, 'no tag');
    log.child({ rehearsal: true }, { level: 'silent' }).error({}, 'hidden');
    expect(r.lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ club: 'ely', bridge: 'under-table', seq: 4, msg: 'frame' }),
      expect.objectContaining({ club: 'ely', bridge: 'under-table', reader: 2, msg: 'no tag' }),
    ]);
  });

  it('hides the broker password at the top and two levels down, in objects or lists, without changing what was logged', () => {
    const r = recorder();
    const opts = { password: 'a', mqtt: { password: 'b', tls: { password: 'c' } }, brokers: [{ password: 'd', url: 'mqtt://y' }], url: 'mqtt://x' };
    createLogger({}, r.dest).info(opts, 'connecting');
    expect(JSON.parse(r.lines[0])).toMatchObject({
      password: '[redacted]', mqtt: { password: '[redacted]', tls: { password: '[redacted]' } }, brokers: [{ password: '[redacted]', url: 'mqtt://y' }], url: 'mqtt://x',
    });
    expect(opts).toEqual({ password: 'a', mqtt: { password: 'b', tls: { password: 'c' } }, brokers: [{ password: 'd', url: 'mqtt://y' }], url: 'mqtt://x' });
    createLogger({}, r.dest).info({ frame: Buffer.from('password') }, 'raw');
    expect(JSON.parse(r.lines[1]).frame).toEqual({ type: 'Buffer', data: [...Buffer.from('password')] });
  });

  it('writes an err as its type, message and stack, and an error made for the operator as its sentence alone', () => {
    const r = recorder();
    const log = createLogger({}, r.dest);
    const e = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    log.error({ err: e }, 'broker');
    const expected = Object.assign(new Error('http.port 8080 is in use: set http.port to a free port'), { expected: true });
    log.error({ err: expected }, 'web');
    log.error(new TypeError('bad'));
    const [a, b, c] = r.lines.map((l) => JSON.parse(l));
    expect(a.err).toMatchObject({ type: 'Error', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' });
    expect(a.err.stack).toMatch(/^Error: connect ECONNREFUSED\n/);
    expect(b.err).toBe('http.port 8080 is in use: set http.port to a free port');
    expect(c).toMatchObject({ err: { type: 'TypeError', message: 'bad' }, msg: 'bad' });
  });

  it('a cycle or a BigInt in a field does not throw: the line is still written', () => {
    const r = recorder();
    const o: Record<string, unknown> = { n: 10n };
    o.self = o;
    createLogger({}, r.dest).warn({ o }, 'odd');
    expect(JSON.parse(r.lines[0])).toMatchObject({ o: { n: '10', self: '[Circular]' }, msg: 'odd' });
  });

  it('its lines read as the console\'s readable lines', () => {
    const r = recorder();
    createLogger({ table: { id: '7' } }, r.dest).warn({ port: '/dev/ttyACM0' }, 'bridge port closed');
    expect(readableLines(r.lines[0])).toEqual(['tenace: warn: table 7: bridge port closed (port=/dev/ttyACM0)']);
  });

  it('fdDestination writes each line whole to a file descriptor, synchronously', () => {
    const file = join(dir, 'log.jsonl');
    const fd = openSync(file, 'a');
    const log = createLogger({}, fdDestination(fd));
    for (let i = 0; i < 3; i++) log.info({ i, pad: 'x'.repeat(70_000) }, 'big');
    // Written before the call returned: no stream to flush.
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    closeSync(fd);
    expect(lines.map((l) => l.i)).toEqual([0, 1, 2]);
  });

  it('fdDestination drops a line to a closed descriptor instead of throwing', () => {
    const fd = openSync(join(dir, 'closed.jsonl'), 'a');
    closeSync(fd);
    expect(() => createLogger({}, fdDestination(fd)).info({}, 'lost')).not.toThrow();
  });
});
