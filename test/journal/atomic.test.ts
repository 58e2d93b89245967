// The one atomic file writer (journals, delivery marks, deck files), in its async and sync forms.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../src/journal/atomic.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'tenace-atomic-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('overlapping writes of one file in one process each use their own temporary file; the last rename wins whole', async () => {
    const dir = tmp();
    const path = join(dir, 'mark.json');
    const texts = Array.from({ length: 20 }, (_, i) => `${'x'.repeat(10_000)}${i}\n`);
    await Promise.all(texts.map((t) => writeFileAtomic(path, t)));
    expect(texts).toContain(readFileSync(path, 'utf8'));
    expect(readdirSync(dir)).toEqual(['mark.json']);
  });

  it('a failed rename (the target is a folder) leaves no temporary file, in both forms', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'taken'));
    await expect(writeFileAtomic(join(dir, 'taken'), 'x')).rejects.toThrow();
    expect(() => writeFileAtomicSync(join(dir, 'taken'), 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('the sync form replaces a file whole with string or byte content', () => {
    const dir = tmp();
    const path = join(dir, 'deck.json');
    writeFileAtomicSync(path, 'old\n');
    writeFileAtomicSync(path, new TextEncoder().encode('new\n'));
    expect(readFileSync(path, 'utf8')).toBe('new\n');
    expect(readdirSync(dir)).toEqual(['deck.json']);
  });
});
