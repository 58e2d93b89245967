import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  announcedProto,
  crc8,
  decodeLine,
  encodeFrame,
  HOST_TYPES,
  LINE_ERRORS,
  NAK_CODES,
  PROTOCOL_VERSION,
  seqAfter,
  SeqTracker,
  withCrc,
  type Frame,
  type LineError,
} from '../../src/hardware/protocol.js';

type Vector =
  | { line: string; valid: true; frame: Frame; note: string }
  | { line: string; valid: false; error: LineError; note: string };

const vectors = JSON.parse(
  readFileSync(new URL('../../firmware-bridge/vectors/protocol-vectors.json', import.meta.url), 'utf8'),
) as Vector[];

/** Vectors hold non-ASCII characters as their UTF-8 bytes; feed them as bytes read Latin-1. */
function asBytes(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

describe('protocol vectors (firmware-bridge/vectors/protocol-vectors.json)', () => {
  it('the file has vectors for every message type and every error code', () => {
    expect(vectors.length).toBeGreaterThan(100);
    const types = new Set(vectors.filter((v) => v.valid).map((v) => (v as { frame: Frame }).frame.type));
    for (const t of ['hello', 'cfg', 'hb', 'arrive', 'leave', 'err', 'ack', 'nak', 'snap', 'tag', 'snapend',
      'identity', 'replay', 'rec', 'replayend', 'ping', 'reset', 'present', 'set', 'ident', 'since']) expect(types.has(t), t).toBe(true);
    const errors = new Set(vectors.filter((v) => !v.valid).map((v) => (v as { error: string }).error));
    for (const e of LINE_ERRORS) expect(errors.has(e), e).toBe(true);
  });

  it('every ack cmd and every nak code has a valid vector, and every device hello/identity is version 2', () => {
    const frames = vectors.filter((v) => v.valid).map((v) => (v as { frame: Frame }).frame);
    const acked = new Set(frames.filter((f) => f.type === 'ack').map((f) => f.cmd));
    for (const c of HOST_TYPES) expect(acked.has(c), c).toBe(true);
    const naks = new Set(frames.filter((f) => f.type === 'nak').map((f) => f.code));
    for (const c of NAK_CODES) expect(naks.has(c), c).toBe(true);
    expect(PROTOCOL_VERSION).toBe(2);
    // one hello deliberately claims protocol 9 (an incompatible device); every other one is v2
    const protos = frames.filter((f) => f.type === 'hello' || f.type === 'identity').map((f) => f.proto);
    expect(protos.filter((p) => p !== PROTOCOL_VERSION)).toEqual([9]);
  });

  for (const [i, v] of vectors.entries()) {
    it(`#${i} ${JSON.stringify(v.line).slice(0, 60)} — ${v.note}`, () => {
      if (v.valid) {
        const r = decodeLine(v.line);
        expect(r).toEqual({ ok: true, frame: v.frame });
        if (r.ok) expect(Object.keys(r.frame).sort()).toEqual(Object.keys(v.frame).sort());
        expect(encodeFrame(v.frame)).toBe(v.line.replace(/\r$/, ''));
        // the same verdict byte-for-byte
        expect(decodeLine(asBytes(v.line))).toEqual(r);
      } else {
        expect(decodeLine(v.line)).toEqual({ ok: false, error: v.error });
        expect(decodeLine(asBytes(v.line))).toEqual({ ok: false, error: v.error });
      }
    });
  }
});

describe('crc8', () => {
  it('is CRC-8/SMBUS (check value 0xF4) and matches the worked example', () => {
    expect(crc8('123456789')).toBe(0xf4);
    expect(crc8('41 ping')).toBe(0x33);
    expect(withCrc('41 ping')).toBe('41 ping*33');
    expect(crc8('')).toBe(0);
  });

  it('every single-byte corruption of valid lines is rejected', () => {
    const lines = vectors.filter((v) => v.valid).map((v) => v.line.replace(/\r$/, '')).slice(0, 12);
    let tried = 0;
    for (const line of lines) {
      for (let i = 0; i < line.length; i++) {
        for (let b = 0; b < 256; b++) {
          if (b === line.charCodeAt(i) || b === 0x0a) continue;
          const bad = line.slice(0, i) + String.fromCharCode(b) + line.slice(i + 1);
          // a changed trailing byte to CR shortens the line: still rejected, just not by CRC
          const r = decodeLine(bad);
          expect(r.ok, JSON.stringify(bad)).toBe(false);
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThan(10_000);
  });
});

describe('encodeFrame', () => {
  it('encodes host commands with the example-session checksums', () => {
    expect(encodeFrame({ seq: 1, type: 'ident' })).toBe('1 ident*21');
    expect(encodeFrame({ seq: 2, type: 'present' })).toBe('2 present*86');
    expect(encodeFrame({ seq: 3, type: 'set', pollMs: 40, misses: 4 })).toBe('3 set 40 4*DB');
    expect(encodeFrame({ seq: 12, type: 'arrive', reader: 0, uid: '04A1B2C3' })).toMatch(/^12 arrive 0 04A1B2C3\*[0-9A-F]{2}$/);
  });
  it('throws on out-of-range or unknown frames instead of writing a bad line', () => {
    expect(() => encodeFrame({ seq: 3, type: 'set', pollMs: 5, misses: 4 })).toThrow();
    expect(() => encodeFrame({ seq: 3, type: 'pong' })).toThrow();
    expect(() => encodeFrame({ seq: 3, type: 'arrive', reader: 0, uid: '04a1b2c3' })).toThrow();
    expect(() => encodeFrame({ seq: 0, type: 'arrive', reader: 0, uid: '04A1B2C3' })).toThrow();
    expect(() => encodeFrame({ seq: 3, type: 'err', kind: 'fire' })).toThrow();
    expect(() => encodeFrame({ seq: 0, type: 'hello', fw: '1', proto: 2, readers: 4, reset: 'power', boot: 0 })).toThrow();
    expect(() => encodeFrame({ seq: 9, type: 'rec', oseq: 3, kind: 'tag', reader: 0, uid: 'DEADBEEF' })).toThrow();
    expect(() => encodeFrame({ seq: 9, type: 'since', boot: 1 })).toThrow();
  });
});

describe('seqAfter (PROTOCOL.md §4 modular order)', () => {
  it('orders device seqs across the 65535 → 1 wrap, and everything after the hello (0)', () => {
    expect(seqAfter(8, 7)).toBe(true);
    expect(seqAfter(7, 8)).toBe(false);
    expect(seqAfter(7, 7)).toBe(false);
    expect(seqAfter(1, 65535)).toBe(true);
    expect(seqAfter(65535, 1)).toBe(false);
    expect(seqAfter(5, 0)).toBe(true);
    expect(seqAfter(32766, 0)).toBe(true);
    expect(seqAfter(32767, 0)).toBe(false); // half the ring away: stale, as a §4 duplicate
  });
});

describe('announcedProto', () => {
  it('reads the proto of a hello/identity with a good CRC, even a version 1 one that no longer decodes', () => {
    const v1 = withCrc('0 hello 1.0.0 1 4 power');
    expect(decodeLine(v1)).toEqual({ ok: false, error: 'missing-field' });
    expect(announcedProto(v1)).toBe(1);
    expect(announcedProto(`${withCrc('7 identity 1.0.0 9 4 power 5 3')}\r`)).toBe(9);
    expect(announcedProto(withCrc('0 hello 1.0.0 2 4 power 4660'))).toBe(2);
  });
  it('is undefined for other types, a bad CRC or a malformed proto', () => {
    expect(announcedProto(withCrc('3 hb 2 OOOO 0000 7'))).toBeUndefined();
    expect(announcedProto('0 hello 1.0.0 1 4 power*00')).toBeUndefined();
    expect(announcedProto(withCrc('0 hello 1.0.0 01 4 power 7'))).toBeUndefined();
    expect(announcedProto(withCrc('0 hello'))).toBeUndefined();
  });
});

describe('SeqTracker (PROTOCOL.md §4)', () => {
  it('classifies first, in order, gap, duplicate, restart and the 65535 → 1 wrap', () => {
    const t = new SeqTracker();
    expect(t.accept(7, false)).toEqual({ verdict: 'first' });
    expect(t.accept(8, false)).toEqual({ verdict: 'in-order' });
    expect(t.accept(8, false)).toEqual({ verdict: 'duplicate' });
    expect(t.accept(5, false)).toEqual({ verdict: 'duplicate' });
    expect(t.accept(11, false)).toEqual({ verdict: 'gap', lost: 2 });
    expect(t.accept(0, true)).toEqual({ verdict: 'restart' });
    expect(t.accept(1, false)).toEqual({ verdict: 'in-order' });
    const w = new SeqTracker();
    w.accept(65534, false);
    expect(w.accept(65535, false)).toEqual({ verdict: 'in-order' });
    expect(w.accept(1, false)).toEqual({ verdict: 'in-order' });
    const g = new SeqTracker();
    g.accept(65535, false);
    expect(g.accept(3, false)).toEqual({ verdict: 'gap', lost: 2 });
  });
});
