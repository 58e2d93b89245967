// One table as the director follows it: its journal events folded in seq order through the same engine the table
// runs (`Table`), and each deal that is over turned into the traveller line the schedule gives it. Pure: no I/O, so
// the live path and the rebuild after a restart are the same code.
import { SEATS, type Seat, seatIndex } from '../../cards/seat.js';
import { traySeat, turnedSide } from '../../cards/tray-turn.js';
import type { DealEvent, TableEvent } from '../../formats/table-log.js';
import { isDealOver } from '../../feed/projection.js';
import { formatContract, parseContract } from '../../cards/contract.js';
import { Table } from '../../laws/engine.js';
import type { DealResult, TrickRecord } from '../../laws/types.js';
import { getVariant } from '../../laws/variants.js';
import type { RoundAssignment, Schedule, Traveller } from '../types.js';
import { type ClaimPosition, claimPosition } from '../../dd/claim.js';

/** A deal that is over at a table: what the director derives a traveller and a tray record from. */
export interface Completion {
  board: number;
  deal: DealEvent;
  /** The deal's events, its deal event first. */
  events: TableEvent[];
  result: DealResult;
  fromSeq: number;
  toSeq: number;
  /** Bridge: the contract reached, if any. */
  contract?: string;
  /** The cards each seat played and the trump suit, as the fold holds them: the tray record is made from them. */
  folded: { cards: Record<Seat, string[]>; trump: string | null };
}

/**
 * Events that leave a deal that is over as it was, unless they take a card back from its tricks or bring a finding
 * (a lift: checked by the count of each).
 */
const UNCHANGED_AFTER_PLAY: ReadonlySet<TableEvent['type']> = new Set(['lift', 'result-accepted', 'director-call', 'players', 'tray']);

/** Folds one table's events in order; reports each deal that is over (again after any later event changes it). */
export class TableFold {
  private readonly table: Table;
  private dealEvents: TableEvent[] = [];
  private contract: string | undefined;
  /** Issue 21: the latest claim of the deal in play and the position it was made in (the director's page solves it). */
  private claimAt: ClaimPosition | null = null;
  /** seq of the last event folded; 0 before the first. */
  lastSeq = 0;

  constructor(variant: string) {
    this.table = new Table({ variant });
  }

  /** Fold one event; the deal it completes (or changes once complete), or null. */
  apply(ev: TableEvent): Completion | null {
    if (ev.seq !== undefined) this.lastSeq = ev.seq;
    const over = this.dealEvents.length > 0 && isDealOver(this.table);
    const cards = over ? this.table.cardsPlayed() : 0;
    const findings = over ? this.table.findingCount() : 0;
    if (ev.type === 'deal') {
      this.dealEvents = [ev];
      this.contract = ev.contract;
      this.claimAt = null;
    } else if (ev.type === 'abandon') {
      this.dealEvents = [];
      this.claimAt = null;
    } else if (this.dealEvents.length > 0) {
      const board = (this.dealEvents[0] as DealEvent).board;
      if (ev.type === 'claim' && board !== undefined) this.claimAt = claimPosition(this.table, board, ev.seat, ev.tricks);
      this.dealEvents.push(ev);
      if (ev.type === 'contract') this.contract = ev.contract;
    }
    this.table.apply(ev);
    const deal = this.dealEvents[0] as DealEvent | undefined;
    if (!deal || deal.board === undefined || !isDealOver(this.table)) return null;
    // The cards of the last trick taken up, the result accepted, a call: the deal is over as it was, and the director
    // would build its traveller and compare it again for nothing (issue 18: seven more times for each result).
    if (over && UNCHANGED_AFTER_PLAY.has(ev.type) && this.table.cardsPlayed() === cards && this.table.findingCount() === findings) return null;
    const result = this.table.result();
    if (!result) return null;
    return {
      board: deal.board, deal, events: this.dealEvents.slice(), result, contract: this.contract,
      fromSeq: deal.seq ?? 0, toSeq: ev.seq ?? 0, folded: { cards: this.table.cardsSeen(), trump: this.table.trump() },
    };
  }

  /** The latest claim of the deal in play or just ended, with its position; null when none. */
  lastClaim(): ClaimPosition | null {
    return this.claimAt;
  }

  /** The findings so far of the deal still in play (none once it is over: its completion carries them). */
  live(): { board: number; fromSeq: number; findings: ReturnType<Table['findings']> } | null {
    const deal = this.dealEvents[0] as DealEvent | undefined;
    if (!deal || deal.board === undefined || isDealOver(this.table)) return null;
    return { board: deal.board, fromSeq: deal.seq ?? 0, findings: this.table.findings() };
  }

  /** The deal in play or just ended, as played so far: the tricks, the trick on the table, the tricks won. */
  played(): { board: number; contract?: string; over: boolean; tricks: TrickRecord[]; current: { seat: Seat; card: string }[]; won: { NS: number; EW: number } } | null {
    const deal = this.dealEvents[0] as DealEvent | undefined;
    const r = this.table.result();
    if (!deal || deal.board === undefined || !r) return null;
    const over = isDealOver(this.table);
    return {
      board: deal.board, ...(this.contract ? { contract: this.contract } : {}), over, tricks: r.tricks,
      current: over ? [] : this.table.currentTrick().cards, won: { ...r.tricksWon },
    };
  }

  /** The board in play and its trick number, for the director's grid. */
  inPlay(): { board?: number; trick?: number } {
    const deal = this.dealEvents[0] as DealEvent | undefined;
    if (!deal || isDealOver(this.table)) return {};
    return { board: deal.board, trick: this.table.currentTrick().number };
  }
}

/** A table's entry in the schedule for a round in which it plays a board. */
export interface ScheduledPlay { table: number; round: number; ns?: string; ew?: string; players?: Partial<Record<Seat, string>> }

/**
 * Where a table plays a board in the schedule, by (table number, board) and, where a table plays a board in two
 * rounds (a Howell of 4 or 6 pairs, six-pairs), by the round.
 */
export interface ScheduleIndex {
  /** The play of `board` at `table` in `round`; without a round (or none matching), its first play there. */
  get(table: number, board: number, round?: number): ScheduledPlay | undefined;
  /** Every scheduled play of a board, by round then table. */
  playsOf(board: number): readonly ScheduledPlay[];
  /** The tables scheduled to play a board. */
  tablesOf(board: number): readonly number[];
  /** The boards of the session, ascending. */
  boards(): readonly number[];
}

/** Index a schedule by table and board. */
export function indexSchedule(s: Schedule): ScheduleIndex {
  const at = new Map<string, ScheduledPlay[]>();
  const plays = new Map<number, ScheduledPlay[]>();
  for (const r of [...s.rounds].sort((x, y) => x.round - y.round)) {
    for (const t of r.tables) {
      for (const b of new Set(t.trays)) {
        if (b === null) continue;
        const p: ScheduledPlay = { table: t.table, round: r.round, ns: t.ns, ew: t.ew, players: t.players };
        const k = `${t.table}:${b}`;
        at.set(k, [...(at.get(k) ?? []), p]);
        plays.set(b, [...(plays.get(b) ?? []), p]);
      }
    }
  }
  // Sorted once: the director asks after every result (released trays), and a 200-table Mitchell has 199 trays of
  // 200 plays each (issue 18: copying and sorting them at each result was a second of each instance's CPU).
  const sorted = new Map<number, readonly ScheduledPlay[]>();
  const tables = new Map<number, readonly number[]>();
  for (const [b, list] of plays) {
    sorted.set(b, Object.freeze([...list].sort((x, y) => x.round - y.round || x.table - y.table)));
    tables.set(b, Object.freeze([...new Set(list.map((p) => p.table))].sort((x, y) => x - y)));
  }
  const boards = Object.freeze([...plays.keys()].sort((a, b) => a - b));
  const none: readonly never[] = Object.freeze([]);
  return {
    get: (table, board, round) => {
      const list = at.get(`${table}:${board}`);
      return (round !== undefined ? list?.find((p) => p.round === round) : undefined) ?? list?.[0];
    },
    playsOf: (board) => sorted.get(board) ?? none,
    tablesOf: (board) => tables.get(board) ?? none,
    boards: () => boards,
  };
}

/**
 * A traveller with the whist extensions Dup. X.4 needs at session level (src/club/scoring/whist.ts `WhistTraveller`):
 * after a revoke, `made` (the tricks as played, beside `tricks` after the table's penalty) and the revoking side's
 * tricks won before its first revoke.
 */
export type FoldedTraveller = Traveller & { made?: { NS: number; EW: number }; wonBeforeRevoke?: Partial<Record<'NS' | 'EW', number>> };

/** Where a result belongs: the table's number in the schedule, its assignment, and the round it was played in. */
export interface TravellerPlace { tableNo: number; index: ScheduleIndex; assignment?: RoundAssignment; round?: number }

/** A traveller line's board, pairs, table, round and players, from the schedule (or the table's assignment). */
export function travellerBase(board: number, o: TravellerPlace): Traveller {
  const where = o.index.get(o.tableNo, board, o.round ?? o.assignment?.round);
  const a = o.assignment;
  const players = where?.players ?? a?.players;
  const pair = (d: 'ns' | 'ew', s1: Seat, s2: Seat): string =>
    where?.[d] ?? a?.[d] ?? (players ? `${players[s1] ?? '?'}&${players[s2] ?? '?'}` : `${o.tableNo}${d.toUpperCase()}`);
  const t: Traveller = { board, ns: pair('ns', 'N', 'S'), ew: pair('ew', 'E', 'W'), table: o.tableNo };
  const round = where?.round ?? a?.round;
  if (round !== undefined) t.round = round;
  if (players) t.players = players;
  return t;
}

/**
 * The traveller line of a completed deal: pairs and round from the schedule (or the table's assignment), the result.
 * `round` is the round the deal was played in where known (the table's assignment then); it picks the schedule's
 * entry when the table plays the board in two rounds.
 */
export function travellerOf(c: Completion, o: TravellerPlace & { variant: string }): FoldedTraveller {
  const t: FoldedTraveller = travellerBase(c.board, o);
  const variant = getVariant(c.deal.variant ?? c.result.variant ?? o.variant);
  // The table counts by its own seats; the traveller names the tray's. On a tray turned an odd number of quarters
  // (Memory Duplicate's overplay) the table's N-S hold the hands dealt E & W.
  const turn = c.deal.turn ?? 0;
  const side = (s: 'NS' | 'EW'): 'NS' | 'EW' => turnedSide(s, turn);
  const bySide = <T>(r: Partial<Record<'NS' | 'EW', T>>): Partial<Record<'NS' | 'EW', T>> =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [side(k as 'NS' | 'EW'), v]));
  if (variant.trump === 'contract') {
    const k = c.contract ? parseContract(c.contract) : null;
    if (k && k.ok) {
      t.contract = formatContract({ ...k.value, declarer: seatIndex(traySeat(SEATS[k.value.declarer], turn)) });
      t.tricks = k.value.declarer % 2 === 0 ? c.result.scored.NS : c.result.scored.EW;
    } else {
      t.contract = 'PASS';
    }
  } else {
    t.tricks = { NS: c.result.scored[side('NS')], EW: c.result.scored[side('EW')] };
  }
  if (c.result.marks && Object.keys(c.result.marks).length > 0) t.marks = bySide(c.result.marks) as Traveller['marks'];
  const revokes = c.result.findings.filter((f) => f.kind === 'revoke');
  if (variant.trump !== 'contract' && (t.marks || revokes.length > 0)) {
    t.made = { NS: c.result.tricksWon[side('NS')], EW: c.result.tricksWon[side('EW')] };
    const before: Partial<Record<'NS' | 'EW', number>> = {};
    for (const f of revokes) {
      const at = f.seat === 'N' || f.seat === 'S' ? 'NS' : 'EW';
      const first = f.renounceTrick ?? f.trick;
      const won = c.result.tricks.slice(0, Math.max(0, first - 1)).filter((k) => (k.winner === 'N' || k.winner === 'S' ? 'NS' : 'EW') === at).length;
      before[at] = Math.min(before[at] ?? won, won);
    }
    if (Object.keys(before).length > 0) t.wonBeforeRevoke = bySide(before);
  }
  return t;
}
