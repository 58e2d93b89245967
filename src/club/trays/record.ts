// The tray record an original play makes (docs/club.md, "The path of a tray", step 3): the four hands as the engine
// saw them played, the turned trump card, the dealer. The engine is used read-only: the deal's events are folded
// through a fresh `Table`, exactly as the table and the director fold them.
import { cardCode, formatCard, suitOf } from '../../cards/card.js';
import { type Hand, addCard, emptyHand, holds } from '../../cards/hand.js';
import { formatDeal } from '../../cards/deal.js';
import { SEATS, type Seat, isSeat, seatIndex } from '../../cards/seat.js';
import { tableSeat, traySeat, turnedSide } from '../../cards/tray-turn.js';
import type { DealEvent, TableEvent } from '../../formats/table-log.js';
import { Table } from '../../laws/engine.js';
import type { DealResult } from '../../laws/types.js';
import { getVariant, VARIANTS } from '../../laws/variants.js';
import { boardDealer, boardVulnerability } from '../scoring/bridge.js';
import type { TrayRecord } from '../types.js';

/** What `recordFromPlay` is given: the deal's events (its `deal` event first) and the engine's result of them. */
export interface PlayedDeal {
  session: string;
  table: string;
  events: readonly TableEvent[];
  result: DealResult;
  at: string;
  /** The session's game, for a deal event that names none (a table's journal from before deals carried it). */
  variant?: string;
  /**
   * The cards each seat played and the trump suit, as the caller's own fold of these same events through the engine
   * holds them at the deal's end (the director's `TableFold`, with `variant` as its game): the events are then not
   * folded a second time (issue 18: in a CPU profile of the club bench's round ends, the second fold was 40 ms of
   * the 130 ms the director spent taking events in). Not used after an accepted claim, which the record reads
   * differently from the fold.
   */
  folded?: { cards: Record<Seat, string[]>; trump: string | null };
}

/** Why an original play makes no record, for a log line or an alert; null when it makes one. */
export function whyNoRecord(a: PlayedDeal): string | null {
  return build(a).why;
}

/**
 * The tray record an original play makes: the hands as played (every card each seat played, as the engine saw it),
 * the turned trump card in turned-trump variants, the declared trump (Dup. IV.11), the dealer, and for bridge the
 * vulnerability (from the deal event, else by the board number, Law 2).
 *
 * After an accepted claim, the cards each seat shows over its reader (passed over it, not played) count with the
 * cards it played: the claimed deal makes the record once every seat's 13 are seen.
 *
 * Null when the hands are not complete: a seat in play with fewer than 13 cards played or shown (a claim not yet
 * answered, cards still to be shown after one, a stretch of unknown order that lost cards), an
 * abandoned deal, a card seen twice, a deal without a board number, or a turned-trump deal whose trump card was
 * not seen turned (the trump slip could not be written). `whyNoRecord` gives the reason.
 */
export function recordFromPlay(a: PlayedDeal): TrayRecord | null {
  return build(a).record;
}

function build(a: PlayedDeal): { record: TrayRecord | null; why: string | null } {
  const no = (why: string) => ({ record: null, why });
  const first = a.events[0];
  if (!first || first.type !== 'deal') return no('the events must begin with the deal event');
  const dealEv: DealEvent = first;
  if (dealEv.board === undefined) return no('the deal event names no board');
  if (a.result.abandoned !== undefined) return no(`the deal was abandoned (${a.result.abandoned})`);
  const variantName = dealEv.variant ?? a.variant ?? a.result.variant ?? 'duplicate-whist';
  if (!VARIANTS[variantName]) return no(`unknown variant "${variantName}"`);
  const variant = getVariant(variantName);

  // An undo takes its target out of the play; the turned card is read from the events that still count.
  const undone = new Set<number>();
  for (const e of a.events) if (e.type === 'undo') undone.add(e.target);
  const events = a.events.filter((e) => e.seq === undefined || !undone.has(e.seq) || e.type === 'undo');

  const after = shownAfterClaim(a.events);
  const { claimed, accepted } = after;
  // The engine takes the session's game for a deal event that names none, as the table and the director do.
  const table = a.folded && after.acceptedAt === undefined ? null : new Table({ keepEvents: true, variant: variantName });
  for (let i = 0; i < a.events.length; i++) {
    const e = a.events[i];
    if (i > 0 && e.type === 'deal') return no('a second deal event came before this deal was complete');
    if (e.type === 'abandon') return no(`the deal was abandoned${e.reason ? ` (${e.reason})` : ''}`);
    // The cards shown after an accepted claim are not play: the fold stops at the acceptance.
    if (after.acceptedAt !== undefined && i > after.acceptedAt && (e.type === 'place' || e.type === 'lift')) continue;
    table?.apply(e);
  }
  const played = table ? table.cardsSeen() : a.folded!.cards;
  const trump = table ? table.trump() : a.folded!.trump;
  const seen = accepted ? Object.fromEntries(SEATS.map((st) => [st, [...played[st], ...after.shown[st]]])) as Record<Seat, string[]> : played;
  // A turned tray (Memory Duplicate's overplay): the table's seats are not the tray's; the record names the tray's.
  const turn = dealEv.turn ?? 0;
  const seats = (dealEv.seats ?? variant.seats).filter(isSeat);
  const deal: (Hand | null)[] = [null, null, null, null];
  const all = emptyHand();
  for (const seat of seats) {
    const cards = seen[seat];
    if (cards.length !== 13) {
      if (claimed && !accepted) return no(`${claimed} claimed and the claim is not answered: the unplayed cards are not known, so the record would be incomplete`);
      if (accepted) return no(`${seat} played and showed ${cards.length} cards after the claim, not 13: the players pass the cards they still hold over their readers to complete the tray's record`);
      return no(`${seat} played ${cards.length} cards, not 13: the hands are not complete`);
    }
    const hand = emptyHand();
    for (const c of cards) {
      const code = cardCode(c);
      if (code < 0) return no(`${seat} played an unknown card ${c}`);
      if (holds(all, code)) return no(`${c} was seen played twice: two packs at the table`);
      addCard(all, code);
      addCard(hand, code);
    }
    deal[seatIndex(traySeat(seat, turn))] = hand;
  }

  const dealer: Seat = dealEv.dealer ?? (variant.trump === 'contract' ? tableSeat(boardDealer(dealEv.board), turn) : 'W');
  const record: TrayRecord = {
    schema: 1, type: 'tenace.tray', session: a.session, board: dealEv.board,
    hands: formatDeal(deal as Parameters<typeof formatDeal>[0], 0),
    dealer: traySeat(dealer, turn),
    variant: variantName,
    source: { kind: 'original-play', table: a.table, fromSeq: seqOf(a.events, 0), toSeq: seqOf(a.events, -1), at: a.at },
    rev: 1,
  };
  if (dealEv.trump) record.trump = dealEv.trump.toUpperCase();
  else if (variant.trump === 'turned') {
    const turned = turnedCard(events, dealer, trump);
    if (!turned) return no('no trump card was seen turned before the opening lead, so the trump slip cannot be written');
    if (variant.trumpCardToDealer && !holds(deal[seatIndex(traySeat(dealer, turn))]!, cardCode(turned))) {
      return no(`the turned trump card ${turned} is not among the cards the dealer ${dealer} played`);
    }
    record.trumpCard = turned;
  }
  if (variant.trump === 'contract') record.vulnerable = dealEv.vulnerable !== undefined ? turnedSide(dealEv.vulnerable, turn) : boardVulnerability(dealEv.board);
  return { record, why: null };
}

/** What a deal's claim leaves to show: the claim standing or accepted, and the cards shown over the readers since. */
export interface ShownAfterClaim {
  /** The claimant of the claim standing or accepted; null when none (a disputed claim is withdrawn). */
  claimed: Seat | null;
  accepted: boolean;
  /** The index of the acceptance in the events. */
  acceptedAt?: number;
  /** Per seat, the cards placed on its reader after the acceptance (each once; an undone read does not count). */
  shown: Record<Seat, string[]>;
}

/**
 * After an accepted claim the play is over (Am. 27), but the players pass the cards they still hold over their
 * readers, so that the tray's record is complete for the overplays: those cards are shown, not played.
 */
export function shownAfterClaim(events: readonly TableEvent[]): ShownAfterClaim {
  const undone = new Set<number>();
  for (const e of events) if (e.type === 'undo') undone.add(e.target);
  const out: ShownAfterClaim = { claimed: null, accepted: false, shown: { N: [], E: [], S: [], W: [] } };
  events.forEach((e, i) => {
    if (e.type === 'claim') out.claimed = e.seat;
    else if (e.type === 'claim-disputed') out.claimed = null;
    else if (e.type === 'claim-accepted' && out.claimed && !out.accepted) { out.accepted = true; out.acceptedAt = i; }
    else if (out.accepted && e.type === 'place' && e.card !== undefined && !undone.has(e.seq ?? -1) && !out.shown[e.seat].includes(e.card)) out.shown[e.seat].push(e.card);
  });
  return out;
}

/** The seq of the first (0) or last (-1) event that carries one; 0 when none does (a hand-written log). */
function seqOf(events: readonly TableEvent[], end: 0 | -1): number {
  const list = end === 0 ? events : [...events].reverse();
  return list.find((e) => e.seq !== undefined)?.seq ?? 0;
}

/**
 * The turned trump card (DESIGN §4): the dealer's first card placed before the opening lead. Read without order, a
 * lead may come before it, as the engine allows: then it is still the dealer's first card. The engine's trump suit
 * must agree, so a card the engine did not take as the trump never becomes the slip.
 */
function turnedCard(events: readonly TableEvent[], dealer: Seat, trump: string | null): string | null {
  if (trump === null) return null;
  let led = false;
  for (const e of events) {
    if (e.type !== 'place' || e.card === undefined) continue;
    if (e.seat !== dealer) {
      if (!e.orderUnknown) led = true;
      continue;
    }
    if (led && !e.orderUnknown) return null;
    const code = cardCode(e.card);
    if (code < 0) return null;
    return 'SHDC'[suitOf(code)] === trump ? formatCard(code) : null;
  }
  return null;
}
