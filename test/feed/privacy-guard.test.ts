// The privacy guard's verdicts (findLeaks) against a plain reference: the guard as it was before its strings' verdicts
// were memoised (issue 20), a fresh scan of every string and key with its path built at every node. Same problems,
// same order, same texts, on random payloads with cards, symbols, PBN hands and private keys, and with the same
// strings judged again against other sets of visible cards.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRIVATE_KEYS, cardTokensIn, findLeaks, looksLikePbnHand } from '../../src/feed/privacy.js';

function reference(payload: unknown, visible: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') {
      for (const c of cardTokensIn(v)) if (!visible.has(c)) problems.push(`${path || '/'}: names ${c}, which is not public`);
      if (looksLikePbnHand(v)) problems.push(`${path || '/'}: holds a PBN hand`);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}/${i}`));
    } else if (typeof v === 'object' && v !== null) {
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        if (PRIVATE_KEYS.has(k)) problems.push(`${path}/${k}: a private field`);
        for (const c of cardTokensIn(k)) if (!visible.has(c)) problems.push(`${path}/${k}: a key names ${c}`);
        walk((v as Record<string, unknown>)[k], `${path}/${k}`);
      }
    }
  };
  walk(payload, '');
  return problems;
}

const CARDS = ['SA', 'ST', 'S10', 'HK', 'D2', 'C9', '♠A', 'A♠', '10♥', '♣Q', 'Q♦'];
const word = fc.oneof(
  fc.constantFrom(...CARDS, 'N', 'E', 'S', 'W', 'NS', 'EW', 'SAT', 'L64A1', 'play', 'AKQ.JT9.876.5432', '...', 'x.y', ''),
  fc.string({ maxLength: 6 }),
  fc.stringMatching(/^[SHDC♠♥♦♣ 0-9AKQJT.x-]{0,30}$/),
);
const text = fc.array(word, { maxLength: 4 }).map((ws) => ws.join(' '));
const key = fc.oneof(fc.constantFrom('deal', 'cards', 'hands', 'remaining', 'tray', 'code', 'tag', 'trumpSlip', 'SA', 'HT', 'N', 'played'), fc.string({ maxLength: 4 }));
const payload = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
})).value;
const visible = fc.subarray(['SA', 'ST', 'HK', 'D2', 'C9', 'CQ', 'DQ', 'HT']).map((xs) => new Set(xs));

describe('findLeaks', () => {
  it('finds what a fresh scan of every string finds, in the same order and words', () => {
    fc.assert(fc.property(payload, visible, visible, (p, v1, v2) => {
      // Twice over, with two visible sets: a verdict remembered for a string must not carry one set's answer to the other.
      expect(findLeaks(p, v1)).toEqual(reference(p, v1));
      expect(findLeaks(p, v2)).toEqual(reference(p, v2));
      expect(findLeaks(p, v1)).toEqual(reference(p, v1));
    }), { numRuns: 2000, seed: 20 });
  });

  it('names the path of each problem, for a root string, an array and nested keys', () => {
    expect(findLeaks('HK', new Set())).toEqual(['/: names HK, which is not public']);
    expect(findLeaks(['SA', ['x', 'AKQ.JT9.876.5432']], new Set(['SA']))).toEqual(['/1/1: holds a PBN hand']);
    expect(findLeaks({ deal: { tricks: [{ cards: { N: 'D2', S: 'C9' } }], hands: '' } }, new Set(['D2']))).toEqual([
      '/deal/tricks/0/cards/S: names C9, which is not public',
      '/deal/hands: a private field',
    ]);
    expect(findLeaks({ a: { HT: 1 } }, new Set())).toEqual(['/a/HT: a key names HT']);
  });

  it('judges every string again once more distinct strings than it remembers have passed', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `x${i}`);
    expect(findLeaks(many, new Set())).toEqual([]);
    expect(findLeaks([...many, 'S7', `${'y'.repeat(40)} S8`], new Set())).toEqual([
      '/10000: names S7, which is not public',
      '/10001: names S8, which is not public',
    ]);
  });
});
