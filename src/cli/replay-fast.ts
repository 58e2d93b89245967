// `tenace replay FILE --json` on a PBN file, fast (issue 20): one pass over the file's bytes (formats/pbn-scan.ts),
// each game read straight into card numbers, the play judged on per-seat suit masks, and the JSON written into a
// reused Buffer. A game the fast judge cannot pass as regular (a renounce, a lead out of turn, a claim, an unusual
// tag) is read by pbn.ts and folded through the engine's Table, as `replay` does. Anything pbn.ts would report as a
// problem hands the file to `replay` itself, which skips the deals already written. Other options go to `replay`.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { BAIL, END, GAME, NEED_MORE, PbnGame, scanGame } from '../formats/pbn-scan.js';
import { type FastDeal, type Verdict, judgeFastGame, readFastCards, readFastTags } from '../formats/pbn-fast.js';
// Only the type: args.js imports node:util, whose exports ESM loads whole (parseArgs, MIMEType, …).
import type { CliIo } from './args.js';

type Sink = (bytes: Uint8Array) => void;

/** Bytes of output gathered before they are written. */
const OUT_SIZE = 1 << 20;
/** Bytes read from the file at a time. */
const READ_SIZE = 1 << 20;

/** Write bytes to standard output, whole: a busy pipe is waited for, a closed one ends the process quietly. */
function writeStdout(bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) {
    try {
      off += writeSync(1, bytes, off, bytes.length - off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue;
      if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    }
  }
}

/**
 * `tenace replay`: the fast path for `FILE --json`, everything else (and every file it cannot read) by replay.ts.
 * Without `io` (the CLI), the process's streams, set up to end quietly on a closed pipe only when replay.ts needs them.
 */
export async function replayFastCommand(argv: string[], io?: CliIo, sink: Sink = writeStdout): Promise<number> {
  const file = argv.length === 2 ? (argv[0] === '--json' ? argv[1] : argv[1] === '--json' ? argv[0] : undefined) : undefined;
  const written = file === undefined || file.startsWith('-') ? 0 : await fastJson(file, sink);
  if (written === 'done') return 0;
  const [{ replayCommand }, args] = await Promise.all([import('./replay.js'), import('./args.js')]);
  if (io === undefined) args.endQuietlyOnBrokenPipe();
  return replayCommand(argv, io ?? args.STDIO, written);
}

/** The engine and pbn.ts, loaded only when a game needs them. */
type Slow = typeof import('./replay-slow.js');
let slow: Slow | undefined;

/**
 * Replay the file as JSON. Returns 'done', or the number of deals already written when replay.ts must take over
 * (0 when it is not a PBN file this path reads, or holds nothing to replay).
 */
async function fastJson(file: string, sink: Sink): Promise<number | 'done'> {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch { return 0; }
  const out = new JsonOut(sink);
  try {
    let buf = Buffer.allocUnsafe(READ_SIZE * 2);
    let len = 0;
    let eof = false;
    const fill = (): void => {
      if (len === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
      const n = readSync(fd, buf, len, Math.min(READ_SIZE, buf.length - len), null);
      if (n === 0) eof = true;
      len += n;
    };
    try {
      while (!eof && len < 1 << 18) fill();
    } catch { return 0; }
    if (!looksLikePbn(buf, len)) return 0;
    // Not for a file read whole at once (under 256 KiB, a few hundred games): priming cost a one-game file 13 ms, and
    // so small a file ends before V8 has much optimised code to throw away.
    if (!eof) prime(sink);
    const g = new PbnGame();
    const deal = newDeal();
    let at = 0;
    let lineStart = true;
    for (;;) {
      const r = scanGame(buf, at, len, eof, lineStart, g);
      if (r === NEED_MORE) {
        // Keep the unfinished game, from where its scan starts, and read more after it.
        buf.copy(buf, 0, g.start, len);
        len -= g.start;
        at = 0;
        lineStart = g.startsLine;
        try { fill(); } catch { return out.handOver(); }
        continue;
      }
      if (r === END) break;
      if (r === BAIL) return out.handOver();
      if (r !== GAME) return out.handOver();
      // readFastGame's three steps, called from this loop (see readGame).
      let verdict = readFastTags(buf, g);
      if (verdict === 'fast') verdict = readFastCards(buf, g) ? judgeFastGame(deal) : 'slow';
      if (verdict === 'bail') return out.handOver();
      if (verdict === 'fast') {
        out.fastDeal(deal);
      } else {
        slow ??= await import('./replay-slow.js');
        const json = slow.slowGameJson(buf.toString('utf8', g.start, g.end), out.deals === 0);
        if (json === null) return out.handOver();
        if (json !== '') out.text(json);
      }
      at = g.end;
      lineStart = false;
    }
    if (out.deals === 0) return 0;
    out.end();
    return 'done';
  } finally {
    closeSync(fd);
  }
}

/**
 * pbn-fast.ts's readFastGame, its steps called from here (and from fastJson's loop, written out): a loop that runs
 * once a game stays unoptimised for long, so V8 compiles each step alone, soon, instead of a function that inlines
 * the three, which took it several times as long to compile, and compiled them all twice.
 */
function readGame(buf: Buffer, g: PbnGame, deal: FastDeal): Verdict {
  const tags = readFastTags(buf, g);
  if (tags !== 'fast') return tags;
  return readFastCards(buf, g) ? judgeFastGame(deal) : 'slow';
}

/** A FastDeal to read games into (one shape for every caller, so V8 sees one map). */
function newDeal(): FastDeal {
  return { board: 0, tricks: new Uint8Array(52), leaders: new Uint8Array(13), winners: new Uint8Array(13), ns: 0 };
}

// Two games with every construct the scanner reads: CRLF and LF, % and ; and brace comments, an unquoted and an
// escaped tag value, a quoted token, lower-case cards, a "*" after the play.
const SAMPLE = Buffer.from([
  '% PBN 2.1', '[Event "prime"]', '[Board "1"]', '[Dealer "N"]', '[Vulnerable "None"]',
  '[Deal "N:T5.982.874.AQ632 K43.73.KQ5.KJT54 AJ9.AQT6.JT62.98 Q8762.KJ54.A93.7"]', '[Declarer "W"]',
  '[Contract "3S"]', '[Result "9"]', '[Auction "N"]', 'Pass 1C =1= X', 'Pass 1NT Pass 2S', 'Pass 3S AP',
  '[Note "1: 3+ \\"C\\""]', '[Play "N"]', 'ST SK SA S6', 'S5 S3 S9 SQ', 'CA C4 C8 C7', 'D4 D5 DT DA', 'D7 DQ D6 D3',
  'C6 CK C9 H4', 'H2 H7 H6 HJ', 'D8 DK D2 D9', 'H8 H3 HA H5', 'C2 S4 SJ S7', 'C3 C5 DJ S8', 'H9 CT HT HK',
  'CQ CJ HQ S2', '*', '[Room ""]', '', '',
].join('\r\n') + [
  '% Import', '[Event Random Deal #]', '[Date  "2-Aug-2023"]', '[Board "1"]', '[Dealer "N"]', '[Vulnerable "None"]',
  '[Deal "N:92.Q64.A974.J752 43.AJ95.T65.A983 KT5.K82.KJ32.K64 AQJ876.T73.Q8.QT"]', '[Declarer "S"]',
  '[Contract "3D"]', '[Result "6"]', '{PAR of the deal: 3S}', '; a comment', '[Auction "N"]', 'Pass Pass 1D 1S "x"',
  '2D X Pass 2S', 'Pass Pass 3D Pass', 'Pass Pass', '[Play "W"]', 'cq C7 c8 CK', 'd8 D4 d5 DK', 'dq DA d6 DJ',
  'sa S2 s4 SK', 'ct C2 c3 C4', 'h3 H4 hj HK', 's6 CJ ca C6', 's7 D7 dt D3', 's8 C5 c9 D2', 'sj S9 s3 S5',
  'sq D9 h5 ST', 'h7 H6 h9 H2', 'ht HQ ha H8', '',
].join('\n'), 'latin1');

let primed = false;

/**
 * Run the scanner, the judge and the JSON writer over SAMPLE before the file, output thrown away. V8 optimises them
 * within the file's first few hundred games, with the feedback seen so far; a construct first met after that (a %
 * line, a brace comment, a game cut by the 1 MiB read, the first full output buffer) threw the optimised code away
 * and had it compiled again, each time running slower tiers meanwhile. Seen here first, they are in the feedback.
 */
function prime(sink: Sink): void {
  if (primed) return;
  primed = true;
  const g = new PbnGame();
  const deal = newDeal();
  // The real sink, given nothing: a sink V8 had not seen called was itself a reason to start over.
  const out = new JsonOut(sink, 0, true);
  // Twice whole: V8 keeps no feedback for a function until it has run a little.
  for (let pass = 0; pass < 2; pass++) {
    for (let at = 0, lineStart = true; scanGame(SAMPLE, at, SAMPLE.length, true, lineStart, g) === GAME; at = g.end, lineStart = false) {
      readGame(SAMPLE, g, deal);
    }
  }
  // The JSON of a deal, enough times for the writer's small functions to keep feedback, boards of 1 to 4 digits.
  for (let k = 0; k < 64; k++) {
    deal.board = k * 37;
    out.fastDeal(deal);
  }
  // Each line cut at each byte, as a read that ends there leaves it.
  for (let s = 0; s < SAMPLE.length;) {
    let e = SAMPLE.indexOf(10, s);
    if (e < 0) e = SAMPLE.length;
    for (let cut = s + 1; cut <= e; cut++) scanGame(SAMPLE, s, cut, false, true, g);
    s = e + 1;
  }
  out.flush();
}

/** PBN by its content, as detectFormat decides it: no NUL byte, and '%', '[' or ';' first after white space. */
function looksLikePbn(buf: Buffer, len: number): boolean {
  if (buf.subarray(0, len).indexOf(0) >= 0) return false;
  let i = 0;
  while (i < len && (buf[i] === 32 || (buf[i] >= 9 && buf[i] <= 13))) i++;
  return i < len && (buf[i] === 0x25 || buf[i] === 0x5b || buf[i] === 0x3b);
}

const SEAT_CODES = [0x4e, 0x45, 0x53, 0x57]; // N E S W
const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
const OPEN = ascii('{"deals":[');
const BOARD = ascii('{"board":');
// The 13 tricks' JSON has the same shape in every regular deal: it is copied whole from a template, then the
// leaders, seats, cards and winners are written into their places. What follows the tricks depends only on the
// tricks N-S won: one snippet for each count.
const TRICK = '{"leader":"N","cards":{"N":"S2","E":"S2","S":"S2","W":"S2"},"winner":"N"}';
const TRICKS_HEAD = ',"variant":"bridge","tricks":[';
const TRICKS_TEMPLATE = ascii(TRICKS_HEAD + Array(13).fill(TRICK).join(','));
const AT_LEADER = TRICK.indexOf('N');
const AT_CARD = [0, 1, 2, 3].map((k) => TRICK.indexOf('"S2"') + k * '"S2","E":'.length - 4);
const AT_WINNER = TRICK.lastIndexOf('N');
/** A card's suit and rank letters, by card number (suit S H D C times 13, plus rank 2..A as 0..12). */
const SUIT_CODE = new Uint8Array(52).map((_, c) => 'SHDC'.charCodeAt((c / 13) | 0));
const RANK_CODE = new Uint8Array(52).map((_, c) => '23456789TJQKA'.charCodeAt(c % 13));
const TAILS = Array.from({ length: 14 }, (_, ns) =>
  ascii(`],"tricksWon":{"NS":${ns},"EW":${13 - ns}},"findings":[],"scored":{"NS":${ns},"EW":${13 - ns}}}`));

/** The JSON output in a reused Buffer, written out a megabyte at a time. */
class JsonOut {
  deals = 0;
  private readonly buf = Buffer.allocUnsafe(OUT_SIZE + 65536);
  private n = 0;
  /** Bytes kept of what is written: -1 (all bits) but when priming, 0. A mask, not a test: a branch priming does not
   * take would be one more that V8 has no feedback for. */
  private readonly keep: number;
  /** `limit`: bytes gathered before they are written; `dry`: write nothing (prime() runs the writer too). */
  constructor(private readonly sink: Sink, private readonly limit = OUT_SIZE, dry = false) {
    this.keep = dry ? 0 : -1;
  }

  /** One regular deal, from its 52 cards in play order. */
  fastDeal(d: FastDeal): void {
    this.open();
    const b = this.buf;
    let n = this.put(BOARD, this.n);
    n = this.digits(d.board, n);
    n = this.put(TRICKS_TEMPLATE, n);
    const at0 = n - TRICKS_TEMPLATE.length + TRICKS_HEAD.length;
    for (let t = 0; t < 13; t++) {
      const at = at0 + t * (TRICK.length + 1);
      const leader = d.leaders[t];
      b[at + AT_LEADER] = SEAT_CODES[leader];
      for (let k = 0; k < 4; k++) {
        const c = d.tricks[t * 4 + k], slot = at + AT_CARD[k];
        b[slot + 1] = SEAT_CODES[(leader + k) & 3]; // "N":"S2"
        b[slot + 5] = SUIT_CODE[c];
        b[slot + 6] = RANK_CODE[c];
      }
      b[at + AT_WINNER] = SEAT_CODES[d.winners[t]];
    }
    n = this.put(TAILS[d.ns], n);
    this.n = n;
    this.flushIfFull();
  }

  /** One deal's JSON text, made by the engine's path. */
  text(json: string): void {
    this.open();
    const bytes = Buffer.byteLength(json);
    if (this.n + bytes > this.buf.length) {
      this.flush();
      if (bytes > this.buf.length) { this.sink(Buffer.from(json)); return; }
    }
    this.n += this.buf.write(json, this.n);
    this.flushIfFull();
  }

  /** Close the JSON and write what is left. */
  end(): void {
    this.n += this.buf.write(']}\n', this.n, 'latin1');
    this.flush();
  }

  /** Write what is gathered and say how many deals replay.ts is to skip. */
  handOver(): number {
    this.flush();
    return this.deals;
  }

  private open(): void {
    if (this.deals++ === 0) this.n = this.put(OPEN, this.n);
    else this.buf[this.n++] = 0x2c;
  }

  /** A non-negative integer in decimal, as JSON writes it. */
  private digits(v: number, at: number): number {
    if (v < 10) { this.buf[at] = 0x30 + v; return at + 1; }
    if (v < 1000) {
      // No string for the usual board numbers.
      const w = v < 100 ? 2 : 3;
      for (let k = w - 1; k >= 0; k--, v = (v / 10) | 0) this.buf[at + k] = 0x30 + (v % 10);
      return at + w;
    }
    const s = String(v);
    for (let k = 0; k < s.length; k++) this.buf[at + k] = s.charCodeAt(k);
    return at + s.length;
  }

  private put(src: Buffer, at: number): number {
    this.buf.set(src, at);
    return at + src.length;
  }

  private flushIfFull(): void {
    if (this.n >= this.limit) this.flush();
  }

  /** Write what is gathered. */
  flush(): void {
    if (this.n === 0) return;
    // A view made here rather than by Buffer's subarray, whose branches on its end priming would not all take.
    this.sink(new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.n & this.keep));
    this.n = 0;
  }
}
