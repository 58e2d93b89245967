// decodeLine has a fast path (token bounds instead of token strings; arrive/leave/tag/hb parsed
// inline). It must decide exactly as the generic decoder did: same error code for every damaged
// line, same frame (same keys, same order) for every valid one. The oracle is that decoder, kept in
// protocol-reference.ts; the lines are the protocol vectors plus seeded mutations of valid lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeLine, encodeFrame, type Frame, withCrc } from '../../src/hardware/protocol.js';
import { createRng } from '../../src/sim/prng.js';
import { referenceDecodeLine } from './protocol-reference.js';

const vectors = JSON.parse(
  readFileSync(new URL('../../firmware-bridge/vectors/protocol-vectors.json', import.meta.url), 'utf8'),
) as Array<{ line: string }>;

/** The decoder's verdict as text: error code, or the frame's JSON (key order included). */
function verdict(r: ReturnType<typeof decodeLine>): string {
  return r.ok ? JSON.stringify(r.frame) : r.error;
}

const SEEDS: Frame[] = [
  { seq: 7, type: 'arrive', reader: 3, uid: '04A1B2C3D4E5F6' },
  { seq: 65535, type: 'leave', reader: 0, uid: '0123ABCD' },
  { seq: 12, type: 'tag', reader: 7, uid: '0123456789ABCDEF0123' },
  { seq: 9, type: 'hb', uptimeS: 4096, status: 'OWFO', tags: [1, 0, 9, 2], boot: 513 },
  { seq: 0, type: 'hello', fw: '1.0.0', proto: 2, readers: 4, reset: 'power', boot: 4660 },
  { seq: 3, type: 'cfg', pollMs: 50, misses: 3 },
  { seq: 4, type: 'err', kind: 'reader', reader: 1, code: 'timeout' },
  { seq: 5, type: 'rec', oseq: 2, kind: 'arrive', reader: 2, uid: '04A1B2C3D4E5F6' },
  { seq: 6, type: 'snapend', hseq: 1, total: 2, status: 'OOOO' },
];

// Bytes a mutation puts in: the framing characters, digits, hex, letters of type words, controls.
const ALPHABET = ' *0123456789ABCDEFOWFabcehilnorstvy\r\t\x7f\xe9';

/** One seeded damage to `line`: replace, insert or delete a byte, or re-checksum a damaged body. */
function mutate(line: string, rng: ReturnType<typeof createRng>): string {
  const at = rng.int(line.length + 1);
  const ch = ALPHABET[rng.int(ALPHABET.length)];
  switch (rng.int(5)) {
    case 0:
      return line.slice(0, at) + ch + line.slice(at + 1);
    case 1:
      return line.slice(0, at) + ch + line.slice(at);
    case 2:
      return line.slice(0, at) + line.slice(at + 1);
    default: {
      // Damage the body and give it a good checksum, so the field and seq checks are reached.
      const body = line.slice(0, -3);
      const k = rng.int(body.length + 1);
      const damaged = rng.int(2) === 0 ? body.slice(0, k) + ch + body.slice(k + 1) : body.slice(0, k) + ch + body.slice(k);
      return withCrc(damaged);
    }
  }
}

describe('decodeLine fast path = the generic decoder', () => {
  it('gives the same verdict on every protocol vector', () => {
    for (const v of vectors) {
      const line = Buffer.from(v.line, 'utf8').toString('latin1');
      expect(verdict(decodeLine(line)), line).toBe(verdict(referenceDecodeLine(line)));
    }
  });

  it('gives the same verdict on 40,000 seeded mutations of valid lines (valid and invalid results both occur)', () => {
    const rng = createRng(20_261_204);
    const seen = new Set<string>();
    for (const f of SEEDS) {
      let line = encodeFrame(f);
      for (let i = 0; i < 40_000 / SEEDS.length; i++) {
        // Mostly one damage; now and then a second one on top.
        const m = mutate(i % 7 === 0 ? mutate(line, rng) : line, rng);
        const got = verdict(decodeLine(m));
        expect(got, JSON.stringify(m)).toBe(verdict(referenceDecodeLine(m)));
        seen.add(got.startsWith('{') ? 'ok' : got);
        if (i % 1000 === 999) line = encodeFrame({ ...f, seq: f.type === 'hello' ? 0 : 1 + rng.int(65535) });
      }
    }
    // The mutations reach every check, valid results included.
    expect([...seen].sort()).toEqual(
      ['bad-char', 'bad-crc', 'bad-field', 'bad-frame', 'bad-seq', 'extra-field', 'missing-field', 'no-checksum', 'ok', 'unknown-type'].sort(),
    );
  });
});
