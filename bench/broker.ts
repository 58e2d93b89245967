// Mosquitto brokers for the benchmarks, started from the shipped files in mosquitto/ made local: the deployment lines
// (listeners, accounts, TLS, disk, logs) replaced by a local, anonymous, in-memory listener. The shipped tuning
// (set_tcp_nodelay, message_size_limit, queues) stays, so that a floor measured on it is the floor users get.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';

const MOSQUITTO = '/usr/sbin/mosquitto';
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/** Wait until something listens on 127.0.0.1:port. */
export async function waitForPort(port: number, ms: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const c = createConnection({ port, host: '127.0.0.1' }, () => { c.end(); r(true); });
      c.once('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() - t0 > ms) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await sleep(50);
  }
}

/** What the bench itself carries over the bridge for the floor measurement (room → centre). */
const FLOOR_TOPIC = 'tenace-bench/#';

/** Settings of every broker of the run: local, anonymous, no persistence (each run starts empty). */
export function localListener(port: number): string[] {
  return [
    `listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', 'set_tcp_nodelay true',
    // The directors' and the bridges' queues at a burst of 200 tables: unbounded rather than dropped.
    'max_queued_messages 0', 'log_dest stderr', 'log_type error', 'log_type warning',
  ];
}

// Lines of the shipped files that describe a real deployment (ports, accounts, TLS, disk, logs): the bench replaces
// them with its own local, anonymous, in-memory settings.
const DEPLOYMENT_KEYS = new Set([
  'listener', 'port', 'bind_address', 'bind_interface', 'protocol', 'password_file', 'acl_file', 'allow_anonymous', 'per_listener_settings',
  'persistence', 'persistence_location', 'persistence_file', 'autosave_interval', 'log_dest', 'log_type', 'connection_messages', 'pid_file', 'user',
  'include_dir', 'cafile', 'capath', 'certfile', 'keyfile', 'require_certificate', 'use_identity_as_username', 'tls_version', 'max_queued_messages',
  'bridge_cafile', 'bridge_capath', 'bridge_certfile', 'bridge_keyfile', 'bridge_insecure', 'bridge_tls_version', 'bridge_identity', 'bridge_psk',
  'remote_username', 'remote_password', 'local_username', 'local_password', 'remote_clientid', 'local_clientid', 'address', 'addresses',
]);

/** A shipped Mosquitto file made local: deployment lines dropped, the bridge pointed at the bench's centre. */
export function adaptShipped(text: string, o: { port: number; room?: string; centralPort?: number }): string[] {
  const out = localListener(o.port);
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const key = line.split(/\s+/, 1)[0];
    if (DEPLOYMENT_KEYS.has(key)) continue;
    if (key === 'connection' && o.room !== undefined) {
      // Both rooms run the same file: their bridges need distinct names and client ids at the centre.
      const name = `${line.split(/\s+/)[1] ?? 'tenace-room'}-${o.room}`;
      out.push(`connection ${name}`, `address 127.0.0.1:${o.centralPort}`, `remote_clientid ${name}`);
      continue;
    }
    out.push(line);
  }
  if (o.room !== undefined) out.push(`topic ${FLOOR_TOPIC} out 1`);
  return out;
}

/** A Mosquitto the bench started. */
export interface Broker { url: string; port: number; proc: ChildProcess; source: string }

/** Start Mosquitto on the given lines (written to <work>/<name>.conf) and wait for its port. */
export async function startBroker(work: string, name: string, say: (msg: string) => void, lines: string[], port: number, source: string): Promise<Broker> {
  const conf = join(work, `${name}.conf`);
  writeFileSync(conf, `${lines.join('\n')}\n`);
  const proc = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  proc.stderr!.on('data', (d: Buffer) => { tail = (tail + d.toString('utf8')).slice(-2000); });
  proc.once('exit', (code, sig) => { if (code !== 0 && sig !== 'SIGTERM') say(`broker ${name} stopped (${sig ?? `exit ${code}`}): ${tail.trim()}`); });
  await waitForPort(port, 5000);
  return { url: `mqtt://127.0.0.1:${port}`, port, proc, source };
}

