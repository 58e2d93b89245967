// DoubleDummy: the one interface to double-dummy analysis. DDS runs in a child process (src/dd/worker.ts), one
// request at a time, each under a time limit; a crash, a hang or a segfault ends the child, the requests in flight
// fail with a DdError and the next request starts a new child. The queue is bounded, and answers are cached by deal.
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Seat } from '../cards/seat.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';
import { type DdStatus, type DdTable, type Par, type Position, type PositionResult, type Vulnerability, DD_OFF } from './types.js';

export interface DoubleDummyOptions {
  /** The longest one request may take before the child is killed (default 30 s; a full table takes about 0.3 s). */
  timeoutMs?: number;
  /** Requests waiting beyond this many are refused at once (default 256). */
  maxQueue?: number;
  /** Answers remembered (default 4096). */
  cacheSize?: number;
  /** The environment of the child (default this process's); LIBDDS_PATH there names another library. */
  env?: NodeJS.ProcessEnv;
}

/** Why a request failed: analysis off (no libdds), the time limit, the child's death, a full queue, or bad input. */
export class DdError extends Error {
  constructor(readonly code: 'off' | 'timeout' | 'crashed' | 'busy' | 'input' | 'closed', message: string) {
    super(message);
    this.name = 'DdError';
  }
}

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Job {
  key: string;
  req: Request;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

const WORKER = fileURLToPath(new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/** Node's arguments for the child: from the TypeScript sources (tests, a development checkout) through tsx. */
function workerExecArgv(): string[] {
  if (!WORKER.endsWith('.ts')) return [];
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

/** Double-dummy analysis by DDS, isolated in a child process. */
export class DoubleDummy {
  private readonly timeoutMs: number;
  private readonly maxQueue: number;
  private readonly cacheSize: number;
  private readonly env: NodeJS.ProcessEnv;
  private readonly cache = new Map<string, unknown>();
  private readonly queue: Job[] = [];
  private child: ChildProcess | null = null;
  private ready: Promise<DdStatus> | null = null;
  private current: { job: Job; id: number; timer: NodeJS.Timeout } | null = null;
  private nextId = 1;
  private off: string | null = null;
  private closed = false;
  private starting = false;
  /** How many children were started: a test sees a crash answered by a new one. */
  starts = 0;

  constructor(opts: DoubleDummyOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxQueue = opts.maxQueue ?? 256;
    this.cacheSize = opts.cacheSize ?? 4096;
    this.env = opts.env ?? process.env;
  }

  /** The child's process id while it runs (for a test that kills it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Whether analysis is on: starts the child if need be and waits for it to load libdds. */
  async status(): Promise<DdStatus> {
    if (this.off) return { on: false, reason: this.off };
    return this.start();
  }

  /** The 4x5 table of a full deal (PBN deal notation): the tricks each seat takes as declarer in each strain. */
  table(hands: string): Promise<DdTable> {
    return this.ask(`t ${hands}`, { op: 'table', hands }) as Promise<DdTable>;
  }

  /** The par score (North-South's) and par contracts of a table for a vulnerability; the dealer's when known. */
  par(table: DdTable, vulnerable: Vulnerability, dealer?: Seat): Promise<Par> {
    const key = `p ${JSON.stringify(table)} ${vulnerable} ${dealer ?? '-'}`;
    return this.ask(key, { op: 'par', table, vulnerable, ...(dealer ? { dealer } : {}) }) as Promise<Par>;
  }

  /** A position's tricks for each side with best play, and each legal card's result. */
  solve(position: Position): Promise<PositionResult> {
    const key = `s ${position.hands} ${position.strain} ${position.leader} ${position.trick.join(' ')}`;
    return this.ask(key, { op: 'solve', position: { ...position, trick: [...position.trick] } }) as Promise<PositionResult>;
  }

  /** Stop the child; requests still waiting fail with a DdError('closed'). */
  close(): void {
    this.closed = true;
    const err = new DdError('closed', 'double-dummy analysis was closed');
    for (const j of this.queue.splice(0)) j.reject(err);
    this.fail(err);
  }

  private ask(key: string, req: Request): Promise<unknown> {
    if (this.cache.has(key)) {
      const v = this.cache.get(key);
      // Least recently used goes first: a hit moves to the end.
      this.cache.delete(key);
      this.cache.set(key, v);
      return Promise.resolve(v);
    }
    if (this.closed) return Promise.reject(new DdError('closed', 'double-dummy analysis was closed'));
    if (this.off) return Promise.reject(new DdError('off', this.off));
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(new DdError('busy', `double-dummy analysis is busy: ${this.queue.length} requests are waiting; ask again later`));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ key, req, resolve, reject });
      this.pump();
    });
  }

  /** Send the next waiting job once the child is ready and idle. */
  private pump(): void {
    this.hold();
    if (this.current || this.queue.length === 0 || this.closed) return;
    void this.start().then((st) => {
      if (!st.on) {
        const err = new DdError('off', st.reason);
        for (const j of this.queue.splice(0)) j.reject(err);
        return;
      }
      if (this.current || this.queue.length === 0 || !this.child) return;
      const job = this.queue.shift()!;
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.fail(new DdError('timeout', `double-dummy analysis took longer than ${this.timeoutMs} ms and was stopped`));
        this.pump();
      }, this.timeoutMs);
      this.current = { job, id, timer };
      this.child.send({ id, ...job.req } as WorkerRequest);
    });
  }

  /** Start the child if none runs; resolves when it says whether libdds loaded. */
  private start(): Promise<DdStatus> {
    if (this.ready) return this.ready;
    this.starts++;
    const child = fork(WORKER, [], { execArgv: workerExecArgv(), env: this.env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    this.child = child;
    this.starting = true;
    this.hold();
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => { stderr = (stderr + b.toString()).slice(-2000); });
    // The pipe never keeps the caller alive; the IPC channel does while there is work (hold()).
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    this.ready = new Promise<DdStatus>((resolve) => {
      child.on('message', (m: WorkerReply) => {
        if ('ready' in m) {
          this.starting = false;
          this.hold();
          if (m.ready) resolve({ on: true, version: m.version });
          else {
            this.off = m.error.startsWith(DD_OFF) ? m.error : `${DD_OFF} (${m.error})`;
            resolve({ on: false, reason: this.off });
            this.stopChild();
          }
          return;
        }
        const cur = this.current;
        if (!cur || cur.id !== m.id) return;
        clearTimeout(cur.timer);
        this.current = null;
        if (m.ok) {
          this.remember(cur.job.key, m.value);
          cur.job.resolve(m.value);
        } else {
          cur.job.reject(new DdError('input', m.error));
        }
        this.pump();
      });
      child.on('exit', (code, signal) => {
        if (this.child !== child) return;
        this.starting = false;
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        const detail = stderr.trim().split('\n').slice(-1)[0];
        // Dying before it said whether libdds loaded: the child could not start at all.
        resolve({ on: false, reason: `the double-dummy solver did not start (${how})${detail ? `: ${detail}` : ''}` });
        this.fail(new DdError('crashed', `the double-dummy solver stopped (${how}) during the analysis`));
        this.pump();
      });
      child.on('error', () => { /* 'exit' follows and reports it */ });
    });
    return this.ready;
  }

  /** Kill the child and fail the request in flight; the next request starts another child. */
  private fail(err: Error): void {
    const cur = this.current;
    this.current = null;
    if (cur) {
      clearTimeout(cur.timer);
      cur.job.reject(err);
    }
    this.stopChild();
  }

  /** An idle child does not keep the caller's process alive (a CLI ends when its work is done); a busy one does. */
  private hold(): void {
    const busy = this.starting || this.current !== null || this.queue.length > 0;
    const channel = this.child?.channel;
    if (busy) { this.child?.ref(); channel?.ref(); } else { this.child?.unref(); channel?.unref(); }
  }

  private stopChild(): void {
    const child = this.child;
    this.child = null;
    if (!this.off) this.ready = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private remember(key: string, value: unknown): void {
    this.cache.set(key, value);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
  }
}
