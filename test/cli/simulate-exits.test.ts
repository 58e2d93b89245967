// `tenace simulate` on every way out (issue 11 items 6, 10 and 13): a bad --journal or --faults is one clear line
// and the right exit code, never a stack; no way out leaves a socat, a pty folder or a temporary journal behind; the
// console says where the journal is; a dead --broker is waited for aloud, given up on with --exit, and Ctrl-C is prompt.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../feed/broker.js';
import { hasStack, processesUsing, runCli, startCli, tenaceLeftovers } from './spawn-cli.js';

const root = resolve(import.meta.dirname, '../..');
const HAND = join(root, 'test/fixtures/seed-hands/hand1.ndjson');
const work = mkdtempSync(join(tmpdir(), 'tenace-simtest-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Nothing of tenace's in the child's TMPDIR, and no process (socat) still using it. */
async function expectNothingLeft(tmp: string): Promise<void> {
  // socat is sent SIGTERM on the way out; give it a moment to go.
  const end = Date.now() + 3000;
  while (processesUsing(tmp).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  expect(processesUsing(tmp)).toEqual([]);
  expect(tenaceLeftovers(tmp)).toEqual([]);
}

describe('tenace simulate: refused options', () => {
  it('--journal naming a file: exit 73 with one line naming the flag and the fix; nothing left behind', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'not a folder');
    const r = await runCli(['simulate', '--journal', file, '--exit', '--speed', 'max', '--http-port', '0', '--play', HAND]);
    try {
      expect(r.code).toBe(73);
      expect(r.err).toBe(`tenace simulate: --journal: ${file} is a file, not a folder: give a folder (it is created when missing)\n`);
      await expectNothingLeft(r.tmp);
    } finally {
      await r.dispose();
    }
  });

  it('--journal inside a file: exit 73, no ENOTDIR stack', async () => {
    const file = join(work, 'another-file');
    writeFileSync(file, '');
    const r = await runCli(['simulate', '--journal', join(file, 'journal'), '--exit', '--http-port', '0', '--play', HAND]);
    try {
      expect(r.code).toBe(73);
      expect(r.err).toMatch(/^tenace simulate: --journal: .*another-file\/journal cannot be a folder: a part of that path is a file; give a folder path\n$/);
      expect(hasStack(r.err)).toBe(false);
      await expectNothingLeft(r.tmp);
    } finally {
      await r.dispose();
    }
  });

  it('--faults crc:2: a usage error (64) naming the item and the valid range; nothing left behind', async () => {
    const r = await runCli(['simulate', '--faults', 'crc:2', '--exit', '--http-port', '0', '--play', HAND]);
    try {
      expect(r.code).toBe(64);
      expect(r.err.split('\n')[0]).toBe('tenace simulate: --faults: fault "crc:2": the rate must be a probability from 0 to 1, e.g. crc:0.01');
      expect(hasStack(r.err)).toBe(false);
      await expectNothingLeft(r.tmp);
    } finally {
      await r.dispose();
    }
  });
});

describe('tenace simulate: the journal folder', () => {
  it('a missing --journal folder is created and kept, and the console says where it is', async () => {
    const journal = join(work, 'new', 'journal');
    const r = await runCli(['simulate', '--journal', journal, '--exit', '--speed', 'max', '--http-port', '0', '--play', HAND]);
    try {
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(`tenace: journal in ${journal}\n`);
      expect(readdirSync(journal).some((f) => f.endsWith('.ndjson'))).toBe(true);
      await expectNothingLeft(r.tmp);
    } finally {
      await r.dispose();
    }
  }, 60_000);

  it('without --journal: a temporary folder, named on the console and removed on exit', async () => {
    const r = await runCli(['simulate', '--exit', '--speed', 'max', '--http-port', '0', '--play', HAND]);
    try {
      expect(r.code, r.err).toBe(0);
      const m = /^tenace: journal in (\S+) \(temporary: removed on exit; --journal DIR keeps one\)$/m.exec(r.out);
      expect(m, r.out).not.toBeNull();
      expect(m![1].startsWith(join(r.tmp, 'tenace-sim-'))).toBe(true);
      expect(existsSync(m![1])).toBe(false);
      await expectNothingLeft(r.tmp);
    } finally {
      await r.dispose();
    }
  }, 60_000);
});

describe('tenace simulate: signals', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while playing: exit 0 at once, socat and the temporary journal gone`, async () => {
      const run = startCli(['simulate', '--speed', '2', '--http-port', '0', '--serial', 'pty', '--play', HAND]);
      try {
        await run.waitFor(/^tenace: playing/m);
        const t0 = Date.now();
        run.child.kill(signal);
        expect(await run.exited).toBe(0);
        expect(Date.now() - t0).toBeLessThan(5000);
        await expectNothingLeft(run.tmp);
      } finally {
        await run.dispose();
      }
    }, 60_000);
  }

  it('an uncaught error still takes socat and the pty folder with it (the exit hook)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tenace-clitest-'));
    try {
      // A process that opens a pty pair and then dies of an uncaught error.
      const script = `import { PtyPair } from ${JSON.stringify(join(root, 'src/hardware/pty.ts'))};
        const pair = await PtyPair.create();
        process.stdout.write(String(pair.pid) + '\\n');
        setTimeout(() => { throw new Error('boom'); }, 10);`;
      const file = join(tmp, 'crash.mts');
      writeFileSync(file, script);
      const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root, env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => { out += s; });
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      expect(code).toBe(1);
      const pid = Number(out.trim());
      expect(pid).toBeGreaterThan(0);
      const end = Date.now() + 3000;
      const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
      while (alive() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(alive()).toBe(false);
      expect(readdirSync(tmp).filter((f) => f.startsWith('tenace-pty-'))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('tenace simulate --broker with no broker there', () => {
  it('--exit: says it is waiting and where, gives up after --broker-wait with exit 69 and a sentence', async () => {
    const url = `mqtt://127.0.0.1:${await freePort()}`;
    const t0 = Date.now();
    const r = await runCli(['simulate', '--broker', url, '--exit', '--broker-wait', '3', '--speed', 'max', '--http-port', '0', '--serial', 'loopback', '--play', HAND]);
    try {
      expect(r.code, r.out + r.err).toBe(69);
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(r.out).toContain(`tenace: waiting for the broker at ${url}; the events wait in the journal (giving up after 3 s)\n`);
      expect(r.err).toContain(`tenace simulate: no broker at ${url} after 3 s: start it (is mosquitto running?), or leave out --broker to use the embedded one\n`);
      expect(hasStack(r.err)).toBe(false);
      // One line about the outage in the daemon's log, not one pair every 2 s.
      expect(r.out.split('\n').filter((l) => l.includes('"level":"warn"') && l.includes('broker')).length).toBeLessThanOrEqual(1);
      expect(r.out.split('\n').filter((l) => l.includes('"level":"error"')).length).toBe(0);
      await expectNothingLeft(r.tmp);
    } finally {
      await r.dispose();
    }
  }, 40_000);

  it('SIGINT while waiting for the broker: exits within a few seconds, not 26', async () => {
    const url = `mqtt://127.0.0.1:${await freePort()}`;
    const run = startCli(['simulate', '--broker', url, '--speed', 'max', '--http-port', '0', '--serial', 'loopback', '--play', HAND]);
    try {
      await run.waitFor(/^tenace: waiting for the broker at /m);
      const t0 = Date.now();
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(4000);
      await expectNothingLeft(run.tmp);
    } finally {
      await run.dispose();
    }
  }, 40_000);
});
