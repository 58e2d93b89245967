#!/usr/bin/env node
// The package as a club gets it: `npm pack`, then in a scratch folder `npm install --omit=dev` of the tarball, the
// demo run through `npx tenace simulate` with its table view fetched over HTTP, and the README's API example run by
// plain node and type-checked against the shipped declarations, and the Raspberry Pi guide's install from the release
// (docs/raspberry-pi.md, step 4) run as written into a scratch folder. Needs the npm cache that `npm ci` filled (offline-
// safe). Run by .ci/run after the tests; `npm run test:package` runs it alone. Exits 1 naming what is wrong.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'tenace-pack-'));
const app = join(scratch, 'app');
let sim; // the running simulation, killed (its process group) if a check fails while it runs

class Failure extends Error {}
const fail = (msg) => { throw new Failure(msg); };
const t0 = Date.now();
const step = (msg) => process.stdout.write(`pack-test: ${((Date.now() - t0) / 1000).toFixed(1)} s: ${msg}\n`);

/** Run a command to completion; its output is shown only when it fails. */
function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.status !== 0) fail(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status ?? r.signal}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** The tarball holds what runs (dist/ with declarations, the bin, the view, the config, the demo) and no sources. */
function checkContents(tgz) {
  const files = run('tar', ['-tzf', tgz], scratch).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  const need = ['bin/tenace.mjs', 'dist/cli/main.js', 'dist/bundle/main.js', 'dist/bundle/worker.js', 'dist/index.js', 'dist/index.d.ts', 'web/index.html', 'web/app.js',
    'web/director/index.html', 'web/director/app.js', 'config/tenace.example.yaml', 'config/club.example.yaml', 'mosquitto/tenace.conf', 'systemd/tenace.service', 'package.json', 'README.md'];
  const missing = need.filter((f) => !files.includes(f));
  if (missing.length) fail(`the tarball lacks ${missing.join(', ')}: check "files" and the build in package.json`);
  if (!files.some((f) => /^demo\/.+\.ndjson$/.test(f))) fail('the tarball has no demo/*.ndjson: `tenace simulate` would have nothing to play');
  const extra = files.filter((f) => /^(src|test|bench|node_modules|firmware-bridge)\//.test(f) || f.endsWith('.map'));
  if (extra.length) fail(`the tarball ships development files: ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ', ...' : ''}`);
  return files.length;
}

/** `npx tenace simulate --exit` from the install: it must serve the table view while it plays, then exit 0. */
async function checkSimulate() {
  // 40 events a second keeps the demo running for a few seconds, so the view is fetched during the play.
  sim = spawn('npx', ['--no', 'tenace', 'simulate', '--speed', '40', '--http-port', '0', '--exit'], { cwd: app, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  sim.stdout.on('data', (d) => (out += d));
  sim.stderr.on('data', (d) => (out += d));
  let ended = false;
  const exited = new Promise((r) => sim.once('exit', (code, signal) => { ended = true; r(code ?? signal); }));
  const deadline = Date.now() + 60_000;
  let url;
  while (!(url = /table view at (http:\/\/\S+)/.exec(out)?.[1]) && !ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (!url) fail(`npx tenace simulate printed no table view address:\n${out}`);
  const page = readFileSync(join(app, 'node_modules', 'tenace', 'web', 'index.html'), 'utf8');
  for (const path of ['', 'app.js', 'config.json', 'mqtt.min.js']) {
    const res = await fetch(new URL(path, url));
    const body = await res.text();
    if (res.status !== 200) fail(`GET ${url}${path} during the simulation answered ${res.status}: ${body.slice(0, 200)}`);
    if (path === '' && body !== page) fail(`GET ${url} did not answer the package's web/index.html`);
  }
  if (ended) fail(`the simulation had already ended when the view was fetched: slow it down in this test:\n${out}`);
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), Math.max(0, deadline - Date.now())).unref())]);
  if (code !== 0) fail(`npx tenace simulate --exit ended with ${code}:\n${out}`);
  if (!out.includes('tenace: all played')) fail(`npx tenace simulate --exit ended without playing the demo:\n${out}`);
  sim = undefined;
}

/**
 * `tenace run` from the install, as systemd starts the table daemon (bin/tenace.mjs hands it to its bundle,
 * dist/bundle/main.js): on the embedded broker it must serve the package's table view, then exit 0 on SIGTERM.
 */
async function checkDaemon() {
  const config = join(scratch, 'table.yaml');
  writeFileSync(config, ['club: { id: pack }', 'table: { id: "1" }', `journal: { dir: ${JSON.stringify(join(scratch, 'journal'))} }`,
    'mqtt: { url: embedded }', 'http: { port: 0, host: 127.0.0.1 }', ''].join('\n'));
  const daemon = spawn(process.execPath, [join(app, 'node_modules', 'tenace', 'bin', 'tenace.mjs'), 'run', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  daemon.stdout.on('data', (d) => (out += d));
  daemon.stderr.on('data', (d) => (out += d));
  let ended = false;
  const exited = new Promise((r) => daemon.once('exit', (code, signal) => { ended = true; r(code ?? signal); }));
  try {
    const deadline = Date.now() + 30_000;
    let url;
    while (!(url = /"url":"(http:\/\/[^"]+)","msg":"table view"/.exec(out)?.[1]) && !ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (!url) fail(`tenace run printed no table view address:\n${out}`);
    const res = await fetch(url);
    const body = await res.text();
    if (res.status !== 200 || body !== readFileSync(join(app, 'node_modules', 'tenace', 'web', 'index.html'), 'utf8')) fail(`GET ${url} from tenace run answered ${res.status}, not the package's web/index.html`);
    daemon.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 10_000).unref())]);
    if (code !== 0) fail(`tenace run ended with ${code} on SIGTERM:\n${out}`);
  } finally {
    if (!ended) daemon.kill('SIGKILL');
  }
}

/**
 * `npx tenace session simulate` from the install (what `npm start` runs in a checkout): the director runs as its own
 * process from the package's bin, with the native SQLite module of the production install; the standings come back.
 */
function checkSession() {
  const r = spawnSync('npx', ['--no', 'tenace', 'session', 'simulate', '--tables', '3', '--movement', 'compass', '--boards-per-round', '1',
    '--speed', 'max', '--exit', '--http-port', '0', '--json'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) fail(`npx tenace session simulate ended with ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  let out;
  try {
    out = JSON.parse(r.stdout);
  } catch {
    fail(`npx tenace session simulate --json printed no JSON:\n${r.stdout}\n${r.stderr}`);
  }
  if (!Array.isArray(out.pairs) || out.pairs.length !== 6) fail(`the session's standings do not hold its six pairs:\n${r.stdout}`);
  if (out.session.verified !== out.session.overplays) fail(`trays verified at ${out.session.verified} of ${out.session.overplays} overplays`);
}

/** The README's example, imported from 'tenace' by plain node, then type-checked against the package's declarations. */
function checkApi() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = /```ts\n(import [^\n]* from 'tenace';\n[\s\S]*?)```/.exec(readme)?.[1];
  if (!example) fail("README.md has no ```ts block that imports from 'tenace'");
  writeFileSync(join(app, 'readme-example.mjs'), example);
  run(process.execPath, ['readme-example.mjs'], app);
  const check = `import { Table, replay, parsePbn, parseLin, parseTableLog } from 'tenace';
for (const [name, f] of Object.entries({ Table, replay, parsePbn, parseLin, parseTableLog })) if (typeof f !== 'function') throw new Error(name + ' is not exported');
const t = new Table();
t.deal({ board: 1, variant: 'duplicate-whist', dealer: 'W', hands: 'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432' });
t.place('W', 'C2'); t.lift('W', 'C2'); t.play('N', 'SA');
const kinds = t.play('E', 'H8').map((f) => f.kind);
if (!kinds.includes('renounce-in-error')) throw new Error('a renounce was not found: ' + JSON.stringify(kinds));
`;
  run(process.execPath, ['--input-type=module', '-e', check], app);
  // Types: the same example under strict TypeScript, resolved through the package's "exports" and "types".
  writeFileSync(join(app, 'readme-example.mts'), example);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
      typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] },
    files: ['readme-example.mts'],
  }));
  run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app);
}

/**
 * docs/raspberry-pi.md, step 4 ("On the Pi"), run as written but into the scratch folder: the release tarball
 * unpacked into /opt/tenace, `npm ci --omit=dev` against the release's lockfile, the tenace link, `tenace --version`,
 * and the firmware sources unpacked for the bench tool. The file names the guide uses must be this release's.
 */
function checkPiInstall(tgz) {
  const guide = readFileSync(join(ROOT, 'docs', 'raspberry-pi.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## 4. Install tenace'), guide.indexOf('## 5.'));
  const onPi = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('tar -xzf ~/tenace-'));
  if (!onPi) fail('docs/raspberry-pi.md, step 4, has no block that unpacks the release on the Pi');
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  const firmware = /^version=(.*)$/m.exec(readFileSync(join(ROOT, 'firmware-bridge', 'library.properties'), 'utf8'))[1];
  for (const [named, want] of [[/tenace-(\d[\w.]*)\.tgz/, version], [/tenace-firmware-bridge-(\d[\w.]*)\.tgz/, firmware]]) {
    const got = named.exec(onPi)?.[1];
    if (got !== want) fail(`docs/raspberry-pi.md, step 4, names version ${got} where this release has ${want} (${named.source})`);
  }
  const home = join(scratch, 'home');
  const bin = join(scratch, 'bin');
  mkdirSync(home);
  mkdirSync(bin);
  // What the PC copied over (step 4's scp): the tarball, the lockfile, the firmware sources.
  copyFileSync(tgz, join(home, `tenace-${version}.tgz`));
  copyFileSync(join(ROOT, 'package-lock.json'), join(home, 'package-lock.json'));
  run('tar', ['-czf', join(home, `tenace-firmware-bridge-${firmware}.tgz`), '--exclude=build', 'firmware-bridge'], ROOT);
  const script = onPi.split('\n').map((l) => l
    .replaceAll('~/', `${home}/`).replaceAll('/opt/tenace', join(scratch, 'opt', 'tenace')).replaceAll('/usr/local/bin', bin)
    .replace(/^sudo /, '').replace(/ -o "\$USER" -g "\$USER"/, '')).join('\n');
  mkdirSync(join(scratch, 'opt'));
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: home, encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' },
  });
  if (r.status !== 0) fail(`docs/raspberry-pi.md, step 4, failed (${r.status ?? r.signal}):\n${script}\n${r.stdout}${r.stderr}`);
  if (!r.stdout.includes(`tenace ${version}`)) fail(`tenace --version after docs/raspberry-pi.md, step 4, did not print "tenace ${version}":\n${r.stdout}`);
  if (!existsSync(join(home, 'tenace-src', 'firmware-bridge', 'Makefile'))) fail('step 4 did not unpack the firmware sources into ~/tenace-src');
}

try {
  step(`npm pack (builds dist/) into ${scratch}`);
  run('npm', ['pack', '--pack-destination', scratch, '--silent'], ROOT);
  const tgz = readdirSync(scratch).find((f) => f.endsWith('.tgz')) ?? fail('npm pack wrote no tarball');
  step(`${tgz}: ${checkContents(join(scratch, tgz))} files`);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'tenace-pack-test', private: true, type: 'module' }));
  step('npm install --omit=dev of the tarball');
  run('npm', ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', join('..', tgz)], app);
  const installed = readdirSync(join(app, 'node_modules'));
  const dev = ['tsx', 'typescript', 'vitest', 'esbuild'].filter((p) => installed.includes(p));
  if (dev.length) fail(`the production install holds development packages: ${dev.join(', ')} (a runtime dependency pulls them in?)`);
  step('npx tenace simulate --exit, with the table view fetched during the play');
  await checkSimulate();
  step('tenace run (the bundled table daemon) on the embedded broker: the table view, then SIGTERM');
  await checkDaemon();
  step('npx tenace session simulate --exit --json: three tables, the director from the package, the standings');
  checkSession();
  step("the README's API example from plain node, and its types");
  checkApi();
  step('docs/raspberry-pi.md, step 4: the release unpacked into /opt/tenace, npm ci --omit=dev, tenace --version');
  checkPiInstall(join(scratch, tgz));
  step('ok');
} catch (e) {
  process.stderr.write(`pack-test: FAILED: ${e instanceof Failure ? e.message : e.stack}\n`);
  process.exitCode = 1;
} finally {
  if (sim && sim.exitCode === null && sim.signalCode === null) {
    const gone = new Promise((r) => sim.once('exit', r));
    try {
      process.kill(-sim.pid, 'SIGTERM'); // the group: npx and the node it started, which removes its own temporary files
    } catch { /* already gone */ }
    await Promise.race([gone, new Promise((r) => setTimeout(r, 5000).unref())]);
  }
  rmSync(scratch, { recursive: true, force: true });
}
