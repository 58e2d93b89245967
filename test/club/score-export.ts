// `tenace score --json` on a director's PBN export, as a user runs it: the session tests compare their standings with it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ScoreReport } from '../../src/club/types.js';
import { startCli } from '../cli/spawn-cli.js';

/** The standings `tenace score` gives on the PBN text (exit 0 expected, its stderr shown otherwise). */
export async function scoreExport(pbn: string): Promise<ScoreReport> {
  const dir = mkdtempSync(join(tmpdir(), 'tenace-score-export-'));
  try {
    const file = join(dir, 'session.pbn');
    writeFileSync(file, pbn);
    const run = startCli(['score', file, '--json']);
    const code = await run.exited;
    const out = run.out();
    const err = run.err();
    await run.dispose();
    expect(code, err).toBe(0);
    return JSON.parse(out) as ScoreReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
