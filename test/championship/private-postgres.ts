// Test helper: a private PostgreSQL 15 for a test that stops or restarts the database (the machine's own on 5432 is
// shared by the other tests). initdb in a temporary folder, trust authentication, a free port, a socket in the same
// folder; fsync off, for speed only: a test's database need not survive a power cut. As root, PostgreSQL refuses to
// run, so the server runs as the `postgres` user.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, waitFor } from '../feed/broker.js';

/** Debian keeps the server's programs off PATH, in /usr/lib/postgresql/<major>/bin: the newest installed. */
const BIN = process.env.TENACE_PG_BIN ?? ((): string => {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  if (majors.length === 0) throw new Error(`PostgreSQL's server programs are not in ${root}: install Debian's postgresql (.ci/run does), or set TENACE_PG_BIN`);
  return join(root, majors[0], 'bin');
})();

/** A private PostgreSQL server. */
export interface PrivatePostgres {
  port: number;
  /** Create a database and return its URL. */
  createDb(name: string): Promise<string>;
  /** Stop the server (a fast shutdown: clients are disconnected, committed data stays). */
  stop(): Promise<void>;
  /** Start it again on the same folder and port. */
  start(): Promise<void>;
  /** Stop it and remove its folder. */
  dispose(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;
/** The command as the postgres user when we are root. */
const asPostgres = (cmd: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);

/** initdb and start a server; stop it with dispose(). */
export async function startPostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'tenace-pg-'));
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const data = join(dir, 'data');
  execFileSync(...asPostgres(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']), { stdio: 'pipe' });
  const port = await freePort();
  let server: ChildProcess | null = null;
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const ready = async () => {
    const c = new pg.Client({ connectionString: admin });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => undefined);
    }
  };
  const start = async () => {
    const [cmd, args] = asPostgres(join(BIN, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off']);
    server = spawn(cmd, args, { stdio: 'ignore' });
    await waitFor(ready, 20_000, `PostgreSQL on port ${port}`);
  };
  const stop = async () => {
    const s = server;
    server = null;
    if (!s || s.exitCode !== null) return;
    const gone = new Promise((r) => s.once('exit', r));
    // SIGINT to the postmaster is PostgreSQL's fast shutdown. Its pid is the first line of postmaster.pid: the child
    // we spawned may be runuser, which does not pass the signal on.
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGINT');
    await gone;
  };
  await start();
  return {
    port,
    async createDb(name) {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${name}`);
      } finally {
        await c.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
