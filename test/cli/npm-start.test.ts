// `npm start` under a supervisor (systemd, a container, a terminal's Ctrl-C): the SIGTERM sent to npm must reach the
// simulation, so nothing (node, its socat pairs) outlives npm. npm forwards the signal to the script's shell, so the
// script must `exec` node rather than leave a shell in between that would die alone.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Live processes below `pid` (children, grandchildren...), read from /proc; zombies count as gone. */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z') continue;
    const list = children.get(Number(ppid)) ?? [];
    list.push(Number(name));
    children.set(Number(ppid), list);
  }
  const out: { pid: number; cmd: string }[] = [];
  const walk = (p: number): void => {
    for (const c of children.get(p) ?? []) {
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${c}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {
        /* exited while we looked */
      }
      out.push({ pid: c, cmd });
      walk(c);
    }
  };
  walk(pid);
  return out;
}

const alive = (pid: number): boolean => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

let npm: ChildProcess | undefined;
let started: number[] = [];
afterEach(async () => {
  // Whatever a failed run left behind, only the processes this test started, by pid: asked first, so that the
  // simulation removes its socat pairs and pty folders, then killed.
  for (const pid of started.filter(alive)) process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 30 && started.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  for (const pid of started.filter(alive)) process.kill(pid, 'SIGKILL');
  npm?.kill('SIGKILL');
  npm = undefined;
  started = [];
});

describe('npm start', () => {
  it('SIGTERM to npm stops the club session: no node (tables, director) or socat process outlives it', async () => {
    npm = spawn('npm', ['start', '--', '--speed', 'max', '--http-port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const child = npm;
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    // Running, and past the start-up: the session is scored and the director page stays open until a signal.
    const t0 = Date.now();
    while (!out.includes('session scored') && Date.now() - t0 < 100_000 && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out).toContain('session scored');
    expect(out).toMatch(/trays verified at (\d+) of \1 overplays/);
    const tree = descendants(child.pid!);
    started = tree.map((p) => p.pid);
    expect(tree.some((p) => /^node .*bin\/tenace\.mjs session simulate/.test(p.cmd)), JSON.stringify(tree)).toBe(true);
    // The director: through bin/tenace.mjs when the session runs from the sources, the compiled CLI beside a compiled
    // runner (dist/, as on a fresh clone that has built it).
    expect(tree.some((p) => /^\S*node .*(bin\/tenace\.mjs|dist\/cli\/main\.js) director --config/.test(p.cmd)), JSON.stringify(tree)).toBe(true);

    child.kill('SIGTERM');
    const t1 = Date.now();
    while (started.some(alive) && Date.now() - t1 < 5_000) await new Promise((r) => setTimeout(r, 50));
    const left = tree.filter((p) => alive(p.pid));
    expect(left, `still running 5 s after SIGTERM to npm:\n${left.map((p) => `${p.pid} ${p.cmd}`).join('\n')}`).toEqual([]);
    await exited;
  }, 130_000);
});
