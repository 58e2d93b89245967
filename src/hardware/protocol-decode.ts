// Decoding a received line (PROTOCOL.md §8): the checks in the order of the C++ reference
// (firmware-bridge/src/frame_codec.cpp), so the first failing check decides the error code.
//
// Apart from the field grammar and the encoder because this is the hot path of every session: one
// pass over the bytes, token bounds instead of strings, a fast path for the lines of play.
import { CRC_TABLE, upperHex, withCrc } from './protocol-checksum.js';
import { FIELD_COUNT, decimal, parseFields } from './protocol-fields.js';
import {
  BOOT_MAX, BOOT_MIN, DEVICE_SET, type DecodeResult, type Frame, type LineError, MAX_LINE, MAX_READERS, SEQ_MAX,
} from './protocol-types.js';

/** One shared frozen result per error code: a rejected line allocates nothing. */
export const ERRORS: { [E in LineError]: { ok: false; error: E } } = Object.freeze({
  empty: Object.freeze({ ok: false, error: 'empty' }),
  'too-long': Object.freeze({ ok: false, error: 'too-long' }),
  'bad-char': Object.freeze({ ok: false, error: 'bad-char' }),
  'no-checksum': Object.freeze({ ok: false, error: 'no-checksum' }),
  'bad-crc': Object.freeze({ ok: false, error: 'bad-crc' }),
  'bad-frame': Object.freeze({ ok: false, error: 'bad-frame' }),
  'bad-seq': Object.freeze({ ok: false, error: 'bad-seq' }),
  'unknown-type': Object.freeze({ ok: false, error: 'unknown-type' }),
  'missing-field': Object.freeze({ ok: false, error: 'missing-field' }),
  'extra-field': Object.freeze({ ok: false, error: 'extra-field' }),
  'bad-field': Object.freeze({ ok: false, error: 'bad-field' }),
} as const) as never;

/** Token bounds of the line being decoded (a 96-byte line has at most 49 tokens): no array per line. */
const TOK_START = new Int32Array(64);
const TOK_END = new Int32Array(64);

/** `decimal` over line[s, e) without cutting the token out. */
function decimalAt(line: string, s: number, e: number, min: number, max: number): number | undefined {
  const n = e - s;
  if (n === 0 || n > 10) return undefined;
  if (n > 1 && line.charCodeAt(s) === 0x30) return undefined;
  let v = 0;
  for (let i = s; i < e; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
    v = v * 10 + (c - 0x30);
  }
  return v >= min && v <= max ? v : undefined;
}

/** `isUidHex` over line[s, e). */
function isUidHexAt(line: string, s: number, e: number): boolean {
  const n = e - s;
  if (n !== 14 && n !== 8 && n !== 20) return false;
  for (let i = s; i < e; i++) if (upperHex(line.charCodeAt(i)) < 0) return false;
  return true;
}

/** The type word at line[s, e) as its shared literal, or undefined for an unknown word (no slice per line). */
function typeAt(line: string, s: number, e: number): string | undefined {
  let t: string | undefined;
  switch (e - s) {
    case 2: t = 'hb'; break;
    case 3:
      switch (line.charCodeAt(s)) {
        case 0x63: t = 'cfg'; break;
        case 0x65: t = 'err'; break;
        case 0x61: t = 'ack'; break;
        case 0x6e: t = 'nak'; break;
        case 0x74: t = 'tag'; break;
        case 0x72: t = 'rec'; break;
        case 0x73: t = 'set'; break;
        default: return undefined;
      }
      break;
    case 4: t = line.charCodeAt(s) === 0x73 ? 'snap' : 'ping'; break;
    case 5:
      switch (line.charCodeAt(s)) {
        case 0x68: t = 'hello'; break;
        case 0x6c: t = 'leave'; break;
        case 0x69: t = 'ident'; break;
        case 0x72: t = 'reset'; break;
        case 0x73: t = 'since'; break;
        default: return undefined;
      }
      break;
    case 6: t = line.charCodeAt(s) === 0x61 ? 'arrive' : 'replay'; break;
    case 7: t = line.charCodeAt(s) === 0x73 ? 'snapend' : 'present'; break;
    case 8: t = 'identity'; break;
    case 9: t = 'replayend'; break;
    default: return undefined;
  }
  return line.startsWith(t, s) ? t : undefined;
}

/**
 * Decodes one received line (the bytes before the `\n`, one char per byte; a trailing `\r` is
 * allowed). Applies the checks of PROTOCOL.md §8 in order. `empty` is reported but callers should
 * ignore it rather than count it. Error results are shared frozen objects.
 */
export function decodeLine(line: string): DecodeResult {
  let len = line.length;
  // 1. one trailing CR
  if (len > 0 && line.charCodeAt(len - 1) === 0x0d) len--;
  // 2. empty
  if (len === 0) return ERRORS.empty;
  // 3. length
  if (len > MAX_LINE) return ERRORS['too-long'];
  // One pass over the bytes computes what checks 4, 6 and 7 need; the verdicts are still given in
  // the order of §8 (a line with a bad byte is bad-char even if its trailer is missing). Tokens are
  // kept as bounds, not strings: the hot types (arrive, leave, hb) cut out only what the frame holds.
  const bodyLen = len - 3;
  let crc = 0;
  let framing = true;
  let nTok = 0;
  let start = 0;
  for (let i = 0; i < len; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return ERRORS['bad-char']; // 4.
    if (i < bodyLen) {
      crc = CRC_TABLE[crc ^ c];
      if (c === 0x20) {
        if (i === start) framing = false;
        else {
          TOK_START[nTok] = start;
          TOK_END[nTok++] = i;
        }
        start = i + 1;
      } else if (c === 0x2a) framing = false;
    }
  }
  // 5. "*HH" trailer
  if (len < 4 || line.charCodeAt(len - 3) !== 0x2a) return ERRORS['no-checksum'];
  const hi = upperHex(line.charCodeAt(len - 2));
  const lo = upperHex(line.charCodeAt(len - 1));
  if (hi < 0 || lo < 0) return ERRORS['no-checksum'];
  // 6. CRC
  if (crc !== ((hi << 4) | lo)) return ERRORS['bad-crc'];
  // 7. framing: single spaces between non-empty tokens, no '*'
  if (!framing || start === bodyLen) return ERRORS['bad-frame'];
  TOK_START[nTok] = start;
  TOK_END[nTok++] = bodyLen;
  // 8. seq
  const seq = decimalAt(line, TOK_START[0], TOK_END[0], 0, SEQ_MAX);
  if (seq === undefined) return ERRORS['bad-seq'];
  // 9. type present
  if (nTok < 2) return ERRORS['missing-field'];
  // 10. known type
  const type = typeAt(line, TOK_START[1], TOK_END[1]);
  if (type === undefined) return ERRORS['unknown-type'];
  const nFields = nTok - 2;
  // The lines of play, fast: same checks, same frame (same keys in the same order) as parseFields.
  if (type === 'arrive' || type === 'leave' || type === 'tag') {
    if (nFields < 2) return ERRORS['missing-field'];
    if (nFields > 2) return ERRORS['extra-field'];
    const reader = decimalAt(line, TOK_START[2], TOK_END[2], 0, MAX_READERS - 1);
    if (reader === undefined || !isUidHexAt(line, TOK_START[3], TOK_END[3])) return ERRORS['bad-field'];
    if (seq === 0) return ERRORS['bad-seq']; // 14. (device types: only hello has seq 0)
    const frame: Frame = { seq, type, reader, uid: line.slice(TOK_START[3], TOK_END[3]) };
    return { ok: true, frame };
  }
  if (type === 'hb') {
    if (nFields < 4) return ERRORS['missing-field'];
    if (nFields > 4) return ERRORS['extra-field'];
    const up = decimalAt(line, TOK_START[2], TOK_END[2], 0, 0xffffffff);
    if (up === undefined) return ERRORS['bad-field'];
    const ss = TOK_START[3], se = TOK_END[3];
    if (se - ss < 1 || se - ss > 8) return ERRORS['bad-field'];
    for (let i = ss; i < se; i++) {
      const c = line.charCodeAt(i);
      if (c !== 0x4f && c !== 0x57 && c !== 0x46) return ERRORS['bad-field'];
    }
    const ts = TOK_START[4], te = TOK_END[4];
    if (te - ts !== se - ss) return ERRORS['bad-field'];
    const counts: number[] = [];
    for (let i = ts; i < te; i++) {
      const c = line.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return ERRORS['bad-field'];
      counts.push(c - 0x30);
    }
    const boot = decimalAt(line, TOK_START[5], TOK_END[5], BOOT_MIN, BOOT_MAX);
    if (boot === undefined) return ERRORS['bad-field'];
    if (seq === 0) return ERRORS['bad-seq']; // 14.
    const frame: Frame = { seq, type, uptimeS: up, status: line.slice(ss, se), tags: counts, boot };
    return { ok: true, frame };
  }
  const isDevice = DEVICE_SET.has(type);
  // 11-12. field count (err: kind first)
  let expected: number;
  if (type === 'err') {
    if (nFields === 0) return ERRORS['missing-field'];
    const kind = line.slice(TOK_START[2], TOK_END[2]);
    if (kind === 'reader') expected = 3;
    else if (kind === 'overflow' || kind === 'line') expected = 2;
    else return ERRORS['bad-field'];
  } else {
    expected = FIELD_COUNT[type];
  }
  if (nFields < expected) return ERRORS['missing-field'];
  if (nFields > expected) return ERRORS['extra-field'];
  // 13. fields
  const fields: string[] = [];
  for (let i = 2; i < nTok; i++) fields.push(line.slice(TOK_START[i], TOK_END[i]));
  const frame: Frame = { seq, type };
  if (!parseFields(type, fields, frame)) return ERRORS['bad-field'];
  // 14. seq 0 is hello and only hello (device types)
  if (isDevice && (seq === 0) !== (type === 'hello')) return ERRORS['bad-seq'];
  return { ok: true, frame };
}

/**
 * The `proto` that a `hello` or `identity` line with a good checksum announces, even when the rest
 * of the line is not valid version 2 (a version 1 device's hello has no `boot`): lets a host say
 * "this bridge speaks protocol N" instead of counting a bad line. Undefined for anything else.
 */
export function announcedProto(line: string): number | undefined {
  const body = line.replace(/\r$/, '');
  if (body.length < 4 || body.charCodeAt(body.length - 3) !== 0x2a) return undefined;
  if (withCrc(body.slice(0, -3)) !== body) return undefined;
  const tok = body.slice(0, -3).split(' ');
  if (tok[1] !== 'hello' && tok[1] !== 'identity') return undefined;
  return tok.length > 3 ? decimal(tok[3], 1, 255) : undefined;
}
