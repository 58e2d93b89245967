// PBN 2.1 import (and, from pbn-export.ts, export). Import is lenient (PBN "import format": any case, tabs, comments,
// tags in any order, unquoted values); export follows the strict "export format" so other programs can read it.
import { parseDeal, formatDeal } from '../cards/deal.js';
import { type Seat, SEATS, seatIndex, sideOf } from '../cards/seat.js';
import {
  type DealRecord, type Irregularity, type ParseError, type ParseResult, type ColumnTrick,
  normaliseStrain, playOrderFromColumns, normaliseCard, claimFromResult, completeTrickCount,
} from './record.js';
import { suitIndex } from '../cards/card.js';
import { formatContract, parseContractText } from '../cards/contract.js';
import { printable, quote } from './quote.js';
import { variantNames } from '../laws/variants.js';

// ---------------------------------------------------------------------------------------------------
// Scanning: the text becomes games, each a list of tags and section tokens with their line numbers.

interface TagItem { kind: 'tag'; name: string; value: string; line: number }
interface TokenItem { kind: 'token'; text: string; line: number }
type Item = TagItem | TokenItem;

const TOKEN_STOP = new Set([' ', '\t', '\v', '\f', '\n', '[', ']', '{', '}', ';', '"']);
/** Tags whose repetition starts a new game even without the empty line PBN asks for. */
const GAME_STARTERS = new Set(['Event', 'Board']);

function scan(source: string, errors: ParseError[]): Item[][] {
  const games: Item[][] = [];
  for (const g of scanGames(source, errors)) games.push(g.items);
  return games;
}

/**
 * A game as the scanner ends it; no error still to come from the scanner lies before line `safe`. `cut` is set when
 * an empty line inside the text ended it: the scanner holds nothing else there, so it can start again from `at` (the
 * line end) on line `line` and read the rest exactly as it would have.
 */
interface ScannedGame { items: Item[]; safe: number; cut?: { at: number; line: number } }

/** The scanner, game by game: a game is handed on as soon as its end is seen, so a file need not be held as games. */
function* scanGames(source: string, errors: ParseError[], firstLine = 1, atLineStart = true, lf = false): Generator<ScannedGame> {
  const src = lf || source.indexOf('\r') < 0 ? source : source.replace(/\r\n?/g, '\n');
  const n = src.length;
  let ready: ScannedGame | null = null;
  let cur: Item[] = [];
  let seen = new Set<string>();
  let i = 0;
  let line = firstLine;
  let lineStart = atLineStart;
  const endGame = (safe: number, cut?: { at: number; line: number }): void => {
    if (cur.length > 0) ready = cut ? { items: cur, safe, cut } : { items: cur, safe };
    cur = [];
    seen = new Set();
  };
  const skipToEol = (): void => {
    while (i < n && src[i] !== '\n') i++;
  };
  while (i < n) {
    if (ready) { yield ready; ready = null; }
    if (lineStart) {
      lineStart = false;
      let j = i;
      while (j < n && (src[j] === ' ' || src[j] === '\t' || src[j] === '\v' || src[j] === '\f')) j++;
      // A semi-empty line ends the game (PBN 3); comments are consumed whole, so theirs never get here.
      if (j >= n || src[j] === '\n') { endGame(line, j < n ? { at: j, line } : undefined); i = j; continue; }
      if (src[i] === '%') { skipToEol(); continue; }
    }
    const ch = src[i];
    if (ch === '\n') { line++; lineStart = true; i++; continue; }
    if (ch === ' ' || ch === '\t' || ch === '\v' || ch === '\f') { i++; continue; }
    if (ch === ';') { skipToEol(); continue; }
    if (ch === '{') {
      const close = src.indexOf('}', i + 1);
      if (close < 0) {
        errors.push({ line, message: 'a { comment is never closed with }' });
        i = n;
        continue;
      }
      for (let k = i; k < close; k++) if (src[k] === '\n') line++;
      i = close + 1;
      continue;
    }
    if (ch === '[') {
      const startLine = line;
      const tag = readTag();
      if (tag) {
        if (GAME_STARTERS.has(tag.name) && seen.has(tag.name)) endGame(startLine);
        seen.add(tag.name);
        cur.push({ kind: 'tag', name: tag.name, value: tag.value, line: startLine });
      }
      continue;
    }
    if (ch === '"') {
      const close = src.indexOf('"', i + 1);
      const eol = src.indexOf('\n', i + 1);
      const end = close < 0 || (eol >= 0 && eol < close) ? (eol < 0 ? n : eol) : close + 1;
      cur.push({ kind: 'token', text: src.slice(i, end), line });
      i = end;
      continue;
    }
    if (ch === ']' || ch === '}') {
      cur.push({ kind: 'token', text: ch, line });
      i++;
      continue;
    }
    let j = i;
    while (j < n && !TOKEN_STOP.has(src[j])) j++;
    cur.push({ kind: 'token', text: src.slice(i, j), line });
    i = j;
  }
  if (ready) yield ready;
  ready = null;
  endGame(Infinity);
  if (ready) yield ready;

  // Reads `[Name "value"]` at i; white space (even line ends) may separate the parts in import format.
  // On failure only the rest of the opening line is dropped, so a tag on the next line is still read.
  function readTag(): { name: string; value: string } | null {
    const startLine = line;
    const tagStart = i;
    const fail = (message: string): null => {
      errors.push({ line: startLine, message });
      line = startLine;
      i = src.indexOf('\n', tagStart);
      if (i < 0) i = n;
      return null;
    };
    i++;
    skipSpace();
    const m = /^[A-Za-z0-9_]+/.exec(src.slice(i, i + 256));
    if (!m) return fail('a tag must start with a name after "[", e.g. [Board "1"]');
    const name = m[0];
    i += name.length;
    skipSpace();
    let value = '';
    if (src[i] === '"') {
      i++;
      let closed = false;
      while (i < n && src[i] !== '\n') {
        const c = src[i];
        if (c === '\\' && (src[i + 1] === '"' || src[i + 1] === '\\')) { value += src[i + 1]; i += 2; continue; }
        if (c === '"') { closed = true; i++; break; }
        value += c;
        i++;
      }
      if (!closed) return fail(`the value of tag ${printable(name, 40)} has no closing quote`);
      skipSpace();
    } else {
      // Import leniency: `[Event Random Deal #]` is read as an unquoted value.
      const eol = src.indexOf('\n', i);
      const close = src.indexOf(']', i);
      if (close < 0 || (eol >= 0 && eol < close)) return fail(`tag ${printable(name, 40)} is not closed with "]"`);
      value = src.slice(i, close).trim();
      i = close;
    }
    if (src[i] !== ']') return fail(`tag ${printable(name, 40)} is not closed with "]"`);
    i++;
    return { name, value };
  }

  function skipSpace(): void {
    while (i < n && (src[i] === ' ' || src[i] === '\t' || src[i] === '\n' || src[i] === '\v' || src[i] === '\f')) {
      if (src[i] === '\n') line++;
      i++;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Tag values.

/** Tags that may not inherit with "#" or "##" (PBN 4.8). */
const NO_INHERIT = new Set(['Dealer', 'Vulnerable', 'Deal', 'Declarer', 'Contract', 'Auction', 'Play', 'Note']);

/** Carries "#" and "##" values (PBN 4.8) from game to game. */
class Inheritance {
  private last = new Map<string, string>();
  private always = new Map<string, string>();

  /** Resolve one game's first-occurrence tags in place. */
  resolve(tags: Map<string, TagItem>, errors: ParseError[]): void {
    for (const [name, tag] of tags) {
      if (!tag.value.startsWith('#')) continue;
      if (NO_INHERIT.has(name)) {
        errors.push({ line: tag.line, message: `tag ${name} may not use "#" inheritance (PBN 4.8)` });
        tag.value = '';
        continue;
      }
      if (tag.value.startsWith('##')) {
        tag.value = tag.value.slice(2);
        this.always.set(name, tag.value);
      } else if (tag.value === '#') {
        tag.value = this.last.get(name) ?? '';
      }
    }
    for (const [name, value] of this.always) {
      if (!tags.has(name)) tags.set(name, { kind: 'tag', name, value, line: 0 });
    }
    for (const [name, tag] of tags) this.last.set(name, tag.value);
  }
}

const VULNERABLE: Record<string, string> = {
  none: 'None', love: 'None', '-': 'None', ns: 'NS', ew: 'EW', all: 'All', both: 'All',
};

/** Declarer's tricks from a Result value ("9", "NS 9", "EW 4 NS 9", "^9"), or a message. */
function resultTricks(value: string, declarer: Seat | undefined): number | string {
  const v = value.replace(/^\^/, '').trim();
  if (/^\d+$/.test(v)) return Number(v) <= 13 ? Number(v) : `Result ${quote(value)} is more than 13 tricks`;
  const m = /^(NS|EW)\s+(\d+)(?:\s+(NS|EW)\s+\d+)?$/i.exec(v);
  if (!m || Number(m[2]) > 13) return `Result ${quote(value)} must be declarer's tricks, e.g. "9" or "NS 9"`;
  if (!declarer) return `Result ${quote(value)} names a side but there is no Declarer`;
  const side = m[1].toUpperCase() === 'NS' ? 0 : 1;
  return side === sideOf(seatIndex(declarer)) ? Number(m[2]) : 13 - Number(m[2]);
}

// ---------------------------------------------------------------------------------------------------
// The play section.

interface PlaySection { rows: ColumnTrick[]; rowLines: number[]; marks: { row: number; col: number; marker: 'R' | 'L' }[]; unfinished: boolean }

/** Sub-tokens of one chunk: irregularity, note reference, NAG, suffix, `*`, `+`, dashes, card, or a stray. */
const PLAY_TOKEN = /\^[A-Za-z]?|=\d+=|\$\d+|[!?]{1,2}|\*|\+|-+|[A-Za-z0-9]+|[^]/gy;

function readPlay(tokens: readonly TokenItem[], errors: ParseError[]): PlaySection {
  const out: PlaySection = { rows: [], rowLines: [], marks: [], unfinished: false };
  let pending: ('R' | 'L')[] = [];
  let lastCard = null as { row: number; col: number } | null;
  let ended = false;
  const mark = (row: number, col: number, marker: 'R' | 'L'): void => {
    out.marks.push({ row, col, marker });
    if (marker === 'L') out.rows[row].ledOutOfTurn = col;
  };
  const push = (card: string | null, line: number): void => {
    let row = out.rows[out.rows.length - 1];
    if (!row || row.cards.length === 4) {
      row = { cards: [] };
      out.rows.push(row);
      out.rowLines.push(line);
    }
    const at = { row: out.rows.length - 1, col: row.cards.length };
    row.cards.push(card);
    if (card !== null) for (const m of pending) mark(at.row, at.col, m);
    pending = [];
    lastCard = card !== null ? at : null;
  };
  for (const tok of tokens) {
    PLAY_TOKEN.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = PLAY_TOKEN.exec(tok.text)) !== null) {
      const t = m[0];
      // Chunks are split at white space, so a sub-token after the first is glued to the one before.
      const glued = m.index > 0;
      if (ended) {
        errors.push({ line: tok.line, message: `${quote(tok.text)} follows "*", which ends the play` });
        break;
      }
      if (t[0] === '^') {
        const kind = t[1]?.toUpperCase();
        if (kind !== 'R' && kind !== 'L') {
          errors.push({ line: tok.line, message: `${quote(t)} is not a play irregularity: use ^R (revoke) or ^L (lead out of turn)` });
        } else if (glued && lastCard) {
          // Appended to a card ("S6^R") it marks that card; standing before one ("^R S6") the next (PBN 3.9).
          mark(lastCard.row, lastCard.col, kind);
        } else {
          pending.push(kind);
        }
        lastCard = null;
        continue;
      }
      if (t[0] === '=' || t[0] === '$' || t[0] === '!' || t[0] === '?') continue;
      lastCard = null;
      if (t === '*') { ended = true; continue; }
      if (t === '+') { out.unfinished = true; push(null, tok.line); continue; }
      if (t[0] === '-') { push(null, tok.line); continue; }
      if (/^[A-Za-z0-9]+$/.test(t)) {
        const card = normaliseCard(t);
        if (card === null) errors.push({ line: tok.line, message: `${quote(t)} is not a card: write a suit (S H D C) then a rank, e.g. SA or HT` });
        push(card, tok.line);
        continue;
      }
      errors.push({ line: tok.line, message: `unexpected ${quote(t)} in the play section` });
    }
  }
  const last = out.rows[out.rows.length - 1];
  if (last) while (last.cards.length < 4) last.cards.push(null);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The auction section: only whether it passed the deal out (the contract is in the Contract tag).

/** True when the auction is four passes, or "AP" with no bid (PBN 3.5); notes and suffixes are ignored. */
function auctionPassedOut(tokens: readonly TokenItem[]): boolean {
  const calls = tokens.map((t) => t.text).filter((t) => !/^(=\d+=|\$\d+|[!?]{1,2}|\*)$/.test(t));
  if (!calls.every((c) => /^(pass|ap)$/i.test(c))) return false;
  return calls.some((c) => /^ap$/i.test(c)) || calls.length >= 4;
}

// ---------------------------------------------------------------------------------------------------
// Games into records.

function buildRecord(items: Item[], inherit: Inheritance, errors: ParseError[]): DealRecord | null {
  const tags = new Map<string, TagItem>();
  const sections = new Map<string, TokenItem[]>();
  let section: string | null = null;
  for (const it of items) {
    if (it.kind === 'tag') {
      section = it.name;
      if (it.name === 'Note') continue;
      if (!tags.has(it.name)) tags.set(it.name, it);
      else if (it.name === 'Play' || it.name === 'Auction') section = `${it.name}#ignored`;
      continue;
    }
    if (section === null) {
      errors.push({ line: it.line, message: `${quote(it.text)} stands outside any tag or section` });
      continue;
    }
    const list = sections.get(section) ?? [];
    list.push(it);
    sections.set(section, list);
  }
  if (tags.size === 0) return null;
  inherit.resolve(tags, errors);

  const rec: DealRecord = { plays: [], tags: {}, line: items[0].line };
  for (const [name, t] of tags) rec.tags[name] = t.value;
  const value = (name: string): string | undefined => {
    const v = tags.get(name)?.value.trim();
    return v === undefined || v === '' || v === '?' ? undefined : v;
  };
  const lineOf = (name: string): number => tags.get(name)?.line ?? 0;

  const board = value('Board');
  if (board !== undefined) {
    if (/^\d+$/.test(board)) rec.board = Number(board);
    else errors.push({ line: lineOf('Board'), message: `Board ${quote(board)} must be a positive integer` });
  }
  const dealer = value('Dealer');
  if (dealer !== undefined) {
    if (dealer.length === 1 && seatIndex(dealer) >= 0) rec.dealer = SEATS[seatIndex(dealer)];
    else errors.push({ line: lineOf('Dealer'), message: `Dealer ${quote(dealer)} must be N, E, S or W` });
  }
  const vul = value('Vulnerable');
  if (vul !== undefined) {
    const v = VULNERABLE[vul.toLowerCase()];
    if (v) rec.vulnerable = v;
    else errors.push({ line: lineOf('Vulnerable'), message: `Vulnerable ${quote(vul)} must be None, NS, EW or All` });
  }
  const deal = value('Deal');
  if (deal !== undefined) {
    try {
      rec.hands = formatDeal(parseDeal(deal), 0);
    } catch (err) {
      errors.push({ line: lineOf('Deal'), message: `Deal: ${(err as Error).message}` });
    }
  }
  const players: Partial<Record<Seat, string>> = {};
  for (const [tag, seat] of [['North', 'N'], ['East', 'E'], ['South', 'S'], ['West', 'W']] as const) {
    const p = value(tag);
    if (p !== undefined) players[seat] = p;
  }
  if (Object.keys(players).length > 0) rec.players = players;

  const declarer = value('Declarer');
  if (declarer !== undefined) {
    const swapped = declarer.startsWith('^');
    const d = swapped ? declarer.slice(1) : declarer;
    if (d.length === 1 && seatIndex(d) >= 0) {
      rec.declarer = SEATS[seatIndex(d)];
      if (swapped) rec.declarerSwapped = true;
    } else {
      errors.push({ line: lineOf('Declarer'), message: `Declarer ${quote(declarer)} must be N, E, S or W, or ^ and a seat` });
    }
  }
  let trump: number | null = null;
  const contract = value('Contract');
  if (contract !== undefined && /^pass$/i.test(contract)) rec.passedOut = true;
  else if (contract !== undefined) {
    // Import leniency: "3 NT X" is read as "3NTX".
    const full = parseContractText(contract.replace(/\s+/g, ''));
    const strainOnly = normaliseStrain(contract);
    if (full.ok) {
      trump = full.value.strain;
      // Import leniency: a Contract such as "3NTW" names its declarer itself.
      const named = full.value.declarer === undefined ? undefined : SEATS[full.value.declarer];
      if (named && rec.declarer && named !== rec.declarer) {
        errors.push({ line: lineOf('Contract'), message: `Contract ${quote(contract)} names declarer ${named}, but the Declarer tag says ${rec.declarer}` });
      }
      rec.declarer ??= named;
      if (rec.declarer) rec.contract = formatContract({ ...full.value, declarer: seatIndex(rec.declarer) });
      else errors.push({ line: lineOf('Contract'), message: `Contract ${quote(contract)} has no Declarer` });
    } else if (strainOnly) {
      // An end position gives only the denomination (PBN 3.10).
      trump = strainOnly === 'NT' ? -1 : suitIndex(strainOnly);
    } else {
      errors.push({ line: lineOf('Contract'), message: `Contract ${quote(contract)} must be a level 1-7, a strain S H D C or NT, then X or XX; or Pass` });
    }
  }
  if (rec.contract === undefined && auctionPassedOut(sections.get('Auction') ?? [])) rec.passedOut = true;
  const fromTags = readTrumpTags(rec, value, lineOf, errors);
  if (trump === null && fromTags !== null) trump = fromTags;
  const result = value('Result');
  if (result !== undefined) {
    const r = resultTricks(result, rec.declarer);
    if (typeof r === 'number') rec.result = r;
    else errors.push({ line: lineOf('Result'), message: r });
  }

  const play = tags.get('Play');
  const playSeat = value('Play');
  if (play && playSeat !== undefined) {
    if (playSeat.length !== 1 || seatIndex(playSeat) < 0) {
      errors.push({ line: play.line, message: `Play ${quote(playSeat)} must be the seat of the first card: N, E, S or W` });
    } else {
      if (trump === null) {
        errors.push({ line: play.line, message: 'the Play section needs a Contract, a TrumpCard or a Trump tag to know the trump suit; no trump assumed' });
        trump = -1;
      }
      readPlayInto(rec, SEATS[seatIndex(playSeat)], trump, play.line, sections.get('Play') ?? [], errors);
    }
  } else if (sections.get('Play')?.length) {
    errors.push({ line: sections.get('Play')![0].line, message: 'cards follow a Play tag that names no seat' });
  }
  return rec;
}

/**
 * Our extension tags: `[Variant]` (the game, e.g. "duplicate-whist"), `[TrumpCard]` (the turned trump card) and
 * `[Trump]` (a suit declared trumps, Dup. IV.11). Returns the trump suit they give, or null.
 */
function readTrumpTags(rec: DealRecord, value: (name: string) => string | undefined, lineOf: (name: string) => number, errors: ParseError[]): number | null {
  const variant = value('Variant');
  if (variant !== undefined) {
    if (variantNames().includes(variant)) rec.variant = variant;
    else errors.push({ line: lineOf('Variant'), message: `Variant ${quote(variant)} is not a game tenace knows: use one of ${variantNames().join(', ')}` });
  }
  let trump: number | null = null;
  const card = value('TrumpCard');
  if (card !== undefined) {
    const c = normaliseCard(card);
    if (c === null) errors.push({ line: lineOf('TrumpCard'), message: `TrumpCard ${quote(card)} is not a card: give the turned trump card, e.g. "H5"` });
    else { rec.trumpCard = c; trump = suitIndex(c[0]); }
  }
  const declared = value('Trump');
  if (declared !== undefined) {
    const t = normaliseStrain(declared);
    if (t === null || t === 'NT') errors.push({ line: lineOf('Trump'), message: `Trump ${quote(declared)} must be the suit declared trumps: S, H, D or C` });
    else { rec.trump = t; trump = suitIndex(t); }
  }
  return trump;
}

function readPlayInto(rec: DealRecord, first: Seat, trump: number, line: number, tokens: TokenItem[], errors: ParseError[]): void {
  const sec = readPlay(tokens, errors);
  if (sec.rows.length > 13) {
    errors.push({ line: sec.rowLines[13], message: `the play has ${sec.rows.length} tricks; a deal has 13` });
    sec.rows.length = 13;
  }
  const order = playOrderFromColumns(sec.rows, first, trump);
  if (order.unordered > 0) {
    const at = order.stoppedAt ?? 0;
    errors.push({
      line: sec.rowLines[at] ?? line,
      message: `trick ${at + 1} is missing a card, so ${order.unordered} card(s) given after it cannot be put in play order`,
    });
  }
  rec.plays = order.plays;
  const f = seatIndex(first);
  const irregularities: Irregularity[] = sec.marks
    .filter((m) => m.row < sec.rows.length)
    .map((m) => ({ trick: m.row + 1, seat: SEATS[(f + m.col) & 3], marker: m.marker }));
  if (irregularities.length > 0) rec.irregularities = irregularities;
  if (sec.unfinished) rec.playUnfinished = true;
  if (!sec.unfinished && completeTrickCount(rec.plays) < 13 && rec.result !== undefined && rec.declarer) {
    const claim = claimFromResult(rec.plays, trump, rec.declarer, rec.result);
    if (typeof claim === 'string') errors.push({ line, message: claim });
    else rec.claim = claim;
  }
}

/** Parse a PBN file into deal records. Never throws: problems are returned with their line numbers. */
export function parsePbn(text: string): ParseResult {
  const errors: ParseError[] = [];
  const records: DealRecord[] = [];
  try {
    const inherit = new Inheritance();
    for (const game of scan(String(text), errors)) {
      const rec = buildRecord(game, inherit, errors);
      if (rec) records.push(rec);
    }
  } catch (err) {
    // A bug here must not take down a replay of a whole file; report it as an error of the file.
    errors.push({ line: 0, message: `internal error while reading PBN: ${(err as Error).message}` });
  }
  return { records, errors: errors.sort((a, b) => a.line - b.line) };
}

/** One game of a PBN file read by streamPbn: its record (null when it yields none) and where its errors stop. */
export interface StreamedGame {
  record: DealRecord | null;
  /** Every error still to come lies on this line or after it: those before it may be reported now. */
  safe: number;
}

/**
 * parsePbn game by game, for a file too big to hold as records: the scanner's errors go to `scanErrors`, those of
 * reading each game's tags to `gameErrors` (parsePbn sorts the first then the second by line, stably). A failure
 * inside the reader ends the stream with a line-0 error, as in parsePbn.
 */
export function* streamPbn(text: string | Iterable<string>, scanErrors: ParseError[], gameErrors: ParseError[]): Generator<StreamedGame> {
  try {
    const inherit = new Inheritance();
    const games = typeof text === 'string' ? scanGames(text, scanErrors) : scanPieces(text, scanErrors);
    for (const game of games) {
      yield { record: buildRecord(game.items, inherit, gameErrors), safe: game.safe };
    }
  } catch (err) {
    gameErrors.push({ line: 0, message: `internal error while reading PBN: ${(err as Error).message}` });
  }
}

/**
 * The scanner over a file read in pieces, finding what it would find in the whole text. Games are passed on up to
 * an empty line that ended one (a `cut`) with more than white space after it in the text read so far (the scanner
 * may cross white space, even empty lines, inside a tag, so a cut in trailing white space is not yet sure); the
 * scanner then starts again from the cut. Games ended by a repeated Board or Event tag, and the scanner's problems,
 * wait for the next cut. Memory holds the text since the last cut: a file without empty lines is held whole.
 */
function* scanPieces(pieces: Iterable<string>, errors: ParseError[]): Generator<ScannedGame> {
  const it = pieces[Symbol.iterator]();
  let buf = '';
  let more = true;
  let line = 1;
  let atLineStart = true;
  let carry = '';
  const read = (): void => {
    const r = it.next();
    if (r.done) { more = false; buf += carry; carry = ''; return; }
    // A CR at the end of a piece may be half of a CRLF: it waits for the next piece.
    let piece = carry + r.value;
    carry = '';
    if (piece.endsWith('\r')) { carry = '\r'; piece = piece.slice(0, -1); }
    buf += piece.indexOf('\r') < 0 ? piece : piece.replace(/\r\n?/g, '\n');
  };
  const contentAfter = (at: number): boolean => {
    for (let k = at; k < buf.length; k++) {
      const c = buf[k];
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\v' && c !== '\f') return true;
    }
    return false;
  };
  read();
  for (;;) {
    if (!more) {
      yield* scanGames(buf, errors, line, atLineStart, true);
      return;
    }
    const local: ParseError[] = [];
    const held: ScannedGame[] = [];
    let resume: { at: number; line: number } | undefined;
    for (const g of scanGames(buf, local, line, atLineStart, true)) {
      held.push(g);
      if (g.cut && contentAfter(g.cut.at)) { resume = g.cut; break; }
    }
    if (!resume) { read(); continue; }
    // Everything up to the cut is final: hand it on, and go on from the cut.
    for (const e of local) errors.push(e);
    yield* held;
    buf = buf.slice(resume.at);
    line = resume.line;
    atLineStart = false;
  }
}

// Export lives in pbn-export.ts; its names are given here too, where callers have always found them.
export { formatPbn, formatPbnFromResult, formatPbnFromResults, formatPbnGame, PBN_EXPORT_HEAD } from './pbn-export.js';
