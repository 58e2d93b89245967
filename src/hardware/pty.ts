// A pseudo-terminal pair joined by socat: two serial-port paths that talk to each other, so the
// firmware emulator can sit on one and the real driver (`tenace listen`) on the other.
//
// By hand, the same thing is:
//   socat -d -d pty,raw,echo=0,link=/tmp/tenace/emulator pty,raw,echo=0,link=/tmp/tenace/bridge &
//   tenace emulate --port /tmp/tenace/emulator --deck deck.json --play hand1.ndjson &
//   tenace listen  --port /tmp/tenace/bridge   --deck deck.json --log out.ndjson
// or let `tenace emulate --pty /tmp/tenace …` run socat itself (then `unplug` faults really remove
// the port).
//
// socat keeps running when one side closes its end, and buffers what one side writes until the
// other reads. Stopping socat removes both links and hangs up both ends: that is what an unplugged
// USB device looks like to the driver (a read error, then ENOENT until it comes back).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Pairs whose socat is running or whose folder still exists. socat outlives its parent (nothing tells it the parent
// died), so a process that exits without close(), through process.exit() or an uncaught error, kills them here.
const live = new Set<PtyPair>();
let exitHook = false;

function registerPair(pair: PtyPair): void {
  live.add(pair);
  if (exitHook) return;
  exitHook = true;
  // 'exit' listeners must be synchronous: kill() and rmSync() are.
  process.on('exit', () => {
    for (const p of live) p.closeNow();
  });
}

/** The socat executable on PATH, or undefined. */
export function findSocat(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v socat'], { encoding: 'utf8' });
  const p = r.status === 0 ? r.stdout.trim() : '';
  return p !== '' ? p : undefined;
}

/** The socat executable; throws a sentence saying how to install it when it is missing. */
export function requireSocat(): string {
  const p = findSocat();
  if (!p) throw new Error('socat is not installed (it joins the two pseudo-terminals): install it with `apt-get install socat`');
  return p;
}

export interface PtyPairOptions {
  /** Directory for the two links; default a new temporary directory (removed by close()). */
  dir?: string;
  /** Link names inside `dir`. Default `emulator` and `bridge`. */
  names?: [string, string];
  /** How long to wait for socat to set up the pair. Default 5000 ms. */
  timeoutMs?: number;
}

export class PtyPair {
  /** The first end (the emulator's, by convention). */
  readonly a: string;
  /** The second end (the host's, by convention: give it to `tenace listen --port`). */
  readonly b: string;
  readonly dir: string;
  private child: ChildProcess | undefined;
  private readonly ownDir: boolean;
  private readonly socat: string;
  private readonly timeoutMs: number;

  private constructor(dir: string, ownDir: boolean, names: [string, string], timeoutMs: number) {
    this.dir = dir;
    this.ownDir = ownDir;
    this.a = join(dir, names[0]);
    this.b = join(dir, names[1]);
    this.socat = requireSocat();
    this.timeoutMs = timeoutMs;
  }

  /** Start socat and wait until both links exist. */
  static async create(opts: PtyPairOptions = {}): Promise<PtyPair> {
    const ownDir = opts.dir === undefined;
    const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'tenace-pty-'));
    if (!ownDir) mkdirSync(dir, { recursive: true });
    let pair: PtyPair;
    try {
      pair = new PtyPair(dir, ownDir, opts.names ?? ['emulator', 'bridge'], opts.timeoutMs ?? 5000);
    } catch (e) {
      // socat is missing: the folder made for it is not wanted either.
      if (ownDir) rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    registerPair(pair);
    try {
      await pair.start();
    } catch (e) {
      await pair.close();
      throw e;
    }
    return pair;
  }

  /** True while socat runs. */
  get running(): boolean {
    return this.child !== undefined;
  }

  /** socat's process id, while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Start socat (again): both links appear. */
  async start(): Promise<void> {
    if (this.child) return;
    for (const p of [this.a, this.b]) rmSync(p, { force: true });
    const child = spawn(this.socat, ['-d', '-d', `pty,raw,echo=0,link=${this.a}`, `pty,raw,echo=0,link=${this.b}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own process group: a Ctrl-C or a SIGTERM to tenace's group must not close the lines under the running
      // drivers ("bridge port closed; reopening"); tenace stops socat itself, after them (and on exit, above).
      detached: true,
    });
    this.child = child;
    let err = '';
    child.stderr!.setEncoding('utf8');
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`socat did not set up the pty pair within ${this.timeoutMs} ms: ${err.trim()}`)), this.timeoutMs);
      child.stderr!.on('data', (s: string) => {
        err += s;
        if (err.includes('starting data transfer loop')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`socat exited (${code}) before the pty pair was ready: ${err.trim()}`));
      });
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    try {
      await ready;
    } catch (e) {
      await this.stop();
      throw e;
    }
    child.stderr!.removeAllListeners('data');
    child.stderr!.resume();
    if (!existsSync(this.a) || !existsSync(this.b)) {
      await this.stop();
      throw new Error(`socat started but the links ${this.a} and ${this.b} are missing`);
    }
  }

  /** Stop socat: both ends hang up and both links disappear (an unplugged device). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(t);
    }
    for (const p of [this.a, this.b]) rmSync(p, { force: true });
  }

  /** Stop socat and remove the directory if this pair created it. */
  async close(): Promise<void> {
    await this.stop();
    if (this.ownDir) rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }

  /** close() for a process on its way out: signal socat and remove the links without waiting. */
  closeNow(): void {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    for (const p of [this.a, this.b]) rmSync(p, { force: true });
    if (this.ownDir) rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }
}
