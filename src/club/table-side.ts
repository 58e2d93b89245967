// The table's part of a club session (docs/club.md, "The path of a tray"): what a table makes of the retained tray
// records, its round assignment and the released list, and what a tray scan becomes. Pure: no MQTT, no journal, no
// clock. The daemon (src/daemon/controller.ts) feeds it the messages and journals what it decides, once, when the
// scan is ingested; a replay folds the journaled outcome and never decides again.
import { parseDeal } from '../cards/deal.js';
import { tryParseCard, suitIndex } from '../cards/card.js';
import { type Seat, SEATS, isSeat } from '../cards/seat.js';
import { type TrayTurn, dealAtTable, isTrayTurn, tableSeat, turnedSide } from '../cards/tray-turn.js';
import type { DealEvent } from '../formats/table-log.js';
import { parseTrayCode } from '../hardware/tray-code.js';
import { VARIANTS } from '../laws/variants.js';
import { boardVulnerability } from './scoring/bridge-score.js';
import type { ClubAlert, RoundAssignment, Schedule, TrayRecord } from './types.js';

/** The fields of a `deal` event the table journals for a scan (seq and at are stamped by the journal). */
export type DealFields = Omit<DealEvent, 'seq' | 'at' | 'tx'>;

/**
 * The club line of the table's public state (`state.club`): what the last scan did. Never names a card: it goes on a
 * public topic, and the tray record's hands and slip are the club's secret until the embargo lifts.
 */
export interface ClubStatus {
  /**
   * `overplay`: the deal was started from the tray's record; `original`: no record, the first play of the tray;
   * `wrong-tray`: the tray is not this table's this round (no deal started); `deal-in-progress`: a tray was scanned
   * before the deal in play ended (no deal started).
   */
  status: 'overplay' | 'original' | 'wrong-tray' | 'deal-in-progress';
  board: number;
  /** wrong-tray: the trays this table plays this round. */
  expected?: number[];
  round?: number;
  /** A sentence for the players. */
  message: string;
}

/** A message the table could not use: the field at fault and what to do about it. */
export interface ClubMessageProblem {
  field: string;
  error: string;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: ClubMessageProblem };

const bad = <T>(field: string, error: string): Parsed<T> => ({ ok: false, problem: { field, error: `${field}: ${error}` } });

function parseJsonObject(payload: Uint8Array | string, what: string): Parsed<Record<string, unknown>> {
  const text = typeof payload === 'string' ? payload : new TextDecoder('utf-8').decode(payload);
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch (err) {
    return bad('payload', `is not JSON (${(err as Error).message}); the director must publish a ${what} as a JSON object`);
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return bad('payload', `must be a JSON object; the director must publish a ${what}`);
  return { ok: true, value: o as Record<string, unknown> };
}

const isBoard = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 9999;

/**
 * Check a retained tray record from `trays/<session>/<board>`. `session` is the table's; `board` the topic's last
 * level (the record must agree with its topic, or a misfiled record would start the wrong deal).
 */
export function parseTrayRecord(payload: Uint8Array | string, want: { session: string; board?: number }): Parsed<TrayRecord> {
  const j = parseJsonObject(payload, 'tray record');
  if (!j.ok) return j;
  const o = j.value;
  if (o.schema !== 1) return bad('schema', `is ${JSON.stringify(o.schema)}; this table reads tray records of schema 1 (upgrade the table or the director)`);
  if (o.type !== 'tenace.tray') return bad('type', `is ${JSON.stringify(o.type)}, not "tenace.tray"; publish only tray records under trays/`);
  if (o.session !== want.session) return bad('session', `is ${JSON.stringify(o.session)} but this table plays session "${want.session}"; publish the record under its own session`);
  if (!isBoard(o.board)) return bad('board', `must be the board number 1-9999 (got ${JSON.stringify(o.board)})`);
  if (want.board !== undefined && o.board !== want.board) return bad('board', `is ${o.board} but the record is on the topic of board ${want.board}; publish it on trays/<session>/${o.board}`);
  if (typeof o.hands !== 'string') return bad('hands', 'is missing; give the four hands as a PBN deal "N:AKQ.JT9.876.5432 ..."');
  try {
    const deal = parseDeal(o.hands);
    if (deal.some((h) => h === null)) return bad('hands', 'must give all four hands; a record with a hand left out cannot check the play');
  } catch (err) {
    return bad('hands', `${(err as Error).message}; give the four hands as a PBN deal "N:AKQ.JT9.876.5432 ..."`);
  }
  if (!isSeat(o.dealer)) return bad('dealer', `must be N, E, S or W (got ${JSON.stringify(o.dealer)})`);
  if (o.trumpCard !== undefined && (typeof o.trumpCard !== 'string' || !tryParseCard(o.trumpCard).ok)) return bad('trumpCard', `must be the card on the trump slip, e.g. "H5" (got ${JSON.stringify(o.trumpCard)})`);
  if (o.trump !== undefined && (typeof o.trump !== 'string' || o.trump.length !== 1 || suitIndex(o.trump) < 0)) return bad('trump', `must be a suit letter S, H, D or C (got ${JSON.stringify(o.trump)})`);
  if (o.vulnerable !== undefined && typeof o.vulnerable !== 'string') return bad('vulnerable', 'must be "None", "NS", "EW" or "All"');
  if (o.variant !== undefined && typeof o.variant !== 'string') return bad('variant', 'must be a variant name such as "duplicate-whist"');
  if (!Number.isInteger(o.rev) || (o.rev as number) < 1) return bad('rev', `must count the record's revisions from 1 (got ${JSON.stringify(o.rev)})`);
  if (typeof o.source !== 'object' || o.source === null || typeof (o.source as { kind?: unknown }).kind !== 'string') return bad('source', 'must say where the record comes from, e.g. {"kind":"hand-record", ...}');
  return { ok: true, value: o as unknown as TrayRecord };
}

/** Check a retained round assignment from `<table>/assignment`. */
export function parseAssignment(payload: Uint8Array | string, want: { session: string; table: string }): Parsed<RoundAssignment> {
  const j = parseJsonObject(payload, 'round assignment');
  if (!j.ok) return j;
  const o = j.value;
  if (o.schema !== 1) return bad('schema', `is ${JSON.stringify(o.schema)}; this table reads assignments of schema 1 (upgrade the table or the director)`);
  if (o.type !== 'tenace.assignment') return bad('type', `is ${JSON.stringify(o.type)}, not "tenace.assignment"`);
  if (o.session !== want.session) return bad('session', `is ${JSON.stringify(o.session)} but this table plays session "${want.session}"; set the table's session or the director's to the same name`);
  if (o.table !== want.table) return bad('table', `is ${JSON.stringify(o.table)} but this is table "${want.table}"; publish it on that table's assignment topic`);
  if (!Number.isInteger(o.round) || (o.round as number) < 1) return bad('round', `must be the round number, 1 or more (got ${JSON.stringify(o.round)})`);
  if (!Array.isArray(o.trays) || !o.trays.every(isBoard)) return bad('trays', 'must list the board numbers this table plays this round, e.g. [1,2,3]');
  if (!Number.isInteger(o.tables) || (o.tables as number) < 1) return bad('tables', `must be the number of tables in play, 1 or more (got ${JSON.stringify(o.tables)})`);
  if (typeof o.variant !== 'string') return bad('variant', 'must be the variant of the session, e.g. "duplicate-whist"');
  if (typeof o.movement !== 'string') return bad('movement', 'must name the movement, e.g. "mitchell"');
  if (o.turn !== undefined && !isTrayTurn(o.turn)) return bad('turn', `must be the quarter turns of the trays this round, 0-3 (got ${JSON.stringify(o.turn)})`);
  if (o.pin !== undefined && !(typeof o.pin === 'string' && /^[0-9]{4,8}$/.test(o.pin))) return bad('pin', 'must be the table terminal\'s PIN, 4 to 8 digits as text');
  if (o.trump !== undefined && !(typeof o.trump === 'string' && /^[SHDC]$/.test(o.trump))) return bad('trump', `must be the suit declared trumps for the sitting, S, H, D or C (got ${JSON.stringify(o.trump)})`);
  return { ok: true, value: o as unknown as RoundAssignment };
}

/** Check the retained `club/<session>/released` list: the boards whose embargo is lifted. */
export function parseReleased(payload: Uint8Array | string, want: { session: string }): Parsed<number[]> {
  const j = parseJsonObject(payload, 'released list');
  if (!j.ok) return j;
  const o = j.value;
  if (o.schema !== 1) return bad('schema', `is ${JSON.stringify(o.schema)}; this table reads released lists of schema 1`);
  if (o.type !== 'tenace.released') return bad('type', `is ${JSON.stringify(o.type)}, not "tenace.released"`);
  if (o.session !== want.session) return bad('session', `is ${JSON.stringify(o.session)} but this table plays session "${want.session}"`);
  if (!Array.isArray(o.boards) || !o.boards.every(isBoard)) return bad('boards', 'must list board numbers, e.g. [1,2]');
  return { ok: true, value: o.boards as number[] };
}

/**
 * The dealer of a board with no record: N deals 1, 5, 9, ...; E 2, 6, ...; S 3, 7, ...; W 4, 8, ... (the duplicate
 * convention, Law 2 in bridge), the same one the session plan deals by. Undefined for a game of fewer than four seats,
 * where the engine's own default applies.
 */
export function boardDealer(board: number, variant: string): Seat | undefined {
  const v = VARIANTS[variant];
  if (v && v.seats.length !== 4) return undefined;
  return SEATS[(((board - 1) % 4) + 4) % 4];
}

/**
 * The `deal` event a table journals when it scans a tray whose record it holds: the overplay, checked from the first
 * card. A turned tray (`turn`) lays each hand, the dealer and the vulnerability where its pocket lies at the table.
 */
export function dealEventFromRecord(record: TrayRecord, opts: { tables?: number; variant?: string; turn?: TrayTurn }): DealFields {
  const turn = opts.turn ?? 0;
  const ev: DealFields = { type: 'deal', board: record.board, dealer: tableSeat(record.dealer, turn), hands: dealAtTable(record.hands, turn) };
  const variant = opts.variant ?? record.variant;
  if (variant !== undefined) ev.variant = variant;
  // The slip records the card turned at the original play (Dup. IV.1, IV.3); a declared trump has no slip (IV.11).
  if (record.trumpCard !== undefined) ev.trumpSlip = record.trumpCard;
  else if (record.trump !== undefined) ev.trump = record.trump;
  if (record.vulnerable !== undefined) ev.vulnerable = turnedSide(record.vulnerable, turn);
  ev.overplay = true;
  if (opts.tables !== undefined) ev.tables = opts.tables;
  if (turn !== 0) ev.turn = turn;
  return ev;
}

/**
 * The `deal` event of an original play (no record yet): the board and its dealer, the hands are what is played. On a
 * turned tray the dealer and vulnerability are where the tray's indicators lie at the table. A trump declared for the
 * sitting (Dup. IV.11) goes on the deal: no trump is turned.
 */
export function originalDealEvent(board: number, opts: { variant: string; tables?: number; turn?: TrayTurn; trump?: string }): DealFields {
  const turn = opts.turn ?? 0;
  // The variant goes on the deal: the director's record-from-play reads the game from it (bridge has no turned trump).
  const ev: DealFields = { type: 'deal', board, variant: opts.variant };
  if (opts.trump !== undefined && VARIANTS[opts.variant]?.trump === 'turned') ev.trump = opts.trump;
  const dealer = boardDealer(board, opts.variant);
  if (dealer) ev.dealer = tableSeat(dealer, turn);
  if (VARIANTS[opts.variant]?.trump === 'contract') ev.vulnerable = turnedSide(boardVulnerability(board), turn);
  if (opts.tables !== undefined) ev.tables = opts.tables;
  if (turn !== 0) ev.turn = turn;
  return ev;
}

/** What the table knows when a tray is scanned. */
export interface ScanContext {
  /** The canonical code of the `tray` event ("session:board" or "board"). */
  code: string;
  /** The journal seq of the `tray` event, for the alert. */
  seq?: number;
  /** The time of the scan (the tray event's `at`). */
  at: string;
  /** The table's session (config `session`). */
  session: string;
  table: string;
  variant: string;
  /** The latest valid tray record per board. */
  records: ReadonlyMap<number, TrayRecord>;
  /** The latest valid assignment, or null before the director has sent one. */
  assignment: RoundAssignment | null;
  /** The deal in play and not ended (null when none): its board, and the trick it is at. */
  inPlay: { board: number | null; trick: number } | null;
  /** The trays this table has dealt, not abandoned, by `playedKey(round, board)`: the record revision they began from (0: none). */
  played?: ReadonlyMap<string, number>;
}

/** The key of a tray dealt at the table in a round (ClubMemory.played). */
export const playedKey = (round: number, board: number): string => `${round}:${board}`;

/** The table's earlier deal of `board` that def. (f) forbids repeating: in this round, or in any round when it holds no assignment. */
function priorPlay(c: ScanContext, board: number): { round: number; rev: number } | null {
  if (!c.played) return null;
  if (c.assignment) {
    const rev = c.played.get(playedKey(c.assignment.round, board));
    return rev === undefined ? null : { round: c.assignment.round, rev };
  }
  let last: { round: number; rev: number } | null = null;
  for (const [key, rev] of c.played) {
    const [r, b] = key.split(':').map(Number);
    if (b === board && (!last || r > last.round)) last = { round: r, rev };
  }
  return last;
}

/** What a scan becomes: a deal to journal, an alert to the director (no deal), or nothing to do. */
export type ScanDecision =
  | { kind: 'deal'; deal: DealFields; status: ClubStatus }
  | { kind: 'alert'; alert: ClubAlert; status: ClubStatus }
  | { kind: 'none'; reason: string };

// The laws the alerts rest on (Foster 1914, Laws of Duplicate Whist). Definition (c): a tray "is a device for
// retaining the hands of a deal and indicating the order of playing them": a tray out of its order is not to be
// played. Definition (f): "each deal is played only once by each player". Law IV.7: "When a deal has been played the
// cards ... must be placed in the tray": the deal in play goes back into its tray before another is taken up.
export const WRONG_TRAY_LAW = 'Dup. def. (c), (f)';
export const DEAL_IN_PLAY_LAW = 'Dup. IV.7';
// In bridge a board taken up out of its turn is Law 15 (WBF 2017, "Wrong Board or Hand"), whether it is not the
// table's or the table has played it already.
export const WRONG_BOARD_LAW = 'L15';

/** The laws a wrong-tray alert rests on in the session's game. */
function trayLaws(variant: string): { wrong: string; inPlay: string } {
  return VARIANTS[variant]?.trump === 'contract' ? { wrong: WRONG_BOARD_LAW, inPlay: WRONG_BOARD_LAW } : { wrong: WRONG_TRAY_LAW, inPlay: DEAL_IN_PLAY_LAW };
}

const list = (xs: readonly number[]): string => (xs.length === 0 ? 'none' : xs.join(', '));

/**
 * Decide what a tray scan becomes. Made once, when the scan is ingested: the deal it journals (or the alert it
 * sends) is the outcome, and a replay of the journal never calls this again.
 */
export function decideScan(c: ScanContext): ScanDecision {
  const code = parseTrayCode(c.code);
  if (!code.ok) return { kind: 'none', reason: `the tray code "${c.code}" does not parse: ${code.error}` };
  const board = code.board;
  const laws = trayLaws(c.assignment?.variant ?? c.variant);
  const base = { schema: 1 as const, type: 'tenace.alert' as const, session: c.session, table: c.table, board, at: c.at, ...(c.seq !== undefined ? { seq: c.seq } : {}) };
  const round = c.assignment ? { round: c.assignment.round } : {};

  if (code.session !== undefined && code.session !== c.session.toLowerCase()) {
    const message = `Tray ${board} belongs to session "${code.session}", not to this session: put it back and take this table's tray.`;
    return {
      kind: 'alert',
      alert: { ...base, ...round, kind: 'wrong-tray', law: laws.wrong, message: `table ${c.table} scanned tray ${board} of session "${code.session}" in session "${c.session}"; no deal was started`, ...(c.assignment ? { expected: [...c.assignment.trays] } : {}) },
      status: { status: 'wrong-tray', board, ...round, ...(c.assignment ? { expected: [...c.assignment.trays] } : {}), message },
    };
  }

  if (c.inPlay) {
    // A second scan of the tray in play changes nothing; another tray waits until this deal is back in its tray.
    if (c.inPlay.board === board) return { kind: 'none', reason: `tray ${board} is already in play` };
    const playing = c.inPlay.board === null ? 'the deal in play' : `board ${c.inPlay.board}`;
    const message = `Tray ${board} was scanned while ${playing} is still being played (trick ${c.inPlay.trick}): finish it and put its cards back in its tray, then scan tray ${board} again.`;
    return {
      kind: 'alert',
      alert: { ...base, ...round, kind: 'wrong-tray', law: laws.inPlay, message: `table ${c.table} scanned tray ${board} while ${playing} is in play at trick ${c.inPlay.trick}; no deal was started (finish the deal, or abandon it with abandon-deal, then scan again)` },
      status: { status: 'deal-in-progress', board, ...round, message },
    };
  }

  if (c.assignment && !c.assignment.trays.includes(board)) {
    const a = c.assignment;
    const message = `Tray ${board} is not this table's in round ${a.round}: this round's trays are ${list(a.trays)}. Do not play it; call the director.`;
    return {
      kind: 'alert',
      alert: { ...base, round: a.round, kind: 'wrong-tray', law: laws.wrong, expected: [...a.trays], message: `table ${c.table} scanned tray ${board} in round ${a.round}; its trays this round are ${list(a.trays)}; no deal was started` },
      status: { status: 'wrong-tray', board, round: a.round, expected: [...a.trays], message },
    };
  }

  // Definition (f): "each deal is played only once by each player". A tray this table has already dealt in this round
  // is not dealt again: most often the next round has begun and its assignment has not reached the table yet, and in
  // Memory Duplicate the overplay's tray lies turned, so a deal laid as the last round's would accuse every player.
  // Without an assignment (the table has just started and not yet heard from the director), a tray it has dealt in
  // any round waits for it. A director's correction of the record (a new deal) lets the tray be played again.
  const record = c.records.get(board);
  const prior = priorPlay(c, board);
  if (prior && !(record?.source.kind === 'correction' && record.rev > prior.rev)) {
    const a = c.assignment;
    const message = a
      ? `Tray ${board} has already been played at this table in round ${a.round}. If the next round has begun, wait until the table shows it (the director has not sent it yet), then scan the tray again; otherwise call the director.`
      : `Tray ${board} has already been played at this table (round ${prior.round}), and the table has not heard this round from the director yet: wait until it shows the round, then scan the tray again; otherwise call the director.`;
    const expected = a ? { expected: [...a.trays] } : {};
    return {
      kind: 'alert',
      alert: { ...base, ...round, kind: 'wrong-tray', law: laws.wrong, ...expected, message: `table ${c.table} scanned tray ${board} again${a ? ` in round ${a.round}` : ' with no assignment'}, after dealing it in round ${prior.round}; no deal was started (${laws.wrong === WRONG_BOARD_LAW ? 'Law 15: a board is played once at each table' : 'def. (f): each deal is played only once by each player'}). Has the table's ${a ? 'next ' : ''}assignment been sent?` },
      status: { status: 'wrong-tray', board, ...round, ...expected, message },
    };
  }

  const tables = c.assignment?.tables;
  const turn = c.assignment?.turn ?? 0;
  // The session's game is the director's: a table configured for another game plays the session's in a club.
  const variant = c.assignment?.variant ?? c.variant;
  // Memory Duplicate's overplay: "If the indicators pointed N & S on the original deals, they must lie E & W".
  const turned = turn === 0 ? '' : ` Turn the tray ${turn === 2 ? 'half round' : turn === 1 ? 'a quarter clockwise' : 'a quarter anticlockwise'}: the pocket dealt North lies at ${tableSeat('N', turn)}.`;
  if (record) {
    return {
      kind: 'deal',
      deal: { ...dealEventFromRecord(record, { tables, variant, turn }), ...round, trayRev: record.rev },
      status: { status: 'overplay', board, ...round, message: `Tray ${board}: overplay, every card is checked against the tray's record.${turned}` },
    };
  }
  return {
    kind: 'deal',
    deal: { ...originalDealEvent(board, { variant, tables, turn, trump: c.assignment?.trump }), ...round },
    status: { status: 'original', board, ...round, message: `Tray ${board}: original play; the hands as played become the tray's record.${turned}` },
  };
}

/** What the table holds of the club: the latest valid record per board, its assignment, the released boards. */
export class ClubMemory {
  readonly records = new Map<number, TrayRecord>();
  assignment: RoundAssignment | null = null;
  released: number[] = [];
  /** The players' names entered at the table, by round (journaled `players` events). */
  readonly names = new Map<number, Partial<Record<Seat, string>>>();
  /** The session's schedule (retained `club/<session>/schedule`), for the terminal's "next round" line. */
  schedule: Schedule | null = null;
  /** The trays dealt at this table in a round and not abandoned (decideScan's `played`), from the journal. */
  readonly played = new Map<string, number>();
  /** The club deal in play (the last deal event with a round), for an abandon. */
  private lastDeal: string | null = null;
  /** Messages ignored because they were malformed. */
  malformed = 0;

  constructor(readonly session: string, readonly table: string) {}

  /**
   * Take a retained record (an empty payload clears the board's record). Returns the problem when the message is
   * malformed; the record already held is kept then.
   */
  takeRecord(board: number, payload: Uint8Array | string): ClubMessageProblem | null {
    if (payload.length === 0) {
      this.records.delete(board);
      return null;
    }
    const r = parseTrayRecord(payload, { session: this.session, board });
    if (!r.ok) return this.count(r.problem);
    const held = this.records.get(board);
    // A redelivered older revision must not undo a correction.
    if (!held || r.value.rev >= held.rev) this.records.set(board, r.value);
    return null;
  }

  /** Take the retained assignment (an empty payload clears it). */
  takeAssignment(payload: Uint8Array | string): ClubMessageProblem | null {
    if (payload.length === 0) {
      this.assignment = null;
      return null;
    }
    const r = parseAssignment(payload, { session: this.session, table: this.table });
    if (!r.ok) return this.count(r.problem);
    this.assignment = r.value;
    return null;
  }

  /** Take the retained schedule (an empty payload clears it); only its rounds' tables are read, so only they are checked. */
  takeSchedule(payload: Uint8Array | string): ClubMessageProblem | null {
    if (payload.length === 0) {
      this.schedule = null;
      return null;
    }
    let o: unknown;
    try {
      o = JSON.parse(typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8'));
    } catch {
      return this.count({ field: 'payload', error: 'payload: the schedule is not JSON; publish `tenace movement NAME --json`' });
    }
    const rounds = (o as { rounds?: unknown }).rounds;
    if (!Array.isArray(rounds) || !rounds.every((r) => Number.isInteger(r?.round) && Array.isArray(r?.tables))) {
      return this.count({ field: 'rounds', error: 'rounds: the schedule needs rounds, each with its round number and tables' });
    }
    this.schedule = o as Schedule;
    return null;
  }

  /** Follow the journal: a deal started in a round is played there; an abandoned one is not. */
  noteEvent(ev: { type: string; board?: number; round?: number; trayRev?: number; names?: Partial<Record<Seat, string>> }): void {
    if (ev.type === 'players' && ev.round !== undefined && ev.names) {
      this.names.set(ev.round, { ...this.names.get(ev.round), ...ev.names });
    } else if (ev.type === 'deal') {
      this.lastDeal = ev.round !== undefined && ev.board !== undefined ? playedKey(ev.round, ev.board) : null;
      if (this.lastDeal) this.played.set(this.lastDeal, ev.trayRev ?? 0);
    } else if (ev.type === 'abandon' && this.lastDeal) {
      this.played.delete(this.lastDeal);
      this.lastDeal = null;
    }
  }

  /** Take the released list; returns the newly released boards (or the problem). */
  takeReleased(payload: Uint8Array | string): { added: number[] } | ClubMessageProblem {
    if (payload.length === 0) return { added: [] };
    const r = parseReleased(payload, { session: this.session });
    if (!r.ok) return this.count(r.problem);
    const added = r.value.filter((b) => !this.released.includes(b));
    this.released = [...new Set([...this.released, ...r.value])];
    return { added };
  }

  private count(p: ClubMessageProblem): ClubMessageProblem {
    this.malformed++;
    return p;
  }
}
