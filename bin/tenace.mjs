#!/usr/bin/env node
// Entry: run the compiled CLI in dist/. The package ships dist/, and `npm ci` builds it in a checkout (prepare).
// Only in a development checkout (tsx installed) do the TypeScript sources run instead, when there is no dist/ or a
// file in src/ is newer than it: what runs is then always what the sources say, at the cost of a slower start.
// Without tsx (the package, a production install) dist/ runs as it is, and `tenace run`, the table daemon, runs from
// its bundle dist/bundle/main.js (scripts/bundle-daemon.mjs) when it is there: it starts sooner and holds less memory.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'main.js');
const daemon = join(root, 'dist', 'bundle', 'main.js');
const sources = join(root, 'src');

/** True when a file under `dir` was modified after `since` (ms). About a millisecond for this tree. */
function changedSince(dir, since) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() ? changedSince(p, since) : statSync(p).mtimeMs > since) return true;
  }
  return false;
}

/**
 * True when tsx is installed in this checkout's own node_modules (development). Only there: Node would also find a
 * tsx in any parent folder's node_modules (a stray /tmp/node_modules, a home folder's), which says nothing about
 * whether this copy is a development checkout.
 */
function tsxInstalled() {
  return existsSync(join(root, 'node_modules', 'tsx', 'package.json'));
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : -1;
const tsx = existsSync(sources) && (builtAt < 0 || changedSince(sources, builtAt)) && tsxInstalled();
if (tsx) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(sources, 'cli', 'main.ts')).href);
} else if (builtAt >= 0) {
  await import(pathToFileURL(process.argv[2] === 'run' && existsSync(daemon) ? daemon : built).href);
} else {
  process.stderr.write(existsSync(sources)
    ? `tenace: dist/ is not built and tsx is not installed to run the sources: run \`npm ci\` (which builds dist/) or \`npm run build\` in ${root}\n`
    : `tenace: ${built} is missing: this copy of tenace is incomplete; reinstall it\n`);
  process.exit(70);
}
