// A PBN game as formats/pbn-scan.ts found it, read for the replay's fast path (issue 20): only the tags a replay
// needs, cards through byte tables into numbers, and the play judged on four suit masks per seat. The answer is
// 'fast' only for a deal the engine would pass with no finding and pbn.ts would read with no problem: 13 complete
// tricks of a full deal, each card held by its player, suit followed, the opening lead from declarer's left. 'slow'
// asks for pbn.ts and the engine on this game; 'bail' for pbn.ts on the whole file (inheritance of Board or Result,
// or a Variant, TrumpCard or Trump tag, which change how later games read).
import {
  BOARD, EVENT, CONTRACT, DEAL, DEALER, DECLARER, LAYOUT, NOTE, PLAY, type PbnGame, RESULT, VULNERABLE,
} from './pbn-scan.js';

/** A regular deal: its board number, its cards in play order, each trick's leader and winner, tricks won by N-S. */
export interface FastDeal {
  board: number;
  tricks: Uint8Array;
  leaders: Uint8Array;
  winners: Uint8Array;
  ns: number;
}

const SUIT = new Int8Array(256).fill(-1);
const RANK = new Int8Array(256).fill(-1);
const SEAT = new Int8Array(256).fill(-1);
'SHDC'.split('').forEach((c, i) => { SUIT[c.charCodeAt(0)] = i; SUIT[c.toLowerCase().charCodeAt(0)] = i; });
'23456789TJQKA'.split('').forEach((c, i) => { RANK[c.charCodeAt(0)] = i; RANK[c.toLowerCase().charCodeAt(0)] = i; });
'NESW'.split('').forEach((c, i) => { SEAT[c.charCodeAt(0)] = i; SEAT[c.toLowerCase().charCodeAt(0)] = i; });
/** Ranks as a Deal tag writes them (upper case only: anything else is left to pbn.ts). */
const DEAL_RANK = new Int8Array(256).fill(-1);
'23456789TJQKA'.split('').forEach((c, i) => { DEAL_RANK[c.charCodeAt(0)] = i; });

const VULNERABLE_VALUES = ['none', 'love', '-', 'ns', 'ew', 'all', 'both'];

// Per game, reused: where each needed tag's value starts and ends (trimmed), and the seats' suit masks.
const vs = new Int32Array(10);
const ve = new Int32Array(10);
const masks = new Int32Array(16);
const cols = new Uint8Array(52);
// A card's suit and rank bit by table: c / 13 is a fraction, which unoptimised code boxes on the heap at each card.
const CARD_SUIT = new Uint8Array(52).map((_, c) => Math.floor(c / 13));
const CARD_BIT = new Int32Array(52).map((_, c) => 1 << (c % 13));

/** A game's verdict; see the file's head. */
export type Verdict = 'fast' | 'slow' | 'bail';

// What readFastTags found for judgeFastGame: the board, the seat the Play tag names and the trump suit.
let board = 0;
let first = 0;
let trump = -1;

/**
 * Read game `g` of `buf` into `d`; see the file's head for the answers. The three steps are exported so that a
 * caller's loop can call each itself: V8 then optimises each apart, as soon as it is hot, rather than waiting for one
 * function that inlines them all, which took it several times as long to compile (issue 20).
 */
export function readFastGame(buf: Uint8Array, g: PbnGame, d: FastDeal): Verdict {
  const tags = readFastTags(buf, g);
  if (tags !== 'fast') return tags;
  return readFastCards(buf, g) ? judgeFastGame(d) : 'slow';
}

/** The game's tags: 'fast' when they are read cleanly (then readFastCards), else 'slow' or 'bail'. */
export function readFastTags(buf: Uint8Array, g: PbnGame): Verdict {
  vs.fill(-1);
  let verdict: 'fast' | 'slow' = g.odd ? 'slow' : 'fast';
  for (let t = 0; t < g.tags; t++) {
    const kind = g.kind[t];
    if (kind === 0 || kind === NOTE || kind === EVENT) continue;
    if (kind === LAYOUT) return 'bail';
    const inherits = g.valueEnd[t] > g.valueStart[t] && buf[g.valueStart[t]] === 0x23; // '#'
    if (kind === BOARD || kind === RESULT) {
      if (inherits) return 'bail';
    } else if (inherits) {
      verdict = 'slow'; // pbn.ts: this tag may not inherit
    }
    if (vs[kind] >= 0 || !g.plain[t]) { verdict = 'slow'; continue; } // a repeated or escaped tag
    let s = g.valueStart[t], e = g.valueEnd[t];
    while (s < e && (buf[s] === 32 || buf[s] === 9)) s++;
    while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9)) e--;
    vs[kind] = s;
    ve[kind] = e;
  }
  if (verdict === 'slow') return 'slow';
  // Tags that need not be there, but must read cleanly when they are.
  if (present(buf, DEALER) && (ve[DEALER] - vs[DEALER] !== 1 || SEAT[buf[vs[DEALER]]] < 0)) return 'slow';
  if (present(buf, VULNERABLE) && !vulnerableValue(buf, vs[VULNERABLE], ve[VULNERABLE])) return 'slow';
  if (present(buf, RESULT) && !(digits(buf, vs[RESULT], ve[RESULT]) && number(buf, vs[RESULT], ve[RESULT]) <= 13)) return 'slow';
  if (vs[BOARD] < 0 || !digits(buf, vs[BOARD], ve[BOARD])) return 'slow';
  board = number(buf, vs[BOARD], ve[BOARD]);
  if (vs[DECLARER] < 0 || ve[DECLARER] - vs[DECLARER] !== 1 || SEAT[buf[vs[DECLARER]]] < 0) return 'slow';
  const declarer = SEAT[buf[vs[DECLARER]]];
  trump = contractTrump(buf, vs[CONTRACT], ve[CONTRACT]);
  if (trump === -2) return 'slow';
  if (vs[PLAY] < 0 || ve[PLAY] - vs[PLAY] !== 1 || SEAT[buf[vs[PLAY]]] < 0) return 'slow';
  first = SEAT[buf[vs[PLAY]]];
  if (first !== ((declarer + 1) & 3)) return 'slow';
  return vs[DEAL] < 0 ? 'slow' : 'fast';
}

/** After readFastTags: the Deal tag into the seats' masks and the play's 52 cards; false when the game is slow. */
export function readFastCards(buf: Uint8Array, g: PbnGame): boolean {
  if (!readDeal(buf, vs[DEAL], ve[DEAL])) return false;
  // The play: 52 cards, suit first (an optional "*" after them ends the play and changes nothing).
  let cards = 0;
  for (let k = 0; k < g.playCount; k++) {
    const s = g.playTokens[k * 2], e = g.playTokens[k * 2 + 1];
    if (e - s === 2 && SUIT[buf[s]] >= 0 && RANK[buf[s + 1]] >= 0 && cards < 52) {
      cols[cards++] = SUIT[buf[s]] * 13 + RANK[buf[s + 1]];
    } else if (e - s === 1 && buf[s] === 0x2a && k === g.playCount - 1) {
      // "*" last
    } else {
      return false;
    }
  }
  return cards === 52;
}

/** After readFastCards: the play judged into `d`, 'fast' when it is regular. */
export function judgeFastGame(d: FastDeal): Verdict {
  d.board = board;
  return judge(first, trump, d) ? 'fast' : 'slow';
}

/** False when tag `kind` is absent, empty or "?" (pbn.ts then reads no value). */
function present(buf: Uint8Array, kind: number): boolean {
  const s = vs[kind], e = ve[kind];
  return !(s < 0 || e === s || (e - s === 1 && buf[s] === 0x3f));
}

/** True when buf[s, e) is a Vulnerable value pbn.ts reads (a loop: a closure per game was garbage to collect). */
function vulnerableValue(buf: Uint8Array, s: number, e: number): boolean {
  for (let k = 0; k < VULNERABLE_VALUES.length; k++) if (eqLower(buf, s, e, VULNERABLE_VALUES[k])) return true;
  return false;
}

/** True when buf[s, e) is `lower` in any case. */
function eqLower(buf: Uint8Array, s: number, e: number, lower: string): boolean {
  if (e - s !== lower.length) return false;
  for (let k = 0; k < lower.length; k++) {
    const c = buf[s + k];
    if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/** The value of up to 15 decimal digits. */
function number(buf: Uint8Array, s: number, e: number): number {
  let v = 0;
  for (let k = s; k < e; k++) v = v * 10 + (buf[k] - 0x30);
  return v;
}

function digits(buf: Uint8Array, s: number, e: number): boolean {
  if (e === s || e - s > 15) return false;
  for (let k = s; k < e; k++) if (buf[k] < 0x30 || buf[k] > 0x39) return false;
  return true;
}


/** The trump suit (0-3, -1 for no trump) of a Contract such as 4S, 3NTX, 3N or 7HXX; -2 for anything else. */
function contractTrump(buf: Uint8Array, s: number, e: number): number {
  if (s < 0 || e - s < 2 || buf[s] < 0x31 || buf[s] > 0x37) return -2;
  let i = s + 1;
  let trump: number;
  if (buf[i] === 0x4e) { trump = -1; i += buf[i + 1] === 0x54 && i + 1 < e ? 2 : 1; } // NT, or N as BridgeComposer writes it
  else if (buf[i] === 0x53 || buf[i] === 0x48 || buf[i] === 0x44 || buf[i] === 0x43) { trump = SUIT[buf[i]]; i++; }
  else return -2;
  const risk = e - i;
  if (risk > 2 || (risk >= 1 && buf[i] !== 0x58) || (risk === 2 && buf[i + 1] !== 0x58)) return -2;
  return trump;
}

/** A full deal, "N:AKQ.… … … …", into the seats' suit masks: four hands of 13 cards, ranks in order, no card twice. */
function readDeal(buf: Uint8Array, s: number, e: number): boolean {
  if (e - s < 2 || SEAT[buf[s]] < 0 || buf[s + 1] !== 0x3a) return false;
  masks.fill(0);
  let seen0 = 0, seen1 = 0, seen2 = 0, seen3 = 0;
  let i = s + 2;
  for (let h = 0; h < 4; h++) {
    if (h > 0) {
      if (i >= e || buf[i] !== 32) return false;
      while (i < e && buf[i] === 32) i++;
    }
    const seat = (SEAT[buf[s]] + h) & 3;
    let count = 0;
    for (let suit = 0; suit < 4; suit++) {
      if (suit > 0) {
        if (i >= e || buf[i] !== 0x2e) return false;
        i++;
      }
      let prev = 13;
      let m = 0;
      while (i < e && DEAL_RANK[buf[i]] >= 0) {
        const r = DEAL_RANK[buf[i++]];
        if (r >= prev) return false;
        prev = r;
        m |= 1 << r;
        count++;
      }
      masks[seat * 4 + suit] = m;
    }
    if (count !== 13) return false;
    seen0 |= masks[seat * 4]; seen1 |= masks[seat * 4 + 1]; seen2 |= masks[seat * 4 + 2]; seen3 |= masks[seat * 4 + 3];
  }
  const full = (1 << 13) - 1;
  return i === e && seen0 === full && seen1 === full && seen2 === full && seen3 === full;
}

/**
 * The columns of the play (from the Play tag's seat) into play order, trick by trick from the winner of the one
 * before; true when every card is held by its player and every player follows suit when able.
 */
function judge(playFirst: number, trumpSuit: number, d: FastDeal): boolean {
  let leader = playFirst;
  let ns = 0;
  for (let t = 0; t < 13; t++) {
    d.leaders[t] = leader;
    let led = -1, best = 0, bestSeat = leader;
    for (let k = 0; k < 4; k++) {
      const seat = (leader + k) & 3;
      const c = cols[t * 4 + ((seat - playFirst + 4) & 3)];
      const suit = CARD_SUIT[c];
      const bit = CARD_BIT[c];
      if ((masks[seat * 4 + suit] & bit) === 0) return false; // not in this hand, or played before
      if (k === 0) led = suit;
      else if (suit !== led && masks[seat * 4 + led] !== 0) return false; // a renounce
      masks[seat * 4 + suit] &= ~bit;
      d.tricks[t * 4 + k] = c;
      if (k === 0) { best = c; continue; }
      const bs = CARD_SUIT[best];
      if ((suit === bs && c > best) || (suit === trumpSuit && bs !== trumpSuit)) { best = c; bestSeat = seat; }
    }
    d.winners[t] = bestSeat;
    if ((bestSeat & 1) === 0) ns++;
    leader = bestSeat;
  }
  d.ns = ns;
  return true;
}
