// What the world may see of a table, and what the director sees. The public projection is the privacy boundary of
// the feed (DESIGN §6): nothing here may reveal a card that has not been played face up, and an embargo can hold back
// even the played cards until the deal has ended here, or until the tray has been played at every table.
//
// `Projector` folds TableEvents through its own engine Table and produces, per event, the public event message
// (redacted event, public findings, and a JSON Patch from the previous public snapshot) and the director alert.
import { formatCard, tryParseCard } from '../cards/card.js';
import { type Seat, SEATS, isSeat, partnerOf } from '../cards/seat.js';
import type { DealEvent, TableEvent } from '../formats/table-log.js';
import { parseContract } from '../cards/contract.js';
import { Table, type TableOptions } from '../laws/engine.js';
import type { Finding, FindingKind, TrickRecord } from '../laws/types.js';
import { VARIANTS } from '../laws/variants.js';
import { type JsonValue, type PatchOp, diffJson } from './patch.js';
import { findLeaks } from './privacy.js';
import type { ClubStatus } from '../club/table-side.js';
import { type Score, type ScoreOptions, rulesFor } from '../laws/score/index.js';
import {
  type DirectorHonoursCall, type PublicScore, type ScoreInputs, callKey, directorCalls, minimalPublicScore, publicScore,
  scoreInputs, scoreOfInputs,
} from './score-view.js';

export type { DirectorHonoursCall, PublicHonoursCall, PublicScore, PublicScoreFinding } from './score-view.js';

/** Version of the payload shapes below; bumped on any incompatible change. Also sent as an MQTT 5 user property. */
export const SCHEMA_VERSION = 1;

/**
 * When played cards and results become public:
 * - `live`: as they are played;
 * - `deal-end`: once the play of the deal has ended at this table;
 * - `tray-complete`: once the club layer says the tray has been played at every table (`trayComplete`).
 */
export type EmbargoPolicy = 'live' | 'deal-end' | 'tray-complete';

/** The embargo policies, for validation and help texts. */
export const EMBARGO_POLICIES: readonly EmbargoPolicy[] = ['live', 'deal-end', 'tray-complete'];

/** A finding as the public may see it: no engine text (it can name unplayed cards), a card only when it is public. */
export interface PublicFinding {
  kind: FindingKind;
  seat: Seat;
  trick: number;
  law: string;
  message: string;
  card?: string;
  remedies: { remedy: string; option: string; text: string }[];
  renounceTrick?: number;
  seq?: number;
}

/** A pending penalty as the public may see it. */
export interface PublicPenalty {
  kind: string;
  from: Seat[];
  by: Seat[];
  law: string;
  card?: string;
  lapsesAfterTrick?: number;
  demand?: { remedy: string; suit?: string; card?: string };
}

/** A completed trick. */
export interface PublicTrick {
  number: number;
  leader: Seat;
  cards: Partial<Record<Seat, string>>;
  /** Play order, given only when it was not clockwise from the leader. */
  order?: Seat[];
  winner: Seat;
}

/** The deal in progress as the public may see it; the play fields are present only when `released`. */
export interface PublicDeal {
  board: number | null;
  variant: string;
  dealer: Seat;
  seats: Seat[];
  vulnerable?: string;
  /** `play` while cards are to be played; `ended` once all tricks are played or claimed. */
  status: 'play' | 'ended';
  /** The number of the trick in progress (14 once thirteen tricks are complete). */
  trick: number;
  /** Cards played by each seat: progress only, no card. */
  playedCount: Record<Seat, number>;
  /** False while the embargo holds back the cards and the results. */
  released: boolean;
  contract?: string | null;
  dummies?: Seat[];
  /** The trump suit letter, or null (no trump, or not known yet). */
  trump?: string | null;
  /** The turned trump card, once the dealer has turned it. */
  trumpCard?: string | null;
  whoseTurn?: Seat | null;
  current?: { leader: Seat | null; cards: { seat: Seat; card: string }[] };
  tricks?: PublicTrick[];
  tricksWon?: { NS: number; EW: number };
  /** Cards each seat has played to tricks, in order. */
  played?: Record<Seat, string[]>;
  /** Cards lying face up that are liable to be called. */
  exposed?: { seat: Seat; card: string; law: string }[];
  penalties?: PublicPenalty[];
  findings?: PublicFinding[];
  /** The score under the variant's code, once the deal has ended. */
  scored?: { NS: number; EW: number };
  /** Two-handed games: the player counted under each side key. */
  sides?: { NS: Seat; EW: Seat };
}

/** The retained public snapshot of a table (`state` topic). */
export interface PublicState {
  schema: number;
  type: 'tenace.state';
  /** Changes when the publisher restarts; `rev` counts within an epoch. */
  epoch: string;
  rev: number;
  /** seq of the last event folded in, or null before any. */
  seq: number | null;
  at: string | null;
  embargo: EmbargoPolicy;
  deal: PublicDeal | null;
  /** Club session: what the last tray scan did (wrong tray, overplay, ...); absent outside a club session. No cards. */
  club?: ClubStatus;
  /**
   * Issue 9: the score of a social game (English, Prussian, Favourite and American whist, the Dummy games, Mort,
   * Humbug, Thirteen and the Odd): points, games, rubbers, the running lines, honours called and counted. Absent for
   * duplicate whist and bridge, whose score is the club's. Names no card: honours are counted, never listed.
   */
  score?: PublicScore;
}

/** A TableEvent as published: whitelisted fields, cards only when public, never hands, slips or barcodes. */
export interface PublicTableEvent {
  type: string;
  seq?: number;
  at?: string;
  [field: string]: JsonValue | undefined;
}

/** The message on the `event` topic. */
export interface PublicEventMessage {
  schema: number;
  type: 'tenace.event';
  epoch: string;
  seq: number;
  at: string | null;
  /** The snapshot revision this event produces, and the one the patch applies to. */
  rev: number;
  baseRev: number;
  event: PublicTableEvent;
  /** Findings of this event that are public now. */
  findings: PublicFinding[];
  /** JSON Patch (RFC 6902 subset) from the snapshot at `baseRev` to the one at `rev`. */
  patch: PatchOp[];
}

/** The director's full snapshot (`director/state`), embargo or not. */
export interface DirectorState {
  schema: number;
  type: 'tenace.director-state';
  epoch: string;
  rev: number;
  seq: number | null;
  at: string | null;
  embargo: EmbargoPolicy;
  /** The last tray barcode scanned at this table. */
  tray: string | null;
  deal: DirectorDeal | null;
  /** Club session: what the last tray scan did, as on the public state. */
  club?: ClubStatus;
  /** Issue 9: the whole score of a social game (every deal, embargo or not); absent for duplicate whist and bridge. */
  score?: Score;
  /** Issue 9: every honours call of the session with the engine's verdict (`true`, `false`, `unchecked`); absent when none. */
  honours?: DirectorHonoursCall[];
}

/** Everything about the deal in progress. */
export interface DirectorDeal {
  board: number | null;
  variant: string;
  dealer: Seat;
  seats: Seat[];
  dummies: Seat[];
  vulnerable?: string;
  contract: string | null;
  status: 'play' | 'ended';
  released: boolean;
  trick: number;
  trump: string | null;
  trumpCard: string | null;
  trumpSlip: string | null;
  /** The PBN deal from the tray record, when known. */
  hands: string | null;
  /** Each seat's remaining hand in PBN form, when the tray record is known. */
  remaining: Record<Seat, string | null>;
  whoseTurn: Seat | null;
  current: { leader: Seat | null; cards: { seat: Seat; card: string }[] };
  tricks: PublicTrick[];
  tricksWon: { NS: number; EW: number };
  scored: { NS: number; EW: number };
  played: Record<Seat, string[]>;
  /** Every card seen face up in this deal, played or not (turned trump, exposed cards). */
  seen: string[];
  penalties: unknown[];
  findings: Finding[];
  notes: string[];
}

/** The message on the `director` topic: the full event and every finding it produced. */
export interface DirectorAlert {
  schema: number;
  type: 'tenace.director-alert';
  epoch: string;
  seq: number | null;
  at: string | null;
  event: TableEvent;
  findings: Finding[];
  board: number | null;
  whoseTurn: Seat | null;
  /** Issue 9: honours calls found false at this event (English Law 7); the cards that show it are in `message`. */
  honours?: DirectorHonoursCall[];
}

/** What the projection knows about the deal beyond the engine's answers: the deal event and what was seen. */
export interface DealContext {
  /** The deal event, as journaled (private fields included). */
  event: DealEvent | null;
  /** Cards that have lain face up in this deal (canonical notation). */
  seen: ReadonlySet<string>;
  /** The turned trump card, once turned. */
  turned: string | null;
}

/** Inputs of a projection besides the Table. */
export interface ProjectionOptions {
  embargo: EmbargoPolicy;
  /** For `tray-complete`: the club layer says the tray of the deal in progress has been played at every table. */
  trayComplete?: boolean;
  deal?: DealContext;
  /** The club line: what the last tray scan did (docs/club.md, "Wrong tray"). */
  club?: ClubStatus | null;
  /** The game's score options (game length, the progressive variation, ...). */
  scoreOptions?: ScoreOptions;
  /** For `tray-complete`: the boards whose trays have been played at every table (the closed deals' release). */
  traysComplete?: ReadonlySet<number>;
  /** The score inputs already gathered from the table (a cache); gathered from `table` when absent. */
  scoreInputs?: ScoreInputs;
  epoch?: string;
  rev?: number;
  seq?: number | null;
  at?: string | null;
}

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

const NO_CARDS: ReadonlySet<string> = new Set();

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

function canonicalCard(text: unknown): string | null {
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
export interface Projected {
  findings: Finding[];
  public: PublicEventMessage;
  /** Null when the event produced no finding. */
  director: DirectorAlert | null;
  /** Set when the engine refused the event (it is still published, so that seq stays gap-free). */
  error?: string;
}

/** Something to tell about a projection problem: the feed logs it. */
export interface ProjectionIncident {
  what: 'engine-error' | 'privacy-guard';
  seq: number | null;
  detail: string;
}

export interface ProjectorOptions {
  embargo?: EmbargoPolicy;
  tableOptions?: TableOptions;
  /** Identifies this publisher's run; a random one when omitted. */
  epoch?: string;
  /** Told about engine errors and privacy-guard trips. */
  onIncident?: (i: ProjectionIncident) => void;
  /** The social game's score options (game length, the progressive variation, ...); the seed's defaults when omitted. */
  scoreOptions?: ScoreOptions;
}

/** A random lower-case base-36 id (no card token can hide in it). */
export function randomEpoch(): string {
  let s = '';
  for (let i = 0; i < 12; i++) s += Math.floor(Math.random() * 36).toString(36);
  return s;
}

/**
 * Folds TableEvents and keeps the public and director projections with their revision counter. Every event bumps
 * `rev` by one; `setTrayComplete` bumps it when it changes what is public.
 */
export class Projector {
  readonly table: Table;
  readonly epoch: string;
  readonly embargo: EmbargoPolicy;
  private rev = 0;
  private seq: number | null = null;
  private at: string | null = null;
  private dealEvent: DealEvent | null = null;
  private seen = new Set<string>();
  /** The place events of the deal in progress that name a card, for rebuilding `seen` after an undo. */
  private places: { seq: number | undefined; seat: Seat; card: string }[] = [];
  private turned: string | null = null;
  private readonly traysComplete = new Set<number>();
  private club: ClubStatus | null = null;
  private readonly scoreOptions: ScoreOptions;
  /** Events other than place and lift folded so far: with the deal's end, what the score can change with. */
  private nonCardEvents = 0;
  private honoursEvents = 0;
  private scoreCache: { key: string; plays: number; inputs: ScoreInputs } | null = null;
  /** False honours calls already told to the director (callKey). */
  private readonly falseCallsTold = new Set<string>();
  private lastPublic: PublicState;
  private readonly onIncident: (i: ProjectionIncident) => void;
  /** How many times the privacy guard replaced a payload. */
  guardTrips = 0;

  constructor(opts: ProjectorOptions = {}) {
    this.embargo = opts.embargo ?? 'live';
    if (!EMBARGO_POLICIES.includes(this.embargo)) {
      throw new Error(`embargo: "${String(this.embargo)}" must be one of live, deal-end, tray-complete`);
    }
    this.table = new Table(opts.tableOptions);
    this.epoch = opts.epoch ?? randomEpoch();
    this.onIncident = opts.onIncident ?? (() => {});
    this.scoreOptions = opts.scoreOptions ?? {};
    this.lastPublic = this.computePublic();
  }

  /** seq of the last event folded, or null. */
  get lastSeq(): number | null {
    return this.seq;
  }

  /** The revision of the current snapshots. */
  get revision(): number {
    return this.rev;
  }

  /** Cards public now (empty while the embargo holds). */
  visibleCards(): ReadonlySet<string> {
    return this.released() ? this.seen : NO_CARDS;
  }

  /** Fold one event; returns the messages to publish about it. */
  apply(ev: TableEvent): Projected {
    const baseRev = this.rev;
    const before = this.lastPublic;
    let findings: Finding[] = [];
    let error: string | undefined;
    const prevPlays = this.countPlays();
    try {
      if (ev.type === 'deal') {
        this.dealEvent = ev;
        this.seen = new Set();
        this.places = [];
        this.turned = null;
      }
      findings = this.table.apply(ev);
      if (ev.type === 'place') this.notePlace(ev.seat, ev.card, ev.seq, prevPlays);
      if (ev.type === 'undo') this.noteUndo(ev.target);
    } catch (err) {
      // A bad event must not stop the feed: the daemon's own engine has judged it already. Publish it redacted.
      error = (err as Error).message;
      this.onIncident({ what: 'engine-error', seq: ev.seq ?? null, detail: error });
    }
    this.rev++;
    if (ev.seq !== undefined) this.seq = ev.seq;
    this.at = ev.at ?? this.at;
    if (ev.type !== 'place' && ev.type !== 'lift') this.nonCardEvents++;
    if (ev.type === 'honours') this.honoursEvents++;
    const next = this.computePublic();
    this.lastPublic = next;
    const released = this.released();
    const visible = this.visibleCards();
    let pev = publicEvent(ev, { released, visible });
    let pf = publicFindings(findings, { released, ended: isDealOver(this.table), visible });
    const leaks = findLeaks({ event: pev, findings: pf }, visible);
    if (leaks.length > 0) {
      this.trip(ev.seq ?? null, leaks);
      pev = { type: pev.type, ...(ev.seq !== undefined ? { seq: ev.seq } : {}) };
      pf = [];
    }
    const message: PublicEventMessage = {
      schema: SCHEMA_VERSION, type: 'tenace.event', epoch: this.epoch, seq: ev.seq ?? -1, at: ev.at ?? null,
      rev: this.rev, baseRev, event: pev, findings: pf,
      patch: diffJson(before as unknown as JsonValue, next as unknown as JsonValue),
    };
    const falseCalls = this.newFalseCalls();
    const director: DirectorAlert | null = findings.length === 0 && falseCalls.length === 0 ? null : {
      schema: SCHEMA_VERSION, type: 'tenace.director-alert', epoch: this.epoch, seq: ev.seq ?? null, at: ev.at ?? null,
      event: ev, findings, board: this.table.board() ?? null, whoseTurn: this.table.whoseTurn(),
      ...(falseCalls.length ? { honours: falseCalls } : {}),
    };
    const out: Projected = { findings, public: message, director };
    if (error !== undefined) out.error = error;
    return out;
  }

  /**
   * The club layer reports that a tray has (or has not) been played at every table. Returns true when that changed
   * the public snapshot (a new revision to publish).
   */
  setTrayComplete(board: number, complete = true): boolean {
    if (complete) this.traysComplete.add(board);
    else this.traysComplete.delete(board);
    const next = this.computePublic(this.rev + 1);
    const { rev: _a, ...a } = next;
    const { rev: _b, ...b } = this.lastPublic;
    if (JSON.stringify(a) === JSON.stringify(b)) return false;
    this.rev++;
    this.lastPublic = next;
    return true;
  }

  /** Set (or clear, with null) the club line of the public state; returns true when that made a new snapshot. */
  setClubStatus(status: ClubStatus | null): boolean {
    if (JSON.stringify(status) === JSON.stringify(this.club)) return false;
    this.club = status;
    this.rev++;
    this.lastPublic = this.computePublic();
    return true;
  }

  /** The current public snapshot (guarded). */
  publicState(): PublicState {
    return this.lastPublic;
  }

  /** The current director snapshot. */
  directorState(): DirectorState {
    return directorState(this.table, this.options());
  }

  /** Whether the embargo lets the deal in progress out now. */
  released(): boolean {
    return isReleased(this.table, this.embargo, this.trayFlag());
  }

  private trayFlag(): boolean {
    const board = this.table.board();
    return board !== undefined && this.traysComplete.has(board);
  }

  private options(rev = this.rev): ProjectionOptions {
    return {
      embargo: this.embargo, trayComplete: this.trayFlag(), epoch: this.epoch, rev, seq: this.seq, at: this.at, club: this.club,
      deal: { event: this.dealEvent, seen: this.seen, turned: this.turned },
      scoreOptions: this.scoreOptions, traysComplete: this.traysComplete, scoreInputs: this.scoreInputs(),
    };
  }

  // The score is a fold over every deal of the session: gathered again only when something it depends on changed
  // (an event other than a card, or the deal in progress reaching its end or changing its tricks), not on every card.
  private scoreInputs(): ScoreInputs {
    const r = this.table.result();
    const over = r !== null && r.scored.NS + r.scored.EW === 13 ? `${r.scored.NS}-${r.scored.EW}-${r.findings.length}` : 'open';
    const key = `${this.nonCardEvents}|${over}`;
    if (this.scoreCache?.key !== key) {
      this.scoreCache = { key, plays: this.countPlays(), inputs: scoreInputs(this.table) };
    } else if (over === 'open' && this.honoursEvents > 0 && this.scoreCache.plays !== this.countPlays()) {
      // A call of the deal in progress has a verdict that moves with the cards seen; the deals scored do not change,
      // so their arrays are kept (the fold is memoised on them).
      this.scoreCache = { key, plays: this.countPlays(), inputs: { ...this.scoreCache.inputs, current: this.table.currentFacts() } };
    }
    return this.scoreCache.inputs;
  }

  /** Honours calls the engine now finds false and the director has not been told of (English Law 7). */
  private newFalseCalls(): DirectorHonoursCall[] {
    if (this.honoursEvents === 0) return [];
    const out: DirectorHonoursCall[] = [];
    for (const c of directorCalls(this.scoreInputs())) {
      const k = callKey(c);
      if (c.verdict !== 'false' || this.falseCallsTold.has(k)) continue;
      this.falseCallsTold.add(k);
      out.push(c);
    }
    return out;
  }

  private computePublic(rev = this.rev): PublicState {
    const s = publicState(this.table, this.options(rev));
    const leaks = findLeaks(s, this.visibleCards());
    if (leaks.length === 0) return s;
    this.trip(this.seq, leaks);
    // Fall back to the embargoed form, which names no card at all.
    const safe = publicState(this.table, { ...this.options(rev), embargo: 'tray-complete', trayComplete: false });
    safe.embargo = this.embargo;
    return findLeaks(safe, NO_CARDS).length === 0 ? safe : { ...safe, deal: null };
  }

  private trip(seq: number | null, leaks: string[]): void {
    this.guardTrips++;
    this.onIncident({ what: 'privacy-guard', seq, detail: leaks.join('; ') });
  }

  private countPlays(): number {
    const s = this.table.cardsSeen();
    return s.N.length + s.E.length + s.S.length + s.W.length;
  }

  // Every card placed face up is seen by everyone at the table. In the variants that turn a trump, the first card
  // the dealer places before any play is the trump card (DESIGN §4); the engine keeps it out of the tricks, so it is
  // recognised here: a card of the trump suit, placed by the dealer, that did not become a play.
  private notePlace(seat: Seat, cardText: string | undefined, seq: number | undefined, prevPlays: number): void {
    const card = canonicalCard(cardText);
    if (card === null) return;
    this.seen.add(card);
    this.places.push({ seq, seat, card });
    const variant = VARIANTS[this.table.result()?.variant ?? ''];
    if (variant?.trump !== 'turned' || this.dealEvent?.trump !== undefined) return;
    const dealer = this.dealEvent?.dealer ?? 'W';
    const played = this.countPlays() > prevPlays;
    if (!played && prevPlays === 0 && seat === dealer && this.table.trump() === card[0]) this.turned = card;
  }

  // A misread place never lay face up: once undone, its card is no longer public (the engine has folded the deal
  // again without it). If it was taken for the turned trump, look for the real one among the remaining places.
  private noteUndo(target: number): void {
    const i = this.places.findIndex((p) => p.seq === target);
    if (i < 0) return;
    const [gone] = this.places.splice(i, 1);
    this.seen = new Set(this.places.map((p) => p.card));
    if (gone.card !== this.turned) return;
    this.turned = null;
    const dealer = this.dealEvent?.dealer ?? 'W';
    const trump = this.table.trump();
    const plays = this.table.cardsSeen()[dealer];
    const t = this.places.find((p) => p.seat === dealer && p.card[0] === trump && !plays.includes(p.card));
    if (t) this.turned = t.card;
  }
}
