// Test helper: run `tenace` as a user does, in a child process with its own TMPDIR, so that what it leaves behind
// (temporary folders, socat processes) can be told apart from what other tests on the machine are doing.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '../../bin/tenace.mjs');

export interface CliRun {
  child: ChildProcess;
  /** The child's TMPDIR. */
  tmp: string;
  out(): string;
  err(): string;
  /** Resolves with the exit code (or 128 + signal number) once the child has exited. */
  exited: Promise<number>;
  /** Resolves when stdout or stderr has matched `re`; rejects after `timeoutMs` or when the child exits first. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  /** Remove the child's TMPDIR (kill the child first if it still runs). */
  dispose(): Promise<void>;
}

const SIGNALS: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Start `tenace ARGS` with a private TMPDIR; `detached`: in a process group of its own, as a terminal starts it. */
export function startCli(args: string[], env: Record<string, string> = {}, opts: { detached?: boolean } = {}): CliRun {
  const tmp = mkdtempSync(join(tmpdir(), 'tenace-clitest-'));
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, TMPDIR: tmp, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.detached === true });
  let out = '';
  let err = '';
  const watchers = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (s: string) => { out += s; for (const w of watchers) w(); });
  child.stderr!.setEncoding('utf8').on('data', (s: string) => { err += s; for (const w of watchers) w(); });
  const exited = new Promise<number>((r) => child.once('exit', (code, sig) => r(code ?? 128 + (SIGNALS[sig ?? ''] ?? 0))));
  let done = false;
  void exited.then(() => { done = true; for (const w of watchers) w(); });
  return {
    child, tmp, exited,
    out: () => out,
    err: () => err,
    waitFor(re, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => { watchers.delete(check); reject(new Error(`no ${re} within ${timeoutMs} ms:\n${out}\n${err}`)); }, timeoutMs);
        const check = () => {
          if (re.test(out) || re.test(err)) { clearTimeout(timer); watchers.delete(check); resolve(); }
          else if (done) { clearTimeout(timer); watchers.delete(check); reject(new Error(`exited before ${re}:\n${out}\n${err}`)); }
        };
        watchers.add(check);
        check();
      });
    },
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Run `tenace ARGS` to the end; kills it after `timeoutMs`. */
export async function runCli(args: string[], timeoutMs = 60_000): Promise<{ code: number; out: string; err: string; tmp: string; dispose(): Promise<void> }> {
  const run = startCli(args);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, out: run.out(), err: run.err(), tmp: run.tmp, dispose: run.dispose };
}

/** What a run left in its TMPDIR under tenace's names (tsx keeps its cache there too, which is not ours). */
export function tenaceLeftovers(tmp: string): string[] {
  return readdirSync(tmp).filter((f) => f.startsWith('tenace-'));
}

/** Processes whose command line mentions `path` (a socat left running on a pty link in the child's TMPDIR). */
export function processesUsing(path: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes(path)) found.push(`${pid}: ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** True when stderr looks like a stack trace rather than a sentence. */
export function hasStack(text: string): boolean {
  return /^\s+at .+[:(]/m.test(text) || /node:internal|Node\.js v\d+/.test(text);
}
