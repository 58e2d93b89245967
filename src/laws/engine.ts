// The rules engine: a pure fold over table-log events. `Table` is the readable API
// (table.play('E', 'D3'), table.whoseTurn()); `replay` folds a whole log into the DESIGN §5 result.
import { type Seat, SEATS, seatIndex } from '../cards/seat.js';
import { cardCode, formatCard, suitOf } from '../cards/card.js';
import { formatHand } from '../cards/hand.js';
import type { DealEvent, RemedyEvent, TableEvent } from '../formats/table-log.js';
import type { PendingPenalty } from './code.js';
import { CODES } from './codes/index.js';
import { DealPlay } from './deal-play.js';
import type { DealResult, Finding, ReplayResult } from './types.js';
import { getVariant } from './variants.js';

export interface TableOptions {
  /** Variant for deals whose `deal` event names none (and for cards placed before any deal). */
  variant?: string;
  /** Force this variant on every deal (the CLI's --variant). */
  forceVariant?: string;
  /** Keep the deal's events so that an `undo` can fold it again (default true; replay turns it off for logs without undo). */
  keepEvents?: boolean;
}

/** A public snapshot of the trick in progress. */
export interface TrickView {
  number: number;
  leader: Seat | null;
  cards: { seat: Seat; card: string }[];
}

const NONE: Finding[] = [];

/** A card table under the laws: fold events in, ask questions of the state. */
export class Table {
  private readonly opts: TableOptions;
  private current: DealPlay | null = null;
  private readonly done: DealResult[] = [];
  private lastTray: string | undefined;
  /** The events of the deal in progress, its deal event first: an undo folds them again. */
  private dealEvents: TableEvent[] = [];
  private readonly keepEvents: boolean;

  constructor(opts: TableOptions = {}) {
    this.opts = opts;
    this.keepEvents = opts.keepEvents ?? true;
  }

  /** Fold one table-log event; returns the findings it produced. */
  apply(ev: TableEvent): Finding[] {
    if (ev.type === 'deal') return this.deal(ev);
    if (ev.type === 'tray') {
      this.lastTray = ev.code;
      return NONE;
    }
    if (ev.type === 'undo') {
      this.undo(ev.target);
      return NONE;
    }
    if (ev.type === 'abandon') {
      if (this.current) this.current.abandoned = ev.reason ?? 'abandoned';
      this.close();
      return NONE;
    }
    const d = this.ensureDeal();
    if (this.keepEvents) this.dealEvents.push(ev);
    const before = d.findings.length;
    switch (ev.type) {
      case 'place': d.place(seatIndex(ev.seat), ev.card, ev.seq, ev.tag, ev.orderUnknown === true); break;
      case 'lift': d.lift(seatIndex(ev.seat), ev.card, ev.seq, ev.orderUnknown === true); break;
      case 'claim': d.claimTricks(seatIndex(ev.seat), ev.tricks, ev.seq); break;
      case 'remedy': this.remedy(ev); break;
      case 'exchange': d.exchange(seatIndex(ev.seat)); break;
      case 'contract': d.setContract(ev.contract); break;
    }
    // Most events find nothing: share one empty array rather than allocate per card.
    return d.findings.length === before ? NONE : d.findings.slice(before);
  }

  /** Start a deal (closing the one in progress). */
  deal(ev: Omit<DealEvent, 'type'> & { type?: 'deal' }): Finding[] {
    this.close();
    const dealEv: DealEvent = { ...ev, type: 'deal' };
    this.current = this.startDeal(dealEv);
    this.dealEvents = [dealEv];
    return this.current.findings.slice();
  }

  private startDeal(ev: DealEvent): DealPlay {
    const variant = getVariant(this.opts.forceVariant ?? ev.variant ?? this.opts.variant ?? 'duplicate-whist');
    return new DealPlay(ev, variant, CODES[variant.code]);
  }

  /**
   * Undo a physical misread: the event with seq `target` stops counting and the deal in progress is
   * folded again without it. Returns an error sentence when there is no such event in this deal.
   */
  undo(target: number): string | null {
    const i = this.dealEvents.findIndex((e, k) => k > 0 && e.seq === target);
    if (!this.current || i < 0) return `no event with seq ${target} in the deal in progress can be undone`;
    const events = this.dealEvents.filter((_, k) => k !== i);
    this.current = this.startDeal(events[0] as DealEvent);
    this.dealEvents = [events[0]];
    for (const e of events.slice(1)) this.apply(e);
    return null;
  }

  /** A card placed face up in a seat's zone. */
  place(seat: Seat, card: string): Finding[] {
    return this.apply({ type: 'place', seat, card });
  }

  /** Play a card: the same as placing it in the seat's zone. */
  play(seat: Seat, card: string): Finding[] {
    return this.place(seat, card);
  }

  /** A card leaves a seat's zone. */
  lift(seat: Seat, card: string): Finding[] {
    return this.apply({ type: 'lift', seat, card });
  }

  /** The claimant's side claims `tricks` of the remaining tricks. */
  claim(seat: Seat, tricks: number): Finding[] {
    return this.apply({ type: 'claim', seat, tricks });
  }

  /** Record the remedy chosen by the player entitled to it; returns an error sentence when it cannot apply. */
  remedy(ev: Omit<RemedyEvent, 'type'> & { type?: 'remedy' }): string | null {
    const d = this.ensureDeal();
    d.liableAsPenalties();
    return d.remedy({ ...ev, type: 'remedy' });
  }

  /** The seat to play next, or null when no deal is in play or the play is over. */
  whoseTurn(): Seat | null {
    const s = this.current?.whoseTurn();
    return s === null || s === undefined ? null : SEATS[s];
  }

  /** True when the last trick is complete and the next has not begun. */
  isTrickComplete(): boolean {
    return !!this.current && this.current.curCount === 0 && this.current.trickWinner.length > 0;
  }

  /** True when the card would be a renounce by the seat (it does not follow the suit led). */
  isRenounce(seat: Seat, card: string): boolean {
    const d = this.current;
    const c = cardCode(card);
    if (!d || d.curCount === 0 || c < 0 || d.flatSeats[d.curStart] === seatIndex(seat)) return false;
    return suitOf(c) !== suitOf(d.flatCards[d.curStart]);
  }

  /** The trick in progress. */
  currentTrick(): TrickView {
    const d = this.current;
    if (!d) return { number: 0, leader: null, cards: [] };
    return {
      number: d.trickNumber,
      leader: SEATS[d.curCount ? d.flatSeats[d.curStart] : d.properLeader],
      cards: d.currentSeats().map((s, i) => ({ seat: SEATS[s], card: formatCard(d.flatCards[d.curStart + i]) })),
    };
  }

  /** The trump suit letter, or null for no trump (or not yet known). */
  trump(): string | null {
    const t = this.current?.trump ?? -1;
    return t < 0 ? null : 'SHDC'[t];
  }

  /** The remaining hand of a seat, in PBN form, when the tray record is known. */
  remaining(seat: Seat): string | null {
    const h = this.current?.hands?.[seatIndex(seat)];
    return h ? formatHand(h) : null;
  }

  /** Cards each seat has played in this deal. */
  cardsSeen(): Record<Seat, string[]> {
    const out: Record<Seat, string[]> = { N: [], E: [], S: [], W: [] };
    const d = this.current;
    if (!d) return out;
    d.flatSeats.forEach((s, i) => out[SEATS[s]].push(formatCard(d.flatCards[i])));
    return out;
  }

  /** Penalties pending: suits to be called, cards liable to be called, highest or lowest, and whose option each is. */
  pendingPenalties(): (PendingPenalty | { kind: 'liable-card'; seat: Seat; card: string; law: string })[] {
    const d = this.current;
    if (!d) return [];
    return [...d.penalties.map((p) => ({ ...p })), ...d.callableCards().map((c) => ({ kind: 'liable-card' as const, ...c }))];
  }

  /** All findings of the deal in progress. */
  findings(): Finding[] {
    return this.current ? this.current.findings.slice() : [];
  }

  /** The last tray barcode scanned. */
  tray(): string | undefined {
    return this.lastTray;
  }

  /** The deal in progress as a DESIGN §5 result (without closing it). */
  result(): DealResult | null {
    return this.current ? this.current.result() : null;
  }

  /** The results of all deals, the one in progress closed at its current point. */
  results(): DealResult[] {
    this.close();
    return this.done.slice();
  }

  private close(): void {
    if (!this.current) return;
    this.current.finish();
    this.done.push(this.current.result());
    this.current = null;
  }

  private ensureDeal(): DealPlay {
    if (!this.current) this.deal({});
    return this.current!;
  }

}

/** Fold a whole table log (one or more deals) into the DESIGN §5 result. */
export function replay(events: readonly TableEvent[], opts: TableOptions = {}): ReplayResult {
  // Only a log with an undo in it ever folds a deal again; the others need not keep their events.
  let undo = false;
  for (let i = 0; i < events.length; i++) if (events[i].type === 'undo') { undo = true; break; }
  const t = new Table({ keepEvents: undo, ...opts });
  for (let i = 0; i < events.length; i++) t.apply(events[i]);
  return { deals: t.results() };
}
