// Deck files: format, virtual decks, loading several packs, atomic writes, `tenace deck`.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deckCommand } from '../../src/cli/deck.js';
import {
  BRIDGE_ORDER,
  DeckError,
  DeckSet,
  formatDeck,
  loadDeckFile,
  loadDecks,
  missingCards,
  parseDeck,
  virtualDeck,
  writeDeckFile,
} from '../../src/hardware/deck.js';
import { writeFileAtomicSync } from '../../src/journal/atomic.js';
import { isUidHex } from '../../src/hardware/protocol.js';

// Every scratch folder of this file is made in one folder, removed after its tests (nothing left in /tmp).
const scratch = mkdtempSync(join(tmpdir(), 'tenace-deck-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tmp = () => mkdtempSync(join(scratch, 'case-'));

describe('virtualDeck', () => {
  it('is deterministic: 52 distinct 7-byte NXP-like UIDs, one per card', () => {
    const a = virtualDeck('club-red-1');
    expect(virtualDeck('club-red-1')).toEqual(a);
    const uids = Object.keys(a.cards);
    expect(uids).toHaveLength(52);
    expect(new Set(Object.values(a.cards))).toEqual(new Set(BRIDGE_ORDER));
    for (const u of uids) {
      expect(isUidHex(u)).toBe(true);
      expect(u).toMatch(/^04[0-9A-F]{12}$/);
      expect(u.slice(6, 8)).not.toBe('88');
    }
    // pinned: a change here would silently re-tag every emulated table
    expect(Object.entries(a.cards).filter(([, c]) => c === 'SA' || c === 'C2')).toEqual([
      ['043B47DFF1BDFE', 'SA'],
      ['04DC9E1BA9F509', 'C2'],
    ]);
  });

  it('different ids give disjoint UIDs, so two virtual packs load together', () => {
    const set = new DeckSet([virtualDeck('red'), virtualDeck('blue')]);
    expect(set.size).toBe(104);
    const uid = set.uidOf('HQ', 'blue')!;
    expect(set.lookup(uid)).toEqual({ card: 'HQ', deck: 'blue' });
    expect(set.uidOf('HQ', 'red')).not.toBe(uid);
  });

  it('rejects a bad id', () => {
    expect(() => virtualDeck('no spaces')).toThrow(DeckError);
  });
});

describe('deck files', () => {
  it('round-trips through formatDeck/parseDeck, normalising notation', () => {
    const d = parseDeck(JSON.stringify({ deck: 'p1', version: 1, cards: { '04A1B2C3D4E5F6': 'S10', DEADBEEF: '♥Q' } }));
    expect(d.cards).toEqual({ '04A1B2C3D4E5F6': 'ST', DEADBEEF: 'HQ' });
    expect(parseDeck(formatDeck(d))).toEqual(d);
    expect(missingCards(d)).toHaveLength(50);
  });

  it('names the problem', () => {
    expect(() => parseDeck('{', 'x.json')).toThrow(/x\.json: not valid JSON/);
    expect(() => parseDeck('{"deck":"p","version":2,"cards":{}}')).toThrow(/"version" must be 1/);
    expect(() => parseDeck('{"deck":"p","version":1,"cards":{"04a1b2c3":"SA"}}')).toThrow(/not a tag UID/);
    expect(() => parseDeck('{"deck":"p","version":1,"cards":{"04A1B2C3":"ZZ"}}')).toThrow(/is not a card/);
    expect(() => parseDeck('{"deck":"p","version":1,"cards":{"04A1B2C3":"SA","04A1B2C4":"SA"}}')).toThrow(/SA appears twice/);
  });

  it('a UID present in two decks is a load error', () => {
    const a = virtualDeck('a');
    const uid = Object.keys(a.cards)[0];
    const b = { deck: 'b', version: 1 as const, cards: { [uid]: 'C2' } };
    expect(() => new DeckSet([a, b])).toThrow(/tag .* is in two decks: SA of a and C2 of b/);
    expect(() => new DeckSet([a, virtualDeck('a')])).toThrow(/loaded twice/);
    const dir = tmp();
    writeDeckFile(join(dir, 'a.json'), a);
    writeDeckFile(join(dir, 'b.json'), b);
    expect(() => loadDecks([join(dir, 'a.json'), join(dir, 'b.json')])).toThrow(DeckError);
  });

  it('writes atomically: a complete file or the old one, and no temp file left behind', () => {
    const dir = tmp();
    const path = join(dir, 'deck.json');
    writeDeckFile(path, virtualDeck('one'));
    const before = readFileSync(path, 'utf8');
    // a write that fails half way (invalid deck) leaves the old file untouched
    expect(() => writeDeckFile(path, { deck: 'bad id', version: 1, cards: {} })).toThrow();
    expect(readFileSync(path, 'utf8')).toBe(before);
    writeDeckFile(path, virtualDeck('two'));
    expect(loadDeckFile(path).deck).toBe('two');
    expect(readdirSync(dir)).toEqual(['deck.json']);
    // a failing rename (target is a directory) cleans its temp file up
    expect(() => writeFileAtomicSync(dir, 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['deck.json']);
  });
});

describe('tenace deck', () => {
  const run = (argv: string[]) => {
    let out = '';
    let err = '';
    const code = deckCommand(argv, { out: (s) => (out += s), err: (s) => (err += s) });
    return { code, out, err };
  };

  it('--virtual --out writes a deterministic deck, --id names it', () => {
    const dir = tmp();
    expect(run(['--virtual', '--out', join(dir, 'a.json'), '--id', 'club-red-1']).code).toBe(0);
    expect(run(['--virtual', '--out', join(dir, 'b.json'), '--id', 'club-red-1']).code).toBe(0);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe(readFileSync(join(dir, 'b.json'), 'utf8'));
    expect(loadDeckFile(join(dir, 'a.json'))).toEqual(virtualDeck('club-red-1'));
    expect(run(['--virtual', '--out', join(dir, 'c.json')]).code).toBe(0);
    expect(loadDeckFile(join(dir, 'c.json')).deck).toBe('virtual-1');
  });

  it('usage errors exit 64, --check reports', () => {
    expect(run(['--virtual']).code).toBe(64);
    expect(run([]).code).toBe(64);
    expect(run(['--bogus']).code).toBe(64);
    const dir = tmp();
    run(['--virtual', '--out', join(dir, 'a.json'), '--id', 'a']);
    writeFileSync(join(dir, 'p.json'), JSON.stringify({ deck: 'p', version: 1, cards: { DEADBEEF: 'SA' } }));
    const r = run(['--check', join(dir, 'a.json'), join(dir, 'p.json')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/a: 52 tags, complete/);
    expect(r.out).toMatch(/p: 1 tags, missing SK/);
  });
});
