// The director of a simulated session runs as its own process, `tenace director` as a club runs it, so a test can
// kill -9 it mid-session and start it again on the same database.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../config/logger.js';
import { stringify } from 'yaml';
import type { Schedule } from '../types.js';

export interface DirectorProcessOptions {
  /** A folder for the config file. */
  work: string;
  club: string;
  session: string;
  variant: string;
  /** A trump suit declared for the sitting (Dup. IV.11). */
  trump?: string;
  schedule: Schedule;
  broker: string;
  /** 4 for a broker without MQTT 5 (the embedded aedes). */
  protocolVersion?: 4 | 5;
  db: string;
  /** 0: a free port. */
  httpPort: number;
  log: Logger;
  /** The ids of the hand-scored tables. */
  handScored?: string[];
}

export interface DirectorProcess {
  /** The director page. */
  url: string | null;
  configPath: string;
  pid(): number | undefined;
  /** Why the director stopped on its own (its exit and last lines on stderr), or null while it runs or after kill(). */
  failure(): string | null;
  /** Resolves once this session's director page answers at `url`; rejects with the director's own sentence if it stopped. */
  ready(timeoutMs?: number): Promise<void>;
  /** kill -9, as a power cut would. */
  kill(): void;
  /** Start it again (after kill) on the same config and database. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** The package's `bin/tenace.mjs`, found upwards from this module (src/, dist/ or a benchmark build). */
export const BIN = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const bin = join(dir, 'bin', 'tenace.mjs');
    if (existsSync(bin)) return bin;
    const up = dirname(dir);
    if (up === dir) throw new Error('bin/tenace.mjs not found above the session runner');
    dir = up;
  }
})();

/**
 * The script a session's child `tenace` runs. Compiled (dist/, or a benchmark's build/bench/), it is the CLI compiled
 * beside this module, so the child runs the parent's build: through bin/tenace.mjs it ran the TypeScript sources under
 * tsx whenever dist/ was missing or older than src/, and a benchmark then measured tsx (a director of 155 MB instead
 * of 99 MB, issue 18). From the sources (the tests, under tsx) it is the package's bin/tenace.mjs, as before.
 */
export const CLI_SCRIPT = ((): string => {
  const here = fileURLToPath(import.meta.url);
  const compiled = join(dirname(here), '..', '..', 'cli', 'main.js');
  return here.endsWith('.js') && existsSync(compiled) ? compiled : BIN;
})();

/** The script a session's child `tenace run` runs: the bundled daemon beside the compiled CLI when it was built
 * (scripts/bundle-daemon.mjs: dist/bundle/, or build/bench/src/bundle/ in a benchmark), as bin/tenace.mjs picks it. */
export const DAEMON_SCRIPT = ((): string => {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bundle', 'main.js');
  return CLI_SCRIPT !== BIN && existsSync(bundled) ? bundled : CLI_SCRIPT;
})();

/** Write the director's config for this session and start `tenace director` on it. */
export async function startDirectorProcess(o: DirectorProcessOptions): Promise<DirectorProcess> {
  const port = o.httpPort === 0 ? await freePort() : o.httpPort;
  const configPath = join(o.work, 'club.yaml');
  writeFileSync(configPath, stringify(directorConfig(o, port)));
  let child: ChildProcess | null = null;
  let failed: string | null = null;
  let killed = false;
  const start = async () => {
    killed = false;
    failed = null;
    child = spawn(process.execPath, [CLI_SCRIPT, 'director', '--config', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    const c = child;
    let tail = '';
    c.stdout?.on('data', (d: Buffer) => o.log.debug({ director: d.toString('utf8').trim() }, 'director'));
    c.stderr?.on('data', (d: Buffer) => {
      tail = (tail + d.toString('utf8')).slice(-2000);
      o.log.warn({ director: d.toString('utf8').trim() }, 'director');
    });
    c.on('exit', (code, sig) => {
      if (child !== c || killed) return;
      // The director says what to fix in one line ("tenace director: cannot start: http.port: ..."): that line alone.
      const said = /^tenace director: (.*)$/m.exec(tail)?.[1];
      failed = said ? `the director ${said}` : `the director (tenace director --config ${configPath}) stopped: ${sig ?? `exit ${code}`}${tail ? `\n${tail.trim()}` : ''}`;
      // A clean exit is the director obeying a stop (a Ctrl-C reaches the whole process group): no warning.
      if (code === 0) o.log.debug({ code, sig }, 'director exited');
      else o.log.warn({ code, sig }, 'director exited');
    });
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}/`,
    configPath,
    pid: () => child?.pid,
    failure: () => failed,
    async ready(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (failed) throw new Error(failed);
        // Our director, not another program on the port: its snapshot names this session.
        const answered = await fetch(`http://127.0.0.1:${port}/snapshot.json`, { signal: AbortSignal.timeout(1000) })
          .then(async (r) => r.ok && ((await r.json()) as { session?: string } | null)?.session === o.session, () => false);
        if (answered && !failed) return;
        if (Date.now() > until) throw new Error(`the director page did not answer at http://127.0.0.1:${port}/ within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    kill() {
      killed = true;
      child?.kill('SIGKILL');
    },
    async restart() {
      await start();
    },
    async stop() {
      const c = child;
      child = null;
      killed = true;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      const t = setTimeout(() => c.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(t);
    },
  };
}

/** The director's config for a simulated session (config/club.example.yaml documents each key). */
export function directorConfig(o: DirectorProcessOptions, port: number): Record<string, unknown> {
  return {
    club: { id: o.club },
    session: o.session,
    variant: o.variant,
    ...(o.trump ? { trump: o.trump } : {}),
    ...(o.handScored?.length ? { handScored: o.handScored } : {}),
    movement: { name: o.schedule.movement, tables: o.schedule.tables, boardsPerRound: o.schedule.boardsPerRound, ...(o.schedule.options ? { options: o.schedule.options } : {}) },
    mqtt: { url: o.broker, ...(o.protocolVersion ? { protocolVersion: o.protocolVersion } : {}) },
    store: { url: `sqlite:${o.db}` },
    http: { host: '127.0.0.1', port },
    log: { level: process.env.TENACE_DIRECTOR_LOG ?? 'warn' },
  };
}

/** A TCP port on 127.0.0.1 nobody listens on right now (also used by the benchmarks and the broker tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
