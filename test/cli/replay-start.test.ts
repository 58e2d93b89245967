// Issue 20: `tenace replay FILE --json` starts with the fast path's modules alone. What main.ts imports statically
// is loaded (and node:util, node:v8, process.stdout cost internal modules) before replay starts: every static
// import from main.ts down is listed here, so one added by mistake fails this test.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, staticGraph, valueImports } from '../import-graph.js';

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
