// The plan of a simulated club session, decided up front from a seed: the physical deal in every tray, the play at
// every table, and the faults to inject. Pure (no I/O, no clock), so a session is reproducible from its seed and a
// test can check the session against the plan.
import { type Card, formatCard, parseCard, suitIndex, suitOf } from '../../cards/card.js';
import { type Deal, formatDeal } from '../../cards/deal.js';
import type { Hand } from '../../cards/hand.js';
import { SEATS, type Seat } from '../../cards/seat.js';
import { atTable, tableSeat } from '../../cards/tray-turn.js';
import type { TableEvent } from '../../formats/table-log.js';
import { parseContract } from '../../cards/contract.js';
import { getVariant } from '../../laws/variants.js';
import { createRng, type Rng } from '../../sim/prng.js';
import { randomDeal } from '../../sim/random-deal.js';
import { randomPlay } from '../../sim/random-play.js';
import { dealerOfBoard, formatContract, randomCardOf, randomContract } from '../../sim/simulate.js';
import { openingLeader, playToTableLog } from '../../sim/to-table-log.js';
import { formatTrayCode } from '../../hardware/tray-code.js';
import type { Schedule } from '../types.js';

/** Faults to inject, as counts: how many fouled trays, wrong-tray scans and renounces in error. */
export interface SessionFaults {
  fouled: number;
  wrongTray: number;
  revokes: number;
  /** Tables whose daemon is killed (SIGKILL) once in the middle of a deal and started again on its journal. */
  crash?: number;
}

/** The physical deal in one tray. */
export interface PlannedTray {
  board: number;
  dealer: Seat;
  hands: [Hand, Hand, Hand, Hand];
  /** PBN of the hands. */
  pbn: string;
  /** The card the dealer turns (turned-trump variants). */
  trumpCard?: string;
}

/** What one table does with one tray in one round. */
export interface PlannedPlay {
  table: number;
  round: number;
  slot: number;
  board: number;
  /** 0 for the tray's first play (the original), 1, 2, ... for the overplays, in schedule order. */
  playIndex: number;
  /** A wrong tray scanned before this one (fault): the board number scanned by mistake. */
  wrongScan?: number;
  /** Fault: two cards of the tray are in each other's pockets at this table. */
  fouled?: { cards: [string, string]; seats: [Seat, Seat] };
  /** Fault: where a renounce in error was made (the engine must find it). */
  renounce?: { trick: number; seat: Seat; card: string };
  /** Bridge: the contract reached at this table. */
  contract?: string;
  /**
   * Fault: the table's daemon is killed (SIGKILL) after the bridge has sent `afterCard` of this play's card events
   * (places and lifts), `delayMs` later, and started again on its journal; the play goes on once it is back.
   */
  crash?: { afterCard: number; delayMs: number };
  /** A hand-scored table (no readers): its players enter the result on the director's terminal. */
  handScored?: true;
  /** The result as played, for a hand-scored table to enter: bridge the declarer's tricks, whist N-S's. */
  result?: { tricks: number; lead: string };
  /** The play stopped with a claim of the remaining tricks (Am. 27; Law 68): after trick `afterTrick`. */
  claim?: { seat: Seat; tricks: number; afterTrick: number; disputed?: true };
  /** A claim at the tray's first play: the cards not played, each passed over its seat's reader (a place and a lift). */
  shown?: TableEvent[];
  /** The events the table's hardware produces, after its deal starts: places and lifts (and a bridge `contract`). */
  events: TableEvent[];
}

export interface SessionPlan {
  session: string;
  variant: string;
  /** The seed the plan was made from (the players' names are made from it too). */
  seed: number;
  /** A trump suit declared for the sitting, no trump turned (Dup. IV.11). */
  trump?: 'S' | 'H' | 'D' | 'C';
  schedule: Schedule;
  trays: Map<number, PlannedTray>;
  /** Per schedule table number: its plays in order (round, slot). */
  plays: Map<number, PlannedPlay[]>;
  /** The hand-scored tables (schedule numbers): no readers, results entered by hand. */
  handScored: number[];
}

export interface PlanOptions {
  session: string;
  variant: string;
  /** A trump suit declared for the sitting (Dup. IV.11): no tray has a turned card. */
  trump?: 'S' | 'H' | 'D' | 'C';
  schedule: Schedule;
  seed: number;
  faults?: SessionFaults;
  /** Schedule numbers of the hand-scored tables. */
  handScored?: number[];
  /** Claims: how many of the smart tables' overplays end with a claim of the last tricks. */
  claims?: number;
}

/** Decide the whole session: deals, plays and faults. */
export function planSession(opts: PlanOptions): SessionPlan {
  const rng = createRng(opts.seed);
  const variant = getVariant(opts.variant);
  if (variant.seats.length !== 4) throw new Error(`variant: a club session needs a four-handed game, not "${opts.variant}"`);
  const trays = new Map<number, PlannedTray>();
  const order: { table: number; round: number; slot: number; board: number }[] = [];
  for (const r of opts.schedule.rounds) {
    for (const t of r.tables) {
      t.trays.forEach((b, slot) => { if (b !== null) order.push({ table: t.table, round: r.round, slot, board: b }); });
    }
  }
  // Schedule order: round, then slot; this is the order in which a tray meets its tables.
  order.sort((a, b) => a.round - b.round || a.slot - b.slot || a.table - b.table);
  for (const o of order) {
    if (trays.has(o.board)) continue;
    const hands = randomDeal(rng);
    const dealer = dealerOfBoard(o.board);
    const tray: PlannedTray = { board: o.board, dealer, hands, pbn: formatDeal(hands as unknown as Deal) };
    if (variant.trump === 'turned' && !opts.trump) tray.trumpCard = formatCard(randomCardOf(rng, hands[SEATS.indexOf(dealer)]));
    trays.set(o.board, tray);
  }
  // A tray's first play at a smart table makes its record (a hand-scored table sees no cards), so the index counts
  // the smart tables' plays only.
  const manual = new Set(opts.handScored ?? []);
  const seen = new Map<number, number>();
  const all: PlannedPlay[] = order.map((o) => {
    const n = seen.get(o.board) ?? 0;
    if (manual.has(o.table)) return { ...o, playIndex: n, handScored: true, events: [] };
    seen.set(o.board, n + 1);
    return { ...o, playIndex: n, events: [] };
  });
  const faults = opts.faults ?? { fouled: 0, wrongTray: 0, revokes: 0 };
  const smart = all.filter((p) => !p.handScored);
  // Faults go on the smart tables' overplays only: a fouled original has no record to be found against.
  const overplays = smart.filter((p) => p.playIndex > 0);
  const pick = (from: PlannedPlay[], k: number, what: string): PlannedPlay[] => {
    if (k > from.length) throw new Error(`faults: ${k} ${what} asked for, but the session has only ${from.length} overplays to put them on`);
    const pool = [...from];
    const out: PlannedPlay[] = [];
    for (let i = 0; i < k; i++) out.push(pool.splice(rng.int(pool.length), 1)[0]);
    return out;
  };
  const fouled = new Set(pick(overplays, faults.fouled, 'fouled trays'));
  const wrong = new Set(pick(smart, faults.wrongTray, 'wrong trays'));
  const revoke = new Set(pick(overplays.filter((p) => !fouled.has(p)), faults.revokes, 'revokes'));
  // Claims: the first on a tray's first play when there is one (its players then pass the cards they hold over the
  // readers to complete the record), the rest on overplays.
  const claimable = smart.filter((p) => !fouled.has(p) && !revoke.has(p));
  const originals = claimable.filter((p) => p.playIndex === 0);
  const later = claimable.filter((p) => p.playIndex > 0);
  const firstClaim = (opts.claims ?? 0) > 0 && originals.length > 0 ? pick(originals, 1, 'claims') : [];
  const claimed = new Set([...firstClaim, ...pick(later, Math.min((opts.claims ?? 0) - firstClaim.length, later.length), 'claims')]);
  const boards = [...trays.keys()];
  for (const p of all) {
    const tray = trays.get(p.board)!;
    let hands = tray.hands;
    if (fouled.has(p)) {
      const f = foulTray(rng, hands, tray.trumpCard, tray.dealer);
      hands = f.hands;
      p.fouled = f.fouled;
    }
    if (wrong.has(p)) {
      const others = boards.filter((b) => !tableBoardsInRound(opts.schedule, p.table, p.round).has(b));
      if (others.length > 0) p.wrongScan = others[rng.int(others.length)];
    }
    // A turned tray (Memory Duplicate's overplay): each hand is played at the seat where its pocket lies.
    const turn = opts.schedule.rounds.find((r) => r.round === p.round)?.tables.find((t) => t.table === p.table)?.turn ?? 0;
    playOf(rng, p, atTable(hands, turn), { ...tray, dealer: tableSeat(tray.dealer, turn) }, opts, revoke.has(p), claimed.has(p));
  }
  // The crashes are drawn last, so that a seed's deals, plays and other faults are the same with or without them.
  const crashTables = [...new Set(smart.map((p) => p.table))];
  if ((faults.crash ?? 0) > crashTables.length) throw new Error(`faults: crash=${faults.crash} asked for, but the session has only ${crashTables.length} tables that read their cards to crash`);
  for (let i = 0; i < (faults.crash ?? 0); i++) {
    const table = crashTables.splice(rng.int(crashTables.length), 1)[0];
    const mine = smart.filter((p) => p.table === table);
    const p = mine[rng.int(mine.length)];
    const cards = p.events.filter((e) => e.type === 'place' || e.type === 'lift').length;
    p.crash = { afterCard: 1 + rng.int(cards - 1), delayMs: rng.int(30) };
  }
  const plays = new Map<number, PlannedPlay[]>();
  for (const p of all) {
    const list = plays.get(p.table) ?? [];
    list.push(p);
    plays.set(p.table, list);
  }
  return { session: opts.session, variant: opts.variant, seed: opts.seed, ...(opts.trump ? { trump: opts.trump } : {}), schedule: opts.schedule, trays, plays, handScored: [...manual] };
}

/** The tray code a table's scanner reads for a board of the session. */
export function trayCodeOf(session: string, board: number): string {
  return formatTrayCode({ session, board }, { check: true });
}

function tableBoardsInRound(s: Schedule, table: number, round: number): Set<number> {
  const t = s.rounds.find((r) => r.round === round)?.tables.find((x) => x.table === table);
  return new Set((t?.trays ?? []).filter((b): b is number => b !== null));
}

/** Swap one card between two pockets: never the turned trump card, which the trump slip proves. */
function foulTray(rng: Rng, hands: readonly Hand[], trumpCard: string | undefined, dealer: Seat): { hands: [Hand, Hand, Hand, Hand]; fouled: NonNullable<PlannedPlay['fouled']> } {
  const a = rng.int(4);
  const b = (a + 1 + rng.int(3)) % 4;
  const pickCard = (seat: number): Card => {
    for (;;) {
      const c = randomCardOf(rng, hands[seat]);
      if (!(trumpCard && formatCard(c) === trumpCard && SEATS[seat] === dealer)) return c;
    }
  };
  const ca = pickCard(a);
  const cb = pickCard(b);
  const out = hands.map((h) => [...h]) as unknown as [Hand, Hand, Hand, Hand];
  const move = (card: Card, from: number, to: number) => {
    const s = (card / 13) | 0;
    const bit = 1 << (card % 13);
    out[from][s] &= ~bit;
    out[to][s] |= bit;
  };
  move(ca, a, b);
  move(cb, b, a);
  return { hands: out, fouled: { cards: [formatCard(ca), formatCard(cb)], seats: [SEATS[a], SEATS[b]] } };
}

function playOf(rng: Rng, p: PlannedPlay, hands: [Hand, Hand, Hand, Hand], tray: PlannedTray, opts: PlanOptions, renounce: boolean, claim: boolean): void {
  const variantName = opts.variant;
  const variant = getVariant(variantName);
  let trump = -1;
  let contract: string | undefined;
  if (variant.trump === 'turned' && opts.trump) {
    trump = suitIndex(opts.trump);
  } else if (variant.trump === 'turned') {
    trump = suitOf(parseCard(tray.trumpCard!));
  } else if (variant.trump === 'contract') {
    contract = formatContract(randomContract(rng));
    const c = parseContract(contract);
    if (!c.ok) throw new Error(c.error);
    trump = c.value.strain;
  }
  const leader = openingLeader(variantName, tray.dealer, contract);
  const played = randomPlay(rng, hands, { leader, trump, renounceAt: renounce ? { trick: 2 + rng.int(8) } : undefined });
  const trumpTurned = tray.trumpCard === undefined ? undefined : parseCard(tray.trumpCard);
  const log = playToTableLog(hands, played.plays, { variant: variantName, board: p.board, dealer: tray.dealer, withHands: false, trumpTurned, contract, ...(opts.trump ? { trump: opts.trump } : {}) });
  // The deal event is the table's to make when the tray is scanned; the bridge contract comes after it.
  p.events = log.filter((e) => e.type !== 'deal');
  if (contract) p.contract = contract;
  // Who won each trick, as played: a hand-scored table enters the count, a claim claims what the play would give.
  const winners = trickWinners(played.plays, trump);
  const declarer = contract ? (parseContract(contract) as { ok: true; value: { declarer: number } }).value.declarer : -1;
  const side = declarer >= 0 ? declarer % 2 : 0;
  p.result = { tricks: winners.filter((w) => w % 2 === side).length, lead: formatCard(played.plays[0].card) };
  if (claim) {
    // The claimant: declarer in bridge, else the leader to the trick after the cut; he claims what his side then took.
    const afterTrick = 7 + rng.int(5);
    const claimant = declarer >= 0 ? declarer : winners[afterTrick - 1];
    const tricks = winners.slice(afterTrick).filter((w) => w % 2 === claimant % 2).length;
    const all = p.events;
    p.events = cutAfterTrick(all, afterTrick);
    // At the tray's first play, the cards not played are passed over the readers after the claim, for the record.
    if (p.playIndex === 0) p.shown = all.slice(p.events.length).filter((e) => e.type === 'place').flatMap((e) => [e, { ...e, type: 'lift' } as TableEvent]);
    // One claim in three is disputed first (the director is called, and lets it stand).
    p.claim = { seat: SEATS[claimant], tricks, afterTrick, ...(rng.int(3) === 0 ? { disputed: true as const } : {}) };
    p.events.push({ type: 'claim', seat: SEATS[claimant], tricks });
  }
  if (contract) p.events.unshift({ type: 'contract', contract });
  if (played.injected) p.renounce = { trick: played.injected.trick, seat: SEATS[played.injected.seat], card: formatCard(played.injected.card) };
}

/** The seat index that won each trick of a complete play (highest trump, else highest card of the suit led). */
function trickWinners(plays: readonly { seat: number; card: Card }[], trump: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 3 < plays.length; i += 4) {
    const trick = plays.slice(i, i + 4);
    const led = suitOf(trick[0].card);
    const rank = (c: Card) => (suitOf(c) === trump ? 200 : suitOf(c) === led ? 100 : 0) + (c % 13);
    out.push(trick.reduce((best, x) => (rank(x.card) > rank(best.card) ? x : best)).seat);
  }
  return out;
}

/** The table events up to the end of trick `n`: its four cards placed and lifted (turned and quitted). */
function cutAfterTrick(events: readonly TableEvent[], n: number): TableEvent[] {
  let lifts = 0;
  for (let i = 0; i < events.length; i++) {
    if (events[i].type === 'lift') lifts++;
    // The turned trump's lift is one more lift than the tricks' (it comes before the dealer's first card).
    if (lifts >= n * 4 && events[i].type === 'lift' && (events[i + 1]?.type !== 'lift')) {
      const placed = events.slice(0, i + 1).filter((e) => e.type === 'place').length;
      if (placed >= n * 4) return events.slice(0, i + 1);
    }
  }
  return [...events];
}
