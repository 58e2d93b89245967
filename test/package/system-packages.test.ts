// The system packages: .ci/system-packages (what .ci/run installs and checks) must cover every command the code and
// the tests spawn and every library the native modules load, and the README must list them, so that `.ci/run` and
// `npm test` pass on a fresh machine and not only where someone once installed a package by hand.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const entries = readFileSync(join(ROOT, '.ci', 'system-packages'), 'utf8').split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [pkg, check] = l.trim().split(/\s+/);
    return { pkg, check };
  });
const commands = new Set(entries.filter((e) => e.check.startsWith('cmd:')).map((e) => e.check.slice(4)));
const libraries = new Set(entries.filter((e) => e.check.startsWith('lib:')).map((e) => e.check.slice(4)));

/** Files under `dir` whose name passes `keep`, skipping node_modules unless `dir` is one. */
function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' || dir.endsWith('node_modules')) walk(p, keep, out);
    } else if (keep(e.name)) out.push(p);
  }
  return out;
}

describe('.ci/system-packages', () => {
  it('names a Debian package and a cmd: or lib: check on every line', () => {
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e.check, `${e.pkg}: the check must be cmd:NAME or lib:SONAME`).toMatch(/^(cmd|lib):\S+$/);
  });

  it('covers every command that the sources, the tests, the scripts and CI run', () => {
    // Found with Node itself on any machine that runs the tests (and in Debian's essential set).
    const base = new Set(['node', 'npm', 'npx', 'sh', 'bash', 'which', 'tar']);
    const files = [
      ...walk(join(ROOT, 'src'), (n) => n.endsWith('.ts')),
      ...walk(join(ROOT, 'test'), (n) => n.endsWith('.ts')).filter((f) => f !== fileURLToPath(import.meta.url)),
      join(ROOT, '.ci', 'pack-test.mjs'),
    ];
    const found = new Map<string, string>();
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const patterns = [
        /\b(?:spawn|spawnSync|execFile|execFileSync)\(\s*'([\w.+-]+)'/g, // spawn('socat', ...)
        /\brun\(\s*'([\w.+-]+)',\s*(?:\[|args\b)/g, // test/feed/broker.ts: run('openssl', args)
        /'\/usr\/s?bin\/([\w.+-]+)'/g, // '/usr/sbin/mosquitto'
        /\bwhich'?,\s*\['([\w.+-]+)'\]/g, // spawnSync('which', ['socat'])
      ];
      for (const re of patterns) for (const m of text.matchAll(re)) found.set(m[1], relative(ROOT, f));
    }
    for (const m of readFileSync(join(ROOT, 'mosquitto', 'add-user.sh'), 'utf8').matchAll(/\b(mosquitto_\w+)\b/g)) found.set(m[1], 'mosquitto/add-user.sh');
    for (const m of readFileSync(join(ROOT, '.ci', 'run'), 'utf8').matchAll(/^(make|mosquitto|ldconfig|dpkg-query|apt-get) /gm)) found.set(m[1], '.ci/run');
    // A sanity check on the search itself: these are known to be spawned.
    expect([...found.keys()]).toEqual(expect.arrayContaining(['socat', 'mosquitto', 'openssl', 'systemd-notify', 'python3', 'chromium']));
    const uncovered = [...found].filter(([cmd]) => !commands.has(cmd) && !base.has(cmd) && !['ldconfig', 'dpkg-query', 'apt-get'].includes(cmd));
    expect(uncovered.map(([cmd, file]) => `${cmd} (run by ${file})`)).toEqual([]);
  });

  it('covers every shared library that the native modules of node_modules need on this platform', () => {
    // glibc and libgcc are part of every Debian system; anything else must be installed.
    const base = /^(libc|libm|libpthread|libdl|librt|libgcc_s)\.so\.\d+$|^ld-linux/;
    const here = `linux-${process.arch}`;
    const addons = walk(join(ROOT, 'node_modules'), (n) => n.endsWith('.node'))
      .filter((p) => (p.includes(here) && !p.includes('musl')) || p.includes(join('build', 'Release')));
    // node-hid and serialport ship prebuilt bindings; if none is found the search is wrong, not the list.
    expect(addons.some((p) => p.includes('node-hid')), addons.join('\n')).toBe(true);
    expect(addons.some((p) => p.includes('@serialport')), addons.join('\n')).toBe(true);
    const missing: string[] = [];
    for (const addon of addons) {
      const r = spawnSync('readelf', ['-d', addon], { encoding: 'utf8' });
      if (r.error || r.status !== 0) throw new Error(`readelf -d ${addon} failed (${r.error?.message ?? r.stderr}): install binutils`);
      for (const m of r.stdout.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)) {
        if (!base.test(m[1]) && !libraries.has(m[1])) missing.push(`${m[1]} (needed by ${relative(ROOT, addon)})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is listed in the README, under "System packages"', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = /^## System packages\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
    expect(section, 'README.md has no "## System packages" section').toBeDefined();
    const packages = [...new Set(entries.map((e) => e.pkg))];
    expect(packages.filter((p) => !section!.includes(`\`${p}\``)), 'packages missing from the table').toEqual([]);
    const aptLine = /apt-get install -y ([^\n]+)/.exec(section!)?.[1].trim().split(/\s+/);
    expect(aptLine?.sort(), 'the apt-get install line').toEqual(packages.sort());
  });
});
