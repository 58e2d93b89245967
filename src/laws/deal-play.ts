// The play of one deal: a fold over place/lift/claim/remedy events that keeps the table state and the
// findings. Pure: no I/O, no clock, no randomness. Physical events are interpreted here under the
// table-log conventions of DESIGN §4; the code of laws rules on every irregularity.
import { cardCode, formatCard, parseCard, rankBit, suitOf, rankOf, suitIndex } from '../cards/card.js';
import { type Hand, addCard, emptyHand, handCards, handSize, holds, removeCard } from '../cards/hand.js';
import { isComplete, parseDeal } from '../cards/deal.js';
import { type Seat, SEATS, leftOf, partnerOf, seatIndex } from '../cards/seat.js';
import type { DealEvent, RemedyEvent } from '../formats/table-log.js';
import type { DealResult, Finding, FindingKind, TrickRecord, VariantDescriptor } from './types.js';
import type { Establishment, LawCode, PendingPenalty, RevokeRecord, RuleContext, Ruling } from './code.js';
import { formatContract, parseContract } from '../cards/contract.js';
import { winningIndex } from '../cards/trick.js';
import { printable } from '../formats/quote.js';


interface OpenRenounce {
  seat: number;
  trick: number;
  suit: number;
  card: number;
  /** The card the offender failed to play was a penalty card (bridge L64B3). */
  penaltyCard: boolean;
}

/** A stretch of place/lift events whose order is unknown (found by a presence snapshot), while it lasts. */
interface LostStretch {
  /** seq of its first event. */
  fromSeq: number | undefined;
  /** Seat of its first event, and the trick it began in. */
  seat: number;
  trick: number;
  /** What was pending when the order was lost and can no longer be judged (renounces, penalties). */
  setAside: string[];
  /** The card taken as the turned trump inside the stretch, if any. */
  trumpRead?: number;
}

interface Liability {
  seat: number;
  law: string;
  /** Who may call it: the option of the ruling's call-card remedy. */
  by: Seat[];
}

const TOTAL_TRICKS = 13;

const variantSeats = new WeakMap<VariantDescriptor, number[]>();

/** Seat indices of a variant's default seats, computed once per descriptor (deals share the array, read-only). */
function seatIndices(v: VariantDescriptor): number[] {
  let s = variantSeats.get(v);
  if (!s) variantSeats.set(v, (s = v.seats.map(seatIndex).sort((a, b) => a - b)));
  return s;
}

/** One deal in play. Mutated by the fold; every method is deterministic in its inputs. */
export class DealPlay {
  readonly variant: VariantDescriptor;
  readonly code: LawCode;
  readonly board: number | undefined;
  readonly dealer: number;
  readonly seats: number[];
  /** The next seat in play after each seat, clockwise. */
  private readonly nextOf: number[];
  readonly dummies: Set<number>;
  declarer = -1;
  /** Bridge: the contract in play (canonical text, e.g. "4HSX"), once known. */
  contract: string | null = null;
  readonly ctx: RuleContext;
  /** Remaining hands when the tray record is known; null when unknown. */
  readonly hands: Hand[] | null;
  trump = -1;
  readonly trumpSlip: number;
  /** The turned trump card, -1 until turned (or when the trump is declared). */
  turned = -1;
  turnedInZone = false;
  /** The trump card turned differs from the trump slip, and the overplay has not yet begun. */
  private wrongTrumpOpen = false;
  private openingLeadMade = false;
  /** Dup. IV.11: a trump suit declared for the sitting, no card turned. */
  private trumpDeclared = false;

  /** Cards played in this deal, as a 13-bit mask per suit. */
  private readonly played: Hand = [0, 0, 0, 0];
  readonly playedCount = [0, 0, 0, 0];
  // Every card played to a trick, flat (no object per trick): seats and cards in play order. Completed trick i
  // spans [trickStart[i], trickStart[i + 1]) and trickWinner[i] won it; the trick in progress runs from
  // trickStart[trickWinner.length] to the end.
  readonly flatSeats: number[] = [];
  readonly flatCards: number[] = [];
  readonly trickStart: number[] = [0];
  readonly trickWinner: number[] = [];
  readonly tricksWon: [number, number] = [0, 0];
  private curFalseLead = false;
  /** Seats that lawfully may withdraw their card from the current trick (Dup. X.3). */
  private mayWithdraw: number[] = [];
  properLeader: number;
  /** The complete trick awaiting turning and quitting (1-based; 0 when none), and how many of its cards are lifted. */
  private quitPending = 0;
  private quitLifted = 0;
  /** Unknown hands: trick (1-based) at which a seat showed out of a suit; 0 when it has not. */
  /**
   * Unknown hands (or known ones after a stretch of unknown order, see heldKnown), per seat*4+suit: [0,16) trick
   * shown out (0 none), [16,32) the card, [32,48) 1 when by a call.
   */
  private voids: Int8Array | null;
  /**
   * The hand record still tells what each seat holds. Not after a stretch of unknown order: whole tricks may have
   * been played unseen, and the record then keeps cards already played, so from then on a renounce is judged as
   * with hands unknown: a revoke only when a later card of the suit proves it.
   */
  private heldKnown = true;
  private readonly openRenounces: OpenRenounce[] = [];
  readonly revokes: RevokeRecord[] = [];
  /** Cards liable to be called, created on the first one (most deals have none). */
  private liableCards: Map<number, Liability> | null = null;
  readonly penalties: PendingPenalty[] = [];
  readonly findings: Finding[] = [];
  readonly notes: string[] = [];
  private claim: { side: number; tricks: number; seat: number; atTrick: number; accepted: boolean } | null = null;
  /** Humbug: a bit per seat that has exchanged its hand. */
  private exchanged = 0;
  private penaltyChoice: 'tricks' | 'points' | undefined;
  /** Cards lying face up in each seat's zone: a 13-bit mask per seat and suit (index seat * 4 + suit). */
  private readonly zones = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  /** Bit per seat that has played to the current trick. */
  private curMask = 0;
  private seq: number | undefined;
  private fouled = false;
  /** Set when the deal was abandoned (a new deal required): the reason. */
  abandoned: string | undefined;
  // Order lost (see loseOrder): the stretch in progress, whether the trick in progress was touched by one, how many
  // of its first cards were played in known order, a bit (1 << trick) per trick touched, whether the next lead is
  // accepted as proper, and the cards lifted while the order was unknown. All stay at rest on the normal path.
  private lost: LostStretch | null = null;
  private curUncertain = false;
  private curKnown = 0;
  private uncertainTricks = 0;
  private acceptLead = false;
  /** The trump suit is unknown or a guess: trick winners may be wrong, so no lead is judged for the rest of the deal. */
  private leadsUnjudged = false;
  private gone: Hand | null = null;

  constructor(ev: DealEvent, variant: VariantDescriptor, code: LawCode) {
    this.variant = variant;
    this.code = code;
    this.board = ev.board;
    this.dealer = ev.dealer ? seatIndex(ev.dealer) : 3;
    this.seats = ev.seats ? ev.seats.map(seatIndex).sort((a, b) => a - b) : seatIndices(variant);
    const dummies = (ev.dummy === undefined ? variant.dummies : Array.isArray(ev.dummy) ? ev.dummy : [ev.dummy]).map(seatIndex);
    if (ev.trump) {
      this.trump = suitIndex(ev.trump);
      this.trumpDeclared = true;
    }
    this.dummies = new Set(dummies);
    this.trumpSlip = ev.trumpSlip ? parseCard(ev.trumpSlip) : -1;
    this.ctx = {
      seats: this.seats, dummies: this.dummies, declarer: -1, dealer: this.dealer, trick: 1,
      tables: ev.tables, overplay: ev.overplay ?? ev.trumpSlip !== undefined, totalTricks: TOTAL_TRICKS,
    };
    this.nextOf = [0, 1, 2, 3].map((x) => this.nextSeat(x));
    this.properLeader = this.firstLeader();
    if (variant.trump === 'contract' && ev.contract) this.setContract(ev.contract);
    const deal = ev.hands ? parseDeal(ev.hands) : null;
    // The tray is known when every seat in play has its hand (two-handed games need only two).
    this.hands = !deal ? null : isComplete(deal) ? deal : this.seats.every((x) => deal[x] !== null) ? deal.map((h) => h ?? emptyHand()) : null;
    this.voids = this.hands ? null : new Int8Array(48);
    if (this.hands) {
      for (const s of this.seats) {
        const n = handSize(this.hands[s]);
        if (n !== TOTAL_TRICKS) {
          this.addFinding('wrong-card-count', s, this.code.handIrregularity(this.ctx, s, 'wrong-card-count'),
            `${SEATS[s]}'s pocket of the tray holds ${n} cards, not 13`);
        }
      }
    }
  }

  /** Bridge: the contract fixes declarer, dummy, trump and the opening leader; only before the opening lead. */
  setContract(text: string): void {
    const c = parseContract(text);
    if (!c.ok) {
      this.notes.push(c.error);
      return;
    }
    if (this.openingLeadMade) {
      this.notes.push(`the contract ${text} came after the opening lead and was not applied`);
      return;
    }
    this.declarer = this.ctx.declarer = c.value.declarer;
    this.contract = formatContract(c.value);
    this.trump = c.value.strain;
    this.dummies.clear();
    this.dummies.add(partnerOf(this.declarer));
    this.properLeader = this.firstLeader();
  }

  /** Bridge before the contract is known: leads cannot be judged yet (the Table folds them again once it is). */
  get awaitingContract(): boolean {
    return this.variant.trump === 'contract' && this.declarer < 0;
  }

  /** True once a card has been led to the first trick. */
  get playBegun(): boolean {
    return this.openingLeadMade;
  }

  private firstLeader(): number {
    switch (this.variant.firstLeader) {
      case 'declarer-left': return this.declarer >= 0 ? leftOf(this.declarer) : leftOf(this.dealer);
      case 'dealer-adversary': return this.nextSeat(this.dealer);
      default: return this.nextSeat(this.dealer);
    }
  }

  /** Cards liable to be called, by card. */
  get liable(): Map<number, Liability> {
    return (this.liableCards ??= new Map());
  }

  /** Offset in the flat arrays where the trick in progress starts. */
  get curStart(): number {
    return this.trickStart[this.trickWinner.length];
  }

  /** Cards played so far to the trick in progress. */
  get curCount(): number {
    return this.flatSeats.length - this.trickStart[this.trickWinner.length];
  }

  /** Seats that have played to the trick in progress, in play order. */
  currentSeats(): number[] {
    return this.flatSeats.slice(this.curStart);
  }

  /** Cards played to the trick in progress, in play order. */
  currentCards(): number[] {
    return this.flatCards.slice(this.curStart);
  }

  /** Completed trick `k` (0-based) as a record; `cards` keeps the play order in its key order. */
  private trickRecord(k: number): TrickRecord {
    const from = this.trickStart[k], to = this.trickStart[k + 1];
    const fs = this.flatSeats, fc = this.flatCards;
    const leader = fs[from];
    const winner = SEATS[this.trickWinner[k]];
    const f = (i: number) => formatCard(fc[from + i]);
    const uncertain = (this.uncertainTricks & (1 << (k + 1))) !== 0;
    const clockwise = to - from === 4 && fs[from + 1] === ((leader + 1) & 3) && fs[from + 2] === ((leader + 2) & 3) && fs[from + 3] === ((leader + 3) & 3);
    if (clockwise) {
      // One object literal per leader: four fixed shapes instead of a keyed store per card.
      let t: TrickRecord;
      switch (leader) {
        case 0: t = { leader: 'N', cards: { N: f(0), E: f(1), S: f(2), W: f(3) }, winner }; break;
        case 1: t = { leader: 'E', cards: { E: f(0), S: f(1), W: f(2), N: f(3) }, winner }; break;
        case 2: t = { leader: 'S', cards: { S: f(0), W: f(1), N: f(2), E: f(3) }, winner }; break;
        default: t = { leader: 'W', cards: { W: f(0), N: f(1), E: f(2), S: f(3) }, winner };
      }
      if (uncertain) t.orderUnknown = true;
      return t;
    }
    const cards: Partial<Record<Seat, string>> = {};
    let inOrder = true;
    for (let i = from; i < to; i++) {
      cards[SEATS[fs[i]]] = formatCard(fc[i]);
      if (i > from && fs[i] !== this.nextOf[fs[i - 1]]) inOrder = false;
    }
    const t: TrickRecord = { leader: SEATS[leader], cards, winner };
    // `order` spells the play order out only when it was not clockwise (a play out of turn). An uncertain trick's
    // order is the engine's reading, and a short one (cards never seen) is not a play out of turn either.
    if (uncertain) t.orderUnknown = true;
    else if (!inOrder) t.order = fs.slice(from, to).map((x) => SEATS[x]);
    return t;
  }

  /** True when completed trick `k` (0-based) holds the card. */
  private trickHas(k: number, card: number): boolean {
    for (let i = this.trickStart[k]; i < this.trickStart[k + 1]; i++) if (this.flatCards[i] === card) return true;
    return false;
  }

  /** The next seat in play, clockwise. */
  nextSeat(seat: number): number {
    for (let i = 1; i <= 4; i++) {
      const s = (seat + i) & 3;
      if (this.seats.includes(s)) return s;
    }
    return seat;
  }

  /** Side index: N-S vs E-W with four seats; each player his own side in the two-handed games. */
  sideOf(seat: number): number {
    return this.seats.length === 2 ? this.seats.indexOf(seat) : seat & 1;
  }

  /** Partner of a seat (the player of a dummy, or the dummy of a player); the seat itself when two-handed. */
  partner(seat: number): number {
    return this.seats.length === 2 ? seat : partnerOf(seat);
  }

  /** The seat whose hand physically plays a seat's cards: a dummy's partner plays for it. */
  controllerOf(seat: number): number {
    return this.dummies.has(seat) ? this.partner(seat) : seat;
  }

  get trickNumber(): number {
    return this.trickWinner.length + 1;
  }

  get isOver(): boolean {
    return this.claim !== null || this.trickWinner.length >= TOTAL_TRICKS;
  }

  /** Whose turn it is, or null when the play is over. */
  whoseTurn(): number | null {
    if (this.isOver) return null;
    if (this.curCount === 0) return this.properLeader;
    let s = this.flatSeats[this.curStart];
    for (let i = 0; i < this.seats.length; i++) {
      if (!(this.curMask & (1 << s))) return s;
      s = this.nextOf[s];
    }
    return null;
  }

  private addFinding(kind: FindingKind, seat: number, ruling: Ruling, detail?: string, card?: number, trick = this.trickNumber, extra?: Partial<Finding>): Finding {
    const f: Finding = {
      kind, seat: SEATS[seat], trick, law: ruling.law, remedies: ruling.remedies,
      message: detail ? `${detail}. ${ruling.message}` : ruling.message,
    };
    if (card !== undefined && card >= 0) f.card = formatCard(card);
    if (this.seq !== undefined) f.seq = this.seq;
    if (extra) Object.assign(f, extra);
    this.findings.push(f);
    return f;
  }

  // ---------------------------------------------------------------- place

  /** A card appears face up in a seat's zone; `orderUnknown` when a presence snapshot found it (see loseOrder). */
  place(seat: number, cardText: string | undefined, seq?: number, tag?: string, orderUnknown = false): void {
    this.seq = seq;
    if (orderUnknown) this.loseOrder(seat);
    else if (this.lost) this.reportLostOrder(seq);
    const card = cardText === undefined ? -1 : cardCode(cardText);
    if (card < 0) {
      this.addFinding('unknown-card', seat, this.code.handIrregularity(this.ctx, seat, 'card-not-in-hand'),
        `a card the table cannot name (${tag ? `tag ${tag}` : JSON.stringify(cardText)}) was placed in ${SEATS[seat]}'s zone`);
      return;
    }
    this.zones[seat * 4 + suitOf(card)] |= rankBit(card);

    if (this.claim?.accepted) {
      // Am. 27: the result "as then claimed or admitted, is established"; a card shown afterwards changes nothing.
      this.notes.push(`${SEATS[seat]} placed ${formatCard(card)} after the claim was accepted; the claimed result stands`);
      return;
    }
    if (this.claim) {
      if (this.claimNotAdmitted()) return;
    }
    if (this.trickWinner.length >= TOTAL_TRICKS) {
      if (this.lost || this.uncertainTricks) {
        // Read without their order, the tricks may have been cut short: a card past the thirteenth proves no surplus.
        this.notes.push(`${SEATS[seat]} placed ${formatCard(card)} after the thirteenth trick as counted; the play order was lost, so it is not judged a surplus card`);
        return;
      }
      this.addFinding('wrong-card-count', seat, this.code.handIrregularity(this.ctx, seat, 'wrong-card-count'),
        `${SEATS[seat]} placed ${formatCard(card)} after the thirteenth trick: a surplus card`, card, TOTAL_TRICKS);
      return;
    }
    if (this.turnTrump(seat, card)) return;
    if (this.quitPending) {
      // A lead to the next trick quits the last one; by the renouncer's side it establishes under X.1(b) first.
      this.establishOnPlay(seat);
      this.quitTrick();
    }
    if (holds(this.played, card)) {
      this.addFinding('duplicate-card', seat, this.code.handIrregularity(this.ctx, seat, 'duplicate-card'),
        `${formatCard(card)} was already played in this deal: a second copy (two packs at the table?)`, card);
      return;
    }
    if (this.variant.code === 'humbug') this.inferExchange(seat, card);
    if (this.hands) this.checkFouled(seat, card);

    if (this.liableCards) this.liableCards.delete(card); // playing a liable card discharges it (Dup. VII.3)
    if ((this.lost || this.curUncertain) && this.placeUnjudged(seat, card)) return;

    if (this.curCount === 0) this.lead(seat, card);
    else if (!this.follow(seat, card)) return;
    this.commit(seat, card);
  }

  /** In the turned-trump games, the dealer's first card before the opening lead is the trump card. */
  private turnTrump(seat: number, card: number): boolean {
    if (this.variant.trump !== 'turned' || this.trumpDeclared || seat !== this.dealer) return false;
    // Read without order, a lead may come before the trump card: the dealer's first card is still the trump card.
    // Not after the stretch: a trump card still face up would have been in the snapshot.
    if (this.openingLeadMade && !(this.lost && this.turned < 0 && this.playedCount[seat] === 0)) return false;
    if (this.turned >= 0 && !this.wrongTrumpOpen) return false;
    if (this.turned >= 0 && this.wrongTrumpOpen) {
      // Dup. IV.8: the dealer corrects the trump card before play: the card turned in error is liable.
      const prev = this.turned;
      if (card === prev) return false;
      this.wrongTrumpOpen = false;
      this.addFinding('wrong-trump-card', seat, this.code.wrongTrumpCard(this.ctx, seat, 'corrected'),
        `${SEATS[seat]} corrected the turned trump from ${formatCard(prev)} to ${formatCard(card)}`, prev);
      this.makeLiable(prev, seat, this.code.wrongTrumpCard(this.ctx, seat, 'corrected'));
    }
    this.turned = card;
    this.turnedInZone = true;
    if (this.lost) this.lost.trumpRead = card;
    this.trump = suitOf(card);
    const slipWrong = this.hands !== null && this.trumpSlip >= 0 && this.variant.trumpCardToDealer && !holds(this.hands[seat], this.trumpSlip);
    if (this.trumpSlip >= 0 && card !== this.trumpSlip && !slipWrong) {
      this.wrongTrumpOpen = true;
      this.addFinding('wrong-trump-card', seat, this.code.wrongTrumpCard(this.ctx, seat, 'corrected'),
        `${SEATS[seat]} turned ${formatCard(card)} but the trump slip records ${formatCard(this.trumpSlip)}`, card);
    }
    if (slipWrong) {
      // Dup. IV.10: the slip records a card the dealer never held: it was recorded wrongly at the original table.
      this.addFinding('wrong-trump-card', seat, this.code.wrongTrumpCard(this.ctx, seat, 'slip-wrong'),
        `the trump slip records ${formatCard(this.trumpSlip)}, which is not in the dealer's hand in the tray`, this.trumpSlip);
    }
    if (this.hands) {
      const inDealer = holds(this.hands[seat], card);
      if (this.variant.trumpCardToDealer && !inDealer) {
        this.addFinding('card-not-in-hand', seat, this.code.handIrregularity(this.ctx, seat, 'card-not-in-hand'),
          `the trump card ${formatCard(card)} is not in the dealer's hand according to the tray`, card);
      } else if (!this.variant.trumpCardToDealer && this.seats.some((s) => holds(this.hands![s], card))) {
        this.addFinding('card-not-in-hand', seat, this.code.handIrregularity(this.ctx, seat, 'card-not-in-hand'),
          `the trump card ${formatCard(card)} belongs to neither player, but the tray puts it in a hand`, card);
      }
    }
    return true;
  }

  private inferExchange(seat: number, card: number): void {
    // Humbug: a player may exchange his hand for the one on his right; the first card he plays shows it.
    if (!this.hands || (this.exchanged & (1 << seat)) || this.playedCount[seat] > 0 || holds(this.hands[seat], card)) return;
    const right = (seat + 3) & 3;
    if (holds(this.hands[right], card)) this.exchange(seat);
  }

  /** Humbug: the player takes up the hand on his right instead of his own. */
  exchange(seat: number): void {
    if (this.exchanged & (1 << seat)) return;
    this.exchanged |= 1 << seat;
    if (!this.hands) return;
    const right = (seat + 3) & 3;
    const mine = this.hands[seat];
    this.hands[seat] = this.hands[right];
    this.hands[right] = mine;
  }

  private checkFouled(seat: number, card: number): void {
    const hands = this.hands!;
    if (holds(hands[seat], card)) return;
    let holder = -1;
    for (let s = 0; s < 4; s++) if (holds(hands[s], card)) holder = s;
    this.fouled = true;
    const where = holder >= 0 ? `the tray puts it in ${SEATS[holder]}'s hand` : card === this.turned ? 'it is the turned trump card' : 'the tray has no such card left';
    this.addFinding('card-not-in-hand', seat, this.code.handIrregularity(this.ctx, seat, 'card-not-in-hand'),
      `${SEATS[seat]} played ${formatCard(card)}, which is not in his hand: ${where}`, card);
    // Keep the known hands consistent with the cards actually seen.
    if (holder >= 0) removeCard(hands[holder], card);
    addCard(hands[seat], card);
  }

  /** The opening lead begins the play: a wrong trump not corrected by then stands (Dup. IV.9). */
  private beginPlay(): void {
    if (this.openingLeadMade) return;
    this.openingLeadMade = true;
    if (this.wrongTrumpOpen) {
      this.wrongTrumpOpen = false;
      this.addFinding('wrong-trump-card', this.dealer, this.code.wrongTrumpCard(this.ctx, this.dealer, 'play-begun'),
        `play began with ${formatCard(this.turned)} turned against the trump slip's ${formatCard(this.trumpSlip)}`, this.turned);
    }
  }

  private lead(seat: number, card: number): void {
    this.beginPlay();
    this.establishOnPlay(seat);
    this.checkLeadDemands(seat, card);
    const proper = this.properLeader;
    this.curFalseLead = false;
    // After a trick whose order was lost, who won it may be unknown: whoever leads is taken as the proper leader.
    // Bridge before the contract is entered: the proper leader is not known yet (the Table judges it once it is).
    const accepted = this.acceptLead || this.leadsUnjudged || this.awaitingContract;
    this.acceptLead = false;
    if (seat !== proper && !accepted) {
      const { ruling } = this.code.leadOutOfTurn(this.ctx, seat, proper);
      this.curFalseLead = true;
      this.addFinding('lead-out-of-turn', seat, ruling, `${SEATS[seat]} led ${formatCard(card)}; it was ${SEATS[proper]}'s lead`, card);
    }
    this.proveVoid(seat, card);
  }

  /** Returns false when the card is not a play to the trick (a second card, now liable to be called). */
  private follow(seat: number, card: number): boolean {
    if (this.curMask & (1 << seat)) {
      this.secondCard(seat, card);
      return false;
    }
    const expected = this.whoseTurn()!;
    // Rotation runs from the actual leader, so playing to a lead out of turn is in turn (L53A accepts it).
    if (seat !== expected) {
      const r = this.code.playOutOfTurn(this.ctx, seat, expected, this.currentSeats());
      if (r) {
        if (r.penalty) this.penalties.push(r.penalty);
        this.addFinding('play-out-of-turn', seat, r.ruling, `${SEATS[seat]} played ${formatCard(card)} before ${SEATS[expected]}`, card);
      }
    }
    this.establishOnPlay(seat);
    this.checkFollowDemands(seat, card);
    const led = suitOf(this.flatCards[this.curStart]);
    const suit = suitOf(card);
    // Any card of a suit the seat showed out of proves that renounce a revoke, whatever is led now.
    this.proveVoid(seat, card);
    if (suit !== led) {
      if (this.hands && this.heldKnown) {
        if (this.hands[seat][led] !== 0) {
          const penaltyCard = [...this.liable.entries()].some(([c, l]) => l.seat === seat && suitOf(c) === led);
          this.openRenounces.push({ seat, trick: this.trickNumber, suit: led, card, penaltyCard });
          this.addFinding('renounce-in-error', seat, this.code.renounceInError(this.ctx, seat),
            `${SEATS[seat]} renounced ${'SHDC'[led]} with ${formatCard(card)} while holding ${handCards(this.hands[seat]).filter((c) => suitOf(c) === led).map(formatCard).join(' ')}`, card);
        }
      } else if (this.voids![seat * 4 + led] === 0 && (!this.hands || this.hands[seat][led] !== 0)) {
        this.voids![seat * 4 + led] = this.trickNumber;
        this.voids![16 + seat * 4 + led] = card;
        this.voids![32 + seat * 4 + led] = 0;
      }
    }
    return true;
  }

  /** A card put down by a seat that has already played to the trick: exposed, or led ahead (Dup. XI.6, Am. 22). */
  private secondCard(seat: number, card: number): void {
    const partner = this.partner(seat);
    const leadAhead = this.flatSeats[this.curStart] === seat && partner !== seat && !(this.curMask & (1 << partner)) && !this.dummies.has(partner)
      && this.isMaster(this.flatCards[this.curStart], seat) && this.isMaster(card, seat);
    const ruling = this.code.exposedCard(this.ctx, seat, leadAhead ? 'led-ahead' : 'second-card');
    if (!ruling) return;
    this.makeLiable(card, seat, ruling);
    if (leadAhead) {
      const by = this.seats.filter((s) => this.sideOf(s) !== this.sideOf(seat)).map((s) => SEATS[s]);
      this.penalties.push({ kind: 'win', from: [SEATS[partner]], by, law: ruling.law });
    }
    this.addFinding('card-liable-to-be-called', seat, ruling, `${SEATS[seat]} put ${formatCard(card)} on the table with a card already played to this trick`, card);
  }

  /** True when no adversary of `seat` holds a higher card of the card's suit (always true when hands are unknown). */
  private isMaster(card: number, seat: number): boolean {
    if (!this.hands) return true;
    const suit = suitOf(card);
    const above = ~((2 << rankOf(card)) - 1) & 0x1fff;
    return this.seats.every((s) => this.sideOf(s) === this.sideOf(seat) || (this.hands![s][suit] & above) === 0);
  }

  /** Unknown hands: a seat that showed out of a suit now plays it, which proves the earlier renounce a revoke. */
  private proveVoid(seat: number, card: number): void {
    if (!this.voids) return;
    const k = seat * 4 + suitOf(card);
    const t = this.voids![k];
    if (t === 0) return;
    this.voids![k] = 0;
    const rec: RevokeRecord = { seat, trick: t, suit: suitOf(card) };
    if (this.voids![32 + k]) {
      rec.failureToComply = true;
      this.revokes.push(rec);
      this.addFinding('failure-to-comply', seat, this.code.failureToComply(this.ctx, seat, `lead the called suit ${'SHDC'[suitOf(card)]}`),
        `${SEATS[seat]} now plays ${formatCard(card)}: he held the called suit at trick ${t}`, card, t, { renounceTrick: t });
      return;
    }
    if (this.noRevoke(seat, t, this.voids![16 + k])) return;
    this.revokes.push(rec);
    this.addFinding('revoke', seat, this.code.revoke(this.ctx, seat, 'proved'),
      `${SEATS[seat]} renounced ${'SHDC'[suitOf(card)]} at trick ${t} with ${formatCard(this.voids![16 + k])} and now plays ${formatCard(card)}: the revoke is proved`,
      this.voids![16 + k], t, { renounceTrick: t });
  }

  private commit(seat: number, card: number): void {
    addCard(this.played, card);
    if (this.hands && holds(this.hands[seat], card)) removeCard(this.hands[seat], card);
    if (card === this.turned && this.turnedInZone && seat === this.dealer) this.turnedInZone = false;
    this.playedCount[seat]++;
    this.flatSeats.push(seat);
    this.flatCards.push(card);
    this.curMask |= 1 << seat;
    if (this.curCount === this.seats.length) this.completeTrick();
  }

  private completeTrick(): void {
    const from = this.curStart;
    const uncertain = this.curUncertain;
    if (uncertain) this.orderByGuess(from);
    const quitted = uncertain && this.allGone();
    const winner = this.flatSeats[from + winningIndex(this.flatCards, this.trump, from, this.flatCards.length)];
    const trick = this.trickNumber;
    this.trickStart.push(this.flatSeats.length);
    this.trickWinner.push(winner);
    this.tricksWon[this.sideOf(winner)]++;
    this.quitPending = trick;
    this.quitLifted = 0;
    this.curMask = 0;
    this.curFalseLead = false;
    if (this.mayWithdraw.length) this.mayWithdraw = [];
    this.properLeader = winner;
    this.ctx.trick = this.trickNumber;
    // Demands tied to this trick (highest/lowest, trump or not) cannot outlive it.
    if (this.penalties.length) this.dropPenalties((p) => p.kind === 'highest-or-lowest' || p.kind === 'trump-or-not' || p.kind === 'accept-or-retract' || (p.kind === 'win' && !!p.demand));
    if (uncertain) {
      this.uncertainTricks |= 1 << trick;
      this.curUncertain = false;
      this.curKnown = 0;
      this.acceptLead = true;
      if (quitted) this.quitTrick(); // its cards were all taken up before (or while) the last of them was seen placed
    }
  }

  /** The trick is turned and quitted: in whist this establishes any renounce in error in it (Dup. X.1(a)). */
  private quitTrick(): void {
    const q = this.quitPending;
    if (!q) return;
    this.quitPending = 0;
    if (this.code.quitEstablishes && this.openRenounces.length) this.establishWhere((r) => r.trick <= q, 'quitted');
    const won = this.trickWinner[q - 1];
    // Dup. VIII.1: the right to call a suit is lost once a trick won by the offender's side is quitted.
    if (won !== undefined && this.penalties.length) {
      this.dropPenalties((p) => p.kind === 'call-suit' && !p.demand && p.lapsesAfterTrick !== undefined && p.lapsesAfterTrick <= q
        && p.from.some((s) => this.sideOf(seatIndex(s)) === this.sideOf(won)));
    }
  }

  /** X.1(b) / L63A1: the renouncer or his partner leads or plays to a following trick. */
  private establishOnPlay(seat: number): void {
    if (this.openRenounces.length === 0) return;
    const t = this.trickNumber;
    const p = this.partner(seat);
    this.establishWhere((r) => r.trick < t && (r.seat === seat || r.seat === p), 'next-trick');
  }

  /** True when the code says this seat cannot revoke: its renounce is reported in the law's words, not as a revoke. */
  private noRevoke(seat: number, trick: number, card: number): boolean {
    const words = this.code.cannotRevoke?.(this.ctx, seat);
    if (!words) return false;
    this.notes.push(`${words}: ${SEATS[seat]}'s renounce at trick ${trick} (${formatCard(card)}) is no revoke and carries no penalty`);
    return true;
  }

  private establishWhere(pred: (r: OpenRenounce) => boolean, how: Establishment): void {
    for (let i = 0; i < this.openRenounces.length; ) {
      const r = this.openRenounces[i];
      if (pred(r)) {
        this.openRenounces.splice(i, 1);
        if (this.noRevoke(r.seat, r.trick, r.card)) continue;
        this.revokes.push({ seat: r.seat, trick: r.trick, suit: r.suit, penaltyCardOrDummy: r.penaltyCard || this.dummies.has(r.seat) });
        this.addFinding('revoke', r.seat, this.code.revoke(this.ctx, r.seat, how),
          `${SEATS[r.seat]}'s renounce in error at trick ${r.trick} (${formatCard(r.card)}) is established`, r.card, r.trick, { renounceTrick: r.trick });
      } else i++;
    }
  }

  // ---------------------------------------------------------------- demands (penalties exacted)

  private checkLeadDemands(seat: number, card: number): void {
    const S = SEATS[seat];
    if (this.penalties.length === 0) return;
    for (const p of [...this.penalties]) {
      if (!p.from.includes(S)) continue;
      if (p.kind === 'call-suit') {
        if (!p.demand) {
          // Dup. VIII.2: the proper leader must not lead until the penalty is exacted, waived or lost.
          if (p.lapsesAfterTrick === undefined && seat === this.properLeader) {
            const r = this.code.exposedCard(this.ctx, seat, 'taken-back');
            if (r) this.addFinding('card-liable-to-be-called', seat, { ...r, law: p.law }, `${S} led ${formatCard(card)} before the called suit was named`, card);
          }
          this.removePenalty(p);
          continue;
        }
        const want = p.demand.suit!;
        if (suitOf(card) !== want) this.failedDemand(seat, card, want, `lead ${'SHDC'[want]}`, p);
        this.removePenalty(p);
      } else if (p.kind === 'call-card' && p.demand) {
        if (p.demand.card !== card) this.failedCardCall(seat, card, p);
        this.removePenalty(p);
      }
    }
  }

  private checkFollowDemands(seat: number, card: number): void {
    const S = SEATS[seat];
    if (this.penalties.length === 0) return;
    const led = suitOf(this.flatCards[this.curStart]);
    for (const p of [...this.penalties]) {
      if (!p.from.includes(S) || !p.demand || p.kind === 'call-suit') continue;
      const h = this.hands && this.heldKnown ? this.hands[seat] : null;
      const d = p.demand.remedy;
      if (p.kind === 'highest-or-lowest' && h) {
        if (h[led] !== 0) {
          const mask = h[led];
          const target = d === 'highest' ? 31 - Math.clz32(mask) : 31 - Math.clz32(mask & -mask);
          if (suitOf(card) !== led || rankOf(card) !== target) this.failedDemand(seat, card, led, `play his ${d} ${'SHDC'[led]}`, p, false);
        } else if (d === 'trump' || d === 'not-trump') {
          this.checkTrumpDemand(seat, card, d, h, p);
        }
      } else if (p.kind === 'trump-or-not' && h && h[led] === 0) {
        this.checkTrumpDemand(seat, card, d, h, p);
      } else if (p.kind === 'win' && h) {
        this.checkWinDemand(seat, card, h, p);
      } else if (p.kind === 'call-card') {
        const c = p.demand.card!;
        const canWithoutRevoke = suitOf(c) === led || (h ? h[led] === 0 : suitOf(card) !== led);
        if (c !== card && canWithoutRevoke) this.failedCardCall(seat, card, p);
      }
      this.removePenalty(p);
    }
  }

  private checkWinDemand(seat: number, card: number, h: Hand, p: PendingPenalty): void {
    const trick = [...this.currentCards(), 0];
    const wins = (c: number) => {
      trick[trick.length - 1] = c;
      return winningIndex(trick, this.trump) === trick.length - 1;
    };
    if (wins(card)) return;
    const led = suitOf(this.flatCards[this.curStart]);
    const legal = handCards(h).filter((c) => h[led] === 0 || suitOf(c) === led);
    if (legal.some(wins)) this.failedDemand(seat, card, suitOf(card), 'win the trick', p, false);
  }

  private checkTrumpDemand(seat: number, card: number, d: string, h: Hand, p: PendingPenalty): void {
    const t = this.trump;
    if (t < 0) return;
    const isTrump = suitOf(card) === t;
    const others = h[0] | h[1] | h[2] | h[3] ? [0, 1, 2, 3].some((s) => s !== t && h[s] !== 0) : false;
    if (d === 'trump' && !isTrump && h[t] !== 0) this.failedDemand(seat, card, t, 'trump the trick', p, false);
    if (d === 'not-trump' && isTrump && others) this.failedDemand(seat, card, t, 'not trump the trick', p, false);
  }

  private failedDemand(seat: number, card: number, suit: number, what: string, p: PendingPenalty, leadCall = true): void {
    if (this.hands && this.heldKnown) {
      const able = leadCall ? this.hands[seat][suit] !== 0 : true;
      if (!able) return; // Dup. VIII.3: called on to lead a suit he has none of, he may lead as he pleases.
      this.revokes.push({ seat, trick: this.trickNumber, suit, failureToComply: true });
      this.addFinding('failure-to-comply', seat, this.code.failureToComply(this.ctx, seat, what),
        `${SEATS[seat]} was lawfully called on to ${what} (${p.law}) and played ${formatCard(card)}`, card);
    } else if (leadCall) {
      // Unknown hands: the failure is proved if he later plays the called suit.
      const k = seat * 4 + suit;
      if (this.voids![k] === 0) {
        this.voids![k] = this.trickNumber;
        this.voids![16 + k] = card;
        this.voids![32 + k] = 1;
      }
    }
  }

  private failedCardCall(seat: number, card: number, p: PendingPenalty): void {
    if (this.hands && !holds(this.hands[seat], p.demand!.card!) && !(this.zones[seat * 4 + suitOf(p.demand!.card!)] & rankBit(p.demand!.card!))) return;
    this.revokes.push({ seat, trick: this.trickNumber, suit: suitOf(p.demand!.card!), failureToComply: true });
    this.addFinding('failure-to-comply', seat, this.code.failureToComply(this.ctx, seat, `play ${formatCard(p.demand!.card!)}`),
      `${SEATS[seat]} was lawfully called on to play ${formatCard(p.demand!.card!)} (${p.law}) and played ${formatCard(card)}`, card);
  }

  private removePenalty(p: PendingPenalty): void {
    const i = this.penalties.indexOf(p);
    if (i >= 0) this.penalties.splice(i, 1);
  }

  private dropPenalties(pred: (p: PendingPenalty) => boolean): void {
    for (let i = this.penalties.length - 1; i >= 0; i--) if (pred(this.penalties[i])) this.penalties.splice(i, 1);
  }

  // ---------------------------------------------------------------- lift

  /** A card leaves a seat's zone: turned and quitted, taken back, or the trump card taken into the hand. */
  lift(seat: number, cardText: string | undefined, seq?: number, orderUnknown = false): void {
    this.seq = seq;
    if (orderUnknown) this.loseOrder(seat);
    else if (this.lost) this.reportLostOrder(seq);
    const card = cardText === undefined ? -1 : cardCode(cardText);
    if (card < 0) return;
    this.zones[seat * 4 + suitOf(card)] &= ~rankBit(card);
    if (card === this.turned && seat === this.dealer && this.turnedInZone) {
      this.turnedInZone = false; // Dup. IV.2: the dealer takes the trump card into his hand.
      return;
    }
    const q = this.quitPending;
    if (q && this.trickHas(q - 1, card)) {
      if (++this.quitLifted === this.trickStart[q] - this.trickStart[q - 1]) this.quitTrick();
      return;
    }
    if (this.lost || this.curUncertain) {
      // Quitted, withdrawn, or lifted ahead of its own place: without the order nothing is judged and a card of the
      // trick stays played; placeUnjudged reads where the trick ended from these.
      addCard(this.gone!, card);
      return;
    }
    const at = this.flatCards.indexOf(card, this.curStart);
    if (at < 0) return; // a liable card or a stray card taken up: nothing changes in the play
    const idx = at - this.curStart;
    const owner = this.flatSeats[at];
    const trick = this.trickNumber;
    if (this.curFalseLead) {
      // Dup. VIII.4 / Am. 24: not all have played to the false lead; the cards are taken back.
      const leader = this.flatSeats[this.curStart];
      this.uncommit(idx);
      if (idx === 0) {
        // Taking the lead back is the choice not to accept it; what remains is the penalty for it.
        const { penalty } = this.code.leadOutOfTurn(this.ctx, leader, this.properLeader);
        if (penalty && penalty.kind !== 'accept-or-retract') this.penalties.push(penalty);
        const r = this.code.leadRetracted(this.ctx, leader);
        if (r) {
          this.makeLiable(card, leader, r);
          this.addFinding('card-liable-to-be-called', leader, r, `${SEATS[leader]}'s lead out of turn (${formatCard(card)}) was taken back`, card);
        }
        if (this.curCount === 0) this.curFalseLead = false;
      }
      return;
    }
    const ri = this.openRenounces.findIndex((r) => r.seat === owner && r.card === card && r.trick === trick);
    const vk = owner * 4 + suitOf(this.flatCards[this.curStart]);
    const unknownRenounce = this.voids !== null && idx > 0 && this.voids![vk] === trick && this.voids![16 + vk] === card;
    if (ri >= 0 || unknownRenounce) {
      // Dup. X.3: the renounce in error is lawfully corrected; later players may withdraw their cards.
      if (ri >= 0) this.openRenounces.splice(ri, 1);
      if (unknownRenounce) {
        this.voids![vk] = 0;
        this.addFinding('renounce-in-error', owner, this.code.renounceInError(this.ctx, owner),
          `${SEATS[owner]} took back ${formatCard(card)}, a renounce, to follow suit`, card);
      }
      this.mayWithdraw = this.flatSeats.slice(at + 1);
      const laterPlayed = this.mayWithdraw.length > 0;
      this.uncommit(idx);
      const r = this.code.correction(this.ctx, owner, laterPlayed);
      if (r) {
        this.makeLiable(card, owner, r);
        this.addFinding('card-liable-to-be-called', owner, r, `${SEATS[owner]} corrected his renounce in error; ${formatCard(card)} was withdrawn`, card);
      }
      return;
    }
    const mw = this.mayWithdraw.indexOf(owner);
    if (mw >= 0) {
      this.mayWithdraw.splice(mw, 1);
      this.uncommit(idx); // Dup. X.3: a card so withdrawn is not liable to be called.
      return;
    }
    const outOfTurn = this.findings.some((f) => f.kind === 'play-out-of-turn' && f.trick === trick && f.card === formatCard(card));
    if (outOfTurn) {
      this.uncommit(idx);
      const r = this.code.exposedCard(this.ctx, owner, 'taken-back');
      if (r) {
        this.makeLiable(card, owner, r);
        this.addFinding('card-liable-to-be-called', owner, r, `${SEATS[owner]} took back ${formatCard(card)}, played out of turn`, card);
      }
    }
    // Otherwise the card was lawfully played and stays played (Dup. VI.1), wherever it physically is.
  }

  private uncommit(idx: number): void {
    const at = this.curStart + idx;
    const seat = this.flatSeats[at];
    const card = this.flatCards[at];
    this.flatSeats.splice(at, 1);
    this.flatCards.splice(at, 1);
    this.curMask &= ~(1 << seat);
    removeCard(this.played, card);
    this.playedCount[seat]--;
    if (this.hands) addCard(this.hands[seat], card);
  }

  // ---------------------------------------------------------------- order lost

  /**
   * A place or lift marked `orderUnknown`: a presence snapshot found it, so when it happened in the play is not
   * known (cards may even have been placed and lifted unseen). The stretch runs from this event to the first place
   * or lift in known order. Until then, and over every trick the stretch touched until that trick ends, each card is
   * still checked against the hand record (card-not-in-hand, duplicate-card, unknown-card, wrong-trump-card) and
   * counted in a trick, but no lead or play out of turn, renounce, revoke, failure to comply or card count is derived
   * from its order. What was pending and could have been settled unseen is set aside: a renounce in error still
   * open or a void shown in the last two tricks (a correction may have gone unseen), and penalties not yet exacted.
   * The first lead after the touched tricks is accepted as the proper lead, since who won them may be unknown; from
   * then on the play is judged as usual, except that the hand record no longer proves a renounce (heldKnown) and,
   * when the trump card was not seen for certain, no lead is judged. The director is told once, when the stretch
   * ends (reportLostOrder).
   */
  private loseOrder(seat: number): void {
    if (this.lost) return;
    const setAside: string[] = [];
    this.lost = { fromSeq: this.seq, seat, trick: this.trickNumber, setAside };
    this.heldKnown = false;
    const v = (this.voids ??= new Int8Array(48));
    if (this.gone === null) this.gone = [0, 0, 0, 0];
    else if (!this.curUncertain) this.gone.fill(0);
    for (const r of this.openRenounces) {
      setAside.push(`${SEATS[r.seat]}'s renounce in error at trick ${r.trick} (${formatCard(r.card)}) may have been corrected unseen and is not established`);
    }
    this.openRenounces.length = 0;
    const shown: string[] = [];
    for (let k = 0; k < 16; k++) {
      if (v[k] === 0 || v[k] < this.trickNumber - 1) continue;
      shown.push(`${SEATS[k >> 2]} of ${'SHDC'[k & 3]} at trick ${v[k]} (${formatCard(v[16 + k])})`);
      v[k] = 0;
    }
    if (shown.length) setAside.push(`showing out ${shown.join(', ')} proves no revoke later, as a correction may have gone unseen`);
    if (this.penalties.length) {
      setAside.push(`the pending ${this.penalties.map((p) => `${p.kind} (${p.law})`).join(', ')} can no longer be enforced`);
      this.penalties.length = 0;
    }
    if (this.curCount > 0 && !this.curUncertain) {
      this.curKnown = this.curCount;
      this.curUncertain = true;
    }
    this.curFalseLead = false;
    if (this.mayWithdraw.length) this.mayWithdraw = [];
  }

  /** The stretch of unknown order ends (at event `toSeq`, or with the play): tell the director, once, where and what. */
  private reportLostOrder(toSeq: number | undefined): void {
    const l = this.lost!;
    this.lost = null;
    if (this.variant.trump === 'turned' && !this.trumpDeclared && this.turned < 0 && this.openingLeadMade && this.trump < 0) {
      // The trump card was turned and taken up unseen: the slip names it on an overplay; else no winner can be read.
      if (this.trumpSlip >= 0) {
        this.trump = suitOf(this.trumpSlip);
        l.setAside.push(`the trump card was never seen; the trump suit is taken from the trump slip (${formatCard(this.trumpSlip)})`);
      } else {
        this.leadsUnjudged = true;
        l.setAside.push('the trump card was never seen, so trick winners are read without a trump and no lead is judged in this deal');
      }
    } else if (l.trumpRead !== undefined && this.openingLeadMade && l.trumpRead !== this.trumpSlip) {
      // Seen in the same stretch as the first plays, the dealer's first card may have been his play, not the trump.
      this.leadsUnjudged = true;
      l.setAside.push(`${formatCard(l.trumpRead)} is taken as the turned trump, but play may have begun before it was seen, so no lead is judged in this deal`);
    }
    let last = this.curUncertain ? Math.min(this.trickNumber, TOTAL_TRICKS) : l.trick;
    for (let t = TOTAL_TRICKS; t > last; t--) if (this.uncertainTricks & (1 << t)) { last = t; break; }
    const tricks = last > l.trick ? `tricks ${l.trick}–${last}` : `trick ${l.trick}`;
    const span = l.fromSeq === undefined ? 'over events without a seq'
      : toSeq === undefined ? `from event ${l.fromSeq} to the end of the play` : `between event ${l.fromSeq} and event ${toSeq}`;
    const extra: Partial<Finding> = {};
    if (l.fromSeq !== undefined) extra.fromSeq = l.fromSeq;
    if (toSeq !== undefined) extra.toSeq = toSeq;
    this.addFinding('play-order-lost', l.seat, this.code.playOrderLost(this.ctx, l.seat),
      `play order lost ${span} (${tricks}): no out-of-turn, renounce or revoke ruling rests on these cards${l.setAside.length ? `; ${l.setAside.join('; ')}` : ''}`,
      undefined, l.trick, extra);
  }

  /**
   * A card placed while the order is unknown, or to a trick a stretch touched: counted, never judged on its order.
   * Where a trick ended is read from the cards: a seat that has played to it already, or a card still on the table
   * once every card of the trick was taken up, begins the next trick; the one left behind lacks cards the table
   * never saw. Returns false when that next trick begins in known order: the normal fold takes the card.
   */
  private placeUnjudged(seat: number, card: number): boolean {
    if (this.curUncertain && this.curCount > 0 && ((this.curMask & (1 << seat)) !== 0 || (!holds(this.gone!, card) && this.allGone()))) {
      this.completeTrick();
      this.quitTrick(); // a lead to the next trick quits the last one
      if (!this.lost) return false;
    }
    this.curUncertain = true;
    if (this.curCount === 0) this.beginPlay();
    this.commit(seat, card);
    return true;
  }

  /** True when every card of the trick in progress was taken up while its order was unknown. */
  private allGone(): boolean {
    for (let i = this.curStart; i < this.flatCards.length; i++) if (!holds(this.gone!, this.flatCards[i])) return false;
    return true;
  }

  /**
   * An uncertain trick ends: its cards after the ones played in known order are put clockwise from the likeliest
   * leader, the known one or else the last trick's winner if he played to it, so that the winner is read as well as
   * the cards allow. In place, on four cards at most.
   */
  private orderByGuess(from: number): void {
    const fs = this.flatSeats, fc = this.flatCards;
    const lead = this.curKnown > 0 || !(this.curMask & (1 << this.properLeader)) ? fs[from] : this.properLeader;
    const start = from + this.curKnown;
    for (let i = start + 1; i < fs.length; i++) {
      const s = fs[i], c = fc[i], d = (s - lead) & 3;
      let j = i - 1;
      for (; j >= start && ((fs[j] - lead) & 3) > d; j--) {
        fs[j + 1] = fs[j];
        fc[j + 1] = fc[j];
      }
      fs[j + 1] = s;
      fc[j + 1] = c;
    }
  }

  // ---------------------------------------------------------------- claim and remedies

  /** The claimant's side claims `n` of the remaining tricks; the rest go to the adversaries. */
  claimTricks(seat: number, n: number, seq?: number): void {
    this.seq = seq;
    if (this.isOver) return;
    if (this.quitPending) this.quitTrick();
    const remaining = TOTAL_TRICKS - this.trickWinner.length;
    const tricks = Math.min(n, remaining);
    if (n > remaining) this.notes.push(`${SEATS[seat]} claimed ${n} tricks with only ${remaining} left; credited ${remaining}`);
    this.claim = { side: this.sideOf(seat), tricks, seat, atTrick: this.trickWinner.length, accepted: false };
    // L63A3: a claim by the offender or his partner establishes a revoke. In whist the claim ends the play.
    const s = this.sideOf(seat);
    this.establishWhere((r) => this.sideOf(r.seat) === s || this.code.name !== 'bridge', 'claim');
  }

  /**
   * An adversary of the claimant answers the claim. Accepted, the claimed result is established (Am. 27); disputed,
   * the claim is withdrawn and the director called (WBF L68D): play may go on, and a revoke the claim established stays
   * established (L63A3). Returns an error sentence when there is no claim to answer or the seat may not answer it.
   */
  answerClaim(seat: number, accept: boolean, seq?: number): string | null {
    this.seq = seq;
    const why = this.claimAnswerProblem(seat);
    if (why) return why;
    const c = this.claim!;
    if (accept) {
      c.accepted = true;
      // L63A3: a revoke is established when a member of the offending side "makes or agrees to a claim".
      const side = this.sideOf(seat);
      this.establishWhere((r) => this.sideOf(r.seat) === side, 'claim');
    } else {
      this.claim = null;
      this.notes.push(`${SEATS[seat]} disputed ${SEATS[c.seat]}'s claim of ${c.tricks} tricks; the director was called`);
    }
    return null;
  }

  /** Why `seat` cannot answer a claim now, or null: there must be one standing, and he must be an adversary of it. */
  claimAnswerProblem(seat: number): string | null {
    const c = this.claim;
    if (!c) return 'there is no claim standing to answer';
    if (c.accepted) return `the claim of ${c.tricks} by ${SEATS[c.seat]} was already accepted`;
    if (!this.seats.includes(seat) || this.sideOf(seat) === c.side) return `${SEATS[seat]} is not an adversary of the claimant ${SEATS[c.seat]}; an adversary accepts or disputes a claim`;
    return null;
  }

  /** Play goes on after a claim: Am. 36 / Dup. VII.2, the claimant's partner's cards are liable. */
  private claimNotAdmitted(): boolean {
    const c = this.claim!;
    this.claim = null;
    const p = this.partner(c.seat);
    const r = this.code.claimNotAdmitted(this.ctx, c.seat);
    if (r && p !== c.seat && !this.dummies.has(p)) {
      const cards = this.hands ? handCards(this.hands[p]) : [];
      for (const card of cards) this.makeLiable(card, p, r);
      this.addFinding('card-liable-to-be-called', p, r,
        `${SEATS[c.seat]} claimed and play went on: ${SEATS[p]}'s cards ${cards.length ? `(${cards.map(formatCard).join(' ')}) ` : ''}must be laid face up`);
    }
    return false;
  }

  /** The player entitled to a remedy chooses it; the engine then enforces it. Returns an error sentence or null. */
  remedy(ev: RemedyEvent): string | null {
    this.seq = ev.seq;
    const by = ev.by;
    const target = ev.seat;
    if (ev.remedy === 'tricks' || ev.remedy === 'points') {
      this.penaltyChoice = ev.remedy;
      return null;
    }
    const kindFor: Record<string, PendingPenalty['kind'][]> = {
      'call-suit': ['call-suit'], 'call-card': ['call-card'], highest: ['highest-or-lowest'], lowest: ['highest-or-lowest'],
      trump: ['trump-or-not', 'highest-or-lowest'], 'not-trump': ['trump-or-not', 'highest-or-lowest'], win: ['win'],
      accept: ['accept-or-retract'], retract: ['accept-or-retract'], waive: [],
    };
    const kinds = kindFor[ev.remedy];
    const p = this.penalties.find((x) => (ev.remedy === 'waive' || kinds.includes(x.kind)) && x.by.includes(by)
      && (target === undefined || x.from.includes(target)) && (ev.remedy !== 'call-card' || x.card === ev.card));
    if (!p) {
      // Dup. XI.4 / Am. 39: a penalty demanded by the wrong adversary, or a wrong penalty: none can be enforced.
      const lost = this.penalties.filter((x) => target === undefined || x.from.includes(target));
      for (const x of lost) this.removePenalty(x);
      const msg = `${by} may not exact "${ev.remedy}"${target ? ` from ${target}` : ''} now: no such penalty is pending in his favour${lost.length ? '; the pending penalty is lost (Dup. XI.4, Am. 39)' : ''}`;
      this.notes.push(msg);
      return msg;
    }
    if (ev.remedy === 'waive') {
      this.removePenalty(p);
      return null;
    }
    const demand: PendingPenalty['demand'] = { remedy: ev.remedy };
    if (ev.suit) demand.suit = suitIndex(ev.suit);
    if (ev.card) demand.card = parseCard(ev.card);
    else if (p.card) demand.card = parseCard(p.card);
    if (ev.remedy === 'call-suit' && demand.suit === undefined) return 'call-suit needs "suit"';
    p.demand = demand;
    if (target) p.from = [target];
    return null;
  }

  /** Make the liable cards of a seat callable by the adversary entitled to call them (Dup. VII.4). */
  callableCards(): { seat: Seat; card: string; law: string }[] {
    return [...this.liable.entries()].map(([c, l]) => ({ seat: SEATS[l.seat], card: formatCard(c), law: l.law }));
  }

  /** Register the liable cards as call-card penalties so remedy events can call them. */
  liableAsPenalties(): void {
    for (const [c, l] of this.liable) {
      const card = formatCard(c);
      if (this.penalties.some((p) => p.kind === 'call-card' && p.card === card)) continue;
      this.penalties.push({ kind: 'call-card', from: [SEATS[l.seat]], by: l.by, law: l.law, card });
    }
  }

  /** A card becomes liable to be called; the ruling's call-card remedy says who may call it. */
  private makeLiable(card: number, seat: number, ruling: Ruling): void {
    const option = ruling.remedies.find((r) => r.remedy === 'call-card')?.option;
    const by = option === 'NS' ? ['N', 'S'] as Seat[] : option === 'EW' ? ['E', 'W'] as Seat[]
      : option && option.length === 1 ? [option as Seat] : this.seats.filter((s) => this.sideOf(s) !== this.sideOf(seat)).map((s) => SEATS[s]);
    this.liable.set(card, { seat, law: ruling.law, by });
  }

  // ---------------------------------------------------------------- result

  /** Close the play: renounces never established by a later play are established at the end. */
  finish(): void {
    if (this.lost) this.reportLostOrder(undefined);
    if (this.quitPending) this.quitTrick();
    this.establishWhere(() => true, 'end-of-play');
    if (this.trickWinner.length === TOTAL_TRICKS && this.claim === null && this.uncertainTricks) {
      // Tricks read without their order may lack cards the table never saw: a count, not a player's short hand.
      let seen = 0;
      for (const s of this.seats) seen += this.playedCount[s];
      const unseen = TOTAL_TRICKS * this.seats.length - seen;
      if (unseen > 0) this.notes.push(`${unseen} card${unseen === 1 ? ' was' : 's were'} never seen while the play order was lost; the tricks count the cards seen`);
    } else if (this.trickWinner.length === TOTAL_TRICKS && this.claim === null) {
      for (const s of this.seats) {
        const n = this.playedCount[s];
        if (n !== TOTAL_TRICKS && !this.fouled) {
          this.addFinding('wrong-card-count', s, this.code.handIrregularity(this.ctx, s, 'wrong-card-count'),
            `${SEATS[s]} played ${n} cards in 13 tricks`, undefined, TOTAL_TRICKS);
        }
      }
    }
  }

  /** Tricks won per side, with any claim credited. */
  totals(): [number, number] {
    const t: [number, number] = [this.tricksWon[0], this.tricksWon[1]];
    if (this.claim) {
      const rest = TOTAL_TRICKS - this.trickWinner.length;
      t[this.claim.side] += this.claim.tricks;
      t[1 - this.claim.side] += rest - this.claim.tricks;
    }
    return t;
  }

  /** The DESIGN §5 shape of this deal. */
  result(): DealResult {
    const won = this.totals();
    // Every code scores a deal without a revoke as played; only a revoke needs the code's arithmetic.
    const { scored, marks } = this.revokes.length === 0 ? { scored: won, marks: undefined } : this.code.score({
      seats: this.seats, tricksWon: won, trickWinners: this.trickWinner.map((w) => this.sideOf(w)),
      trickWinnerSeats: this.trickWinner.slice(), revokes: this.revokes, dummies: this.dummies, penaltyChoice: this.penaltyChoice,
    });
    const names = this.seats.length === 2 ? this.seats.map((s) => SEATS[s]) : ['NS', 'EW'];
    const tricks: TrickRecord[] = [];
    for (let k = 0; k < this.trickWinner.length; k++) tricks.push(this.trickRecord(k));
    const r: DealResult = {
      board: this.board, variant: this.variant.name, tricks,
      tricksWon: { NS: won[0], EW: won[1] }, findings: this.findings, scored: { NS: scored[0], EW: scored[1] },
    };
    if (this.seats.length === 2) r.sides = { NS: names[0] as Seat, EW: names[1] as Seat };
    if (this.abandoned) r.abandoned = this.abandoned;
    if (marks) r.marks = marks;
    if (this.claim) r.claim = { seat: SEATS[this.claim.seat], tricks: this.claim.tricks, accepted: this.claim.accepted };
    // A note may quote the input (a contract's text): control characters are escaped, never passed on.
    if (this.notes.length) r.notes = this.notes.map((n) => printable(n, 500));
    return r;
  }
}
