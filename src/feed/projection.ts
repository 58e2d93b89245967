// What the world may see of a table, and what the director sees. The public projection is the privacy boundary of
// the feed (DESIGN §6): nothing here may reveal a card that has not been played face up, and an embargo can hold back
// even the played cards until the deal has ended here, or until the tray has been played at every table.
// projector.ts folds events through these, one at a time, into the feed's messages.
import { formatCard, tryParseCard } from '../cards/card.js';
import { type Seat, SEATS, isSeat, partnerOf } from '../cards/seat.js';
import type { DealEvent, TableEvent } from '../formats/table-log.js';
import { parseContract } from '../cards/contract.js';
import { Table } from '../laws/engine.js';
import type { Finding, FindingKind, TrickRecord } from '../laws/types.js';
import { VARIANTS } from '../laws/variants.js';
import { type Score, rulesFor } from '../laws/score/index.js';
import type { JsonValue } from './patch.js';
import { findLeaks } from './privacy.js';
import { type PublicScore, directorCalls, minimalPublicScore, publicScore, scoreInputs, scoreOfInputs } from './score-view.js';
import {
  type DirectorDeal, type DirectorState, type EmbargoPolicy, type ProjectionOptions, type PublicDeal, type PublicFinding,
  type PublicPenalty, type PublicState, type PublicTableEvent, type PublicTrick, SCHEMA_VERSION,
} from './projection-types.js';

export type { DirectorHonoursCall, PublicHonoursCall, PublicScore, PublicScoreFinding } from './score-view.js';

export * from './projection-types.js';

// Renounce alerts go to the director only: announcing one at the table is itself an irregularity (WBF L9, L61), and
// with the tray record known the alert says the offender still holds the suit.
// A lost play order is the director's to rule on (disputed facts); its seat is where the stretch began, no offender.
const NEVER_PUBLIC: ReadonlySet<FindingKind> = new Set(['renounce-in-error', 'play-order-lost']);
// Found by comparing the play with the tray record (hidden hands, the trump slip): published live, they would say
// something about unplayed cards (a revoke says the offender holds the suit). They become public when play ends.
const AFTER_PLAY: ReadonlySet<FindingKind> = new Set(['revoke', 'failure-to-comply', 'card-not-in-hand', 'wrong-trump-card', 'wrong-card-count']);

const KIND_TEXT: Record<FindingKind, string> = {
  'renounce-in-error': 'Renounce in error',
  revoke: 'Revoke',
  'lead-out-of-turn': 'Lead out of turn',
  'play-out-of-turn': 'Play out of turn',
  'wrong-trump-card': 'Wrong trump card',
  'card-not-in-hand': 'Card not in the hand of the tray (fouled tray)',
  'wrong-card-count': 'Wrong number of cards',
  'duplicate-card': 'Duplicate card',
  'unknown-card': 'Unknown card',
  'card-liable-to-be-called': 'Card liable to be called',
  'failure-to-comply': 'Failure to comply with a penalty',
  'play-order-lost': 'Play order lost',
};

/** No card: what a deal still under embargo shows. */
export const NO_CARDS: ReadonlySet<string> = new Set();

/** True when the deal in progress is over at this table: every trick played, or the rest claimed. */
export function isDealOver(table: Table): boolean {
  return table.hasDeal() && table.whoseTurn() === null;
}

/** Whether the embargo lets the played cards and results of the deal in progress out now. */
export function isReleased(table: Table, embargo: EmbargoPolicy, trayComplete = false): boolean {
  switch (embargo) {
    case 'live': return true;
    case 'deal-end': return isDealOver(table);
    case 'tray-complete': return trayComplete;
  }
}

/** A card's canonical text ("SA"), or null when `text` is not a card. */
export function canonicalCard(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const r = tryParseCard(text);
  return r.ok ? formatCard(r.value) : null;
}

function dealMeta(table: Table, ev: DealEvent | null) {
  const result = table.result()!;
  const variant = VARIANTS[result.variant];
  const seats: Seat[] = ev?.seats ? SEATS.filter((s) => ev.seats!.includes(s)) : [...(variant?.seats ?? SEATS)];
  let dummies: Seat[] = ev?.dummy === undefined ? [...(variant?.dummies ?? [])] : Array.isArray(ev.dummy) ? [...ev.dummy] : [ev.dummy];
  let contract: string | null = null;
  if (variant?.trump === 'contract' && ev?.contract) {
    const c = parseContract(ev.contract);
    if (c.ok) {
      contract = ev.contract;
      dummies = [SEATS[partnerOf(c.value.declarer)]];
    }
  }
  return {
    board: result.board ?? null,
    variant: result.variant,
    // The engine's default dealer when the deal event names none (deal-play.ts).
    dealer: ev?.dealer && isSeat(ev.dealer) ? ev.dealer : 'W' as Seat,
    seats, dummies, contract, result,
  };
}

function publicFinding(f: Finding, visible: ReadonlySet<string>): PublicFinding {
  const out: PublicFinding = {
    kind: f.kind, seat: f.seat, trick: f.trick, law: f.law,
    message: `${KIND_TEXT[f.kind] ?? f.kind} by ${f.seat} at trick ${f.trick} (${f.law})`,
    remedies: f.remedies.map((r) => ({ remedy: r.remedy, option: r.option, text: r.text })),
  };
  if (f.card !== undefined && visible.has(f.card)) out.card = f.card;
  if (f.renounceTrick !== undefined) out.renounceTrick = f.renounceTrick;
  if (f.seq !== undefined) out.seq = f.seq;
  // The remedy texts quote the laws; should one ever name a card, drop the texts rather than the finding.
  if (findLeaks(out, visible).length > 0) out.remedies = out.remedies.map((r) => ({ remedy: r.remedy, option: r.option, text: '' }));
  return out;
}

/** The findings the public may see now, from the engine's findings of the deal. */
export function publicFindings(findings: readonly Finding[], opts: { released: boolean; ended: boolean; visible: ReadonlySet<string> }): PublicFinding[] {
  if (!opts.released) return [];
  return findings
    .filter((f) => !NEVER_PUBLIC.has(f.kind) && (opts.ended || !AFTER_PLAY.has(f.kind)))
    .map((f) => publicFinding(f, opts.visible));
}

function tricksOf(records: readonly TrickRecord[]): PublicTrick[] {
  return records.map((t, i) => {
    const out: PublicTrick = { number: i + 1, leader: t.leader, cards: { ...t.cards }, winner: t.winner };
    if (t.order) out.order = [...t.order];
    return out;
  });
}

function playedCount(table: Table): Record<Seat, number> {
  const seen = table.cardsSeen();
  return { N: seen.N.length, E: seen.E.length, S: seen.S.length, W: seen.W.length };
}

/**
 * The public snapshot of a table. Pure: the same Table and options give the same object. Never contains an
 * unplayed card: no hands, no remaining cards, no trump slip, no tray record, no renounce alert, and while the
 * embargo holds, no card at all.
 */
export function publicState(table: Table, opts: ProjectionOptions): PublicState {
  const base: PublicState = {
    schema: SCHEMA_VERSION, type: 'tenace.state', epoch: opts.epoch ?? '', rev: opts.rev ?? 0,
    seq: opts.seq ?? null, at: opts.at ?? null, embargo: opts.embargo, deal: null,
  };
  if (opts.club) base.club = { ...opts.club, ...(opts.club.expected ? { expected: [...opts.club.expected] } : {}) };
  const score = publicScoreOf(table, opts);
  if (score) base.score = score;
  if (!table.hasDeal()) return base;
  const ctx = opts.deal ?? { event: null, seen: NO_CARDS, turned: null };
  const m = dealMeta(table, ctx.event);
  const ended = isDealOver(table);
  const released = isReleased(table, opts.embargo, opts.trayComplete);
  const deal: PublicDeal = {
    board: m.board, variant: m.variant, dealer: m.dealer, seats: m.seats,
    status: ended ? 'ended' : 'play', trick: table.currentTrick().number, playedCount: playedCount(table), released,
  };
  if (typeof ctx.event?.vulnerable === 'string') deal.vulnerable = ctx.event.vulnerable;
  base.deal = deal;
  if (!released) return base;

  // Everything below names played cards; `visible` is what has lain face up, so a card the engine knows only from
  // the tray record (a claim's hand, the slip) is left out even if it shows up in an engine answer.
  const visible = ctx.seen;
  const keep = (c: string | null | undefined): c is string => typeof c === 'string' && visible.has(c);
  const cur = table.currentTrick();
  deal.contract = m.contract;
  deal.dummies = m.dummies;
  deal.trump = table.trump();
  deal.trumpCard = keep(ctx.turned) ? ctx.turned : null;
  deal.whoseTurn = table.whoseTurn();
  deal.current = { leader: cur.leader, cards: cur.cards.filter((c) => keep(c.card)).map((c) => ({ seat: c.seat, card: c.card })) };
  deal.tricks = tricksOf(m.result.tricks);
  deal.tricksWon = { ...m.result.tricksWon };
  const played = table.cardsSeen();
  deal.played = { N: played.N.filter(keep), E: played.E.filter(keep), S: played.S.filter(keep), W: played.W.filter(keep) };
  const exposed: { seat: Seat; card: string; law: string }[] = [];
  const penalties: PublicPenalty[] = [];
  for (const p of table.pendingPenalties()) {
    if (p.kind === 'liable-card') {
      const lc = p as { seat: Seat; card: string; law: string };
      if (keep(lc.card)) exposed.push({ seat: lc.seat, card: lc.card, law: lc.law });
      continue;
    }
    const pp = p as { kind: string; from: Seat[]; by: Seat[]; law: string; card?: string; lapsesAfterTrick?: number; demand?: { remedy: string; suit?: number; card?: number } };
    const out: PublicPenalty = { kind: pp.kind, from: [...pp.from], by: [...pp.by], law: pp.law };
    if (keep(pp.card)) out.card = pp.card;
    if (pp.lapsesAfterTrick !== undefined) out.lapsesAfterTrick = pp.lapsesAfterTrick;
    if (pp.demand) {
      const d: { remedy: string; suit?: string; card?: string } = { remedy: pp.demand.remedy };
      // A called suit is spoken aloud at the table; a called card is a card lying face up.
      if (pp.demand.suit !== undefined && pp.demand.suit >= 0) d.suit = 'SHDC'[pp.demand.suit];
      if (pp.demand.card !== undefined && pp.demand.card >= 0 && keep(formatCard(pp.demand.card))) d.card = formatCard(pp.demand.card);
      out.demand = d;
    }
    penalties.push(out);
  }
  deal.exposed = exposed;
  deal.penalties = penalties;
  deal.findings = publicFindings(table.findings(), { released, ended, visible });
  if (ended) deal.scored = { ...m.result.scored };
  if (m.result.sides) deal.sides = { ...m.result.sides };
  return base;
}

/** The director's snapshot: everything, including the remaining hands when the tray record is known, and all findings. */
export function directorState(table: Table, opts: ProjectionOptions): DirectorState {
  const out: DirectorState = {
    schema: SCHEMA_VERSION, type: 'tenace.director-state', epoch: opts.epoch ?? '', rev: opts.rev ?? 0,
    seq: opts.seq ?? null, at: opts.at ?? null, embargo: opts.embargo, tray: table.tray() ?? null, deal: null,
  };
  if (opts.club) out.club = { ...opts.club };
  const inputs = opts.scoreInputs ?? scoreInputs(table);
  const score = scoreOfInputs(inputs, opts.scoreOptions);
  if (score) out.score = JSON.parse(JSON.stringify(score)) as Score;
  const calls = directorCalls(inputs);
  if (calls.length) out.honours = calls;
  if (!table.hasDeal()) return out;
  const ctx = opts.deal ?? { event: null, seen: NO_CARDS, turned: null };
  const m = dealMeta(table, ctx.event);
  const cur = table.currentTrick();
  const d: DirectorDeal = {
    board: m.board, variant: m.variant, dealer: m.dealer, seats: m.seats, dummies: m.dummies, contract: m.contract,
    status: isDealOver(table) ? 'ended' : 'play', released: isReleased(table, opts.embargo, opts.trayComplete),
    trick: cur.number, trump: table.trump(), trumpCard: ctx.turned, trumpSlip: canonicalCard(ctx.event?.trumpSlip),
    hands: typeof ctx.event?.hands === 'string' ? ctx.event.hands : null,
    remaining: { N: table.remaining('N'), E: table.remaining('E'), S: table.remaining('S'), W: table.remaining('W') },
    whoseTurn: table.whoseTurn(),
    current: { leader: cur.leader, cards: cur.cards.map((c) => ({ seat: c.seat, card: c.card })) },
    tricks: tricksOf(m.result.tricks), tricksWon: { ...m.result.tricksWon }, scored: { ...m.result.scored },
    played: table.cardsSeen(), seen: [...ctx.seen], penalties: table.pendingPenalties(),
    findings: table.findings(), notes: [...(m.result.notes ?? [])],
  };
  if (typeof ctx.event?.vulnerable === 'string') d.vulnerable = ctx.event.vulnerable;
  out.deal = d;
  return out;
}

/**
 * The public score of a table, or null when its game has no social score. Under `tray-complete` the deals are scored
 * in order up to the first whose tray is not complete (a later deal cannot be scored without it); the others are
 * counted in `withheld`. The deal in progress counts once played out and released. Never names a card.
 */
export function publicScoreOf(table: Table, opts: ProjectionOptions): PublicScore | null {
  const inputs = opts.scoreInputs ?? scoreInputs(table);
  if (inputs.variant === null || rulesFor(inputs.variant, opts.scoreOptions) === null) return null;
  const n = inputs.results.length;
  let k = 0;
  for (; k < n; k++) {
    const current = inputs.includesCurrent && k === n - 1;
    const board = inputs.results[k].board;
    const released = current ? isReleased(table, opts.embargo, opts.trayComplete)
      : opts.embargo !== 'tray-complete' || (board !== undefined && (opts.traysComplete?.has(board) ?? false));
    if (!released) break;
  }
  const score = scoreOfInputs(inputs, opts.scoreOptions, k);
  if (!score) return null;
  // Calls of the deal in progress that no line holds yet: spoken at the table, so public, but counted only.
  const pending = !inputs.includesCurrent || k < n ? inputs.current?.claims ?? [] : [];
  const out = publicScore(score, pending, n - k, table.board());
  // The score names no card at all (suit letters only); should a text ever do so, publish the numbers alone.
  return findLeaks(out, NO_CARDS).length === 0 ? out : minimalPublicScore(out);
}

/** A TableEvent reduced to what the public may see, given what is visible now (empty while embargoed). */
export function publicEvent(ev: TableEvent, opts: { released: boolean; visible: ReadonlySet<string> }): PublicTableEvent {
  const out: PublicTableEvent = { type: typeof ev.type === 'string' ? ev.type : 'unknown' };
  if (ev.seq !== undefined) out.seq = ev.seq;
  if (ev.at !== undefined) out.at = ev.at;
  const card = (c: unknown): string | undefined => {
    const k = canonicalCard(c);
    return k !== null && opts.released && opts.visible.has(k) ? k : undefined;
  };
  const copy = (k: string, v: JsonValue | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  // Whitelists per type: a new field in the table log stays private until someone decides it is public.
  switch (ev.type) {
    case 'deal':
      copy('board', ev.board);
      copy('variant', ev.variant);
      copy('dealer', ev.dealer);
      copy('vulnerable', ev.vulnerable);
      copy('seats', ev.seats);
      copy('tables', ev.tables);
      copy('overplay', ev.overplay);
      if (opts.released) {
        // The contract and a declared trump belong to the result of the auction; hands and the trump slip never go out.
        copy('contract', ev.contract);
        copy('trump', ev.trump);
        copy('dummy', ev.dummy);
      }
      break;
    case 'place':
    case 'lift':
      copy('seat', ev.seat);
      copy('card', card(ev.card));
      break;
    case 'claim':
      copy('seat', ev.seat);
      if (opts.released) copy('tricks', ev.tricks);
      break;
    case 'remedy':
      copy('by', ev.by);
      copy('remedy', ev.remedy);
      copy('seat', ev.seat);
      if (opts.released) {
        copy('suit', ev.suit);
        copy('card', card(ev.card));
      }
      break;
    case 'exchange':
      copy('seat', ev.seat);
      break;
    case 'undo':
      // A seq, not a card: the view needs it to strike the misread event out of its log.
      copy('target', ev.target);
      break;
    case 'honours': {
      // English Law 7: honours are called aloud, so the call is public; but it is counted, not listed, unless every
      // card named has lain face up here (a claim ends a deal with honours never seen).
      copy('seat', ev.seat);
      const count = typeof ev.count === 'number' ? ev.count : Array.isArray(ev.cards) ? ev.cards.length : undefined;
      copy('count', count);
      const cards = Array.isArray(ev.cards) ? ev.cards.map(card) : [];
      if (cards.length > 0 && cards.every((c) => c !== undefined)) copy('cards', cards as string[]);
      break;
    }
    default:
      // tray (the barcode identifies the board's record) and types unknown here: the type and seq only.
      break;
  }
  return out;
}

/** What one folded event produced. */
