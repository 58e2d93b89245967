// Property tests: no input makes the readers throw, and none reaches their internal-error guard.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePbn, formatPbn } from '../../src/formats/pbn.js';
import { parseLin } from '../../src/formats/lin.js';
import { isSeat } from '../../src/cards/seat.js';
import { tryParseCard } from '../../src/cards/card.js';
import type { ParseResult } from '../../src/formats/record.js';
import { dataFile } from './data.js';

/** The readers catch their own bugs as an "internal error"; a property failing here means a real bug. */
function sane(r: ParseResult): void {
  expect(Array.isArray(r.records)).toBe(true);
  for (const e of r.errors) {
    expect(Number.isInteger(e.line)).toBe(true);
    expect(e.message).not.toMatch(/internal error/);
  }
  for (const rec of r.records) {
    expect(rec.plays.length).toBeLessThanOrEqual(52);
    for (const p of rec.plays) {
      expect(isSeat(p.seat)).toBe(true);
      expect(tryParseCard(p.card).ok).toBe(true);
    }
    if (rec.claim) expect(rec.claim.tricks).toBeGreaterThanOrEqual(0);
  }
}

const bytes = fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('latin1'));
const PBN_PIECES = ['[', ']', '"', '{', '}', ';', '%', '\n', '\r\n', ' ', '\t', 'Play', 'Deal', 'Contract', 'Declarer',
  'Result', 'Board', 'Event', 'Note', 'Auction', '"W"', '"4S"', '"^N"', '"9"', '"#"', '"##x"', 'N:', 'AKQ.JT9.876.5432',
  'SA', 'hk', 'C2', 'DT', '-', '--', '*', '+', '^R', '^L', '^I', '=1=', '$7', '!', '?', 'Pass', 'X', 'NT', '13', '\\'];
const LIN_PIECES = ['|', '\n', 'md', 'pc', 'mb', 'mc', 'qx', 'pn', 'sv', 'rs', 'ah', 'pg', 'an', '1', '3', 'SAKQ', 'H2',
  'D', 'C', ',', 'p', 'd', 'r', '1N', '7S!', 'o15', 'c2', 'Board 3', '13', 'x', 'S', 'T', '10', '3NN=', '4HWx-2'];
const soup = (pieces: string[]): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 120 }).map((a) => a.join(''));

describe('parsePbn never throws', () => {
  it('on random strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => sane(parsePbn(s))), { numRuns: 400 });
  });
  it('on random bytes', () => {
    fc.assert(fc.property(bytes, (s) => sane(parsePbn(s))), { numRuns: 400 });
  });
  it('on soups of PBN tokens', () => {
    fc.assert(fc.property(soup(PBN_PIECES), (s) => sane(parsePbn(s))), { numRuns: 1000 });
  });
  it('on a real file with a slice replaced, and its export reads back', () => {
    const base = dataFile('bridgebots-sample.pbn');
    fc.assert(fc.property(fc.nat(base.length), fc.nat(60), soup(PBN_PIECES), (at, len, ins) => {
      const r = parsePbn(base.slice(0, at) + ins + base.slice(at + len));
      sane(r);
      sane(parsePbn(formatPbn(r.records)));
    }), { numRuns: 500 });
  });
});

describe('parseLin never throws', () => {
  it('on random strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => sane(parseLin(s))), { numRuns: 400 });
  });
  it('on random bytes', () => {
    fc.assert(fc.property(bytes, (s) => sane(parseLin(s))), { numRuns: 400 });
  });
  it('on soups of LIN tokens', () => {
    fc.assert(fc.property(soup(LIN_PIECES), (s) => sane(parseLin(s))), { numRuns: 1000 });
  });
  it('on the real file with a slice replaced', () => {
    const base = dataFile('bridgebots-sample.lin');
    fc.assert(fc.property(fc.nat(base.length), fc.nat(30), soup(LIN_PIECES), (at, len, ins) => {
      sane(parseLin(base.slice(0, at) + ins + base.slice(at + len)));
    }), { numRuns: 500 });
  });
});
