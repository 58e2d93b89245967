// Test helper: a PostgreSQL cluster of the test's own (initdb in a temporary folder, trust auth, a free port), for
// tests that stop, restart or break the database; the machine's shared one on 5432 stays untouched. fsync is off
// for speed only: a test's database need not survive a power cut. PostgreSQL refuses to run as root, so as root
// initdb and postgres run as the `postgres` OS user, in a folder it owns.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep } from '../feed/broker.js';

/** Debian keeps the server programs off PATH; TENACE_PG_BIN overrides. */
const BIN = process.env.TENACE_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A running private PostgreSQL. */
export interface OwnPostgres {
  port: number;
  /** The cluster's folder (data in `<dir>/data`, the Unix socket in `<dir>`). */
  dir: string;
  /** The URL of a database on this server (user postgres, trust auth). */
  url(dbname?: string): string;
  /** Create a database and return its URL. */
  createDb(name: string): Promise<string>;
  /** Stop the server: SIGINT is a fast shutdown (committed data stays), SIGKILL a crash; `remove` deletes the folder. */
  stop(signal?: NodeJS.Signals, remove?: boolean): Promise<void>;
  /** Fast shutdown, then start again on the same port and data folder. */
  restart(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;
/** Run a program as the postgres OS user when we are root. */
function as(cmd: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

/** initdb and start a server of the test's own; stop it with `stop('SIGINT', true)`. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  if (!existsSync(join(BIN, 'initdb'))) throw new Error(`TENACE_PG_BIN: no initdb in ${BIN}; install Debian's postgresql (.ci/run does) or set TENACE_PG_BIN to its bin folder`);
  const dir = mkdtempSync(join(tmpdir(), 'tenace-own-pg-'));
  if (asRoot) {
    // The postgres account's ids from /etc/passwd (name:x:uid:gid:...), which Debian's package creates.
    const entry = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
    if (!entry) throw new Error('running as root needs the postgres OS user (Debian\'s postgresql package creates it)');
    const [, , uid, gid] = entry.split(':');
    chownSync(dir, Number(uid), Number(gid));
  }
  const data = join(dir, 'data');
  const init = spawnSync(...as(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']), { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}${init.stdout}`);
  const port = await freePort();
  let server: ChildProcess | null = null;
  let log = '';
  const url = (dbname = 'postgres'): string => `postgres://postgres@127.0.0.1:${port}/${dbname}`;

  const start = async (): Promise<void> => {
    const p = spawn(...as(join(BIN, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off']), { stdio: ['ignore', 'ignore', 'pipe'] });
    server = p;
    p.stderr!.on('data', (d: Buffer) => { log = (log + d.toString()).slice(-10_000); });
    const end = Date.now() + 20_000;
    // pg_isready answers 0 only once the server accepts connections (not while it is starting up).
    while (spawnSync(join(BIN, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)]).status !== 0) {
      if (p.exitCode !== null) throw new Error(`postgres exited at start:\n${log}`);
      if (Date.now() > end) throw new Error(`postgres not ready on port ${port} after 20 s:\n${log}`);
      await sleep(50);
    }
  };
  const stop = async (signal: NodeJS.Signals = 'SIGINT', remove = false): Promise<void> => {
    const p = server;
    server = null;
    if (p && p.exitCode === null) {
      const gone = new Promise((r) => p.once('exit', r));
      // Signal the postmaster itself (first line of postmaster.pid): the child we spawned may be runuser.
      const pidFile = join(data, 'postmaster.pid');
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : p.pid!;
      process.kill(pid, signal);
      await gone;
    }
    if (remove) rmSync(dir, { recursive: true, force: true });
  };
  await start();
  return {
    port, dir, url,
    async createDb(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`createDb: name "${name}" must be lower-case letters, digits and _`);
      const r = spawnSync(join(BIN, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`createdb ${name} failed: ${r.stderr}`);
      return url(name);
    },
    stop,
    async restart() {
      await stop('SIGINT');
      await start();
    },
  };
}
