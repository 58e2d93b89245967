// The lines of play (arrive, leave, hb: nearly every line of a session) decoded straight from the
// received bytes, without a string, a token array or a frame object per line.
//
// This is a fast path beside `decodeLine`, not a second codec: it answers only "this is a valid
// arrive/leave/hb line, here are its values" or "not for me". Anything else — another type, any
// error, seq 0, an odd spelling — goes to `decodeLine`, which alone decides verdicts and error
// codes. So a line accepted here must be one `decodeLine` accepts with the same values; the
// differential test (test/hardware/card-line.test.ts) holds the two to that, on valid lines and on
// random corruptions of them.
import { latin1 } from './line-splitter.js';
import { BOOT_MAX, BOOT_MIN, codecParts, MAX_LINE, MAX_READERS, SEQ_MAX } from './protocol.js';

const CRC_TABLE = codecParts.CRC_TABLE;

/** The kinds of line decodeCardLine takes (CardLine.kind). */
export const CARD_ARRIVE = 1;
export const CARD_LEAVE = 2;
export const CARD_HB = 3;

/**
 * The values of one line decoded by `decodeCardLine`. One object is reused for every line, so read
 * it before anything that may decode another line (a listener feeding the driver) runs.
 */
export interface CardLine {
  /** CARD_ARRIVE, CARD_LEAVE or CARD_HB. */
  kind: number;
  seq: number;
  /** arrive/leave: the reader, and the UID as a byte range of the line with its hash (uidHash). */
  reader: number;
  uidStart: number;
  uidEnd: number;
  uidHash: number;
  /** hb: the fields; status and tag digits as byte ranges of equal length. */
  uptimeS: number;
  statusStart: number;
  statusEnd: number;
  tagsStart: number;
  boot: number;
}

/** A CardLine to decode into (all fields present from the start: one shape). */
export function newCardLine(): CardLine {
  return { kind: 0, seq: 0, reader: 0, uidStart: 0, uidEnd: 0, uidHash: 0, uptimeS: 0, statusStart: 0, statusEnd: 0, tagsStart: 0, boot: 0 };
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The hash of a UID given as bytes: the same number `uidHashOfString` gives for its text. */
export function uidHashOfBytes(buf: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
  // Kept in small-integer range: a Map keyed by it stays on V8's fast path for number keys.
  return h & 0x3fffffff;
}

/** The hash of a UID given as text (one char per byte). */
export function uidHashOfString(uid: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < uid.length; i++) h = Math.imul(h ^ (uid.charCodeAt(i) & 0xff), FNV_PRIME);
  return h & 0x3fffffff;
}

/** Token bounds of the line being decoded: a line of play has at most 6 tokens. */
const TOK_START = new Int32Array(8);
const TOK_END = new Int32Array(8);
const MAX_TOKENS = 6;

/** Byte classes of a line body, one table load per byte instead of four comparisons. */
const BAD = 0;
const WORD = 1;
const SPACE = 2;
const HEXDIG = 3;
const CLASS = new Uint8Array(256);
for (let c = 0x21; c <= 0x7e; c++) CLASS[c] = c === 0x2a ? BAD : WORD;
CLASS[0x20] = SPACE;
for (const c of '0123456789ABCDEF') CLASS[c.charCodeAt(0)] = HEXDIG;

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** A canonical unsigned decimal in buf[s, e) within [min, max] (as `decimal` of protocol-fields.ts), or -1. */
function decimalAt(buf: Uint8Array, s: number, e: number, min: number, max: number): number {
  const n = e - s;
  if (n === 0 || n > 10) return -1;
  if (n > 1 && buf[s] === 0x30) return -1;
  let v = 0;
  for (let i = s; i < e; i++) {
    const c = buf[i];
    if (c < 0x30 || c > 0x39) return -1;
    v = v * 10 + (c - 0x30);
  }
  return v >= min && v <= max ? v : -1;
}

/**
 * Decodes buf[start, end) (a received line without its "\n") into `out` when it is a valid arrive,
 * leave or hb line, with the checks of `decodeLine`; false for every other line, valid or not.
 */
export function decodeCardLine(buf: Uint8Array, start: number, end: number, out: CardLine): boolean {
  if (end > start && buf[end - 1] === 0x0d) end--;
  const len = end - start;
  if (len < 4 || len > MAX_LINE) return false;
  const star = end - 3;
  if (buf[star] !== 0x2a) return false;
  const hi = hexDigit(buf[end - 2]);
  const lo = hexDigit(buf[end - 1]);
  if (hi < 0 || lo < 0) return false;
  // One pass over the body: printable bytes, no '*', single spaces between non-empty tokens, CRC.
  let crc = 0;
  let n = 0;
  let tok = start;
  for (let i = start; i < star; i++) {
    const c = buf[i];
    const k = CLASS[c];
    if (k === SPACE) {
      if (i === tok || n === MAX_TOKENS - 1) return false;
      TOK_START[n] = tok;
      TOK_END[n++] = i;
      tok = i + 1;
    } else if (k === BAD) return false;
    crc = CRC_TABLE[crc ^ c];
  }
  if (tok === star || crc !== ((hi << 4) | lo)) return false;
  TOK_START[n] = tok;
  TOK_END[n++] = star;
  if (n < 2) return false;
  // Device lines of play never carry seq 0 (the hello's): decodeLine calls that bad-seq.
  const seq = decimalAt(buf, TOK_START[0], TOK_END[0], 1, SEQ_MAX);
  if (seq < 0) return false;
  const ts = TOK_START[1];
  const tl = TOK_END[1] - ts;
  let kind: number;
  if (tl === 6 && buf[ts] === 0x61 && buf[ts + 1] === 0x72 && buf[ts + 2] === 0x72 && buf[ts + 3] === 0x69 && buf[ts + 4] === 0x76 && buf[ts + 5] === 0x65) {
    kind = CARD_ARRIVE;
  } else if (tl === 5 && buf[ts] === 0x6c && buf[ts + 1] === 0x65 && buf[ts + 2] === 0x61 && buf[ts + 3] === 0x76 && buf[ts + 4] === 0x65) {
    kind = CARD_LEAVE;
  } else if (tl === 2 && buf[ts] === 0x68 && buf[ts + 1] === 0x62) {
    kind = CARD_HB;
  } else return false;
  if (kind !== CARD_HB) {
    if (n !== 4) return false;
    // reader: one digit below MAX_READERS (a longer canonical decimal is out of range).
    if (TOK_END[2] - TOK_START[2] !== 1) return false;
    const reader = buf[TOK_START[2]] - 0x30;
    if (reader < 0 || reader >= MAX_READERS) return false;
    const us = TOK_START[3];
    const ue = TOK_END[3];
    const ul = ue - us;
    if (ul !== 8 && ul !== 14 && ul !== 20) return false;
    let h = FNV_OFFSET;
    for (let i = us; i < ue; i++) {
      const c = buf[i];
      if (CLASS[c] !== HEXDIG) return false;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    out.kind = kind;
    out.seq = seq;
    out.reader = reader;
    out.uidStart = us;
    out.uidEnd = ue;
    out.uidHash = h & 0x3fffffff;
    return true;
  }
  if (n !== 6) return false;
  const uptimeS = decimalAt(buf, TOK_START[2], TOK_END[2], 0, 0xffffffff);
  if (uptimeS < 0) return false;
  const ss = TOK_START[3];
  const se = TOK_END[3];
  if (se - ss < 1 || se - ss > MAX_READERS) return false;
  for (let i = ss; i < se; i++) {
    const c = buf[i];
    if (c !== 0x4f && c !== 0x57 && c !== 0x46) return false; // O W F
  }
  const tgs = TOK_START[4];
  if (TOK_END[4] - tgs !== se - ss) return false;
  for (let i = tgs; i < TOK_END[4]; i++) {
    const c = buf[i];
    if (c < 0x30 || c > 0x39) return false;
  }
  const boot = decimalAt(buf, TOK_START[5], TOK_END[5], BOOT_MIN, BOOT_MAX);
  if (boot < 0) return false;
  out.kind = kind;
  out.seq = seq;
  out.uptimeS = uptimeS;
  out.statusStart = ss;
  out.statusEnd = se;
  out.tagsStart = tgs;
  out.boot = boot;
  return true;
}

/** A heartbeat's status word as a string: the same string as last time while the bytes are (nearly always). */
export class StatusWord {
  private last = '';

  /** buf[start, end) as text, without a new string when it equals the previous word. */
  of(buf: Uint8Array, start: number, end: number): string {
    const last = this.last;
    if (last.length === end - start) {
      let i = 0;
      while (i < last.length && last.charCodeAt(i) === buf[start + i]) i++;
      if (i === last.length) return last;
    }
    return (this.last = latin1(buf as Buffer, start, end));
  }
}
