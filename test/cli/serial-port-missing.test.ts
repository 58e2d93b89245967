// `tenace listen` and `tenace enrol` with a serial port that is not there (issue 11 item 11): exit 66 naming the port
// and what to look for, before a log file is made or a card is asked for; --wait waits for it instead.
import { PassThrough } from 'node:stream';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enrolCommand } from '../../src/cli/enrol.js';
import { EX_NOINPUT, listenCommand } from '../../src/cli/listen.js';

const work = mkdtempSync(join(tmpdir(), 'tenace-porttest-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const NOPE = '/dev/ttyNOPE';
const WHAT = `--port: ${NOPE} does not exist: plug the bridge in and check the path; with hardware/99-tenace.rules installed it appears as /dev/tenace-bridge-<serial> (ls -l /dev/tenace-bridge-* /dev/serial/by-id/); or add --wait to wait for it`;

function capture() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => { out += s; }, err: (s: string) => { err += s; } }, get out() { return out; }, get err() { return err; } };
}

describe('a serial port that does not exist', () => {
  it('tenace listen exits 66 naming the port, and makes no log file', async () => {
    const log = join(work, 'listen.ndjson');
    const c = capture();
    expect(await listenCommand(['--port', NOPE, '--log', log], { io: c.io, signals: false })).toBe(EX_NOINPUT);
    expect(EX_NOINPUT).toBe(66);
    expect(c.err.split('\n')).toContain(`tenace listen: ${WHAT}`);
    expect(c.err).not.toMatch(/bridge connecting|cannot open the bridge port/);
    expect(existsSync(log)).toBe(false);
  });

  it('tenace enrol exits 66 naming the port, before asking for a single card', async () => {
    const out = join(work, 'red.deck.json');
    const c = capture();
    expect(await enrolCommand(['--deck', 'red', '--port', NOPE, '--out', out], { io: c.io, signals: false, input: new PassThrough() })).toBe(EX_NOINPUT);
    expect(c.err).toBe(`tenace enrol: ${WHAT}\n`);
    expect(c.out).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('tenace listen --wait waits for it (here until --idle-exit), saying what it waits for', async () => {
    const c = capture();
    const code = await listenCommand(['--port', NOPE, '--log', join(work, 'wait.ndjson'), '--wait', '--idle-exit', '300'], { io: c.io, signals: false });
    expect(code).toBe(0);
    expect(c.err).toContain(`tenace listen: warn: --wait: waiting for the port: ${NOPE} does not exist`);
    expect(c.err).toMatch(/stopped \(no event for 300 ms\)/);
  });

  it('tenace enrol --wait says it waits for the bridge, then asks for the first card', async () => {
    const c = capture();
    const input = new PassThrough();
    const done = enrolCommand(['--deck', 'red', '--port', NOPE, '--out', join(work, 'wait.deck.json'), '--wait'], { io: c.io, signals: false, input });
    await new Promise((r) => setTimeout(r, 300));
    input.write('quit\n');
    expect(await done).toBe(1);
    expect(c.out).toMatch(/Waiting for the bridge: \/dev\/ttyNOPE does not exist[^\n]*\n0\/52 {2}Next: the ace of spades/);
  });
});
