// mosquitto/README.md's install, as a builder types it on stock Debian or Raspberry Pi OS: the README's own commands
// run into a temporary root, then Debian's packaged /etc/mosquitto/mosquitto.conf (verbatim, with its include_dir)
// starts with our drop-ins on ports of its own. The broker on 1883 is not touched.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MOSQUITTO, client, freePort, mosquittoHasWebsockets, run, uid, waitFor } from '../feed/broker.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'mosquitto', 'debian-12-mosquitto.conf');
const README = readFileSync(join(ROOT, 'mosquitto', 'README.md'), 'utf8');
const PASSWORD = 'correct horse battery';
const roots: string[] = [];
const procs: ChildProcess[] = [];

afterAll(async () => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** The first ```sh block after `heading` in mosquitto/README.md. */
function shBlock(heading: string): string {
  const at = README.indexOf(heading);
  if (at < 0) throw new Error(`mosquitto/README.md has no "${heading}": update this test with the README`);
  const m = /```sh\n([\s\S]*?)```/.exec(README.slice(at));
  if (!m) throw new Error(`mosquitto/README.md: no sh block after "${heading}"`);
  return m[1];
}

/**
 * Run a README block as root would, but into `root`: /etc/mosquitto becomes root/etc/mosquitto, sudo is the plain
 * command, owners are left out (the test's broker runs as this user), and package installs and service restarts are
 * left to the test, which must be all the block does besides.
 */
function runBlock(block: string, root: string): void {
  const lines = block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
  const kept: string[] = [];
  for (const l of lines) {
    if (/^sudo apt-get install -y mosquitto mosquitto-clients$/.test(l) || /^sudo systemctl restart mosquitto$/.test(l)) continue;
    kept.push(l.replaceAll('/etc/mosquitto', `${root}/etc/mosquitto`).replace(/ -o \S+ -g \S+/g, ''));
  }
  const script = `set -euo pipefail\nsudo() { "$@"; }\nchown() { :; }\ncd ${JSON.stringify(ROOT)}\n${kept.join('\n')}\n`;
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the README's commands failed (${r.status}):\n${kept.join('\n')}\n${r.stderr}`);
}

interface Installed { root: string; main: string; log: string; db: string; ports: { local: number; ws: number | null; tls: number } }

/** A temporary root with Debian's packaged mosquitto.conf, its paths (pid, database, log, include_dir) moved in. */
async function debianRoot(): Promise<Installed> {
  const root = mkdtempSync(join(tmpdir(), 'tenace-debian-mqtt-'));
  roots.push(root);
  for (const d of ['etc/mosquitto/conf.d', 'run/mosquitto', 'var/lib/mosquitto', 'var/log/mosquitto']) mkdirSync(join(root, d), { recursive: true });
  let conf = readFileSync(FIXTURE, 'utf8');
  for (const dir of ['/etc/mosquitto', '/run/mosquitto', '/var/lib/mosquitto', '/var/log/mosquitto']) {
    if (!conf.includes(dir)) throw new Error(`the Debian fixture no longer names ${dir}`);
    conf = conf.replaceAll(dir, root + dir);
  }
  // As root, mosquitto would drop to the "mosquitto" user, which cannot read a temporary directory of ours.
  const main = join(root, 'etc/mosquitto/mosquitto.conf');
  writeFileSync(main, `user ${userInfo().username}\n${conf}`);
  const hasWs = await mosquittoHasWebsockets();
  return {
    root, main, log: join(root, 'var/log/mosquitto/mosquitto.log'), db: join(root, 'var/lib/mosquitto/mosquitto.db'),
    ports: { local: await freePort(), ws: hasWs ? await freePort() : null, tls: await freePort() },
  };
}

/** Our installed drop-ins on the test's own ports and paths (the only change made to what the README installed). */
function moveIntoRoot(i: Installed): void {
  const file = join(i.root, 'etc/mosquitto/conf.d/tenace.conf');
  let conf = readFileSync(file, 'utf8').replaceAll('/etc/mosquitto/', `${i.root}/etc/mosquitto/`);
  const replace = (from: RegExp, to: string) => {
    if (!from.test(conf)) throw new Error(`tenace.conf no longer matches ${from}: update this test`);
    conf = conf.replace(from, to);
  };
  replace(/^listener 1883 127\.0\.0\.1$/m, `listener ${i.ports.local} 127.0.0.1`);
  if (i.ports.ws !== null) replace(/^listener 9001$/m, `listener ${i.ports.ws} 127.0.0.1`);
  else replace(/^listener 9001\nprotocol websockets$/m, '# (websockets listener dropped: this mosquitto build has no websockets)');
  writeFileSync(file, conf);
  const tls = join(i.root, 'etc/mosquitto/conf.d/tenace-tls.conf');
  if (existsSync(tls)) {
    const t = readFileSync(tls, 'utf8').replaceAll('/etc/mosquitto/', `${i.root}/etc/mosquitto/`);
    if (!/^listener 8883$/m.test(t)) throw new Error('tenace-tls.conf no longer has "listener 8883": update this test');
    writeFileSync(tls, t.replace(/^listener 8883$/m, `listener ${i.ports.tls} 127.0.0.1`));
  }
}

/** Start mosquitto -c on the packaged main file, as the service does; resolves once `port` answers. */
async function start(i: Installed, port: number): Promise<ChildProcess> {
  const p = spawn(MOSQUITTO, ['-c', i.main], { stdio: ['ignore', 'ignore', 'pipe'] });
  procs.push(p);
  let err = '';
  p.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const log = () => `${err}${existsSync(i.log) ? readFileSync(i.log, 'utf8') : ''}`;
  await waitFor(async () => {
    if (p.exitCode !== null) throw new Error(`mosquitto exited with ${p.exitCode} at start:\n${log()}`);
    return client(`mqtt://127.0.0.1:${port}`, { username: 'nobody', password: 'x' }).then(() => true, (e: Error) => !/ECONNREFUSED/.test(e.message));
  }, 10_000, `mosquitto on port ${port}:\n${log()}`);
  return p;
}

async function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null) return;
  const gone = new Promise<void>((r) => p.once('exit', () => r()));
  p.kill('SIGTERM');
  await gone;
}

describe('mosquitto/README.md on stock Debian (mosquitto 2.0.11, bookworm)', () => {
  it('keeps the packaged mosquitto.conf byte for byte (the md5 dpkg records for the conffile)', () => {
    const md5 = createHash('md5').update(readFileSync(FIXTURE)).digest('hex');
    expect(md5).toBe('9cdb6b0ea869818b4e3dc5ee610d1fb4');
    // Where dpkg knows the installed package, its recorded checksum must still be the fixture's: a new Debian
    // mosquitto.conf means this test and the drop-in must be looked at again.
    const r = spawnSync('dpkg-query', ['-W', '-f=${Conffiles}', 'mosquitto'], { encoding: 'utf8' });
    const line = r.status === 0 ? /\/etc\/mosquitto\/mosquitto\.conf ([0-9a-f]{32})/.exec(r.stdout) : null;
    if (line) expect(line[1], 'the installed mosquitto package has another mosquitto.conf than the fixture').toBe(md5);
    expect(readFileSync(FIXTURE, 'utf8')).toMatch(/^include_dir \/etc\/mosquitto\/conf\.d$/m);
  });

  it('starts with the drop-in as the README installs it: persistence from the package, anonymous refused, accounts let in', async () => {
    const i = await debianRoot();
    runBlock(shBlock('## Install (Debian / Raspberry Pi OS)'), i.root);
    expect(existsSync(join(i.root, 'etc/mosquitto/conf.d/tenace.conf'))).toBe(true);
    expect(existsSync(join(i.root, 'etc/mosquitto/conf.d/tenace-tls.conf')), 'TLS stays off until the certificates exist').toBe(false);
    moveIntoRoot(i);
    const club = uid('c');
    const env = { TENACE_PASSWD_FILE: join(i.root, 'etc/mosquitto/tenace/passwd'), TENACE_ACL_FILE: join(i.root, 'etc/mosquitto/tenace/acl'), TENACE_MQTT_PASSWORD: PASSWORD };
    run(join(ROOT, 'mosquitto', 'add-user.sh'), ['table', club, 't1'], env);
    const p = await start(i, i.ports.local);
    const url = `mqtt://127.0.0.1:${i.ports.local}`;
    await expect(client(url)).rejects.toThrow(/Not authorized|Bad User Name or Password/i);
    const table = await client(url, { username: `table-${club}-t1`, password: PASSWORD });
    await table.publishAsync(`tenace/${club}/t1/status`, 'online', { qos: 1, retain: true });
    await table.endAsync();
    await stop(p);
    // Debian's persistence_location, not ours, holds the database; Debian's log_dest file got our log_type lines.
    expect(existsSync(i.db), `no database at ${i.db}`).toBe(true);
    expect(readFileSync(i.log, 'utf8')).toMatch(/New client connected .* as \S+ \(.*u'table-/);
    expect(readFileSync(i.log, 'utf8')).not.toMatch(/Error/);
  }, 30_000);

  it('serves TLS on 8883 once the README\'s TLS steps made the certificates and installed tenace-tls.conf', async () => {
    const i = await debianRoot();
    runBlock(shBlock('## Install (Debian / Raspberry Pi OS)'), i.root);
    // The TLS block signs for broker.club.lan and 192.168.1.10; the test connects to 127.0.0.1 with the CA only.
    runBlock(shBlock('### TLS'), i.root);
    expect(existsSync(join(i.root, 'etc/mosquitto/conf.d/tenace-tls.conf'))).toBe(true);
    moveIntoRoot(i);
    run(join(ROOT, 'mosquitto', 'add-user.sh'), ['spectator', 'lounge'], {
      TENACE_PASSWD_FILE: join(i.root, 'etc/mosquitto/tenace/passwd'), TENACE_ACL_FILE: join(i.root, 'etc/mosquitto/tenace/acl'), TENACE_MQTT_PASSWORD: PASSWORD,
    });
    const p = await start(i, i.ports.local);
    const ca = readFileSync(join(i.root, 'etc/mosquitto/tenace/ca.crt'));
    // The chain is checked against the club CA; the name check is skipped (the certificate names the club's host).
    const tls = { ca, servername: 'broker.club.lan', checkServerIdentity: () => undefined } as Record<string, unknown>;
    const c = await client(`mqtts://127.0.0.1:${i.ports.tls}`, { username: 'lounge', password: PASSWORD, ...tls });
    expect(c.connected).toBe(true);
    await c.endAsync();
    await stop(p);
  }, 30_000);
});
