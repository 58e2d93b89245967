// Live double-dummy analysis for spectators (issue 21, item 3): after each card, what each side can still take with
// best play, and what each legal card of the player to play would give (the cards that cost a trick). Vugraph shows
// this; a physical table can too, since it sees every card. It names unplayed cards, so it never goes on a public
// topic: the daemon publishes it on the table's spectator-only `analysis` topic (mosquitto/acl, role `vugraph`), and
// only once the embargo lets the deal's cards out (`released`). While the embargo holds, nothing is published at all.
import { type Seat, SEATS } from '../cards/seat.js';
import type { Table } from '../laws/engine.js';
import type { TrickRecord } from '../laws/types.js';
import { tablePosition } from './claim.js';
import type { DoubleDummy } from './solver.js';
import type { Position, PositionResult, Strain } from './types.js';

/** One position of the deal: after `played` cards. */
export interface SpectatorPosition {
  /** Cards played to tricks so far in this deal. */
  played: number;
  /** The trick in progress (a complete trick not yet quitted counts as quitted). */
  trick: number;
  /** Tricks each side has won so far. */
  won: { NS: number; EW: number };
  /** The seat to play; absent once every card is played. */
  toPlay?: Seat;
  /** The tricks each side can still take with best play by both, the trick in progress included. */
  left: { NS: number; EW: number };
  /** Each legal card of the seat to play: the tricks its side then takes, and what it costs (0: as good as the best). */
  cards: { card: string; tricks: number; cost: number }[];
}

/** The retained message of the `analysis` topic. */
export interface SpectatorAnalysis {
  schema: 1;
  type: 'tenace.analysis';
  /** `on`: positions follow; `off`: no libdds (`message` says how to install it); `unknown-hands`: no tray record (until the last card). */
  status: 'on' | 'off' | 'unknown-hands';
  message?: string;
  board: number | null;
  strain: Strain | null;
  /** The journal seq of the last event the analysis covers. */
  seq: number | null;
  /** Every position of the deal so far, in play order; the last is the one on the table now. */
  positions: SpectatorPosition[];
}

export interface LiveAnalysisOptions {
  dd: Pick<DoubleDummy, 'solve' | 'status'>;
  /** Hand a message to the feed (retained on `analysis`). Called only while the deal is released. */
  publish(a: SpectatorAnalysis): void;
  log?: { warn(obj: object, msg?: string): void };
}

interface Noted { played: number; trick: number; won: { NS: number; EW: number }; position: Position | null }

/** One deal as the analysis followed it: its positions by cards played, and whether it may be shown. */
interface DealState {
  board: number | null;
  strain: Strain | null;
  seq: number | null;
  known: boolean;
  positions: Map<number, Noted>;
  released: boolean;
  /** A message with every position went out while released (a deal played out under `live` or `deal-end`). */
  published: boolean;
}

/** Deals played here under an embargo, kept until their tray is released (a session has a few dozen boards). */
const KEEP_PAST = 32;

/** Follows the table event by event, solves each position once it may be shown, and hands the result on. */
export class LiveAnalysis {
  private readonly opts: LiveAnalysisOptions;
  private current: DealState | null = null;
  /** Earlier deals not shown yet: under `tray-complete` a tray is released after the table has moved on. */
  private past: DealState[] = [];
  /** Deals to solve and publish, oldest first. */
  private readonly due = new Set<DealState>();
  private running = false;
  /** Resolves when the work asked for so far is done (tests). */
  private idle: Promise<void> = Promise.resolve();
  /** Messages handed to publish() (tests and stats). */
  published = 0;

  constructor(opts: LiveAnalysisOptions) {
    this.opts = opts;
  }

  /**
   * After each event the feed folds (and when the club layer lifts the embargo of the deal in progress): note the
   * position on the table; when `released`, solve what is new and publish. `newDeal` when the event was a `deal`.
   */
  observe(table: Table, info: { seq: number | null; newDeal: boolean; released: boolean }): void {
    if (info.newDeal || this.current === null) this.begin();
    const d = this.current!;
    if (info.seq !== null) d.seq = info.seq;
    const opened = info.released && !d.released;
    d.released = info.released;
    const r = table.result();
    if (r === null) return;
    d.board = r.board ?? null;
    const seen = table.cardsSeen();
    const played = seen.N.length + seen.E.length + seen.S.length + seen.W.length;
    // A misread undone: the positions after it are gone.
    const size = d.positions.size;
    for (const k of [...d.positions.keys()]) if (k > played) d.positions.delete(k);
    let changed = d.positions.size !== size;
    const p = tablePosition(table);
    const trump = table.trump();
    d.strain = trump === 'S' || trump === 'H' || trump === 'D' || trump === 'C' ? trump : 'NT';
    d.known = p !== null || handsKnown(table);
    const t = table.currentTrick();
    const trick = t.cards.length === 4 ? t.number + 1 : t.number;
    const noted: Noted = { played, trick, won: { ...r.tricksWon }, position: p?.position ?? null };
    changed ||= JSON.stringify(d.positions.get(played)) !== JSON.stringify(noted);
    d.positions.set(played, noted);
    // An original play without a tray record: once every card has been played face up, the hands are known.
    if (!d.known) {
      const rebuilt = positionsFromPlay(table.result()!.tricks, d.strain);
      if (rebuilt) {
        d.known = true;
        d.positions = rebuilt;
      }
    }
    // A card lifted, a claim, a score: the position is the same, and so is the message (its seq aside).
    if (d.released && (changed || opened)) this.schedule(d);
  }

  /**
   * The club layer released a board (its tray has been played at every table). An earlier deal of that board, played
   * here under the embargo and not shown yet, is solved and published now; the deal in progress goes by observe().
   */
  release(board: number): void {
    for (const d of this.past) {
      if (d.board !== board || d.published || d.released) continue;
      d.released = true;
      this.schedule(d);
    }
  }

  /** Resolves once every solve asked for so far has been published (or dropped). */
  settled(): Promise<void> {
    return this.idle;
  }

  /** A new deal: the one before is kept while it has not been shown. */
  private begin(): void {
    const prev = this.current;
    if (prev && !prev.published && prev.positions.size > 0) {
      this.past.push(prev);
      if (this.past.length > KEEP_PAST) this.past.shift();
    }
    this.current = { board: null, strain: null, seq: null, known: true, positions: new Map(), released: false, published: false };
  }

  private schedule(d: DealState): void {
    // Asked again while waiting: it is solved once, with every position noted by then.
    this.due.delete(d);
    this.due.add(d);
    if (this.running) return;
    this.running = true;
    this.idle = this.run().finally(() => { this.running = false; });
  }

  private async run(): Promise<void> {
    while (this.due.size > 0) {
      const d = this.due.values().next().value as DealState;
      this.due.delete(d);
      const msg = await this.message(d);
      // The embargo came back meanwhile (a deal corrected), or a newer message of this deal is already due.
      if (!d.released || this.due.has(d)) continue;
      this.published++;
      this.opts.publish(msg);
      const last = msg.positions.at(-1);
      if (d !== this.current || (last && last.played > 0 && !last.toPlay)) {
        d.published = true;
        this.past = this.past.filter((x) => x !== d);
      }
    }
  }

  private async message(d: DealState): Promise<SpectatorAnalysis> {
    const base = { schema: 1 as const, type: 'tenace.analysis' as const, board: d.board, strain: d.strain, seq: d.seq };
    const st = await this.opts.dd.status();
    if (!st.on) return { ...base, status: 'off', message: st.reason, positions: [] };
    if (!d.known) {
      return { ...base, status: 'unknown-hands', message: 'the hands are not known at this table (an original play without a tray record): no analysis', positions: [] };
    }
    const out: SpectatorPosition[] = [];
    for (const n of [...d.positions.keys()].sort((a, b) => a - b)) {
      const noted = d.positions.get(n)!;
      const head = { played: noted.played, trick: noted.trick, won: noted.won };
      if (noted.position === null) {
        // Every card played: nothing left to take.
        out.push({ ...head, left: { NS: 0, EW: 0 }, cards: [] });
        continue;
      }
      let r: PositionResult;
      try {
        r = await this.opts.dd.solve(noted.position);
      } catch (err) {
        // A position DDS refuses (an irregular trick after a revoke) or a solver that failed: the rest still goes out.
        this.opts.log?.warn({ err: (err as Error).message, played: n }, 'double-dummy analysis of a position failed');
        continue;
      }
      const best = r.cards[0]?.tricks ?? 0;
      out.push({ ...head, toPlay: r.toPlay, left: { ...r.tricks }, cards: r.cards.map((c) => ({ card: c.card, tricks: c.tricks, cost: best - c.tricks })) });
    }
    return { ...base, status: 'on', positions: out };
  }
}

const RANKS = 'AKQJT98765432';

/**
 * The positions of a deal played out card by card, from its thirteen tricks alone (each card lay face up): the hands
 * are the cards each seat played. Null while the play is not complete (a claim, a trick short, an order unknown).
 */
export function positionsFromPlay(tricks: readonly TrickRecord[], strain: Strain | null): Map<number, Noted> | null {
  if (tricks.length !== 13 || strain === null) return null;
  const held: Record<Seat, string[]> = { N: [], E: [], S: [], W: [] };
  for (const t of tricks) {
    if (t.orderUnknown || SEATS.some((s) => !t.cards[s])) return null;
    for (const s of SEATS) held[s].push(t.cards[s]!);
  }
  const hand = (cards: string[]) => ['S', 'H', 'D', 'C'].map((suit) => cards.filter((c) => c[0] === suit).map((c) => c[1]).sort((a, b) => RANKS.indexOf(a) - RANKS.indexOf(b)).join('')).join('.');
  const out = new Map<number, Noted>();
  const won = { NS: 0, EW: 0 };
  tricks.forEach((t, ti) => {
    const order = t.order ?? [0, 1, 2, 3].map((i) => SEATS[(SEATS.indexOf(t.leader) + i) & 3]);
    const trick: string[] = [];
    for (const seat of order) {
      const played = ti * 4 + trick.length;
      out.set(played, { played, trick: ti + 1, won: { ...won }, position: { hands: `N:${SEATS.map((s) => hand(held[s])).join(' ')}`, strain, leader: t.leader, trick: [...trick] } });
      const card = t.cards[seat]!;
      held[seat] = held[seat].filter((c) => c !== card);
      trick.push(card);
    }
    won[t.winner === 'N' || t.winner === 'S' ? 'NS' : 'EW']++;
  });
  out.set(52, { played: 52, trick: 14, won: { ...won }, position: null });
  return out;
}

/** True when every hand is known but no card is left (the deal is played out), so "no position" is not "no hands". */
function handsKnown(table: Table): boolean {
  return (['N', 'E', 'S', 'W'] as const).every((s) => table.remaining(s) !== null);
}
