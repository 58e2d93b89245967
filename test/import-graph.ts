// Test helper: what our sources import statically, read from the source text (the tests of what a command loads).
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository's root. */
export const root = resolve(import.meta.dirname, '..');

/** The modules a source file imports for their values (not `import type`), as written. */
export function valueImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/^import\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) if (!m[1]) out.push(m[2]);
  return out;
}

/** Every module reached by static value imports from `entry`: our files (relative to the root) and packages, sorted. */
export function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const walk = (file: string): void => {
    const rel = relative(root, file);
    if (seen.has(rel)) return;
    seen.add(rel);
    for (const spec of valueImports(file)) {
      if (spec.startsWith('.')) walk(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      else seen.add(spec);
    }
  };
  walk(entry);
  return [...seen].sort();
}
