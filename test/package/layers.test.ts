// The layers' arrows point down (issue 8): src/cards is the bottom (card facts: cards, seats, hands, deals, contracts,
// tricks) and imports no other src/ folder; src/formats reads and writes hand records on top of cards only, never from
// src/laws or anything above it. An import that runs back up fails here, naming the file and the import.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** What a layer may import from src/: the folders below it and itself. */
const ALLOWED: Record<string, readonly string[]> = {
  cards: ['cards'],
  formats: ['cards', 'formats'],
};

// The imports that still run up, each with why; the test also fails when one is gone, so the list cannot go stale.
const EXCEPTIONS: readonly { file: string; target: string; reason: string }[] = [
  {
    file: 'formats/pbn-export.ts',
    target: 'laws/types.ts',
    reason: "type-only: PBN export writes a played deal's DealResult; the type is the engine's (laws/types.ts), which itself names formats/table-log's RemedyName",
  },
  {
    file: 'formats/pbn.ts',
    target: 'laws/variants.ts',
    reason: 'the [Variant] tag is read as a game tenace knows (issue 19: every file we write reads back); the variants table is data, no engine',
  },
  {
    file: 'formats/record.ts',
    target: 'laws/variants.ts',
    reason: 'a record names its game and its trump the way the variants table defines them (issue 19)',
  },
];

/** Every .ts file under src/<layer>, as paths relative to src/. */
function layerFiles(layer: string): string[] {
  // A walk of our own: Dirent.parentPath is newer than the Node 20.0 the package allows.
  const walk = (dir: string): string[] =>
    readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(`${dir}/${e.name}`) : e.isFile() && e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
    );
  return walk(layer);
}

/** The relative module specifiers a file imports or re-exports (static, side-effect and dynamic). */
function relativeImports(text: string): string[] {
  const specs: string[] = [];
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of text.matchAll(re)) if (m[1]!.startsWith('.')) specs.push(m[1]!);
  return specs;
}

/** The imports of src/<layer> that reach a src/ folder the layer may not use: "file -> target" (targets relative to src/). */
function upwardImports(layer: string): { file: string; target: string }[] {
  const found: { file: string; target: string }[] = [];
  for (const file of layerFiles(layer)) {
    for (const spec of relativeImports(readFileSync(join(SRC, file), 'utf8'))) {
      const target = relative(SRC, resolve(SRC, dirname(file), spec)).replace(/\.js$/, '.ts').split('\\').join('/');
      const top = target.split('/')[0]!;
      if (!ALLOWED[layer]!.includes(top)) found.push({ file, target });
    }
  }
  return found;
}

describe('layers: imports point down', () => {
  for (const layer of Object.keys(ALLOWED)) {
    it(`src/${layer} imports only from ${ALLOWED[layer]!.map((l) => `src/${l}`).join(', ')}`, () => {
      const excused = (u: { file: string; target: string }) => EXCEPTIONS.some((e) => e.file === u.file && e.target === u.target);
      const wrong = upwardImports(layer).filter((u) => !excused(u)).map((u) => `${u.file} -> ${u.target}`);
      expect(wrong).toEqual([]);
    });
  }

  it('every listed exception is still there (remove it from the list once the import is gone)', () => {
    const all = Object.keys(ALLOWED).flatMap(upwardImports);
    for (const e of EXCEPTIONS) expect(all, `${e.file} -> ${e.target}`).toContainEqual({ file: e.file, target: e.target });
  });

  it('the scan sees the imports it checks (a scan that reads nothing would pass everything)', () => {
    expect(layerFiles('cards')).toContain('cards/contract.ts');
    expect(relativeImports(readFileSync(join(SRC, 'formats/record.ts'), 'utf8'))).toContain('../cards/trick.js');
  });
});
