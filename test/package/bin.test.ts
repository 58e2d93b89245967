// bin/tenace.mjs chooses what to run: compiled dist/ (the package, a production install, a built checkout), or the
// sources through tsx only in a development checkout whose src/ changed after the build, so that neither the
// package nor `npx tenace` in a built checkout pays for tsx, and a checkout never runs stale code.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of bin/tenace.mjs beside a stand-in dist/ and src/ that say which one ran. */
function checkout(opts: { dist?: 'old' | 'new'; src?: 'old' | 'new'; tsx: boolean; parentTsx?: boolean }): string {
  let dir = mkdtempSync(join(tmpdir(), 'tenace-bin-'));
  dirs.push(dir);
  if (opts.parentTsx) {
    // tsx in a parent folder's node_modules, where Node's resolution would find it too (a stray /tmp/node_modules).
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'node_modules', 'tsx'), join(dir, 'node_modules', 'tsx'));
    dir = join(dir, 'tenace');
    mkdirSync(dir);
  }
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  copyFileSync(join(ROOT, 'bin', 'tenace.mjs'), join(dir, 'bin', 'tenace.mjs'));
  const old = new Date(Date.now() - 3_600_000);
  const put = (file: string, text: string, age: 'old' | 'new') => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (age === 'old') utimesSync(file, old, old);
  };
  if (opts.dist) put(join(dir, 'dist', 'cli', 'main.js'), "console.log('ran dist');\n", opts.dist);
  // A type annotation: only tsx can run this file.
  if (opts.src) put(join(dir, 'src', 'cli', 'main.ts'), "const from: string = 'src';\nconsole.log(`ran ${from}`);\n", opts.src);
  if (opts.tsx) {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'node_modules', 'tsx'), join(dir, 'node_modules', 'tsx'));
  }
  return dir;
}

const run = (dir: string) => spawnSync(process.execPath, [join(dir, 'bin', 'tenace.mjs')], { encoding: 'utf8' });

describe('bin/tenace.mjs', () => {
  it('a built checkout runs dist/, without tsx', () => {
    expect(run(checkout({ dist: 'new', src: 'old', tsx: true })).stdout).toBe('ran dist\n');
  });

  it('a checkout whose src/ changed after the build runs the sources through tsx', () => {
    expect(run(checkout({ dist: 'old', src: 'new', tsx: true })).stdout).toBe('ran src\n');
  });

  it('a checkout without dist/ runs the sources through tsx', () => {
    expect(run(checkout({ src: 'new', tsx: true })).stdout).toBe('ran src\n');
  });

  it('without tsx (the package, or a production install) dist/ runs, whatever the dates', () => {
    expect(run(checkout({ dist: 'new', tsx: false })).stdout).toBe('ran dist\n');
    expect(run(checkout({ dist: 'old', src: 'new', tsx: false })).stdout).toBe('ran dist\n');
  });

  it("a tsx in a parent folder is not the checkout's own: dist/ runs, and without dist/ it says how to build", () => {
    expect(run(checkout({ dist: 'old', src: 'new', tsx: false, parentTsx: true })).stdout).toBe('ran dist\n');
    expect(run(checkout({ src: 'new', tsx: false, parentTsx: true })).status).toBe(70);
  });

  it('neither dist/ nor tsx: exit 70 and a sentence saying how to build, no stack', () => {
    const r = run(checkout({ src: 'new', tsx: false }));
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/^tenace: dist\/ is not built and tsx is not installed to run the sources: run `npm ci` \(which builds dist\/\) or `npm run build` in .+\n$/);
  });
});
