// A one-pass PBN scanner over bytes (issue 20), for the replay's fast path. It finds games exactly where
// formats/pbn.ts's scanner ends them (an empty line outside a tag or a brace comment) and notes each game's tags and
// the tokens of its Play section as byte offsets: nothing is decoded here. Whatever it does not read as pbn.ts would
// (a tag spread over lines, an unclosed comment or tag, a repeated Board or Event tag that ends a game without an
// empty line) makes it answer BAIL, and the caller hands the file to pbn.ts.

/** scanGame's answers besides a game: more bytes are needed, the file is done, or pbn.ts must read the file. */
export const NEED_MORE = 1;
export const END = 2;
export const BAIL = 3;
export const GAME = 0;

/** Tags by what the scanner and the fast path do with them (0: nothing). */
export const BOARD = 1, DEALER = 2, VULNERABLE = 3, DEAL = 4, DECLARER = 5, CONTRACT = 6, RESULT = 7, PLAY = 8;
export const AUCTION = 9, NOTE = 10, LAYOUT = 11, EVENT = 12;

const MAX_TAGS = 256;
const MAX_PLAY_TOKENS = 256;

/** Byte classes: white space inside a line, and the characters that end a token in pbn.ts. */
const SPACE = new Uint8Array(256);
const STOP = new Uint8Array(256);
for (const c of ' \t\v\f') SPACE[c.charCodeAt(0)] = 1;
for (const c of ' \t\v\f\n\r[]{};"') STOP[c.charCodeAt(0)] = 1;
const NAME = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_]/.test(ch)) NAME[c] = 1;
}
const LF = 10, CR = 13;

/** One game: its bytes, its tags (name and value offsets) and its Play section's tokens, all in the scanner's buffer. */
export class PbnGame {
  start = 0;
  /** Whether `start` begins a line: a scan that needs more bytes starts again from `start` with this. */
  startsLine = true;
  end = 0;
  tags = 0;
  readonly nameStart = new Int32Array(MAX_TAGS);
  readonly nameEnd = new Int32Array(MAX_TAGS);
  readonly valueStart = new Int32Array(MAX_TAGS);
  readonly valueEnd = new Int32Array(MAX_TAGS);
  /** 1: the value was quoted with no backslash in it, so its bytes are the value; 0: pbn.ts must decode it. */
  readonly plain = new Uint8Array(MAX_TAGS);
  /** The tag's kind (BOARD, DEAL, …; 0 for a tag replay does not read). */
  readonly kind = new Uint8Array(MAX_TAGS);
  /** Tokens of the section after the game's first Play tag, as start/end pairs. */
  readonly playTokens = new Int32Array(MAX_PLAY_TOKENS * 2);
  playCount = 0;
  /** Something the fast path leaves to pbn.ts: a token before any tag, too many tags or play tokens. */
  odd = false;
}

/**
 * Scan one game from `from` in buf[0, len); `lineStart` says whether `from` begins a line. Answers GAME (the game in
 * `g`, the next scan from `g.end` with lineStart false), NEED_MORE (not `eof` and the game runs past `len`), END (no
 * game left) or BAIL.
 */
export function scanGame(buf: Uint8Array, from: number, len: number, eof: boolean, lineStart: boolean, g: PbnGame): number {
  let i = from;
  let atLineStart = lineStart;
  let items = 0;
  let section = -1; // the tag whose section the tokens belong to
  let inPlay = false;
  let seenPlay = false;
  let seenBoard = false;
  let seenEvent = false;
  g.start = from;
  g.startsLine = lineStart;
  g.tags = 0;
  g.playCount = 0;
  g.odd = false;
  for (;;) {
    if (i >= len) {
      if (!eof) return NEED_MORE;
      if (items === 0) return END;
      g.end = len;
      return GAME;
    }
    if (atLineStart) {
      atLineStart = false;
      let j = i;
      while (j < len && SPACE[buf[j]]) j++;
      if (j >= len) {
        if (!eof) return NEED_MORE;
        if (items === 0) return END;
        g.end = len;
        return GAME;
      }
      if (buf[j] === LF || buf[j] === CR) {
        // No closure for this: one would move the scanner's counters into a heap context, slower to reach.
        if (items > 0) { g.end = j; return GAME; }
        // An empty line before any item: a new game may start after it; what came before was comments only.
        g.start = j;
        g.startsLine = false;
        i = j;
        continue;
      }
      if (buf[i] === 0x25 /* % */) {
        const e = lineEnd(buf, i, len);
        if (e < 0) { if (!eof) return NEED_MORE; i = len; continue; }
        i = e;
        continue;
      }
    }
    const ch = buf[i];
    if (ch === LF) { atLineStart = true; i++; continue; }
    if (ch === CR) {
      if (i + 1 >= len && !eof) return NEED_MORE;
      i += buf[i + 1] === LF ? 2 : 1;
      atLineStart = true;
      continue;
    }
    if (SPACE[ch]) { i++; continue; }
    if (ch === 0x3b /* ; */) {
      const e = lineEnd(buf, i, len);
      if (e < 0) { if (!eof) return NEED_MORE; i = len; continue; }
      i = e;
      continue;
    }
    if (ch === 0x7b /* { */) {
      const close = buf.indexOf(0x7d, i + 1);
      if (close < 0 || close >= len) return eof ? BAIL : NEED_MORE;
      i = close + 1;
      continue;
    }
    if (ch === 0x5b /* [ */) {
      const j = scanTag(buf, i, len, eof);
      if (j < 0) return j === TAG_NEED_MORE ? NEED_MORE : BAIL;
      const ns = tagAt[0], ne = tagAt[1], vs = tagAt[2], ve = tagAt[3], plain = tagAt[4];
      i = j;
      // A second Board or Event ends a game in pbn.ts without an empty line: left to it.
      const kind = tagKind(buf, ns, ne);
      const isBoard = kind === BOARD, isEvent = kind === EVENT;
      if ((isBoard && seenBoard) || (isEvent && seenEvent)) return BAIL;
      if (isBoard) seenBoard = true;
      if (isEvent) seenEvent = true;
      if (g.tags === MAX_TAGS) { g.odd = true; section = -2; items++; continue; }
      const t = g.tags++;
      g.nameStart[t] = ns; g.nameEnd[t] = ne; g.valueStart[t] = vs; g.valueEnd[t] = ve; g.plain[t] = plain; g.kind[t] = kind;
      section = t;
      inPlay = !seenPlay && kind === PLAY;
      if (inPlay) seenPlay = true;
      items++;
      continue;
    }
    // A token: a quoted string, a stray ] or }, or a run of characters up to a stop.
    let e: number;
    if (ch === 0x22) {
      e = i + 1;
      while (e < len && buf[e] !== 0x22 && buf[e] !== LF && buf[e] !== CR) e++;
      if (e >= len && !eof) return NEED_MORE;
      if (e < len && buf[e] === 0x22) e++;
    } else if (ch === 0x5d || ch === 0x7d) {
      e = i + 1;
    } else {
      e = tokenEnd(buf, i, len);
      if (e >= len && !eof) return NEED_MORE;
    }
    items++;
    if (section === -1) g.odd = true;
    else if (inPlay) {
      if (g.playCount === MAX_PLAY_TOKENS) g.odd = true;
      else { g.playTokens[g.playCount * 2] = i; g.playTokens[g.playCount * 2 + 1] = e; g.playCount++; }
    }
    i = e;
  }
}

/** The kind of a tag by its name: told apart by length and first letter, then checked whole. */
export function tagKind(buf: Uint8Array, s: number, e: number): number {
  let name = '', kind = 0;
  switch (e - s) {
    case 4: if (buf[s] === 0x44) { name = 'Deal'; kind = DEAL; } else if (buf[s] === 0x50) { name = 'Play'; kind = PLAY; } else if (buf[s] === 0x4e) { name = 'Note'; kind = NOTE; } break;
    case 5: if (buf[s] === 0x42) { name = 'Board'; kind = BOARD; } else if (buf[s] === 0x54) { name = 'Trump'; kind = LAYOUT; } else if (buf[s] === 0x45) { name = 'Event'; kind = EVENT; } break;
    case 6: if (buf[s] === 0x44) { name = 'Dealer'; kind = DEALER; } else if (buf[s] === 0x52) { name = 'Result'; kind = RESULT; } break;
    case 7: if (buf[s] === 0x41) { name = 'Auction'; kind = AUCTION; } else if (buf[s] === 0x56) { name = 'Variant'; kind = LAYOUT; } break;
    case 8: if (buf[s + 1] === 0x65) { name = 'Declarer'; kind = DECLARER; } else if (buf[s] === 0x43) { name = 'Contract'; kind = CONTRACT; } break;
    case 9: name = 'TrumpCard'; kind = LAYOUT; break;
    case 10: name = 'Vulnerable'; kind = VULNERABLE; break;
  }
  return kind !== 0 && eq(buf, s, e, name) ? kind : 0;
}

/** scanTag's answers besides the offset after the tag, and where it puts the tag's parts: name, value, plain. */
const TAG_BAIL = -1, TAG_NEED_MORE = -2;
const tagAt = new Int32Array(5);

/**
 * The tag at i, `[Name "value"]` or `[Name value]` on one line, into tagAt; returns the offset after its "]". A
 * function of its own: V8 optimises the scanner sooner when it is small.
 */
function scanTag(buf: Uint8Array, i: number, len: number, eof: boolean): number {
  let j = i + 1;
  while (j < len && SPACE[buf[j]]) j++;
  const ns = j;
  while (j < len && NAME[buf[j]]) j++;
  const ne = j;
  while (j < len && SPACE[buf[j]]) j++;
  if (j >= len) return eof ? TAG_BAIL : TAG_NEED_MORE;
  if (ne === ns || ne - ns > 200) return TAG_BAIL;
  let vs: number, ve: number, plain = 1;
  if (buf[j] === 0x22 /* " */) {
    vs = ++j;
    j = quotedEnd(buf, j, len);
    while (j < len && buf[j] !== 0x22 && buf[j] !== LF && buf[j] !== CR) {
      if (buf[j] === 0x5c /* \ */) {
        // pbn.ts reads \" and \\ as escapes: the value then differs from its bytes.
        plain = 0;
        if (j + 1 >= len && !eof) return TAG_NEED_MORE;
        if (buf[j + 1] === 0x22 || buf[j + 1] === 0x5c) j++;
      }
      j++;
    }
    if (j >= len) return eof ? TAG_BAIL : TAG_NEED_MORE;
    if (buf[j] !== 0x22) return TAG_BAIL;
    ve = j++;
    while (j < len && SPACE[buf[j]]) j++;
    if (j >= len) return eof ? TAG_BAIL : TAG_NEED_MORE;
    if (buf[j] !== 0x5d /* ] */) return TAG_BAIL;
  } else {
    vs = j;
    while (j < len && buf[j] !== 0x5d && buf[j] !== LF && buf[j] !== CR) j++;
    if (j >= len) return eof ? TAG_BAIL : TAG_NEED_MORE;
    if (buf[j] !== 0x5d) return TAG_BAIL;
    ve = j;
    plain = 0;
  }
  tagAt[0] = ns; tagAt[1] = ne; tagAt[2] = vs; tagAt[3] = ve; tagAt[4] = plain;
  return j + 1;
}

// The hot loops, each in a function of its own: V8 optimises a small function sooner than the whole scanner.

/** The first quote, line end or backslash at or after j (or len). */
function quotedEnd(buf: Uint8Array, j: number, len: number): number {
  while (j < len) {
    const c = buf[j];
    if (c === 0x22 || c === LF || c === CR || c === 0x5c) return j;
    j++;
  }
  return j;
}

/** The end of the token starting at i: the first stop at or after it (or len). */
function tokenEnd(buf: Uint8Array, i: number, len: number): number {
  while (i < len && !STOP[buf[i]]) i++;
  return i;
}

/** The offset of the line end at or after i (LF or CR), or -1. */
function lineEnd(buf: Uint8Array, i: number, len: number): number {
  for (let k = i; k < len; k++) if (buf[k] === LF || buf[k] === CR) return k;
  return -1;
}

/** True when buf[s, e) is the ASCII text `name`. */
export function eq(buf: Uint8Array, s: number, e: number, name: string): boolean {
  if (e - s !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (buf[s + k] !== name.charCodeAt(k)) return false;
  return true;
}
