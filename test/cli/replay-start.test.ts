// Issue 20: `tenace replay FILE --json` starts with the fast path's modules alone. What main.ts imports statically
// is loaded (and node:util, node:v8, process.stdout cost internal modules) before replay starts: every static
// import from main.ts down is listed here, so one added by mistake fails this test.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The modules a source file imports for their values (not `import type`), as written. */
function valueImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/^import\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) if (!m[1]) out.push(m[2]);
  return out;
}

/** Every module reached by static value imports from `entry`: our files (relative to the root) and node builtins. */
function staticGraph(entry: string): string[] {
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

describe('tenace replay: what is loaded before the fast path runs', () => {
  it('main.ts imports lean.ts alone; the fast path its scanner and reader, and node:fs', () => {
    expect(staticGraph(join(root, 'src/cli/main.ts'))).toEqual(['src/cli/lean.ts', 'src/cli/main.ts']);
    expect(staticGraph(join(root, 'src/cli/replay-fast.ts'))).toEqual([
      'node:fs', 'src/cli/replay-fast.ts', 'src/formats/pbn-fast.ts', 'src/formats/pbn-scan.ts',
    ]);
  });

  it('the walk sees a value import, and skips a type-only one', () => {
    const imports = valueImports(join(root, 'src/cli/replay-fast.ts'));
    expect(imports).toContain('../formats/pbn-scan.js');
    expect(imports).not.toContain('./args.js');
    expect(valueImports(join(root, 'src/cli/replay-slow.ts'))).toContain('./replay.js');
  });
});
