#!/usr/bin/env node
// Bundle the table daemon (`tenace run`, src/cli/daemon-main.ts) with esbuild into one folder of minified ES modules:
// `node scripts/bundle-daemon.mjs [OUTDIR]` (default dist/bundle; `npm run build` and `npm run bench` run it).
// Why: with V8's optimiser off (src/cli/lean.ts) a module costs the daemon its source and code in the heap, and the
// compiled tree is some two hundred files read one by one at start. The bundle keeps OUTDIR two levels below the
// package root, as dist/cli is, so paths that modules take from import.meta.url (web/, the double-dummy worker beside
// its chunk) hold. Packages with native code or files of their own stay external and load from node_modules.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = resolve(process.argv[2] ?? join(root, 'dist', 'bundle'));

/** One line on stderr and exit 1: a build step's refusal is a sentence, not a stack. */
function fail(message) {
  process.stderr.write(`bundle-daemon: ${message}\n`);
  process.exit(1);
}

// OUTDIR is emptied first; one named as a folder of src/ would be where tsc compiled that folder (dist/daemon is).
if (existsSync(join(root, 'src', basename(outdir)))) fail(`${outdir} would replace the compiled src/${basename(outdir)}; choose another folder, e.g. dist/bundle`);
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/daemon-main.ts', worker: 'src/dd/worker.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Identifiers too: kept, they cost the daemon 1 MB more. For a stack trace in words, run the same daemon unbundled:
  // `node dist/cli/main.js run --config ...`.
  minify: true,
  // Native addons and packages that find their own files at run time.
  external: ['better-sqlite3', 'koffi', 'serialport', '@serialport/*', 'node-hid', 'pg', 'pg-native'],
  // CommonJS packages inside the bundle require() Node's modules; ES module output has no require of its own.
  banner: { js: "import { createRequire as __tenaceRequire } from 'node:module'; const require = __tenaceRequire(import.meta.url);" },
  logLevel: 'warning',
});

// esbuild writes strings as ASCII but leaves regular expressions as they are, and one character outside ASCII in a
// chunk makes V8 hold that chunk's whole source at two bytes a character: a few suit symbols in patterns cost the
// daemon 0.5 MB of heap. Such a pattern is written with \u escapes (src/feed/privacy.ts).
for (const name of readdirSync(outdir)) {
  const text = readFileSync(join(outdir, name), 'latin1');
  const at = text.search(/[^\x00-\x7f]/);
  if (at < 0) continue;
  const near = Buffer.from(text.slice(Math.max(0, at - 40), at + 12), 'latin1').toString('utf8');
  fail(`${name} has a character outside ASCII near ${JSON.stringify(near)}: write it as a \\u escape in the source, or V8 holds the whole chunk at two bytes a character`);
}
