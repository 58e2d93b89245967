// Issue 18's cheap wins: one shared collator for the ids the scorers and the director sort, and a store that loads
// only the driver in use (a SQLite director does not carry pg's 13 MB, nor a PostgreSQL one better-sqlite3).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareIds } from '../../src/club/scoring/collate.js';
import { freshDb } from './store-engines.js';

const dir = mkdtempSync(join(tmpdir(), 'tenace-store-driver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compareIds', () => {
  it('orders digits by their value and the rest alphabetically, as localeCompare with numeric did', () => {
    const ids = ['10NS', '2EW', '1NS', '2NS', '1EW', 'b', 'A', '10EW'];
    expect([...ids].sort(compareIds)).toEqual(['1EW', '1NS', '2EW', '2NS', '10EW', '10NS', 'A', 'b']);
    expect([...ids].sort(compareIds)).toEqual([...ids].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
  });
});

/** Open and close a store in a fresh process; which drivers that process loaded. */
function driversLoaded(url: string): { pg: boolean; sqlite: boolean } {
  const probe = join(dir, 'probe.mts');
  writeFileSync(probe, `import { createRequire } from 'node:module';
const { DirectorStore } = await import(${JSON.stringify(join(import.meta.dirname, '../../src/club/director/store.ts'))});
const s = await DirectorStore.open(process.argv[2]);
await s.close();
const cache = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify({ pg: cache.some((k) => /node_modules[\\\\/]pg[\\\\/]/.test(k)), sqlite: cache.some((k) => /better-sqlite3/.test(k)) }));
`);
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', probe, url], { encoding: 'utf8' })) as { pg: boolean; sqlite: boolean };
}

describe('the store loads only the driver in use', () => {
  it('SQLite: better-sqlite3, not pg', () => {
    expect(driversLoaded(`sqlite:${join(dir, 'club.db')}`)).toEqual({ pg: false, sqlite: true });
  });

  it('PostgreSQL: pg, not better-sqlite3', async () => {
    const db = await freshDb('postgres');
    try {
      expect(driversLoaded(db.url)).toEqual({ pg: true, sqlite: false });
    } finally {
      await db.drop();
    }
  });
});
