// `Projector` folds TableEvents through its own engine Table and produces, per event, the public event message
// (redacted event, public findings, and a JSON Patch from the previous public snapshot) and the director alert, with
// the privacy guard on everything public (DESIGN §6). What it projects is in projection.ts.
import type { Seat } from '../cards/seat.js';
import type { DealEvent, TableEvent } from '../formats/table-log.js';
import { Table, type TableOptions } from '../laws/engine.js';
import type { Finding } from '../laws/types.js';
import { VARIANTS } from '../laws/variants.js';
import type { ClubStatus } from '../club/table-side.js';
import type { ScoreOptions } from '../laws/score/index.js';
import { type JsonValue, diffJson } from './patch.js';
import { findLeaks } from './privacy.js';
import { type DirectorHonoursCall, type ScoreInputs, callKey, directorCalls, scoreInputs } from './score-view.js';
import {
  type DirectorAlert, type DirectorState, type EmbargoPolicy, type ProjectionOptions, type PublicEventMessage,
  type PublicState, EMBARGO_POLICIES, SCHEMA_VERSION,
} from './projection-types.js';
import { NO_CARDS, canonicalCard, directorState, isDealOver, isReleased, publicEvent, publicFindings, publicState } from './projection.js';

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
