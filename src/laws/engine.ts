// The rules engine: a pure fold over table-log events. `Table` is the readable API
// (table.play('E', 'D3'), table.whoseTurn()); `replay` folds a whole log into the DESIGN §5 result.
import { type Seat, type Side, SEATS, seatIndex } from '../cards/seat.js';
import { cardCode, formatCard, parseCard, suitOf } from '../cards/card.js';
import { formatHand, handCards } from '../cards/hand.js';
import type { DealEvent, HonoursEvent, RemedyEvent, TableEvent } from '../formats/table-log.js';
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
  /**
   * False when no one will ask for the deals' facts (a replay of a game without a social score): closing a deal then
   * skips working them out, and facts() returns none. Results are the same either way.
   */
  facts?: boolean;
}

/** A public snapshot of the trick in progress. */
export interface TrickView {
  number: number;
  leader: Seat | null;
  cards: { seat: Seat; card: string }[];
}

const NONE: Finding[] = [];

/** Extension (issue 9): an honours call (English Law 7) as the table checked it against the cards it saw. */
export interface HonoursClaim {
  seat: Seat;
  /** The caller's side; in the two-handed games NS stands for the first seat in play and EW for the second. */
  side: Side;
  count?: number;
  cards?: string[];
  seq?: number;
  /** `false`: the cards seen contradict the call; `unchecked`: the table did not see enough to tell. */
  verdict: 'true' | 'false' | 'unchecked';
  law: string;
  message: string;
}

/** Extension (issue 9): a revoke penalty chosen by the adversaries (a `remedy` of `tricks` or `points`). */
export interface PenaltyChoice { remedy: 'tricks' | 'points'; by: Seat; points?: 'add' | 'deduct' }

/**
 * Extension (issue 9): what the score keeper needs of a deal beyond DESIGN §5. It names the honours each seat held,
 * unplayed ones included when the tray was known: it is for the keeper and the director, never for a public topic.
 */
export interface DealFacts {
  board?: number;
  variant: string;
  dealer: Seat;
  seats: Seat[];
  dummies: Seat[];
  /** The trump suit letter, or null when none is known. */
  trump: string | null;
  /** The turned trump card, when one was turned. */
  turned?: string;
  /** Prussian whist: the card cut for trump. */
  trumpCut?: string;
  /** Trump honours (A K Q J) each seat in play is known to have held. */
  honoursHeld: Partial<Record<Seat, string[]>>;
  /** True when every honour of every seat in play is known (tray record, or every card played). */
  honoursComplete: boolean;
  claims: HonoursClaim[];
  penalties: PenaltyChoice[];
}

function findingKey(f: Finding): string {
  return `${f.kind} ${f.seat} ${f.trick} ${f.law} ${f.card ?? ''} ${f.seq ?? ''}`;
}

/** A card table under the laws: fold events in, ask questions of the state. */
export class Table {
  private readonly opts: TableOptions;
  private current: DealPlay | null = null;
  private readonly done: DealResult[] = [];
  private lastTray: string | undefined;
  /** The events of the deal in progress, its deal event first: an undo folds them again. */
  private dealEvents: TableEvent[] = [];
  private readonly keepEvents: boolean;
  /** Issue 9: facts of each closed deal, parallel to `done`; calls and penalty choices of the deal in progress. */
  private readonly doneFacts: DealFacts[] = [];
  private curClaims: HonoursEvent[] = [];
  private curPenalties: PenaltyChoice[] = [];
  private curDeal: DealEvent | null = null;

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
    if (ev.type === 'honours') return this.honours(ev);
    // About the table, not the play: the journal and the terminal read them; the fold has nothing to change.
    if (ev.type === 'result-accepted' || ev.type === 'director-call' || ev.type === 'players') return NONE;
    if (ev.type === 'contract' && this.current?.awaitingContract && this.current.playBegun) return this.lateContract(ev);
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
      case 'claim-accepted':
      case 'claim-disputed': {
        const err = d.answerClaim(seatIndex(ev.seat), ev.type === 'claim-accepted', ev.seq);
        if (err) d.notes.push(`${ev.type}: ${err}`);
        break;
      }
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
    this.curDeal = dealEv;
    this.curClaims = [];
    this.curPenalties = [];
    return this.current.findings.slice();
  }

  private startDeal(ev: DealEvent): DealPlay {
    const variant = getVariant(this.opts.forceVariant ?? ev.variant ?? this.opts.variant ?? 'duplicate-whist');
    // Prussian whist: the card cut from the still pack fixes the trump suit; no card is turned (issue 9).
    const play = ev.trumpCut && !ev.trump ? { ...ev, trump: formatCard(parseCard(ev.trumpCut))[0] } : ev;
    return new DealPlay(play, variant, CODES[variant.code]);
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
    this.curPenalties = [];
    for (const e of events.slice(1)) this.apply(e);
    return null;
  }

  /**
   * Bridge: the contract is entered after the opening lead was read (the terminal is often late). WBF L41A: the
   * opening lead is made by "the defender on presumed declarer's left", so no lead can be judged before the contract
   * is known: the deal is folded again with the contract first, and the findings it makes now are returned.
   */
  private lateContract(ev: TableEvent): Finding[] {
    const before = new Set(this.current!.findings.map(findingKey));
    const [deal, ...rest] = this.dealEvents;
    this.current = this.startDeal(deal as DealEvent);
    this.dealEvents = [deal];
    this.curPenalties = [];
    for (const e of [ev, ...rest]) this.apply(e);
    return this.current.findings.filter((f) => !before.has(findingKey(f)));
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
    // Issue 9: the score keeper takes the revoke penalty in points from these choices.
    if (ev.remedy === 'tricks' || ev.remedy === 'points') this.curPenalties.push({ remedy: ev.remedy, by: ev.by, ...(ev.points ? { points: ev.points } : {}) });
    d.liableAsPenalties();
    return d.remedy({ ...ev, type: 'remedy' });
  }

  /** Why `seat` cannot accept or dispute a claim now (no claim standing, or he is the claimant's side), or null. */
  claimAnswerProblem(seat: Seat): string | null {
    return this.current ? this.current.claimAnswerProblem(seatIndex(seat)) : 'there is no deal in progress, so no claim to answer';
  }

  /** Bridge: the contract of the deal in progress (e.g. "4HSX"), once known; null otherwise. */
  contract(): string | null {
    return this.current?.contract ?? null;
  }

  /** Bridge: the declarer of the deal in progress, once the contract is known; null otherwise. */
  declarer(): Seat | null {
    const d = this.current?.declarer ?? -1;
    return d < 0 ? null : SEATS[d];
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

  /** How many cards are played to tricks in the deal in progress: cardsSeen()'s count, without building it. */
  cardsPlayed(): number {
    return this.current ? this.current.flatCards.length : 0;
  }

  /** How many findings the deal in progress has: findings().length, without copying them. */
  findingCount(): number {
    return this.current ? this.current.findings.length : 0;
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

  /** Whether a deal is in progress (result() is not null), without building its result. */
  hasDeal(): boolean {
    return this.current !== null;
  }

  /** The board of the deal in progress (undefined when it has none, or no deal): result()?.board, without building it. */
  board(): number | undefined {
    return this.current?.board;
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

  /** Issue 9: the facts of all deals for the score keeper, the one in progress closed at its current point. */
  facts(): DealFacts[] {
    this.close();
    return this.doneFacts.slice();
  }

  /** Issue 9: the facts of the deal in progress so far (its calls checked against the cards seen), or null. */
  currentFacts(): DealFacts | null {
    return this.current ? this.dealFacts(this.current) : null;
  }

  /** Issue 9: the results of the deals already closed, without closing the one in progress (for a live score). */
  finishedResults(): DealResult[] {
    return this.done.slice();
  }

  /** Issue 9: the facts of the deals already closed, parallel to finishedResults(). */
  finishedFacts(): DealFacts[] {
    return this.doneFacts.slice();
  }

  /**
   * An honours call (English Law 7). Until the trump of the following deal is turned (Eng. 6) it belongs to the deal
   * just played; otherwise to the deal in progress, checked when it closes.
   */
  private honours(ev: HonoursEvent): Finding[] {
    const d = this.current;
    const prev = this.doneFacts[this.doneFacts.length - 1];
    if (prev && (!d || (d.flatCards.length === 0 && d.turned < 0))) {
      prev.claims.push(checkClaim(prev, ev));
    } else if (d) {
      this.curClaims.push(ev);
    }
    // The verdict is the score keeper's (DealFacts.claims); a false call is not an irregularity of the play.
    return NONE;
  }

  private close(): void {
    if (!this.current) return;
    this.current.finish();
    this.done.push(this.current.result());
    if (this.opts.facts !== false) this.doneFacts.push(this.dealFacts(this.current));
    this.current = null;
    this.curDeal = null;
    this.curClaims = [];
    this.curPenalties = [];
  }

  /** The facts of a deal at its close: trump, honours seen, calls checked, penalty choices. */
  private dealFacts(d: DealPlay): DealFacts {
    const ev = this.curDeal ?? { type: 'deal' as const };
    const trump = d.trump < 0 ? null : 'SHDC'[d.trump];
    const held: Partial<Record<Seat, string[]>> = {};
    const isHonour = (c: number) => d.trump >= 0 && suitOf(c) === d.trump && c % 13 >= 9;
    for (const s of d.seats) {
      const cards = new Set<number>();
      d.flatSeats.forEach((x, i) => { if (x === s && isHonour(d.flatCards[i])) cards.add(d.flatCards[i]); });
      if (d.hands) for (const c of handCards(d.hands[s])) if (isHonour(c)) cards.add(c);
      // The turned card is the dealer's (not in Thirteen and the Odd, where it "belongs to neither player").
      if (d.turned >= 0 && s === d.dealer && d.variant.trumpCardToDealer && isHonour(d.turned)) cards.add(d.turned);
      held[SEATS[s]] = [...cards].sort((a, b) => b - a).map(formatCard);
    }
    const facts: DealFacts = {
      variant: d.variant.name, dealer: SEATS[d.dealer], seats: d.seats.map((s) => SEATS[s]), dummies: [...d.dummies].map((s) => SEATS[s]),
      trump, honoursHeld: held, honoursComplete: trump !== null && (d.hands !== null || d.seats.every((s) => d.playedCount[s] >= 13)),
      claims: [], penalties: this.curPenalties.slice(),
    };
    if (d.board !== undefined) facts.board = d.board;
    if (d.turned >= 0) facts.turned = formatCard(d.turned);
    if (ev.trumpCut) facts.trumpCut = formatCard(parseCard(ev.trumpCut));
    for (const c of this.curClaims) facts.claims.push(checkClaim(facts, c));
    return facts;
  }

  private ensureDeal(): DealPlay {
    if (!this.current) this.deal({});
    return this.current!;
  }

}

/** The side key of a seat: N-S or E-W; in the two-handed games NS is the first seat in play, EW the second. */
function sideOfSeat(f: DealFacts, seat: Seat): Side {
  if (f.seats.length === 2) return f.seats[0] === seat ? 'NS' : 'EW';
  return seat === 'N' || seat === 'S' ? 'NS' : 'EW';
}

/** Check an honours call against the honours the table saw (English Law 7: honours "must be called"). */
export function checkClaim(f: DealFacts, ev: HonoursEvent): HonoursClaim {
  const side = sideOfSeat(f, ev.seat);
  const base = { seat: ev.seat, side, law: 'Eng. 7', ...(ev.count !== undefined ? { count: ev.count } : {}), ...(ev.cards ? { cards: ev.cards.map((c) => formatCard(parseCard(c))) } : {}), ...(ev.seq !== undefined ? { seq: ev.seq } : {}) };
  const count = ev.count ?? ev.cards?.length ?? 0;
  const byRank = (a: string, b: string) => parseCard(b) - parseCard(a);
  const mine = f.seats.filter((s) => sideOfSeat(f, s) === side).flatMap((s) => f.honoursHeld[s] ?? []).sort(byRank);
  const theirs = f.seats.filter((s) => sideOfSeat(f, s) !== side).flatMap((s) => f.honoursHeld[s] ?? []).sort(byRank);
  const who = f.seats.length === 2 ? ev.seat : side;
  const no = (message: string): HonoursClaim => ({ ...base, verdict: 'false', message });
  if (f.trump === null) return { ...base, verdict: 'unchecked', message: 'no trump known: the call cannot be checked' };
  for (const c of base.cards ?? []) {
    if (c[0] !== f.trump) return no(`${ev.seat} called ${c}, which is not an honour of the trump suit (${f.trump})`);
    if (theirs.includes(c)) return no(`${ev.seat} called ${c}, but the adversaries held it`);
    if (f.honoursComplete && !mine.includes(c)) return no(`${ev.seat} called ${c}, but ${who} did not hold it`);
  }
  if (f.honoursComplete && mine.length < count) return no(`${ev.seat} called ${count} honours, but ${who} held ${mine.length}${mine.length ? ` (${mine.join(' ')})` : ''}`);
  if (theirs.length > 4 - count) return no(`${ev.seat} called ${count} honours, but the adversaries held ${theirs.length} (${theirs.join(' ')})`);
  if (f.honoursComplete || mine.length >= count) return { ...base, verdict: 'true', message: `${who} held ${mine.join(' ')}` };
  return { ...base, verdict: 'unchecked', message: `the table saw ${mine.length} of the ${count} honours called` };
}

/** Issue 9: fold a table log into the DESIGN §5 result and, parallel to its deals, the facts the score keeper needs. */
export function replayWithFacts(events: readonly TableEvent[], opts: TableOptions = {}): ReplayResult & { facts: DealFacts[] } {
  const t = new Table({ keepEvents: events.some((e) => e.type === 'undo'), ...opts });
  for (const e of events) t.apply(e);
  const deals = t.results();
  return { deals, facts: t.facts() };
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
