// Test helpers: our own Mosquitto on a free port (for tests that stop the broker or need an ACL), MQTT 5 clients,
// and polling with a deadline. Every process started here is stopped by its pid, never by name.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { freePort } from '../../src/club/session/director-process.js';

export const MOSQUITTO = '/usr/sbin/mosquitto';

/** A random lower-case id (no card token can hide in it), for unique clubs and tables on the shared broker. */
export function uid(prefix: string): string {
  return prefix + randomBytes(5).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]);
}

// A TCP port nobody listens on right now: the one the director process uses, for the tests that import it from here.
export { freePort };

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = tcpConnect({ host: '127.0.0.1', port });
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

/** Poll `cond` until it holds; throws with `what` after `timeoutMs`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** Resolve after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface Broker {
  port: number;
  dir: string;
  url: string;
  /** Start (again) with the same configuration, port and database. */
  start(): Promise<void>;
  /** Stop with a signal (SIGKILL: a crash, no database save) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stop and delete the directory. */
  dispose(): Promise<void>;
  /** What the broker wrote to stderr. */
  log(): string;
  /** The running broker's process id (to pause it with SIGSTOP), undefined when stopped. */
  pid(): number | undefined;
}

/**
 * Our own mosquitto. `conf` is the configuration without `user` and logging, which are added here; it may use
 * `{port}` and `{dir}` placeholders.
 */
export async function startBroker(conf: string, opts: { port?: number; dir?: string } = {}): Promise<Broker> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'tenace-mqtt-'));
  const port = opts.port ?? (await freePort());
  // As root, mosquitto would drop to the "mosquitto" user, which cannot read our temporary directory.
  const user = userInfo().username;
  const text = `user ${user}\nlog_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\n${conf.replaceAll('{port}', String(port)).replaceAll('{dir}', dir)}\n`;
  const confPath = join(dir, 'mosquitto.conf');
  writeFileSync(confPath, text);
  let proc: ChildProcess | null = null;
  let log = '';
  const b: Broker = {
    port, dir, url: `mqtt://127.0.0.1:${port}`,
    async start() {
      if (proc) throw new Error('broker already running');
      const p = spawn(MOSQUITTO, ['-c', confPath], { stdio: ['ignore', 'ignore', 'pipe'] });
      proc = p;
      p.stderr!.on('data', (d: Buffer) => { log = (log + d.toString()).slice(-20_000); });
      let exited = false;
      p.once('exit', () => { exited = true; if (proc === p) proc = null; });
      const end = Date.now() + 5000;
      while (!(await portOpen(port))) {
        if (exited) throw new Error(`mosquitto exited at start:\n${log}`);
        if (Date.now() > end) throw new Error(`mosquitto did not open port ${port}:\n${log}`);
        await sleep(20);
      }
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const p = proc;
      if (!p || p.exitCode !== null) { proc = null; return; }
      const gone = new Promise<void>((r) => p.once('exit', () => r()));
      p.kill(signal);
      await gone;
      proc = null;
    },
    async dispose() {
      await b.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => log,
    pid: () => proc?.pid,
  };
  await b.start();
  return b;
}

/**
 * True when this mosquitto serves websockets. The probe has a plain listener too: mosquitto 2.0.11 refuses to start
 * with websockets listeners only ("Unable to start any listening sockets"), even when built with websockets.
 */
export async function mosquittoHasWebsockets(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'tenace-ws-'));
  const plain = await freePort();
  const ws = await freePort();
  writeFileSync(join(dir, 'c.conf'), `user ${userInfo().username}\nallow_anonymous true\nlistener ${plain} 127.0.0.1\nlistener ${ws} 127.0.0.1\nprotocol websockets\n`);
  const p = spawn(MOSQUITTO, ['-c', join(dir, 'c.conf')], { stdio: 'ignore' });
  let ok = false;
  for (let i = 0; i < 100 && p.exitCode === null; i++) {
    // libwebsockets opens its socket a little after the plain listener.
    if (await portOpen(ws)) {
      ok = true;
      break;
    }
    await sleep(20);
  }
  if (p.exitCode === null) {
    const gone = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await gone;
  }
  rmSync(dir, { recursive: true, force: true });
  return ok;
}

/** Connect an MQTT 5 client; rejects on a refused connection instead of retrying forever. */
export async function client(url: string, opts: IClientOptions = {}): Promise<MqttClient> {
  return mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 5000, clientId: uid('test-'), ...opts });
}

/** Run a command; throws with its output when it fails. */
export function run(cmd: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout + r.stderr;
}
