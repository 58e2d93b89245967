// Penalties: cards exposed and liable to be called, the remedy the entitled adversary chooses, and the demand exacted
// checked against the card then played (Dup. VII, VIII, XI). Part of DealPlay's fold (deal-play.ts); pure.
import { formatCard, parseCard, rankBit, rankOf, suitIndex, suitOf } from '../cards/card.js';
import { type Hand, handCards, holds } from '../cards/hand.js';
import { type Seat, SEATS } from '../cards/seat.js';
import { winningIndex } from '../cards/trick.js';
import type { RemedyEvent } from '../formats/table-log.js';
import type { PendingPenalty, Ruling } from './code.js';
import type { DealPlay } from './deal-play.js';

/** A card liable to be called: whose it is, the law, and who may call it. */
export interface Liability {
  seat: number;
  law: string;
  /** Who may call it: the option of the ruling's call-card remedy. */
  by: Seat[];
}

// ---------------------------------------------------------------- liable cards

/** The seats of `seat`'s adversaries, in seat order: who may exact a penalty from him. */
function adversariesOf(play: DealPlay, seat: number): Seat[] {
  return play.seats.filter((s) => play.sideOf(s) !== play.sideOf(seat)).map((s) => SEATS[s]);
}

/** A card becomes liable to be called; the ruling's call-card remedy says who may call it. */
export function makeLiable(play: DealPlay, card: number, seat: number, ruling: Ruling): void {
  const option = ruling.remedies.find((r) => r.remedy === 'call-card')?.option;
  const by = option === 'NS' ? ['N', 'S'] as Seat[] : option === 'EW' ? ['E', 'W'] as Seat[]
    : option && option.length === 1 ? [option as Seat] : adversariesOf(play, seat);
  play.liable.set(card, { seat, law: ruling.law, by });
}

/** A card put down by a seat that has already played to the trick: exposed, or led ahead (Dup. XI.6, Am. 22). */
export function secondCard(play: DealPlay, seat: number, card: number): void {
  const partner = play.partner(seat);
  const leadAhead = play.flatSeats[play.curStart] === seat && partner !== seat && !(play.curMask & (1 << partner)) && !play.dummies.has(partner)
    && isMaster(play, play.flatCards[play.curStart], seat) && isMaster(play, card, seat);
  const ruling = play.code.exposedCard(play.ctx, seat, leadAhead ? 'led-ahead' : 'second-card');
  if (!ruling) return;
  makeLiable(play, card, seat, ruling);
  if (leadAhead) {
    play.penalties.push({ kind: 'win', from: [SEATS[partner]], by: adversariesOf(play, seat), law: ruling.law });
  }
  play.addFinding('card-liable-to-be-called', seat, ruling, `${SEATS[seat]} put ${formatCard(card)} on the table with a card already played to this trick`, card);
}

/** True when no adversary of `seat` holds a higher card of the card's suit (always true when hands are unknown). */
function isMaster(play: DealPlay, card: number, seat: number): boolean {
  if (!play.hands) return true;
  const suit = suitOf(card);
  const above = ~((2 << rankOf(card)) - 1) & 0x1fff;
  return play.seats.every((s) => play.sideOf(s) === play.sideOf(seat) || (play.hands![s][suit] & above) === 0);
}

/** Make the liable cards of a seat callable by the adversary entitled to call them (Dup. VII.4). */
export function callableCards(play: DealPlay): { seat: Seat; card: string; law: string }[] {
  return [...play.liable.entries()].map(([c, l]) => ({ seat: SEATS[l.seat], card: formatCard(c), law: l.law }));
}

/** Register the liable cards as call-card penalties so remedy events can call them. */
export function liableAsPenalties(play: DealPlay): void {
  for (const [c, l] of play.liable) {
    const card = formatCard(c);
    if (play.penalties.some((p) => p.kind === 'call-card' && p.card === card)) continue;
    play.penalties.push({ kind: 'call-card', from: [SEATS[l.seat]], by: l.by, law: l.law, card });
  }
}

// ---------------------------------------------------------------- remedies

/** The player entitled to a remedy chooses it; the engine then enforces it. Returns an error sentence or null. */
export function remedy(play: DealPlay, ev: RemedyEvent): string | null {
  play.seq = ev.seq;
  const by = ev.by;
  const target = ev.seat;
  if (ev.remedy === 'tricks' || ev.remedy === 'points') {
    play.penaltyChoice = ev.remedy;
    return null;
  }
  const kindFor: Record<string, PendingPenalty['kind'][]> = {
    'call-suit': ['call-suit'], 'call-card': ['call-card'], highest: ['highest-or-lowest'], lowest: ['highest-or-lowest'],
    trump: ['trump-or-not', 'highest-or-lowest'], 'not-trump': ['trump-or-not', 'highest-or-lowest'], win: ['win'],
    accept: ['accept-or-retract'], retract: ['accept-or-retract'], waive: [],
  };
  const kinds = kindFor[ev.remedy];
  const p = play.penalties.find((x) => (ev.remedy === 'waive' || kinds.includes(x.kind)) && x.by.includes(by)
    && (target === undefined || x.from.includes(target)) && (ev.remedy !== 'call-card' || x.card === ev.card));
  if (!p) {
    // Dup. XI.4 / Am. 39: a penalty demanded by the wrong adversary, or a wrong penalty: none can be enforced.
    const lost = play.penalties.filter((x) => target === undefined || x.from.includes(target));
    for (const x of lost) removePenalty(play, x);
    const msg = `${by} may not exact "${ev.remedy}"${target ? ` from ${target}` : ''} now: no such penalty is pending in his favour${lost.length ? '; the pending penalty is lost (Dup. XI.4, Am. 39)' : ''}`;
    play.notes.push(msg);
    return msg;
  }
  if (ev.remedy === 'waive') {
    removePenalty(play, p);
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

// ---------------------------------------------------------------- demands (penalties exacted)

/** A lead by a seat a penalty is pending from: the demand exacted is checked, an unexacted suit call ends (Dup. VIII). */
export function checkLeadDemands(play: DealPlay, seat: number, card: number): void {
  const S = SEATS[seat];
  if (play.penalties.length === 0) return;
  for (const p of [...play.penalties]) {
    if (!p.from.includes(S)) continue;
    if (p.kind === 'call-suit') {
      if (!p.demand) {
        // Dup. VIII.2: the proper leader must not lead until the penalty is exacted, waived or lost.
        if (p.lapsesAfterTrick === undefined && seat === play.properLeader) {
          const r = play.code.exposedCard(play.ctx, seat, 'taken-back');
          if (r) play.addFinding('card-liable-to-be-called', seat, { ...r, law: p.law }, `${S} led ${formatCard(card)} before the called suit was named`, card);
        }
        removePenalty(play, p);
        continue;
      }
      const want = p.demand.suit!;
      if (suitOf(card) !== want) failedDemand(play, seat, card, want, `lead ${'SHDC'[want]}`, p);
      removePenalty(play, p);
    } else if (p.kind === 'call-card' && p.demand) {
      if (p.demand.card !== card) failedCardCall(play, seat, card, p);
      removePenalty(play, p);
    }
  }
}

/** A play to the trick by a seat a demand is pending from: checked against his hand where the tray tells it. */
export function checkFollowDemands(play: DealPlay, seat: number, card: number): void {
  const S = SEATS[seat];
  if (play.penalties.length === 0) return;
  const led = suitOf(play.flatCards[play.curStart]);
  for (const p of [...play.penalties]) {
    if (!p.from.includes(S) || !p.demand || p.kind === 'call-suit') continue;
    const h = play.hands && play.heldKnown ? play.hands[seat] : null;
    const d = p.demand.remedy;
    if (p.kind === 'highest-or-lowest' && h) {
      if (h[led] !== 0) {
        const mask = h[led];
        const target = d === 'highest' ? 31 - Math.clz32(mask) : 31 - Math.clz32(mask & -mask);
        if (suitOf(card) !== led || rankOf(card) !== target) failedDemand(play, seat, card, led, `play his ${d} ${'SHDC'[led]}`, p, false);
      } else if (d === 'trump' || d === 'not-trump') {
        checkTrumpDemand(play, seat, card, d, h, p);
      }
    } else if (p.kind === 'trump-or-not' && h && h[led] === 0) {
      checkTrumpDemand(play, seat, card, d, h, p);
    } else if (p.kind === 'win' && h) {
      checkWinDemand(play, seat, card, h, p);
    } else if (p.kind === 'call-card') {
      const c = p.demand.card!;
      const canWithoutRevoke = suitOf(c) === led || (h ? h[led] === 0 : suitOf(card) !== led);
      if (c !== card && canWithoutRevoke) failedCardCall(play, seat, card, p);
    }
    removePenalty(play, p);
  }
}

/** Called on to win the trick: failed when a lawful card of his would have won it. */
function checkWinDemand(play: DealPlay, seat: number, card: number, h: Hand, p: PendingPenalty): void {
  const trick = [...play.currentCards(), 0];
  const wins = (c: number) => {
    trick[trick.length - 1] = c;
    return winningIndex(trick, play.trump) === trick.length - 1;
  };
  if (wins(card)) return;
  const led = suitOf(play.flatCards[play.curStart]);
  const legal = handCards(h).filter((c) => h[led] === 0 || suitOf(c) === led);
  if (legal.some(wins)) failedDemand(play, seat, card, suitOf(card), 'win the trick', p, false);
}

/** Called on to trump, or not to trump, a trick he cannot follow. */
function checkTrumpDemand(play: DealPlay, seat: number, card: number, d: string, h: Hand, p: PendingPenalty): void {
  const t = play.trump;
  if (t < 0) return;
  const isTrump = suitOf(card) === t;
  const others = h[0] | h[1] | h[2] | h[3] ? [0, 1, 2, 3].some((s) => s !== t && h[s] !== 0) : false;
  if (d === 'trump' && !isTrump && h[t] !== 0) failedDemand(play, seat, card, t, 'trump the trick', p, false);
  if (d === 'not-trump' && isTrump && others) failedDemand(play, seat, card, t, 'not trump the trick', p, false);
}

/** A lawful demand not complied with: a failure to comply where the hand is known, else a void to prove later. */
function failedDemand(play: DealPlay, seat: number, card: number, suit: number, what: string, p: PendingPenalty, leadCall = true): void {
  if (play.hands && play.heldKnown) {
    const able = leadCall ? play.hands[seat][suit] !== 0 : true;
    if (!able) return; // Dup. VIII.3: called on to lead a suit he has none of, he may lead as he pleases.
    play.revokes.push({ seat, trick: play.trickNumber, suit, failureToComply: true });
    play.addFinding('failure-to-comply', seat, play.code.failureToComply(play.ctx, seat, what),
      `${SEATS[seat]} was lawfully called on to ${what} (${p.law}) and played ${formatCard(card)}`, card);
  } else if (leadCall) {
    // Unknown hands: the failure is proved if he later plays the called suit.
    const k = seat * 4 + suit;
    if (play.voids![k] === 0) {
      play.voids![k] = play.trickNumber;
      play.voids![16 + k] = card;
      play.voids![32 + k] = 1;
    }
  }
}

/** A called card not played though he held it (or it lay face up before him). */
function failedCardCall(play: DealPlay, seat: number, card: number, p: PendingPenalty): void {
  if (play.hands && !holds(play.hands[seat], p.demand!.card!) && !(play.zones[seat * 4 + suitOf(p.demand!.card!)] & rankBit(p.demand!.card!))) return;
  play.revokes.push({ seat, trick: play.trickNumber, suit: suitOf(p.demand!.card!), failureToComply: true });
  play.addFinding('failure-to-comply', seat, play.code.failureToComply(play.ctx, seat, `play ${formatCard(p.demand!.card!)}`),
    `${SEATS[seat]} was lawfully called on to play ${formatCard(p.demand!.card!)} (${p.law}) and played ${formatCard(card)}`, card);
}

/** The penalty is exacted, waived or lost. */
function removePenalty(play: DealPlay, p: PendingPenalty): void {
  const i = play.penalties.indexOf(p);
  if (i >= 0) play.penalties.splice(i, 1);
}

/** Pending penalties that lapse: those the predicate picks. */
export function dropPenalties(play: DealPlay, pred: (p: PendingPenalty) => boolean): void {
  for (let i = play.penalties.length - 1; i >= 0; i--) if (pred(play.penalties[i])) play.penalties.splice(i, 1);
}
