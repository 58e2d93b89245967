// BBO LIN import. A LIN file is a flat list of `name|value|` pairs; boards start at `qx` (or at a new `md`),
// the hands in `md` run S W N E, and the contract is not stated but follows from the `mb` auction.
import { formatDeal, type Deal } from '../cards/deal.js';
import { type Hand, emptyHand, handSize, holds, addCard } from '../cards/hand.js';
import { RANK_LETTERS, SUIT_LETTERS, makeCard, rankIndex, suitIndex, formatCard, parseCard } from '../cards/card.js';
import { winningIndex } from '../cards/trick.js';
import { type Seat, SEATS, seatIndex, sideOf } from '../cards/seat.js';
import {
  type DealRecord, type ParseError, type ParseResult, normaliseCard, compactContract, contractTrump,
  claimFromResult, completeTrickCount, sideTricks, normaliseStrain, parseCompactContract,
} from './record.js';
import { quote } from './quote.js';

interface LinTag { name: string; value: string; line: number }

/** LIN lists hands and names from South, clockwise: S W N E, as seat indices N=0 E=1 S=2 W=3. */
const LIN_ORDER = [2, 3, 0, 1];
const VULNERABLE: Record<string, string> = { o: 'None', '0': 'None', '-': 'None', n: 'NS', e: 'EW', b: 'All' };
/** Tags read into the record's fields as sequences, so not kept as raw tags. */
const SEQUENCE_TAGS = new Set(['mb', 'pc', 'an', 'pg', 'nt']);

function tokenize(src: string, errors: ParseError[]): LinTag[] {
  const parts: { text: string; line: number }[] = [];
  let line = 1;
  let start = 0;
  for (let i = 0; i <= src.length; i++) {
    if (i === src.length || src[i] === '|') {
      const text = src.slice(start, i);
      // A part's line is that of its first visible character: names often begin a new line.
      const lead = /^\s*/.exec(text)?.[0] ?? '';
      parts.push({ text, line: line + (lead.match(/\n/g)?.length ?? 0) });
      line += text.match(/\n/g)?.length ?? 0;
      start = i + 1;
    }
  }
  const tags: LinTag[] = [];
  for (let k = 0; k < parts.length; k += 2) {
    const name = parts[k].text.trim();
    const value = parts[k + 1];
    if (value === undefined) {
      if (name !== '') errors.push({ line: parts[k].line, message: `${quote(name, 20)} has no value: LIN tags are written name|value|` });
      break;
    }
    if (!/^[A-Za-z]{2}$/.test(name)) {
      errors.push({ line: parts[k].line, message: `${quote(name, 20)} is not a LIN tag name (two letters, e.g. md, pc)` });
      continue;
    }
    tags.push({ name: name.toLowerCase(), value: value.text, line: parts[k].line });
  }
  return tags;
}

/** Split tags into a file header and boards: `qx` starts a board; without `qx`, a line or an `md` does. */
function splitBoards(tags: LinTag[]): { header: LinTag[]; boards: LinTag[][] } {
  const header: LinTag[] = [];
  const boards: LinTag[][] = [];
  const hasQx = tags.some((t) => t.name === 'qx');
  const mdLines = new Set(tags.filter((t) => t.name === 'md').map((t) => t.line));
  let cur: LinTag[] | null = null;
  let curHasMd = false;
  let prevLine = 0;
  for (const t of tags) {
    const newLineBoard = !hasQx && t.line !== prevLine && mdLines.has(t.line) && curHasMd;
    if (t.name === 'qx' || newLineBoard || (t.name === 'md' && curHasMd) || (!hasQx && cur === null)) {
      cur = [];
      curHasMd = false;
      boards.push(cur);
    }
    if (cur) cur.push(t);
    else header.push(t);
    if (t.name === 'md' && cur) curHasMd = true;
    prevLine = t.line;
  }
  return { header, boards };
}

/** Parse one LIN hand such as `SQ982HQ82DKQ763CT`: a suit letter, then its ranks. */
function parseLinHand(text: string): Hand | string {
  const hand = emptyHand();
  let suit = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (/\s/.test(ch)) continue;
    const s = suitIndex(ch);
    if (s >= 0 && 'SHDCshdc'.includes(ch)) { suit = s; continue; }
    const tok = ch === '1' && text[i + 1] === '0' ? '10' : ch;
    const r = rankIndex(tok);
    if (r < 0) return `${quote(ch)} in hand ${quote(text)} is neither a suit (S H D C) nor a rank`;
    if (suit < 0) return `hand ${quote(text)} gives a rank before any suit letter`;
    const card = makeCard(suit, r);
    if (holds(hand, card)) return `${SUIT_LETTERS[suit]}${RANK_LETTERS[r]} appears twice in hand ${quote(text)}`;
    addCard(hand, card);
    if (tok === '10') i++;
  }
  return hand;
}

/** Dealer and PBN deal (North first) from an `md` value; the missing fourth hand is the remaining 13 cards. */
function parseMd(value: string): { dealer?: Seat; hands?: string } | string {
  const v = value.trim();
  const out: { dealer?: Seat; hands?: string } = {};
  let body = v;
  if (/^[1-4]/.test(v)) {
    out.dealer = SEATS[LIN_ORDER[Number(v[0]) - 1]];
    body = v.slice(1);
  }
  const parts = body.split(',');
  if (parts.length > 4 && parts.slice(4).some((p) => p.trim() !== '')) return `md ${quote(v, 80)} has more than four hands`;
  const deal: Deal = [null, null, null, null];
  const owner = new Map<number, number>();
  for (let k = 0; k < Math.min(parts.length, 4); k++) {
    if (parts[k].trim() === '') continue;
    const hand = parseLinHand(parts[k]);
    if (typeof hand === 'string') return hand;
    const seat = LIN_ORDER[k];
    if (handSize(hand) !== 13) return `the ${SEATS[seat]} hand ${quote(parts[k])} has ${handSize(hand)} cards, not 13`;
    for (let c = 0; c < 52; c++) {
      if (!holds(hand, c)) continue;
      const prev = owner.get(c);
      if (prev !== undefined) return `${formatCard(c)} is dealt to both ${SEATS[prev]} and ${SEATS[seat]}`;
      owner.set(c, seat);
    }
    deal[seat] = hand;
  }
  const missing = [0, 1, 2, 3].filter((s) => deal[s] === null);
  if (missing.length === 1) {
    const rest = emptyHand();
    for (let c = 0; c < 52; c++) if (!owner.has(c)) addCard(rest, c);
    deal[missing[0]] = rest;
  }
  if (missing.length < 4) out.hands = formatDeal(deal, 0);
  return out;
}

type Call = { kind: 'pass' } | { kind: 'double' } | { kind: 'redouble' } | { kind: 'bid'; level: number; strain: string };

/** One `mb` call: `p`, `d`/`x`, `r`/`xx`, or a bid like `1N`, `3nt`; alert marks `!` are dropped. */
function parseCall(value: string): Call | null {
  const v = value.replace(/!/g, '').trim().toLowerCase();
  if (v === 'p' || v === 'pass') return { kind: 'pass' };
  if (v === 'd' || v === 'x' || v === 'dbl') return { kind: 'double' };
  if (v === 'r' || v === 'xx' || v === 'rdbl') return { kind: 'redouble' };
  const m = /^([1-7])(nt|n|s|h|d|c)$/.exec(v);
  return m ? { kind: 'bid', level: Number(m[1]), strain: normaliseStrain(m[2]) as string } : null;
}

/**
 * What an auction reaches: the contract (the last bid, its risk, and the first of its side to name the strain),
 * "passed out" after four passes, or nothing yet.
 */
function contractFromAuction(calls: readonly Call[], dealer: Seat): { contract: string } | 'passed out' | undefined {
  const d = seatIndex(dealer);
  let last = -1;
  let risk: '' | 'X' | 'XX' = '';
  calls.forEach((c, i) => {
    if (c.kind === 'bid') { last = i; risk = ''; }
    else if (c.kind === 'double') risk = 'X';
    else if (c.kind === 'redouble') risk = 'XX';
  });
  if (last < 0) return calls.length >= 4 && calls.every((c) => c.kind === 'pass') ? 'passed out' : undefined;
  const bid = calls[last] as Extract<Call, { kind: 'bid' }>;
  const side = sideOf((d + last) & 3);
  const first = calls.findIndex((c, i) => c.kind === 'bid' && c.strain === bid.strain && sideOf((d + i) & 3) === side);
  return { contract: compactContract({ level: bid.level, strain: bid.strain, declarer: SEATS[(d + first) & 3], risk }) };
}

/** A `rs` entry such as "3NN=", "4HWx-2", "2SE+1", "1CNR=": contract and declarer's tricks, or null. */
function parseRs(entry: string): { contract: string; tricks: number } | null {
  const m = /^(.*?)(=|[+-]\d+)$/.exec(entry.trim());
  // LIN writes a redouble as "R" or "xx"; the contract reader knows only X and XX.
  const parts = m ? parseCompactContract(m[1].replace(/r$/i, 'XX')) : null;
  if (!m || !parts) return null;
  const tricks = 6 + parts.level + (m[2] === '=' ? 0 : Number(m[2]));
  if (tricks < 0 || tricks > 13) return null;
  return { contract: compactContract(parts), tricks };
}

interface Header { names?: string[]; results?: string[]; boardOrder?: number[] }

function readHeader(tags: LinTag[]): Header {
  const h: Header = {};
  for (const t of tags) {
    if (t.name === 'pn' || t.name === 'pw') h.names ??= t.value.split(',');
    if (t.name === 'rs') h.results = t.value.split(',');
    if (t.name === 'bn') h.boardOrder = t.value.split(',').map((x) => Number(x.trim()));
  }
  return h;
}

/** Board number of a board's `qx` tag (`o15`, `c15`), if it has one. */
function qxBoard(tags: LinTag[]): number | undefined {
  const m = /^[oc](\d+)/i.exec(tags.find((t) => t.name === 'qx')?.value.trim() ?? '');
  return m ? Number(m[1]) : undefined;
}

function buildBoard(tags: LinTag[], header: Header, errors: ParseError[]): DealRecord {
  const rec: DealRecord = { plays: [], tags: {}, source: 'lin' };
  if (tags.length > 0) rec.line = tags[0].line;
  const calls: Call[] = [];
  let room = 'o';
  let claimTotal: { tricks: number; atPlay: number; line: number } | null = null;
  let names: string[] | undefined;
  let rsEntry: string | undefined;
  let mdLine = tags[0]?.line ?? 0;
  for (const t of tags) {
    if (!SEQUENCE_TAGS.has(t.name) && rec.tags[t.name] === undefined) rec.tags[t.name] = t.value;
    const v = t.value.trim();
    switch (t.name) {
      case 'md': {
        mdLine = t.line;
        const md = parseMd(v);
        if (typeof md === 'string') errors.push({ line: t.line, message: `md: ${md}` });
        else {
          if (md.dealer) rec.dealer = md.dealer;
          if (md.hands) rec.hands = md.hands;
        }
        break;
      }
      case 'sv': {
        const vul = VULNERABLE[v.toLowerCase()];
        if (vul) rec.vulnerable = vul;
        else if (v !== '') errors.push({ line: t.line, message: `sv ${quote(v)} must be o (none), n (NS), e (EW) or b (both)` });
        break;
      }
      case 'pn': names = v.split(','); break;
      case 'qx': {
        const m = /^([oc])(\d+)/i.exec(v);
        if (m) { room = m[1].toLowerCase(); rec.board = Number(m[2]); }
        break;
      }
      case 'ah': {
        const m = /board\s*(\d+)/i.exec(v);
        if (m && rec.board === undefined) rec.board = Number(m[1]);
        break;
      }
      case 'mb': {
        const call = parseCall(v);
        if (call) calls.push(call);
        else errors.push({ line: t.line, message: `mb ${quote(v)} is not a call: p, d, r, or a bid such as 1H or 3N` });
        break;
      }
      case 'pc': {
        const card = normaliseCard(v);
        if (card === null) errors.push({ line: t.line, message: `pc ${quote(v)} is not a card: a suit (S H D C) then a rank, e.g. H4` });
        else rec.plays.push({ seat: 'N', card });
        break;
      }
      case 'mc': {
        if (/^\d+$/.test(v) && Number(v) <= 13) claimTotal = { tricks: Number(v), atPlay: rec.plays.length, line: t.line };
        else errors.push({ line: t.line, message: `mc ${quote(v)} must be declarer's total tricks, 0-13` });
        break;
      }
      case 'rs': rsEntry = v.split(',')[0]; break;
      default: break;
    }
  }
  const allNames = names ?? header.names;
  if (allNames) {
    const offset = allNames.length >= 8 && room === 'c' ? 4 : 0;
    const players: Partial<Record<Seat, string>> = {};
    for (let k = 0; k < 4; k++) {
      const n = allNames[offset + k]?.trim();
      if (n) players[SEATS[LIN_ORDER[k]]] = n;
    }
    if (Object.keys(players).length > 0) rec.players = players;
  }
  if (rsEntry === undefined && header.results && rec.board !== undefined) {
    // The header lists results room by room: open then closed for each board in turn.
    const pos = header.boardOrder?.indexOf(rec.board) ?? -1;
    if (pos >= 0) rsEntry = header.results[2 * pos + (room === 'c' ? 1 : 0)];
  }
  const rs = rsEntry ? parseRs(rsEntry) : null;

  if (calls.length > 0) {
    const reached = rec.dealer ? contractFromAuction(calls, rec.dealer) : undefined;
    if (!rec.dealer) errors.push({ line: mdLine, message: 'the auction cannot be read without a dealer (the digit that starts md)' });
    else if (reached === 'passed out') rec.passedOut = true;
    else if (reached) rec.contract = reached.contract;
  }
  if (rec.contract === undefined && rs && calls.length === 0) rec.contract = rs.contract;
  const declarer = parseCompactContract(rec.contract)?.declarer;
  if (declarer) rec.declarer = declarer;
  const trump = contractTrump(rec.contract);

  assignSeats(rec, trump, errors, tags);
  if (claimTotal && claimTotal.atPlay === rec.plays.length && rec.declarer && completeTrickCount(rec.plays) < 13) {
    const claim = claimFromResult(rec.plays, trump, rec.declarer, claimTotal.tricks);
    if (typeof claim === 'string') errors.push({ line: claimTotal.line, message: `mc: ${claim}` });
    else { rec.claim = claim; rec.result = claimTotal.tricks; }
  } else if (claimTotal && !rec.declarer) {
    errors.push({ line: claimTotal.line, message: 'mc claims tricks for declarer, but the auction names no declarer' });
  }
  if (rec.result === undefined && rs && rs.contract === rec.contract) rec.result = rs.tricks;
  if (rec.result === undefined && rec.declarer && rec.plays.length === 52) rec.result = sideTricks(rec.plays, trump, rec.declarer);
  return rec;
}

/**
 * Give each `pc` card its seat: the opening leader is declarer's left-hand opponent, each trick's winner
 * leads the next, and the others follow clockwise (LIN records cards in play order without seats).
 */
function assignSeats(rec: DealRecord, trump: number, errors: ParseError[], tags: LinTag[]): void {
  if (rec.plays.length === 0) return;
  const firstPc = tags.find((t) => t.name === 'pc')?.line ?? 0;
  if (!rec.declarer) {
    errors.push({ line: firstPc, message: 'cards are played but the auction gives no declarer, so the opening leader is unknown' });
    rec.plays = [];
    return;
  }
  if (rec.plays.length > 52) {
    errors.push({ line: firstPc, message: `${rec.plays.length} cards are played; a deal has 52` });
    rec.plays.length = 52;
  }
  let leader = (seatIndex(rec.declarer) + 1) & 3;
  for (let i = 0; i < rec.plays.length; i += 4) {
    const group = rec.plays.slice(i, i + 4);
    group.forEach((p, k) => { p.seat = SEATS[(leader + k) & 3]; });
    if (group.length === 4) leader = (leader + winningIndex(group.map((p) => parseCard(p.card)), trump)) & 3;
  }
}

/** Parse a BBO LIN file (one or many boards). Never throws: problems are returned with their line numbers. */
export function parseLin(text: string): ParseResult {
  const errors: ParseError[] = [];
  const records: DealRecord[] = [];
  try {
    const tags = tokenize(String(text).replace(/\r\n?/g, '\n'), errors);
    const { header, boards } = splitBoards(tags);
    const h = readHeader(header);
    // Without a `bn` list, the header's results follow the boards in the order they first appear.
    h.boardOrder ??= [...new Set(boards.map(qxBoard).filter((b): b is number => b !== undefined))];
    for (const b of boards) records.push(buildBoard(b, h, errors));
  } catch (err) {
    // A bug here must not take down a replay of a whole file; report it as an error of the file.
    errors.push({ line: 0, message: `internal error while reading LIN: ${(err as Error).message}` });
  }
  return { records, errors: errors.sort((a, b) => a.line - b.line) };
}
