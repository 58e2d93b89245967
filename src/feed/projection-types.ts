// The shapes of what the feed publishes (DESIGN §6): the public state and event messages, the director's state and
// alerts, and the inputs of a projection. projection.ts makes them; re-exported from there.
import type { Seat } from '../cards/seat.js';
import type { DealEvent, TableEvent } from '../formats/table-log.js';
import type { ClubStatus } from '../club/table-side.js';
import type { Finding, FindingKind } from '../laws/types.js';
import type { Score, ScoreOptions } from '../laws/score/index.js';
import type { JsonValue, PatchOp } from './patch.js';
import type { DirectorHonoursCall, PublicScore, ScoreInputs } from './score-view.js';

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
