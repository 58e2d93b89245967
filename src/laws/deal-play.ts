// The play of one deal: a fold over place/lift/claim/remedy events that keeps the table state and the
// findings. Pure: no I/O, no clock, no randomness. Physical events are interpreted here under the
// table-log conventions of DESIGN §4; the code of laws rules on every irregularity.
// This file holds the state and the place/lift core; each other concern is a module of functions taking the deal:
// deal-tray.ts (the trump card, the tray record), deal-revokes.ts, deal-penalties.ts (liable cards, remedies,
// demands), deal-take-back.ts, deal-order-lost.ts, deal-claims.ts and deal-result.ts. Members marked @internal are
// theirs to use, not the engine's.
import { cardCode, formatCard, parseCard, rankBit, suitOf, suitIndex } from '../cards/card.js';
import { type Hand, addCard, emptyHand, handSize, holds, removeCard } from '../cards/hand.js';
import { isComplete, parseDeal } from '../cards/deal.js';
import { type Seat, SEATS, leftOf, partnerOf, seatIndex } from '../cards/seat.js';
import type { DealEvent, RemedyEvent } from '../formats/table-log.js';
import type { DealResult, Finding, FindingKind, VariantDescriptor } from './types.js';
import type { LawCode, PendingPenalty, RevokeRecord, RuleContext, Ruling } from './code.js';
import { formatContract, parseContract } from '../cards/contract.js';
import { TOTAL_TRICKS, winningIndex } from '../cards/trick.js';
import { type Claim, answerClaim, claimAnswerProblem, claimNotAdmitted, claimTricks } from './deal-claims.js';
import { type LostStretch, allGone, loseOrder, orderByGuess, placeUnjudged, reportLostOrder } from './deal-order-lost.js';
import {
  type Liability, callableCards, checkFollowDemands, checkLeadDemands, dropPenalties, liableAsPenalties, remedy, secondCard,
} from './deal-penalties.js';
import { finish, result, totals } from './deal-result.js';
import { type OpenRenounce, establishOnPlay, establishWhere, noteRenounce, proveVoid } from './deal-revokes.js';
import { takeBack } from './deal-take-back.js';
import { checkFouled, exchange, inferExchange, turnTrump } from './deal-tray.js';

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
  /** @internal The next seat in play after each seat, clockwise. */
  readonly nextOf: number[];
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
  /** @internal The trump card turned differs from the trump slip, and the overplay has not yet begun. */
  wrongTrumpOpen = false;
  /** @internal */
  openingLeadMade = false;
  /** @internal Dup. IV.11: a trump suit declared for the sitting, no card turned. */
  trumpDeclared = false;

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
  /** @internal */
  curFalseLead = false;
  /** @internal Seats that lawfully may withdraw their card from the current trick (Dup. X.3). */
  mayWithdraw: number[] = [];
  properLeader: number;
  /** @internal The complete trick awaiting turning and quitting (1-based; 0 when none), and how many of its cards are lifted. */
  quitPending = 0;
  private quitLifted = 0;
  /**
   * @internal Unknown hands (or known ones after a stretch of unknown order, see heldKnown), per seat*4+suit: [0,16)
   * trick shown out (0 none), [16,32) the card, [32,48) 1 when by a call.
   */
  voids: Int8Array | null;
  /**
   * @internal The hand record still tells what each seat holds. Not after a stretch of unknown order: whole tricks may
   * have been played unseen, and the record then keeps cards already played, so from then on a renounce is judged as
   * with hands unknown: a revoke only when a later card of the suit proves it.
   */
  heldKnown = true;
  /** @internal */
  readonly openRenounces: OpenRenounce[] = [];
  readonly revokes: RevokeRecord[] = [];
  /** Cards liable to be called, created on the first one (most deals have none). */
  private liableCards: Map<number, Liability> | null = null;
  readonly penalties: PendingPenalty[] = [];
  readonly findings: Finding[] = [];
  readonly notes: string[] = [];
  /** @internal */
  claim: Claim | null = null;
  /** @internal Humbug: a bit per seat that has exchanged its hand. */
  exchanged = 0;
  /** @internal */
  penaltyChoice: 'tricks' | 'points' | undefined;
  /** @internal Cards lying face up in each seat's zone: a 13-bit mask per seat and suit (index seat * 4 + suit). */
  readonly zones = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  /** @internal Bit per seat that has played to the current trick. */
  curMask = 0;
  /** @internal The seq of the event being folded, for the findings it makes. */
  seq: number | undefined;
  /** @internal */
  fouled = false;
  /** Set when the deal was abandoned (a new deal required): the reason. */
  abandoned: string | undefined;
  // Order lost (see deal-order-lost.ts): the stretch in progress, whether the trick in progress was touched by one, how
  // many of its first cards were played in known order, a bit (1 << trick) per trick touched, whether the next lead is
  // accepted as proper, and the cards lifted while the order was unknown. All stay at rest on the normal path.
  /** @internal */
  lost: LostStretch | null = null;
  /** @internal */
  curUncertain = false;
  /** @internal */
  curKnown = 0;
  /** @internal */
  uncertainTricks = 0;
  private acceptLead = false;
  /** @internal The trump suit is unknown or a guess: trick winners may be wrong, so no lead is judged for the rest of the deal. */
  leadsUnjudged = false;
  /** @internal */
  gone: Hand | null = null;

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
      // 'dealer-left', and 'dealer-adversary' (two hands: the next seat is the dealer's adversary).
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

  /** @internal A finding under the ruling, at the event being folded. */
  addFinding(kind: FindingKind, seat: number, ruling: Ruling, detail?: string, card?: number, trick = this.trickNumber, extra?: Partial<Finding>): Finding {
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

  /** A card appears face up in a seat's zone; `orderUnknown` when a presence snapshot found it (see deal-order-lost.ts). */
  place(seat: number, cardText: string | undefined, seq?: number, tag?: string, orderUnknown = false): void {
    this.seq = seq;
    if (orderUnknown) loseOrder(this, seat);
    else if (this.lost) reportLostOrder(this, seq);
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
      if (claimNotAdmitted(this)) return;
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
    if (turnTrump(this, seat, card)) return;
    if (this.quitPending) {
      // A lead to the next trick quits the last one; by the renouncer's side it establishes under X.1(b) first.
      establishOnPlay(this, seat);
      this.quitTrick();
    }
    if (holds(this.played, card)) {
      this.addFinding('duplicate-card', seat, this.code.handIrregularity(this.ctx, seat, 'duplicate-card'),
        `${formatCard(card)} was already played in this deal: a second copy (two packs at the table?)`, card);
      return;
    }
    if (this.variant.code === 'humbug') inferExchange(this, seat, card);
    if (this.hands) checkFouled(this, seat, card);

    if (this.liableCards) this.liableCards.delete(card); // playing a liable card discharges it (Dup. VII.3)
    if ((this.lost || this.curUncertain) && placeUnjudged(this, seat, card)) return;

    if (this.curCount === 0) this.lead(seat, card);
    else if (!this.follow(seat, card)) return;
    this.commit(seat, card);
  }

  /** @internal The opening lead begins the play: a wrong trump not corrected by then stands (Dup. IV.9). */
  beginPlay(): void {
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
    establishOnPlay(this, seat);
    checkLeadDemands(this, seat, card);
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
    proveVoid(this, seat, card);
  }

  /** Returns false when the card is not a play to the trick (a second card, now liable to be called). */
  private follow(seat: number, card: number): boolean {
    if (this.curMask & (1 << seat)) {
      secondCard(this, seat, card);
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
    establishOnPlay(this, seat);
    checkFollowDemands(this, seat, card);
    const led = suitOf(this.flatCards[this.curStart]);
    const suit = suitOf(card);
    // Any card of a suit the seat showed out of proves that renounce a revoke, whatever is led now.
    proveVoid(this, seat, card);
    if (suit !== led) noteRenounce(this, seat, card, led);
    return true;
  }

  /** @internal The card is played to the trick in progress; the trick is complete when every seat has played. */
  commit(seat: number, card: number): void {
    addCard(this.played, card);
    if (this.hands && holds(this.hands[seat], card)) removeCard(this.hands[seat], card);
    if (card === this.turned && this.turnedInZone && seat === this.dealer) this.turnedInZone = false;
    this.playedCount[seat]++;
    this.flatSeats.push(seat);
    this.flatCards.push(card);
    this.curMask |= 1 << seat;
    if (this.curCount === this.seats.length) this.completeTrick();
  }

  /** @internal The trick is won, and the next one begins. */
  completeTrick(): void {
    const from = this.curStart;
    const uncertain = this.curUncertain;
    if (uncertain) orderByGuess(this, from);
    const quitted = uncertain && allGone(this);
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
    if (this.penalties.length) dropPenalties(this, (p) => p.kind === 'highest-or-lowest' || p.kind === 'trump-or-not' || p.kind === 'accept-or-retract' || (p.kind === 'win' && !!p.demand));
    if (uncertain) {
      this.uncertainTricks |= 1 << trick;
      this.curUncertain = false;
      this.curKnown = 0;
      this.acceptLead = true;
      if (quitted) this.quitTrick(); // its cards were all taken up before (or while) the last of them was seen placed
    }
  }

  /** @internal The trick is turned and quitted: in whist this establishes any renounce in error in it (Dup. X.1(a)). */
  quitTrick(): void {
    const q = this.quitPending;
    if (!q) return;
    this.quitPending = 0;
    if (this.code.quitEstablishes && this.openRenounces.length) establishWhere(this, (r) => r.trick <= q, 'quitted');
    const won = this.trickWinner[q - 1];
    // Dup. VIII.1: the right to call a suit is lost once a trick won by the offender's side is quitted.
    if (won !== undefined && this.penalties.length) {
      dropPenalties(this, (p) => p.kind === 'call-suit' && !p.demand && p.lapsesAfterTrick !== undefined && p.lapsesAfterTrick <= q
        && p.from.some((s) => this.sideOf(seatIndex(s)) === this.sideOf(won)));
    }
  }

  // ---------------------------------------------------------------- lift

  /** A card leaves a seat's zone: turned and quitted, taken back, or the trump card taken into the hand. */
  lift(seat: number, cardText: string | undefined, seq?: number, orderUnknown = false): void {
    this.seq = seq;
    if (orderUnknown) loseOrder(this, seat);
    else if (this.lost) reportLostOrder(this, seq);
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
    takeBack(this, card);
  }

  /** @internal The card at `idx` of the trick in progress is taken back into its hand. */
  uncommit(idx: number): void {
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

  // ---------------------------------------------------------------- claim, remedies, result
  // The public API of the other concerns: deal-tray.ts, deal-claims.ts, deal-penalties.ts and deal-result.ts.

  /** Humbug: the player takes up the hand on his right instead of his own. */
  exchange(seat: number): void {
    exchange(this, seat);
  }

  /** The claimant's side claims `n` of the remaining tricks; the rest go to the adversaries. */
  claimTricks(seat: number, n: number, seq?: number): void {
    claimTricks(this, seat, n, seq);
  }

  /**
   * An adversary of the claimant answers the claim. Accepted, the claimed result is established (Am. 27); disputed,
   * the claim is withdrawn and the director called (WBF L68D): play may go on, and a revoke the claim established stays
   * established (L63A3). Returns an error sentence when there is no claim to answer or the seat may not answer it.
   */
  answerClaim(seat: number, accept: boolean, seq?: number): string | null {
    return answerClaim(this, seat, accept, seq);
  }

  /** Why `seat` cannot answer a claim now, or null: there must be one standing, and he must be an adversary of it. */
  claimAnswerProblem(seat: number): string | null {
    return claimAnswerProblem(this, seat);
  }

  /** The player entitled to a remedy chooses it; the engine then enforces it. Returns an error sentence or null. */
  remedy(ev: RemedyEvent): string | null {
    return remedy(this, ev);
  }

  /** Make the liable cards of a seat callable by the adversary entitled to call them (Dup. VII.4). */
  callableCards(): { seat: Seat; card: string; law: string }[] {
    return callableCards(this);
  }

  /** Register the liable cards as call-card penalties so remedy events can call them. */
  liableAsPenalties(): void {
    liableAsPenalties(this);
  }

  /** Close the play: renounces never established by a later play are established at the end. */
  finish(): void {
    finish(this);
  }

  /** Tricks won per side, with any claim credited. */
  totals(): [number, number] {
    return totals(this);
  }

  /** The DESIGN §5 shape of this deal. */
  result(): DealResult {
    return result(this);
  }
}
