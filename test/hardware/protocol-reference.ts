// The line decoder as it was before the fast path (commit 6697e3c): every line cut into token
// strings, every field parsed by the generic parseFields. Kept as the oracle of
// decode-equivalence.test.ts, which checks that the fast decodeLine returns the same result (same
// error code, same frame with the same keys in the same order) for valid and damaged lines alike.
import {
  BOOT_MAX,
  BOOT_MIN,
  DEVICE_TYPES,
  ERR_LINE_CODES,
  type DecodeResult,
  type Frame,
  HOST_TYPES,
  type LineError,
  MAX_LINE,
  MAX_READERS,
  MISSES_MAX,
  MISSES_MIN,
  NAK_CODES,
  POLL_MS_MAX,
  POLL_MS_MIN,
  READER_FAULTS,
  REC_KINDS,
  RESET_CAUSES,
  SEQ_MAX,
} from '../../src/hardware/protocol.js';

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
function isUidHex(s: string): boolean {
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
 * Decodes one received line (the bytes before the `\n`, one char per byte; a trailing `\r` is
 * allowed). Applies the checks of PROTOCOL.md §8 in order. `empty` is reported but callers should
 * ignore it rather than count it. Error results are shared frozen objects.
 */
export function referenceDecodeLine(line: string): DecodeResult {
  let len = line.length;
  // 1. one trailing CR
  if (len > 0 && line.charCodeAt(len - 1) === 0x0d) len--;
  // 2. empty
  if (len === 0) return ERRORS.empty;
  // 3. length
  if (len > MAX_LINE) return ERRORS['too-long'];
  // One pass over the bytes computes what checks 4, 6 and 7 need; the verdicts are still given in
  // the order of §8 (a line with a bad byte is bad-char even if its trailer is missing).
  const bodyLen = len - 3;
  let crc = 0;
  let framing = true;
  const tok: string[] = [];
  let start = 0;
  for (let i = 0; i < len; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return ERRORS['bad-char']; // 4.
    if (i < bodyLen) {
      crc = CRC_TABLE[crc ^ c];
      if (c === 0x20) {
        if (i === start) framing = false;
        else tok.push(line.slice(start, i));
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
  tok.push(line.slice(start, bodyLen));
  // 8. seq
  const seq = decimal(tok[0], 0, SEQ_MAX);
  if (seq === undefined) return ERRORS['bad-seq'];
  // 9. type present
  if (tok.length < 2) return ERRORS['missing-field'];
  const type = tok[1];
  // 10. known type
  const isDevice = DEVICE_SET.has(type);
  if (!isDevice && !HOST_SET.has(type)) return ERRORS['unknown-type'];
  // 11-12. field count (err: kind first)
  const nFields = tok.length - 2;
  let expected: number;
  if (type === 'err') {
    if (nFields === 0) return ERRORS['missing-field'];
    const kind = tok[2];
    if (kind === 'reader') expected = 3;
    else if (kind === 'overflow' || kind === 'line') expected = 2;
    else return ERRORS['bad-field'];
  } else {
    expected = FIELD_COUNT[type];
  }
  if (nFields < expected) return ERRORS['missing-field'];
  if (nFields > expected) return ERRORS['extra-field'];
  // 13. fields
  const frame: Frame = { seq, type };
  if (!parseFields(type, tok.slice(2), frame)) return ERRORS['bad-field'];
  // 14. seq 0 is hello and only hello (device types)
  if (isDevice && (seq === 0) !== (type === 'hello')) return ERRORS['bad-seq'];
  return { ok: true, frame };
}
