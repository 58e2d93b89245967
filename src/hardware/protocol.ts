// The firmware-bridge line protocol, version 2: codec for both directions.
//
// firmware-bridge/PROTOCOL.md is the contract; firmware-bridge/vectors/protocol-vectors.json pins it
// down byte for byte, and test/hardware/protocol.test.ts checks every vector against this module.
// The checks in `decodeLine` run in the order of PROTOCOL.md §8, so the first failing check decides
// the error code exactly as the C++ reference (firmware-bridge/src/frame_codec.cpp) does.
//
// A decoded frame (PROTOCOL.md §13) is a plain object: `seq`, `type`, and exactly the fields of its
// type, with JSON types (numbers as numbers, `hb.tags` as an array of numbers).

export const PROTOCOL_VERSION = 2;
/** Maximum line length in bytes, without the terminator (PROTOCOL.md §3). */
export const MAX_LINE = 96;
/** Largest sequence number, device and host alike. */
export const SEQ_MAX = 65535;
/** Limits from PROTOCOL.md §5 / §16. */
export const MAX_READERS = 8;
export const POLL_MS_MIN = 10;
export const POLL_MS_MAX = 1000;
export const MISSES_MIN = 1;
export const MISSES_MAX = 20;
export const MAX_FIRMWARE_LENGTH = 16;
/** Boot ids: 1..65535, a new random one at every reset (PROTOCOL.md §4; 0 is never used). */
export const BOOT_MIN = 1;
export const BOOT_MAX = 65535;
/** arrive/leave lines the device keeps for `since` (PROTOCOL.md §11, `kEventLogSize`). */
export const EVENT_LOG_SIZE = 256;

export type Frame = { seq: number; type: string; [field: string]: unknown };

export type LineError =
  | 'empty'
  | 'too-long'
  | 'bad-char'
  | 'no-checksum'
  | 'bad-crc'
  | 'bad-frame'
  | 'bad-seq'
  | 'unknown-type'
  | 'missing-field'
  | 'extra-field'
  | 'bad-field';

export const LINE_ERRORS: readonly LineError[] = [
  'empty',
  'too-long',
  'bad-char',
  'no-checksum',
  'bad-crc',
  'bad-frame',
  'bad-seq',
  'unknown-type',
  'missing-field',
  'extra-field',
  'bad-field',
];

export type DecodeResult = { ok: true; frame: Frame } | { ok: false; error: LineError };

export const DEVICE_TYPES = [
  'hello',
  'cfg',
  'hb',
  'arrive',
  'leave',
  'err',
  'ack',
  'nak',
  'snap',
  'tag',
  'snapend',
  'identity',
  'replay',
  'rec',
  'replayend',
] as const;
export const HOST_TYPES = ['ping', 'reset', 'present', 'set', 'ident', 'since'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];
export type HostType = (typeof HOST_TYPES)[number];

export const RESET_CAUSES = ['power', 'pin', 'watchdog', 'host', 'debug', 'unknown'] as const;
export const READER_FAULTS = ['no-chip', 'timeout', 'comm', 'overfull'] as const;
export const ERR_LINE_CODES = ['too-long', 'bad-char', 'no-checksum', 'bad-crc', 'bad-frame', 'bad-seq'] as const;
export const NAK_CODES = ['unknown-type', 'missing-field', 'extra-field', 'bad-field', 'gone'] as const;
/** The type word a `rec` carries: the logged line's type. */
export const REC_KINDS = ['arrive', 'leave'] as const;
export type ReaderState = 'O' | 'W' | 'F';

// ---- typed views of decoded frames (for consumers; decodeLine returns the generic Frame) ----

export type HelloFrame = { seq: number; type: 'hello'; fw: string; proto: number; readers: number; reset: string; boot: number };
export type IdentityFrame = Omit<HelloFrame, 'type'> & { type: 'identity'; uptimeS: number };
export type CfgFrame = { seq: number; type: 'cfg'; pollMs: number; misses: number };
export type HbFrame = { seq: number; type: 'hb'; uptimeS: number; status: string; tags: number[]; boot: number };
export type TagEventFrame = { seq: number; type: 'arrive' | 'leave' | 'tag'; reader: number; uid: string };
export type ErrFrame =
  | { seq: number; type: 'err'; kind: 'reader'; reader: number; code: string }
  | { seq: number; type: 'err'; kind: 'overflow'; dropped: number }
  | { seq: number; type: 'err'; kind: 'line'; code: string };
export type AckFrame = { seq: number; type: 'ack'; hseq: number; cmd: string };
export type NakFrame = { seq: number; type: 'nak'; hseq: number; code: string };
export type SnapFrame = { seq: number; type: 'snap'; hseq: number; total: number };
export type SnapEndFrame = { seq: number; type: 'snapend'; hseq: number; total: number; status: string };
export type SinceFrame = { seq: number; type: 'since'; boot: number; after: number };
export type ReplayFrame = { seq: number; type: 'replay' | 'replayend'; hseq: number; count: number };
export type RecFrame = { seq: number; type: 'rec'; oseq: number; kind: 'arrive' | 'leave'; reader: number; uid: string };

// ---- CRC-8/SMBUS ----

const CRC_TABLE: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let b = 0; b < 8; b++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
    t[i] = c;
  }
  return t;
})();

/**
 * CRC-8/SMBUS (poly 0x07, init 0, no reflection, no xorout) over the body bytes. The text is taken
 * one byte per UTF-16 code unit (low 8 bits), i.e. as Latin-1, which is what a line of protocol
 * ASCII is.
 */
export function crc8(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[crc ^ (text.charCodeAt(i) & 0xff)];
  return crc;
}

const HEX = '0123456789ABCDEF';
function hex2(n: number): string {
  return HEX[(n >> 4) & 0xf] + HEX[n & 0xf];
}
function upperHex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

// ---- field grammar ----

/** Canonical unsigned decimal within [min, max], or undefined. */
function decimal(t: string, min: number, max: number): number | undefined {
  if (t.length === 0 || t.length > 10) return undefined;
  if (t.length > 1 && t.charCodeAt(0) === 0x30) return undefined;
  let v = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
    v = v * 10 + (c - 0x30);
  }
  return v >= min && v <= max ? v : undefined;
}

const FW_RE = /^[0-9A-Za-z._+-]{1,16}$/;
const STATUS_RE = /^[OWF]{1,8}$/;
/** True for a UID as the protocol writes it: 4, 7 or 10 bytes in uppercase hex. */
export function isUidHex(s: string): boolean {
  const n = s.length;
  if (n !== 14 && n !== 8 && n !== 20) return false;
  for (let i = 0; i < n; i++) if (upperHex(s.charCodeAt(i)) < 0) return false;
  return true;
}

function oneOf<T extends string>(list: readonly T[], s: string): s is T {
  return (list as readonly string[]).includes(s);
}

const FIELD_COUNT: Record<string, number> = {
  hello: 5,
  cfg: 2,
  hb: 4,
  arrive: 2,
  leave: 2,
  ack: 2,
  nak: 2,
  snap: 2,
  tag: 2,
  snapend: 3,
  identity: 6,
  replay: 2,
  rec: 4,
  replayend: 2,
  ping: 0,
  reset: 0,
  present: 0,
  set: 2,
  ident: 0,
  since: 2,
};

/** Parses the fields of `type` (tokens after the type) into `f`; false on the first bad field. */
function parseFields(type: string, fld: string[], f: Frame): boolean {
  switch (type) {
    case 'hello':
    case 'identity': {
      if (!FW_RE.test(fld[0])) return false;
      const proto = decimal(fld[1], 1, 255);
      if (proto === undefined) return false;
      const readers = decimal(fld[2], 1, MAX_READERS);
      if (readers === undefined) return false;
      if (!oneOf(RESET_CAUSES, fld[3])) return false;
      f.fw = fld[0];
      f.proto = proto;
      f.readers = readers;
      f.reset = fld[3];
      if (type === 'identity') {
        const up = decimal(fld[4], 0, 0xffffffff);
        if (up === undefined) return false;
        f.uptimeS = up;
      }
      const boot = decimal(fld[type === 'identity' ? 5 : 4], BOOT_MIN, BOOT_MAX);
      if (boot === undefined) return false;
      f.boot = boot;
      return true;
    }
    case 'cfg':
    case 'set': {
      const pollMs = decimal(fld[0], POLL_MS_MIN, POLL_MS_MAX);
      if (pollMs === undefined) return false;
      const misses = decimal(fld[1], MISSES_MIN, MISSES_MAX);
      if (misses === undefined) return false;
      f.pollMs = pollMs;
      f.misses = misses;
      return true;
    }
    case 'hb': {
      const up = decimal(fld[0], 0, 0xffffffff);
      if (up === undefined) return false;
      if (!STATUS_RE.test(fld[1])) return false;
      const tags = fld[2];
      if (tags.length !== fld[1].length) return false;
      const counts: number[] = [];
      for (let i = 0; i < tags.length; i++) {
        const c = tags.charCodeAt(i);
        if (c < 0x30 || c > 0x39) return false;
        counts.push(c - 0x30);
      }
      const boot = decimal(fld[3], BOOT_MIN, BOOT_MAX);
      if (boot === undefined) return false;
      f.uptimeS = up;
      f.status = fld[1];
      f.tags = counts;
      f.boot = boot;
      return true;
    }
    case 'arrive':
    case 'leave':
    case 'tag': {
      const reader = decimal(fld[0], 0, MAX_READERS - 1);
      if (reader === undefined || !isUidHex(fld[1])) return false;
      f.reader = reader;
      f.uid = fld[1];
      return true;
    }
    case 'err': {
      switch (fld[0]) {
        case 'reader': {
          const reader = decimal(fld[1], 0, MAX_READERS - 1);
          if (reader === undefined || !oneOf(READER_FAULTS, fld[2])) return false;
          f.kind = 'reader';
          f.reader = reader;
          f.code = fld[2];
          return true;
        }
        case 'overflow': {
          const dropped = decimal(fld[1], 1, SEQ_MAX);
          if (dropped === undefined) return false;
          f.kind = 'overflow';
          f.dropped = dropped;
          return true;
        }
        case 'line':
          if (!oneOf(ERR_LINE_CODES, fld[1])) return false;
          f.kind = 'line';
          f.code = fld[1];
          return true;
        default:
          return false;
      }
    }
    case 'ack':
    case 'nak': {
      const hseq = decimal(fld[0], 0, SEQ_MAX);
      if (hseq === undefined) return false;
      if (type === 'ack') {
        if (!oneOf(HOST_TYPES, fld[1])) return false;
        f.hseq = hseq;
        f.cmd = fld[1];
      } else {
        if (!oneOf(NAK_CODES, fld[1])) return false;
        f.hseq = hseq;
        f.code = fld[1];
      }
      return true;
    }
    case 'snap':
    case 'snapend': {
      const hseq = decimal(fld[0], 0, SEQ_MAX);
      const total = decimal(fld[1], 0, SEQ_MAX);
      if (hseq === undefined || total === undefined) return false;
      if (type === 'snapend' && !STATUS_RE.test(fld[2])) return false;
      f.hseq = hseq;
      f.total = total;
      if (type === 'snapend') f.status = fld[2];
      return true;
    }
    case 'since': {
      const boot = decimal(fld[0], BOOT_MIN, BOOT_MAX);
      const after = decimal(fld[1], 0, SEQ_MAX);
      if (boot === undefined || after === undefined) return false;
      f.boot = boot;
      f.after = after;
      return true;
    }
    case 'replay':
    case 'replayend': {
      const hseq = decimal(fld[0], 0, SEQ_MAX);
      const count = decimal(fld[1], 0, SEQ_MAX);
      if (hseq === undefined || count === undefined) return false;
      f.hseq = hseq;
      f.count = count;
      return true;
    }
    case 'rec': {
      // oseq is a device seq of an arrive/leave line, which is never 0 (the hello's).
      const oseq = decimal(fld[0], 1, SEQ_MAX);
      if (oseq === undefined || !oneOf(REC_KINDS, fld[1])) return false;
      const reader = decimal(fld[2], 0, MAX_READERS - 1);
      if (reader === undefined || !isUidHex(fld[3])) return false;
      f.oseq = oseq;
      f.kind = fld[1];
      f.reader = reader;
      f.uid = fld[3];
      return true;
    }
    case 'ping':
    case 'reset':
    case 'present':
    case 'ident':
      return true;
    default:
      return false;
  }
}

const ERRORS: { [E in LineError]: { ok: false; error: E } } = Object.freeze({
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

const DEVICE_SET: ReadonlySet<string> = new Set(DEVICE_TYPES);
const HOST_SET: ReadonlySet<string> = new Set(HOST_TYPES);

/**
 * The codec's unchanged parts that the old, token-splitting decoder of the equivalence test shares
 * (test/hardware/protocol-reference.ts), and the CRC table of the byte-level decoder of the lines
 * of play (card-line.ts): not API.
 */
export const codecParts = { CRC_TABLE, upperHex, decimal, FIELD_COUNT, parseFields, ERRORS, DEVICE_SET, HOST_SET } as const;

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

function fieldTokens(frame: Frame): string[] {
  const f = frame as Record<string, unknown>;
  const s = (k: string): string => String(f[k]);
  switch (frame.type) {
    case 'hello':
      return [s('fw'), s('proto'), s('readers'), s('reset'), s('boot')];
    case 'identity':
      return [s('fw'), s('proto'), s('readers'), s('reset'), s('uptimeS'), s('boot')];
    case 'cfg':
    case 'set':
      return [s('pollMs'), s('misses')];
    case 'hb': {
      const tags = f.tags;
      if (!Array.isArray(tags)) throw new Error('encodeFrame: hb.tags must be an array of digits');
      return [s('uptimeS'), s('status'), tags.map((n) => String(n)).join(''), s('boot')];
    }
    case 'arrive':
    case 'leave':
    case 'tag':
      return [s('reader'), s('uid')];
    case 'err':
      switch (f.kind) {
        case 'reader':
          return ['reader', s('reader'), s('code')];
        case 'overflow':
          return ['overflow', s('dropped')];
        case 'line':
          return ['line', s('code')];
        default:
          throw new Error(`encodeFrame: unknown err kind ${String(f.kind)}`);
      }
    case 'ack':
      return [s('hseq'), s('cmd')];
    case 'nak':
      return [s('hseq'), s('code')];
    case 'snap':
      return [s('hseq'), s('total')];
    case 'snapend':
      return [s('hseq'), s('total'), s('status')];
    case 'since':
      return [s('boot'), s('after')];
    case 'replay':
    case 'replayend':
      return [s('hseq'), s('count')];
    case 'rec':
      return [s('oseq'), s('kind'), s('reader'), s('uid')];
    case 'ping':
    case 'reset':
    case 'present':
    case 'ident':
      return [];
    default:
      throw new Error(`encodeFrame: unknown type ${frame.type}`);
  }
}

/** The body and checksum of a line, without any terminator: `body "*" HH`. */
export function withCrc(body: string): string {
  return `${body}*${hex2(crc8(body))}`;
}

/**
 * Encodes a frame (§13 field names) to a line WITHOUT its terminator. Like the C++ encoder it
 * self-checks by decoding the result: a frame whose fields are out of range, or whose line would
 * not decode back to the same frame, throws rather than producing a line the receiver rejects.
 */
export function encodeFrame(frame: Frame): string {
  const body = [String(frame.seq), frame.type, ...fieldTokens(frame)].join(' ');
  const line = withCrc(body);
  const back = decodeLine(line);
  if (!back.ok) throw new Error(`encodeFrame: ${back.error} for ${JSON.stringify(frame)}`);
  for (const k of Object.keys(back.frame)) {
    if (JSON.stringify(back.frame[k]) !== JSON.stringify(frame[k])) {
      throw new Error(`encodeFrame: field ${k} does not round-trip in ${JSON.stringify(frame)}`);
    }
  }
  return line;
}

/** True for types the device sends (hello, hb, arrive...); false for host commands. */
export function isDeviceType(type: string): type is DeviceType {
  return DEVICE_SET.has(type);
}
/** True for host command types (ping, reset, present...). */
export function isHostType(type: string): type is HostType {
  return HOST_SET.has(type);
}

/** Next device seq after `last` (wraps 65535 → 1; 0 is reserved for hello). */
export function nextDeviceSeq(last: number): number {
  return last >= SEQ_MAX ? 1 : last + 1;
}
/**
 * True when device seq `a` comes after `b` in the wrapping order of PROTOCOL.md §4:
 * 1 ≤ (a − b) mod 65535 < 32767. `b` may be 0 (the hello).
 */
export function seqAfter(a: number, b: number): boolean {
  const d = (a - b + SEQ_MAX) % SEQ_MAX;
  return d >= 1 && d < Math.floor(SEQ_MAX / 2);
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

/** Next host seq (wraps 65535 → 0). */
export function nextHostSeq(last: number): number {
  return last >= SEQ_MAX ? 0 : last + 1;
}

export type SeqVerdict =
  | { verdict: 'restart' }
  | { verdict: 'first' }
  | { verdict: 'in-order' }
  | { verdict: 'gap'; lost: number }
  | { verdict: 'duplicate' };

const RESTART: SeqVerdict = Object.freeze({ verdict: 'restart' });
const FIRST: SeqVerdict = Object.freeze({ verdict: 'first' });
const IN_ORDER: SeqVerdict = Object.freeze({ verdict: 'in-order' });
const DUPLICATE: SeqVerdict = Object.freeze({ verdict: 'duplicate' });

/** Host-side device sequence tracking (PROTOCOL.md §4; reference firmware-bridge/src/seq.cpp). */
export class SeqTracker {
  private last = 0;
  private have = false;

  /** Forget the history: the next line is "first" (call when the port is (re)opened). */
  reset(): void {
    this.have = false;
    this.last = 0;
  }

  accept(seq: number, isHello: boolean): SeqVerdict {
    if (isHello) {
      this.have = true;
      this.last = 0;
      return RESTART;
    }
    if (!this.have) {
      this.have = true;
      this.last = seq;
      return FIRST;
    }
    const expected = nextDeviceSeq(this.last);
    if (seq === expected) {
      this.last = seq;
      return IN_ORDER;
    }
    const ring = SEQ_MAX;
    const d = (seq + ring - expected) % ring;
    if (d < Math.floor(ring / 2)) {
      this.last = seq;
      return { verdict: 'gap', lost: d };
    }
    return DUPLICATE;
  }
}
