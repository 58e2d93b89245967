// The bundled table daemon (scripts/bundle-daemon.mjs → dist/bundle/main.js, what bin/tenace.mjs runs for `tenace
// run` in a built package): built here from the sources into a folder two levels below the repository, as dist/bundle
// is, then run as a user's daemon would be, on the embedded broker. It must publish the table's retained state, serve
// the table view and terminal from web/ (paths the bundle takes from import.meta.url), and stop cleanly on SIGTERM.
import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'build', `test-bundle-${process.pid}`);
const work = mkdtempSync(join(tmpdir(), 'tenace-bundle-'));

beforeAll(() => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bundle-daemon.mjs'), OUT], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}, 60_000);

afterAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** Lines of the child's stdout as they come, and a wait for one that matches. */
function watch(child: ChildProcess): { lines: string[]; next(re: RegExp, ms?: number): Promise<RegExpMatchArray> } {
  const lines: string[] = [];
  let buf = '';
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    buf += s;
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
    for (const w of waiters) w();
  });
  return {
    lines,
    next: (re, ms = 15_000) => new Promise((res, rej) => {
      const check = () => {
        for (const l of lines) {
          const m = l.match(re);
          if (m) { waiters.delete(check); clearTimeout(t); res(m); return; }
        }
      };
      const t = setTimeout(() => { waiters.delete(check); rej(new Error(`no line matched ${re} in ${ms} ms:\n${lines.join('\n')}`)); }, ms);
      waiters.add(check);
      check();
    }),
  };
}

describe('the bundled table daemon (dist/bundle/main.js)', () => {
  it('is one folder of a few dozen modules, with the double-dummy worker beside its chunks', () => {
    const files = readdirSync(OUT);
    expect(files).toContain('main.js');
    expect(files).toContain('worker.js');
    expect(files.every((f) => f.endsWith('.js'))).toBe(true);
    expect(files.length).toBeLessThan(60);
  });

  it('its double-dummy worker (forked by the live analysis from beside its chunk) starts and loads libdds', async () => {
    const child = fork(join(OUT, 'worker.js'), [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    try {
      const first = await new Promise<{ ready?: boolean; version?: string; error?: string }>((res, rej) => {
        child.once('message', (m) => res(m as { ready?: boolean }));
        child.once('exit', (code) => rej(new Error(`the worker exited (${code}) before saying whether libdds loaded`)));
      });
      expect(first).toMatchObject({ ready: true });
    } finally {
      child.kill();
    }
  });

  it('runs `tenace run` only, and says so for another command', () => {
    const r = spawnSync(process.execPath, [join(OUT, 'main.js'), 'replay', 'x.pbn'], { encoding: 'utf8' });
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/runs `tenace run` only; run the other commands through bin\/tenace\.mjs/);
  });

  it('starts on the embedded broker: retained state, table view and terminal served from web/, exit 0 on SIGTERM', async () => {
    const config = join(work, 'table.yaml');
    writeFileSync(config, [
      'club: { id: bundle }', 'table: { id: "7" }', `journal: { dir: ${JSON.stringify(join(work, 'journal'))} }`,
      'mqtt: { url: embedded }', 'http: { port: 0, host: 127.0.0.1 }', '',
    ].join('\n'));
    const child = spawn(process.execPath, [join(OUT, 'main.js'), 'run', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const out = watch(child);
    try {
      const broker = (await out.next(/"url":"(mqtt:\/\/127\.0\.0\.1:\d+)".*"msg":"embedded broker started"/))[1];
      const view = (await out.next(/"url":"(http:\/\/127\.0\.0\.1:\d+\/)".*"msg":"table view"/))[1];
      const page = await fetch(view);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/^<!doctype html>/i);
      const terminal = await fetch(`${view}terminal/`);
      expect(terminal.status).toBe(200);
      const sub = await mqtt.connectAsync(broker, { protocolVersion: 4 });
      try {
        const state = new Promise<object>((res) => sub.on('message', (_t, p) => res(JSON.parse(p.toString()) as object)));
        await sub.subscribeAsync('tenace/bundle/7/state', { qos: 1 });
        expect(await state).toMatchObject({ type: 'tenace.state', schema: 1, embargo: 'tray-complete' });
      } finally {
        await sub.endAsync();
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
