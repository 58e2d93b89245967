// Builders for the law tests: a deal described trick by trick in compact strings, the tray record (the
// `hands` of the deal event) derived from the cards each seat actually plays, and filler tricks ("cash")
// that the table plays out without irregularity so that a test only spells the tricks that matter.
//
//   const g = game({ variant: 'bridge', contract: '4HS' })
//     .trick('W: S2 SA S3 SK')          // W leads S2, then N, E, S in rotation
//     .trick('N: D2 H2! D3 D4')         // "!" marks an intended renounce: E ruffs while holding a diamond
//     .cash('E');                        // E leads and wins every remaining trick, everybody following suit
//   const r = g.result();                // the DESIGN §5 DealResult of the replay
//
// A trick may also list its events in order, seat by seat: 'N:D2 W:D5 E:D3 S:DA' (W plays before E), and a
// leading "-" lifts a card: 'N:D2 E:C5! -E:C5 E:D3 S:DA W:D4' (E corrects his renounce).
import { type Card, formatCard, parseCard, suitOf } from '../../src/cards/card.js';
import { type Deal, formatDeal } from '../../src/cards/deal.js';
import { type Hand, addCard } from '../../src/cards/hand.js';
import { type Seat, SEATS, seatIndex } from '../../src/cards/seat.js';
import type { DealEvent, RemedyEvent, TableEvent } from '../../src/formats/table-log.js';
import { parseContract } from '../../src/cards/contract.js';
import { Table, replay } from '../../src/laws/engine.js';
import type { DealResult, Finding } from '../../src/laws/types.js';
import { getVariant } from '../../src/laws/variants.js';

export interface GameOptions {
  variant: string;
  dealer?: Seat;
  contract?: string;
  dummy?: Seat | Seat[];
  seats?: Seat[];
  board?: number;
  /** An explicit tray record; otherwise derived from the cards each seat places. */
  hands?: string;
  /** Humbug: seats that took up the hand on their right (their cards come from that pocket of the tray). */
  exchanged?: Seat[];
}

interface Token { lift: boolean; seat: Seat; card: Card; renounce: boolean }

type Step =
  | { kind: 'trick'; tokens: Token[] }
  | { kind: 'event'; ev: TableEvent }
  | { kind: 'turn'; card: Card }
  | { kind: 'cash'; leader: Seat; n?: number; play: boolean }
  | { kind: 'quit' }
  | { kind: 'mark'; name: string };

/** The short form of a finding the tests compare: kind, seat, trick, law, and the card and renounce trick when given. */
export interface Brief { kind: string; seat: string; trick: number; law: string; card?: string; renounceTrick?: number }

export function brief(findings: readonly Finding[]): Brief[] {
  return findings.map((f) => {
    const b: Brief = { kind: f.kind, seat: f.seat, trick: f.trick, law: f.law };
    if (f.card !== undefined) b.card = f.card;
    if (f.renounceTrick !== undefined) b.renounceTrick = f.renounceTrick;
    return b;
  });
}

/** The play of a trick as "leader: cards in order -> winner", to compare tricks at a glance. */
export function played(t: { leader: string; order?: string[]; cards: Record<string, string | undefined>; winner: string }): string {
  return `${t.leader}: ${(t.order ?? Object.keys(t.cards)).map((s) => t.cards[s]).join(' ')} -> ${t.winner}`;
}

/** The kinds of a finding list, in order, for quick negative checks. */
export function kinds(findings: readonly Finding[]): string[] {
  return findings.map((f) => f.kind);
}

export function game(opts: GameOptions): Game {
  return new Game(opts);
}

export class Game {
  private readonly steps: Step[] = [];
  readonly seats: Seat[];
  readonly dealer: Seat;
  private readonly toDealer: boolean;
  private readonly trumpFromContract: number | null;
  private readonly deadHands: boolean;
  private exchanged: Set<Seat>;
  private built: { events: TableEvent[]; marks: Map<string, number>; pbn: string } | null = null;

  constructor(readonly opts: GameOptions) {
    const v = getVariant(opts.variant);
    this.seats = [...(opts.seats ?? v.seats)].sort((a, b) => seatIndex(a) - seatIndex(b));
    this.dealer = opts.dealer ?? 'W';
    this.toDealer = v.trumpCardToDealer;
    this.deadHands = v.name === 'humbug';
    this.exchanged = new Set(opts.exchanged ?? []);
    if (v.trump === 'contract' && opts.contract) {
      const c = parseContract(opts.contract);
      this.trumpFromContract = c.ok ? c.value.strain : -1;
    } else this.trumpFromContract = null;
  }

  private push(s: Step): this {
    this.steps.push(s);
    this.built = null;
    return this;
  }

  /** The dealer turns the trump card; in the games where it is his, he takes it back into his hand. */
  turn(card: string): this {
    return this.push({ kind: 'turn', card: parseCard(card) });
  }

  /** One trick: 'W: S2 SA S3 SK' in rotation from the leader, or 'N:D2 W:D5 -W:D5 ...' event by event. */
  trick(spec: string): this {
    const parts = spec.trim().split(/\s+/);
    const tokens: Token[] = [];
    if (/^[NESW]:$/.test(parts[0])) {
      let seat = parts[0][0] as Seat;
      for (const p of parts.slice(1)) {
        const renounce = p.endsWith('!');
        tokens.push({ lift: false, seat, card: parseCard(renounce ? p.slice(0, -1) : p), renounce });
        seat = this.next(seat);
      }
    } else {
      for (const p of parts) {
        const m = /^(-?)([NESW]):(\S+?)(!?)$/.exec(p);
        if (!m) throw new Error(`bad trick token "${p}" in "${spec}"`);
        tokens.push({ lift: m[1] === '-', seat: m[2] as Seat, card: parseCard(m[3]), renounce: m[4] === '!' });
      }
    }
    return this.push({ kind: 'trick', tokens });
  }

  /** `leader` leads and wins each remaining trick (or `n` of them): the highest card of a suit, the others follow. */
  cash(leader: Seat, n?: number): this {
    return this.push({ kind: 'cash', leader, n, play: true });
  }

  /** The cards not yet played are dealt out as `cash` would play them, but nobody plays them (before a claim). */
  holdRest(leader: Seat): this {
    return this.push({ kind: 'cash', leader, play: false });
  }

  /** The cards of the last trick are turned and quitted: all of them lifted. */
  quit(): this {
    return this.push({ kind: 'quit' });
  }

  place(seat: Seat, card: string): this {
    return this.push({ kind: 'event', ev: { type: 'place', seat, card } });
  }

  lift(seat: Seat, card: string): this {
    return this.push({ kind: 'event', ev: { type: 'lift', seat, card } });
  }

  claim(seat: Seat, tricks: number): this {
    return this.push({ kind: 'event', ev: { type: 'claim', seat, tricks } });
  }

  remedy(ev: Omit<RemedyEvent, 'type'>): this {
    return this.push({ kind: 'event', ev: { type: 'remedy', ...ev } });
  }

  exchange(seat: Seat): this {
    this.exchanged.add(seat);
    return this.push({ kind: 'event', ev: { type: 'exchange', seat } });
  }

  /** A named point in the log, to look at the findings as they stood there. */
  mark(name: string): this {
    return this.push({ kind: 'mark', name });
  }

  next(seat: Seat): Seat {
    const i = this.seats.indexOf(seat);
    if (i < 0) throw new Error(`${seat} is not in play`);
    return this.seats[(i + 1) % this.seats.length];
  }

  private rotation(leader: Seat): Seat[] {
    const out: Seat[] = [leader];
    while (out.length < this.seats.length) out.push(this.next(out[out.length - 1]));
    return out;
  }

  private build() {
    if (this.built) return this.built;
    // Every card a test names explicitly is kept out of the filler tricks.
    const explicit = new Set<number>();
    let turned = -1;
    for (const s of this.steps) {
      if (s.kind === 'trick') for (const t of s.tokens) explicit.add(t.card);
      if (s.kind === 'event' && (s.ev.type === 'place' || s.ev.type === 'lift')) explicit.add(parseCard(s.ev.card!));
      if (s.kind === 'turn') { explicit.add(s.card); turned = s.card; }
    }
    const trump = this.trumpFromContract ?? (turned >= 0 ? suitOf(turned) : -1);
    const playedBy = new Map<Seat, Set<number>>(this.seats.map((s) => [s, new Set<number>()]));
    const own = (seat: Seat, card: Card) => {
      if (card === turned && !this.toDealer) return;
      playedBy.get(seat)?.add(card);
    };
    // Cards placed by each seat in the steps from index i on.
    const futureOf = (from: number) => {
      const f = new Map<Seat, Set<number>>(this.seats.map((s) => [s, new Set<number>()]));
      for (let i = from; i < this.steps.length; i++) {
        const s = this.steps[i];
        if (s.kind === 'trick') for (const t of s.tokens) if (!t.lift) f.get(t.seat)?.add(t.card);
        if (s.kind === 'event' && s.ev.type === 'place') f.get(s.ev.seat)?.add(parseCard(s.ev.card!));
      }
      return f;
    };
    for (const s of this.steps) {
      if (s.kind === 'trick') for (const t of s.tokens) if (!t.lift) own(t.seat, t.card);
      if (s.kind === 'event' && s.ev.type === 'place') own(s.ev.seat, parseCard(s.ev.card!));
      if (s.kind === 'turn') own(this.dealer, s.card);
    }
    const used = new Set<number>(explicit);
    const voids = new Set<string>(); // `${seat}${suit}`: the seat showed out of the suit lawfully
    const events: TableEvent[] = [];
    const marks = new Map<string, number>();
    let last: { seat: Seat; card: Card }[] = [];

    this.steps.forEach((s, i) => {
      switch (s.kind) {
        case 'turn':
          events.push({ type: 'place', seat: this.dealer, card: formatCard(s.card) });
          if (this.toDealer) events.push({ type: 'lift', seat: this.dealer, card: formatCard(s.card) });
          break;
        case 'event':
          events.push(s.ev);
          break;
        case 'mark':
          marks.set(s.name, events.length);
          break;
        case 'quit':
          for (const p of last) events.push({ type: 'lift', seat: p.seat, card: formatCard(p.card) });
          break;
        case 'trick': {
          const cur: { seat: Seat; card: Card }[] = [];
          for (const t of s.tokens) {
            events.push({ type: t.lift ? 'lift' : 'place', seat: t.seat, card: formatCard(t.card) });
            if (t.lift) {
              const k = cur.findIndex((p) => p.seat === t.seat && p.card === t.card);
              if (k >= 0) cur.splice(k, 1);
              continue;
            }
            if (cur.some((p) => p.seat === t.seat)) continue; // a second card: not a play
            if (cur.length > 0 && suitOf(t.card) !== suitOf(cur[0].card) && !t.renounce) voids.add(`${t.seat}${suitOf(cur[0].card)}`);
            cur.push({ seat: t.seat, card: t.card });
          }
          last = cur;
          break;
        }
        case 'cash': {
          const future = futureOf(i + 1);
          const counts = this.seats.map((x) => 13 - playedBy.get(x)!.size);
          const n = s.n ?? counts[0];
          if (s.n === undefined && counts.some((c) => c !== n)) throw new Error(`cash: the seats need different numbers of cards (${counts.join(', ')})`);
          for (let k = 0; k < n; k++) {
            const trick = this.fillTrick(s.leader, used, voids, future, trump);
            for (const p of trick) {
              used.add(p.card);
              playedBy.get(p.seat)!.add(p.card);
              if (s.play) events.push({ type: 'place', seat: p.seat, card: formatCard(p.card) });
            }
            last = trick;
          }
          break;
        }
      }
    });

    // The tray record: each seat's pocket holds the cards it played (from the pocket on its right if it exchanged).
    const pockets: (Set<number> | null)[] = [null, null, null, null];
    for (const seat of this.seats) {
      const pocket = this.exchanged.has(seat) ? (seatIndex(seat) + 3) & 3 : seatIndex(seat);
      pockets[pocket] = new Set(playedBy.get(seat));
    }
    if (this.deadHands) {
      const rest = [...Array(52).keys()].filter((c) => !pockets.some((p) => p?.has(c)) && (c !== turned || this.toDealer));
      for (let p = 0; p < 4; p++) if (!pockets[p]) pockets[p] = new Set(rest.splice(0, 13));
    }
    const deal: Deal = [null, null, null, null];
    pockets.forEach((p, k) => {
      if (!p) return;
      const h: Hand = [0, 0, 0, 0];
      for (const c of p) addCard(h, c);
      deal[k] = h;
    });
    this.built = { events, marks, pbn: formatDeal(deal) };
    return this.built;
  }

  /** One filler trick won by the leader: a suit everybody can follow, else a trump lead with lawful discards. */
  private fillTrick(leader: Seat, used: Set<number>, voids: Set<string>, future: Map<Seat, Set<number>>, trump: number): { seat: Seat; card: Card }[] {
    const order = this.rotation(leader);
    const free = (suit: number) => [...Array(13).keys()].map((r) => suit * 13 + r).filter((c) => !used.has(c)).sort((a, b) => b - a);
    const isVoid = (seat: Seat, suit: number) => voids.has(`${seat}${suit}`);
    const rank = (suits: number[]) => suits.sort((a, b) => free(b).length - free(a).length || (a === trump ? -1 : b === trump ? 1 : a - b));
    const leads = [0, 1, 2, 3].filter((su) => free(su).length > 0 && !isVoid(leader, su));
    // First the suits some follower has shown out of (he discards while others still have cards to spare).
    const shownOut = rank(leads.filter((su) => su !== trump && order.slice(1).some((x) => isVoid(x, su))));
    const pure = rank([0, 1, 2, 3].filter((su) => free(su).length >= order.length && order.every((x) => !isVoid(x, su))));
    if (!shownOut.length && pure.length) {
      const cards = free(pure[0]);
      return order.map((seat, k) => ({ seat, card: cards[k] }));
    }
    const tryOrder = [...shownOut, ...leads.filter((su) => su === trump), ...rank(leads.filter((su) => su !== trump && !shownOut.includes(su)))];
    for (const x of tryOrder) {
      const taken = new Set<number>();
      const trick: { seat: Seat; card: Card }[] = [];
      const newVoids: string[] = [];
      let ok = true;
      for (const seat of order) {
        const follow = free(x).filter((c) => !taken.has(c));
        if (follow.length && !isVoid(seat, x)) {
          const c = seat === leader ? follow[0] : follow[follow.length - 1];
          trick.push({ seat, card: c });
          taken.add(c);
          continue;
        }
        if (seat === leader || [...future.get(seat)!].some((c) => suitOf(c) === x)) { ok = false; break; }
        const ys = rank([0, 1, 2, 3].filter((y) => y !== x && !isVoid(seat, y) && free(y).some((c) => !taken.has(c))));
        const y = ys.find((su) => su !== trump) ?? -1;
        if (y < 0) { ok = false; break; }
        const cards = free(y).filter((c) => !taken.has(c));
        const c = cards[cards.length - 1];
        trick.push({ seat, card: c });
        taken.add(c);
        newVoids.push(`${seat}${x}`);
      }
      if (ok) {
        for (const v of newVoids) voids.add(v);
        return trick;
      }
    }
    throw new Error(`cash: no lawful filler trick for ${leader} with ${52 - used.size} cards left`);
  }

  /** The deal event and the table log. With `hands: false` the tray record is left out (hands unknown). */
  log(o: { hands?: boolean } = {}): TableEvent[] {
    const b = this.build();
    return [this.dealEvent(o.hands ?? true), ...b.events];
  }

  dealEvent(hands = true): DealEvent {
    const o = this.opts;
    const ev: DealEvent = { type: 'deal', variant: o.variant, dealer: this.dealer };
    if (o.board !== undefined) ev.board = o.board;
    if (o.contract) ev.contract = o.contract;
    if (o.dummy) ev.dummy = o.dummy;
    if (o.seats) ev.seats = o.seats;
    if (hands) ev.hands = o.hands ?? this.build().pbn;
    return ev;
  }

  /** The derived tray record, PBN. */
  pbn(): string {
    return this.build().pbn;
  }

  /** The DESIGN §5 result of replaying the whole log. */
  result(o: { hands?: boolean } = {}): DealResult {
    const deals = replay(this.log(o)).deals;
    if (deals.length !== 1) throw new Error(`expected one deal, got ${deals.length}`);
    return deals[0];
  }

  /** A table that has folded the log up to a mark (the whole log without one). */
  tableAt(mark?: string, o: { hands?: boolean } = {}): Table {
    const b = this.build();
    const upto = mark === undefined ? b.events.length : b.marks.get(mark);
    if (upto === undefined) throw new Error(`no mark "${mark}"`);
    const t = new Table();
    t.apply(this.dealEvent(o.hands ?? true));
    for (const ev of b.events.slice(0, upto)) t.apply(ev);
    return t;
  }

  /** Findings as they stood at a mark. */
  findingsAt(mark: string, o: { hands?: boolean } = {}): Finding[] {
    return this.tableAt(mark, o).findings();
  }

  /** The trick-by-trick cards of the whole log (for debugging a test). */
  describe(): string {
    return this.log().map((e) => JSON.stringify(e)).join('\n');
  }
}

export { SEATS };
