// The table log (DESIGN §4): newline-delimited JSON, one TableEvent a line.
import { type Seat, isSeat } from '../cards/seat.js';
import { tryParseCard, suitIndex } from '../cards/card.js';
import { parseDeal } from '../cards/deal.js';
import { parseContract } from '../cards/contract.js';
import { printable } from './quote.js';

interface Stamped {
  /** Strictly increasing sequence number; optional in hand-written logs. */
  seq?: number;
  /** ISO time; optional in hand-written logs. */
  at?: string;
  /** Extension: the command this event stands for (`request/<cmd>`), so that a retry is answered, not re-applied. */
  tx?: CommandTx;
}

/** Extension: a command's transaction id and the digest of its name and canonical body (src/feed/commands.ts). */
export interface CommandTx { id: string | number; digest: string }

export interface DealEvent extends Stamped {
  type: 'deal';
  board?: number;
  variant?: string;
  dealer?: Seat;
  /** PBN deal from the tray record; enables live renounce detection. */
  hands?: string;
  /** What the tray's trump slip says (overplay), e.g. "H5". */
  trumpSlip?: string;
  /** Extension: a trump suit declared for the sitting, no trump turned (Dup. IV.11, memory duplicate). */
  trump?: string;
  /** Bridge contract: level, strain, declarer, optional X/XX, e.g. "4HE", "3NTSX". */
  contract?: string;
  vulnerable?: string;
  /** The dummy seat(s) in the dummy games. */
  dummy?: Seat | Seat[];
  /** Seats in play when fewer than four (Humbug, Thirteen and the Odd). */
  seats?: Seat[];
  /** Extension: number of tables engaged, for Dup. IV.9-10 and V.1 (average score versus new deal). */
  tables?: number;
  /** Extension: true when this is an overplay of a deal already played at another table. */
  overplay?: boolean;
  /**
   * Extension (Prussian whist): the card the player on the dealer's left cut from the still pack for trump. It sets
   * the trump suit; no card is turned, and the card belongs to no hand.
   */
  trumpCut?: string;
  /**
   * Extension: the tray lies turned this many quarters clockwise (Memory Duplicate's overplay: 1, the pocket dealt
   * North lies at East). `hands`, `dealer` and `vulnerable` are then as the pockets lie at the table; the director
   * turns the result back to the tray's seats.
   */
  turn?: 1 | 2 | 3;
  /** Extension (club sessions): the round of the table's assignment when the tray was scanned. */
  round?: number;
  /** Extension (club sessions): the revision of the tray record the deal was started from (absent: no record). */
  trayRev?: number;
}

/**
 * Extension: where a seat event came from on the wire: the firmware bridge, its boot id and the device seq of
 * the `arrive`/`leave` line (PROTOCOL.md v2). The driver resumes from the last one journaled after any doubt.
 */
export interface EventSource { bridge: string; boot: number; seq: number }

/** Fields shared by place and lift. */
interface SeatEventFields extends Stamped {
  seat: Seat;
  card?: string;
  tag?: string;
  src?: EventSource;
  /**
   * Extension: found by reconciling a presence snapshot, not read from the ordered stream: the card changed
   * place at some moment the table did not see, so this event's position in the play is not known.
   */
  orderUnknown?: true;
}
/** A card appears face up in a seat's zone. `tag` (hex UID) stands alone when the tag is in no known deck. */
export interface PlaceEvent extends SeatEventFields { type: 'place' }
/** A card leaves a seat's zone; an unknown tag leaves with `tag` alone. */
export interface LiftEvent extends SeatEventFields { type: 'lift' }
export interface TrayEvent extends Stamped { type: 'tray'; code: string }
export interface ClaimEvent extends Stamped { type: 'claim'; seat: Seat; tricks: number }

/** Remedies a player may choose; the engine enforces the chosen one. */
export type RemedyName =
  | 'call-suit' | 'call-card' | 'highest' | 'lowest' | 'trump' | 'not-trump' | 'win'
  | 'accept' | 'retract' | 'waive' | 'tricks' | 'points';

/**
 * Extension: the remedy chosen by the player entitled to it, e.g. the right-hand adversary calls a suit
 * from the proper leader (Dup. VIII.2). `seat` is the player the remedy is exacted from.
 */
export interface RemedyEvent extends Stamped {
  type: 'remedy';
  by: Seat;
  remedy: RemedyName;
  seat?: Seat;
  suit?: string;
  card?: string;
  /** Extension: with `points`, whether three points are added to the adversaries' score or taken from the revoking side's (Mort, English penalty). */
  points?: 'add' | 'deduct';
}

/** Extension (Humbug): the player exchanges his hand for the one on his right before the first lead. */
export interface ExchangeEvent extends Stamped { type: 'exchange'; seat: Seat }

/**
 * Extension: undo a physical misread. The event with seq `target` no longer counts; both stay in the
 * journal (nothing is erased), and the deal is folded again without it.
 */
export interface UndoEvent extends Stamped { type: 'undo'; target: number }

/** Extension (bridge): the contract reached in the auction, set after the deal event and before the opening lead. */
export interface ContractEvent extends Stamped { type: 'contract'; contract: string }

/**
 * Extension (English Law 7): a player calls honours at the end of the hand: `count` honours (2 to 4) or the `cards`
 * themselves, held by his side (by himself in the two-handed games). Before the trump of the next deal is turned, a
 * call belongs to the deal just played (Eng. 6).
 */
export interface HonoursEvent extends Stamped { type: 'honours'; seat: Seat; count?: number; cards?: string[] }

/**
 * Extension (Am. 27, WBF L68-69): an adversary of the claimant answers the standing claim. `claim-accepted` establishes
 * the claimed result; `claim-disputed` withdraws it: the director is called and play may go on.
 */
export interface ClaimAnswerEvent extends Stamped { type: 'claim-accepted' | 'claim-disputed'; seat: Seat; reason?: string }

/** Extension: a player of the side that did not declare (whist: either side) accepts the result shown at the table. */
export interface ResultAcceptedEvent extends Stamped { type: 'result-accepted'; seat: Seat; board?: number }

/** Extension: the players' names for a round, entered or corrected at the table terminal (the director's fill the gaps). */
export interface PlayersEvent extends Stamped { type: 'players'; round: number; names: Partial<Record<Seat, string>> }

/** Extension: the director was called to the table, with the reason a player picked. */
export interface DirectorCallEvent extends Stamped { type: 'director-call'; reason: string; seat?: Seat }

/** Extension: the deal in progress is abandoned (a new deal is required); its play so far is kept but not scored. */
export interface AbandonEvent extends Stamped { type: 'abandon'; reason?: string }

export type TableEvent =
  | DealEvent | PlaceEvent | LiftEvent | TrayEvent | ClaimEvent | RemedyEvent | ExchangeEvent | UndoEvent | ContractEvent | AbandonEvent | HonoursEvent
  | ClaimAnswerEvent | ResultAcceptedEvent | DirectorCallEvent | PlayersEvent;

export interface LogError { line: number; message: string }

const REMEDIES: readonly string[] = [
  'call-suit', 'call-card', 'highest', 'lowest', 'trump', 'not-trump', 'win', 'accept', 'retract', 'waive', 'tricks', 'points',
];

/** A field's value as an error message shows it: JSON, bounded and printable. */
function shown(v: unknown): string {
  return printable(JSON.stringify(v) ?? String(v), 40);
}

function seatField(o: Record<string, unknown>, f: string): string | null {
  return isSeat(o[f]) ? null : `"${f}" must be one of N, E, S, W (got ${shown(o[f])})`;
}

function cardField(o: Record<string, unknown>, f: string): string | null {
  const v = o[f];
  if (typeof v !== 'string') return `"${f}" must be a card such as "SA" or "HT" (got ${shown(v)})`;
  const r = tryParseCard(v);
  return r.ok ? null : `"${f}": ${r.error}`;
}

/** Check the optional `src` and `orderUnknown` of a place or lift; a sentence naming the field, or null. */
function sourceFields(e: Record<string, unknown>): string | null {
  if (e.orderUnknown !== undefined && e.orderUnknown !== true) return '"orderUnknown" must be true when present';
  if (e.src === undefined) return null;
  const s = e.src as Record<string, unknown>;
  const u16 = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535;
  if (typeof s !== 'object' || s === null || typeof s.bridge !== 'string' || !u16(s.boot) || !u16(s.seq)) {
    return '"src" must be {"bridge": id, "boot": 0-65535, "seq": 0-65535}';
  }
  return null;
}

/** Check the optional `tx` of a commanded event; a sentence naming the field, or null. */
function txField(tx: unknown): string | null {
  const t = tx as Record<string, unknown>;
  const id = typeof t === 'object' && t !== null ? t.id : undefined;
  const idOk = (typeof id === 'string' && id.length >= 1 && id.length <= 128) || Number.isSafeInteger(id);
  if (!idOk || typeof t.digest !== 'string' || !/^[0-9a-f]{64}$/.test(t.digest)) {
    return '"tx" must be {"id": the transaction (1-128 characters or an integer), "digest": 64 lower-case hex digits}';
  }
  return null;
}

/** Check one parsed object against the TableEvent shapes; returns a sentence naming the field, or null. */
export function validateTableEvent(o: unknown): string | null {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return 'each line must be a JSON object';
  const e = o as Record<string, unknown>;
  if (e.seq !== undefined && !(Number.isInteger(e.seq) && (e.seq as number) >= 0)) return '"seq" must be a non-negative integer';
  if (e.at !== undefined && (typeof e.at !== 'string' || Number.isNaN(Date.parse(e.at)))) return '"at" must be an ISO time string';
  if (e.tx !== undefined) { const x = txField(e.tx); if (x) return x; }
  switch (e.type) {
    case 'deal': {
      if (e.board !== undefined && !(Number.isInteger(e.board) && (e.board as number) >= 0)) return '"board" must be a non-negative integer';
      if (e.variant !== undefined && typeof e.variant !== 'string') return '"variant" must be a string';
      if (e.dealer !== undefined) { const x = seatField(e, 'dealer'); if (x) return x; }
      if (e.hands !== undefined) {
        if (typeof e.hands !== 'string') return '"hands" must be a PBN deal string such as "N:AKQ.JT9.876.5432 ..."';
        try { parseDeal(e.hands); } catch (err) { return `"hands": ${(err as Error).message}`; }
      }
      if (e.trumpSlip !== undefined) { const x = cardField(e, 'trumpSlip'); if (x) return x; }
      if (e.trump !== undefined && (typeof e.trump !== 'string' || e.trump.length !== 1 || suitIndex(e.trump) < 0)) return '"trump" must be a suit letter S, H, D or C';
      if (e.contract !== undefined && typeof e.contract !== 'string') return '"contract" must be a string such as "4HE"';
      if (e.dummy !== undefined) {
        const ds = Array.isArray(e.dummy) ? e.dummy : [e.dummy];
        if (!ds.every(isSeat)) return '"dummy" must be a seat or a list of seats';
      }
      if (e.seats !== undefined && !(Array.isArray(e.seats) && e.seats.length >= 2 && e.seats.every(isSeat))) return '"seats" must list at least two seats';
      if (e.tables !== undefined && !(Number.isInteger(e.tables) && (e.tables as number) >= 1)) return '"tables" must be a positive integer';
      if (e.overplay !== undefined && typeof e.overplay !== 'boolean') return '"overplay" must be true or false';
      if (e.trumpCut !== undefined) { const x = cardField(e, 'trumpCut'); if (x) return x; }
      if (e.turn !== undefined && e.turn !== 1 && e.turn !== 2 && e.turn !== 3) return '"turn" must be the quarter turns of the tray, 1, 2 or 3';
      if (e.round !== undefined && !(Number.isInteger(e.round) && (e.round as number) >= 1)) return '"round" must be the round number, 1 or more';
      if (e.trayRev !== undefined && !(Number.isInteger(e.trayRev) && (e.trayRev as number) >= 1)) return '"trayRev" must be the tray record\'s revision, 1 or more';
      return null;
    }
    case 'place':
    case 'lift': {
      const x = sourceFields(e);
      if (x) return x;
      if (e.card === undefined && typeof e.tag === 'string' && /^[0-9A-Fa-f]{2,40}$/.test(e.tag)) return seatField(e, 'seat');
      return seatField(e, 'seat') ?? cardField(e, 'card');
    }
    case 'undo':
      return Number.isInteger(e.target) && (e.target as number) >= 0 ? null : '"target" must be the seq of the event to undo';
    case 'contract':
      return typeof e.contract === 'string' && parseContract(e.contract).ok ? null : '"contract" must be level, strain and declarer, e.g. "4HE" or "3NTSX"';
    case 'abandon':
      return e.reason === undefined || typeof e.reason === 'string' ? null : '"reason" must be a sentence';
    case 'tray':
      return typeof e.code === 'string' && e.code.length > 0 ? null : '"code" must be the non-empty barcode text';
    case 'claim':
      return seatField(e, 'seat') ?? (Number.isInteger(e.tricks) && (e.tricks as number) >= 0 && (e.tricks as number) <= 13 ? null : '"tricks" must be an integer 0-13');
    case 'remedy': {
      const x = seatField(e, 'by');
      if (x) return x;
      if (typeof e.remedy !== 'string' || !REMEDIES.includes(e.remedy)) return `"remedy" must be one of ${REMEDIES.join(', ')}`;
      if (e.seat !== undefined) { const y = seatField(e, 'seat'); if (y) return y; }
      if (e.suit !== undefined && (typeof e.suit !== 'string' || suitIndex(e.suit) < 0)) return '"suit" must be S, H, D or C';
      if (e.card !== undefined) { const y = cardField(e, 'card'); if (y) return y; }
      if (e.points !== undefined && (e.remedy !== 'points' || (e.points !== 'add' && e.points !== 'deduct'))) return '"points" must be "add" or "deduct", with "remedy": "points"';
      return null;
    }
    case 'honours': {
      const x = seatField(e, 'seat');
      if (x) return x;
      if (e.count === undefined && e.cards === undefined) return '"honours" needs "count" (2-4) or "cards" (the honours held, e.g. ["HA","HK","HQ"])';
      if (e.count !== undefined && !(Number.isInteger(e.count) && (e.count as number) >= 2 && (e.count as number) <= 4)) return '"count" must be 2, 3 or 4 honours';
      if (e.cards !== undefined) {
        if (!Array.isArray(e.cards) || e.cards.length < 2 || e.cards.length > 4) return '"cards" must list 2 to 4 honours, e.g. ["HA","HK","HQ"]';
        for (const c of e.cards) {
          const r = typeof c === 'string' ? tryParseCard(c) : null;
          if (!r?.ok) return `"cards": ${shown(c)} is not a card such as "HA"`;
          if (r.value % 13 < 9) return `"cards": ${shown(c)} is not an honour (A, K, Q or J)`;
        }
      }
      if (e.count !== undefined && Array.isArray(e.cards) && e.cards.length !== e.count) return '"count" and the number of "cards" differ';
      return null;
    }
    case 'exchange':
      return seatField(e, 'seat');
    case 'claim-accepted':
    case 'claim-disputed':
      return seatField(e, 'seat') ?? (e.reason === undefined || typeof e.reason === 'string' ? null : '"reason" must be a sentence');
    case 'result-accepted':
      return seatField(e, 'seat') ?? (e.board === undefined || (Number.isInteger(e.board) && (e.board as number) >= 0) ? null : '"board" must be a non-negative integer');
    case 'players': {
      if (!(Number.isInteger(e.round) && (e.round as number) >= 1)) return '"round" must be the round number, 1 or more';
      const n = e.names;
      if (typeof n !== 'object' || n === null || Array.isArray(n)) return '"names" must map seats to names, e.g. {"N":"Ann Lee"}';
      for (const [k, v] of Object.entries(n)) {
        if (!isSeat(k)) return `"names": ${shown(k)} is not a seat N, E, S or W`;
        if (typeof v !== 'string' || v.length > 60) return `"names.${k}" must be a name of at most 60 characters`;
      }
      return null;
    }
    case 'director-call':
      if (typeof e.reason !== 'string' || e.reason.length === 0) return '"reason" must be the reason the director was called';
      return e.seat === undefined ? null : seatField(e, 'seat');
    default:
      return `"type" must be one of deal, place, lift, tray, claim, claim-accepted, claim-disputed, result-accepted, director-call, players, remedy, exchange, undo, contract, abandon, honours (got ${shown(e.type)})`;
  }
}

/** Parse a table log; bad lines are reported with their line number and skipped, never thrown. */
export function parseTableLog(text: string): { events: TableEvent[]; errors: LogError[] } {
  const events: TableEvent[] = [];
  const errors: LogError[] = [];
  const lines = text.split(/\r?\n/);
  let lastSeq = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('//') || line.startsWith('#')) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch (err) {
      errors.push({ line: i + 1, message: `not valid JSON: ${printable((err as Error).message, 80)}` });
      continue;
    }
    const problem = validateTableEvent(obj);
    if (problem) {
      errors.push({ line: i + 1, message: problem });
      continue;
    }
    const ev = obj as TableEvent;
    if (ev.seq !== undefined) {
      if (ev.seq <= lastSeq) {
        errors.push({ line: i + 1, message: `"seq" ${ev.seq} is not greater than the previous ${lastSeq}` });
        continue;
      }
      lastSeq = ev.seq;
    }
    events.push(ev);
  }
  return { events, errors };
}

/** Write events as a table log, one JSON object a line. */
export function formatTableLog(events: readonly TableEvent[]): string {
  return events.map((e) => JSON.stringify(e)).join('\n') + (events.length ? '\n' : '');
}
