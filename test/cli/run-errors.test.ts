// `tenace run` when it cannot do its job (issue 11 item 8): a journal held by another daemon is one clear line and
// exit 75, not a stack; a busy http.port is one log line naming the setting and the fix, and the daemon carries on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EX_JOURNAL_IN_USE } from '../../src/cli/run.js';
import { createLogger } from '../../src/config/logger.js';
import { JournalLockedError, lockJournalDir } from '../../src/journal/lock.js';
import { WebPortError, startWebView } from '../../src/web/server.js';
import { hasStack, runCli, startCli } from './spawn-cli.js';

const work = mkdtempSync(join(tmpdir(), 'tenace-runtest-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function configFile(name: string, extra = ''): { file: string; journal: string } {
  const journal = join(work, `${name}-journal`);
  const file = join(work, `${name}.yaml`);
  writeFileSync(file, `club: { id: ely }\ntable: { id: "7" }\njournal: { dir: ${JSON.stringify(journal)} }\nmqtt: { url: embedded }\nlog: { level: warn }\n${extra}`);
  return { file, journal };
}

async function busyPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('a second tenace run on the same journal', () => {
  it('exits 75 with the sentence on one line: who holds the journal and what to do', async () => {
    const { file, journal } = configFile('locked', 'http: { port: 0, host: 127.0.0.1 }\n');
    mkdirSync(journal, { recursive: true });
    const lock = await lockJournalDir(journal); // this test process plays the first daemon
    try {
      const r = await runCli(['run', '--config', file]);
      try {
        expect(r.code).toBe(EX_JOURNAL_IN_USE);
        expect(EX_JOURNAL_IN_USE).toBe(75);
        expect(r.err).toBe(`tenace run: cannot start: journal folder ${journal} is in use by process ${process.pid}: stop it first `
          + `(is the tenace service running? systemctl status tenace), or remove ${join(journal, 'LOCK')} if that process is not a tenace daemon\n`);
        expect(hasStack(r.err + r.out)).toBe(false);
      } finally {
        await r.dispose();
      }
    } finally {
      await lock.release();
    }
  }, 30_000);

  it('the lock error is its own class, so callers can tell it from other failures', async () => {
    const dir = mkdtempSync(join(work, 'lock-'));
    const lock = await lockJournalDir(dir);
    try {
      await expect(lockJournalDir(dir)).rejects.toBeInstanceOf(JournalLockedError);
    } finally {
      await lock.release();
    }
  });
});

describe('a busy http.port', () => {
  it('startWebView refuses with a sentence naming http.port and the fix', async () => {
    const { server, port } = await busyPort();
    try {
      const err = await startWebView({ port, host: '127.0.0.1', club: 'c', table: 't', wsUrl: '/mqtt' }).then(() => null, (e: Error) => e);
      expect(err).toBeInstanceOf(WebPortError);
      expect(err!.message).toBe(`http.port: 127.0.0.1:${port} is already in use (another tenace, or another web server): stop that program, `
        + 'or set http.port (tenace simulate: --http-port) to a free port; 0 picks one');
    } finally {
      server.close();
    }
  });

  it('the daemon\'s log carries that sentence as the error, without a stack; other errors keep theirs', () => {
    const lines: string[] = [];
    const log = createLogger({ log: { level: 'info' } }, { write: (s: string) => { lines.push(s); } });
    log.error({ err: new WebPortError('0.0.0.0', 8080, 'EADDRINUSE') }, 'extension failed to start');
    log.error({ err: new Error('a bug') }, 'unexpected');
    const [busy, bug] = lines.map((l) => JSON.parse(l));
    expect(busy.err).toMatch(/^http\.port: 0\.0\.0\.0:8080 is already in use/);
    expect(JSON.stringify(busy)).not.toContain('    at ');
    expect(bug.err.stack).toContain('a bug');
  });

  it('tenace run: one log line naming http.port, no stack, and it keeps running until SIGTERM', async () => {
    const { server, port } = await busyPort();
    const { file } = configFile('busy', `http: { port: ${port}, host: 127.0.0.1 }\n`);
    const run = startCli(['run', '--config', file]);
    try {
      await run.waitFor(/extension failed to start/);
      const line = run.out().split('\n').find((l) => l.includes('extension failed to start'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 'error', extension: 'web', err: expect.stringMatching(new RegExp(`^http\\.port: 127\\.0\\.0\\.1:${port} is already in use.*set http\\.port`)) });
      expect(hasStack(run.out() + run.err())).toBe(false);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      server.close();
      await run.dispose();
    }
  }, 30_000);
});
