#!/usr/bin/env node
// Entry: run the compiled CLI in dist/. The package ships dist/, and `npm ci` builds it in a checkout (prepare).
// In a checkout, a source file newer than dist/ means dist/ is stale, so the TypeScript sources run through tsx
// (a dev dependency) instead: what runs is always what the sources say, and only the start-up is slower.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'main.js');
const sources = join(root, 'src');

/** True when a file under `dir` was modified after `since` (ms). About a millisecond for this tree. */
function changedSince(dir, since) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() ? changedSince(p, since) : statSync(p).mtimeMs > since) return true;
  }
  return false;
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : -1;
if (builtAt >= 0 && !(existsSync(sources) && changedSince(sources, builtAt))) {
  await import(pathToFileURL(built).href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(existsSync(sources)
      ? `tenace: ${builtAt < 0 ? 'dist/ is not built' : 'dist/ is older than src/'} and tsx is not installed to run the sources: run \`npm run build\` (or \`npm ci\`, which builds) in ${root}\n`
      : `tenace: ${built} is missing: this copy of tenace is incomplete; reinstall the package\n`);
    process.exit(70);
  }
  register();
  await import(pathToFileURL(join(sources, 'cli', 'main.ts')).href);
}
