// The field grammar of PROTOCOL.md §13: canonical decimals, UIDs, and each type's fields, checked and
// converted into a frame's values.
//
// Apart from the line-level checks (protocol-decode.ts) because the grammar is shared: the decoder,
// the old token-splitting reference decoder of the equivalence test (via codecParts), announcedProto.
import { upperHex } from './protocol-checksum.js';
import {
  BOOT_MAX, BOOT_MIN, ERR_LINE_CODES, type Frame, HOST_TYPES, MAX_READERS, MISSES_MAX, MISSES_MIN, NAK_CODES,
  POLL_MS_MAX, POLL_MS_MIN, READER_FAULTS, REC_KINDS, RESET_CAUSES, SEQ_MAX,
} from './protocol-types.js';

/** Canonical unsigned decimal within [min, max], or undefined. */
export function decimal(t: string, min: number, max: number): number | undefined {
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

/** Fields after the type word, per type (`err` varies with its kind and is counted by the decoder). */
export const FIELD_COUNT: Record<string, number> = {
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
export function parseFields(type: string, fld: string[], f: Frame): boolean {
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
