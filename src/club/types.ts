// The club layer's shared shapes (docs/club.md): movements, tray records, round assignments, travellers and score
// reports. Everything here is plain JSON, so it travels on MQTT, into the director's store and out of the CLI as is.
import type { Seat } from '../cards/seat.js';
import type { TrayTurn } from '../cards/tray-turn.js';

/** A side of the table. */
export type Direction = 'NS' | 'EW';

// ---------------------------------------------------------------------------------------------------------------
// Movements

/** What a movement moves: pairs (two partners), teams of four (two pairs), or individual players. */
export type MovementKind = 'pairs' | 'teams' | 'individuals';

/** One table in one round of a schedule. */
export interface MovementTable {
  table: number;
  /**
   * Pair (or team pair) sitting N-S, named by its starting table and direction as the seed does ("No. 3 N & S"):
   * `"3NS"`. A team movement names the team's pairs the same way (team 3 is `"3NS"` and `"3EW"`); the seed's team
   * letters (a, b, ...) are the starting tables 1, 2, ....  Absent for individual movements.
   */
  ns?: string;
  ew?: string;
  /** Individual movements: seat → player id (the seed's numbers "1".."8", or "a".."h" and "1".."8" for couples). */
  players?: Partial<Record<Seat, string>>;
  /**
   * The trays this table plays this round, in the order it plays them. Slot k of every table is played at the same
   * time, so no tray appears in the same slot at two tables (a tray is at one table at a time). `null` in a slot:
   * the table waits (a relay, or a tray that is still at another table).
   */
  trays: (number | null)[];
  /** True for the trays this table deals (original play) rather than overplays; same length as `trays` if given. */
  original?: boolean[];
  /**
   * The trays lie turned this many quarters clockwise (Memory Duplicate's overplay: 1, "if the indicators pointed
   * N & S on the original deals, they must lie E & W"). `ns`, `ew` and `players` still name the tray's seats: who
   * holds the hands dealt N & S, and so on.
   */
  turn?: TrayTurn;
}

/** One round (the seed's "set"). */
export interface MovementRound {
  round: number;
  tables: MovementTable[];
  /** Sentences for people: moves to make after this round ("E-W move one table down: 2 going to 1"). */
  notes?: string[];
}

/** A whole session's schedule: what `tenace movement NAME --json` prints and the director publishes. */
export interface Schedule {
  movement: string;
  tables: number;
  kind: MovementKind;
  boardsPerRound: number;
  /** Number of distinct trays in the session. */
  trays: number;
  rounds: MovementRound[];
  /** The participants (pair, team or player ids), in order. */
  participants: string[];
  /** Options that chose among the movement's forms, e.g. `{ "even": "skip" }` for a Mitchell. */
  options?: Record<string, string | number | boolean>;
}

/** Options for generating a schedule. */
export interface MovementOptions {
  tables: number;
  boardsPerRound?: number;
  /** Named choices of the movement, e.g. `{ even: 'relay' }` for mitchell, `{ method: 2 }` for mitchell-individuals. */
  options?: Record<string, string | number | boolean>;
}

/** A movement: data from its source plus a generator. */
export interface Movement {
  name: string;
  kind: MovementKind;
  /** One sentence for `tenace movement --help`. */
  summary: string;
  /** Where the text comes from: "Foster 1914, Duplicate Whist: Compass Whist", or "modern club practice". */
  source: string;
  /** Why `tables` (and the options) cannot be used, naming the fix; null when they can. */
  check(opts: MovementOptions): string | null;
  /** The schedule; throws an Error with the `check` sentence when the options cannot be used. */
  generate(opts: MovementOptions): Schedule;
}

// ---------------------------------------------------------------------------------------------------------------
// Tray records (topic `<base>/<club>/trays/<session>/<board>`, retained, tables and director only)

/** Where a tray record comes from. */
export type TrayRecordSource =
  | { kind: 'original-play'; table: string; fromSeq: number; toSeq: number; at: string }
  | { kind: 'hand-record'; file: string; at: string }
  | { kind: 'correction'; by: string; reason: string; at: string };

/** The deal a tray holds, as the club knows it. */
export interface TrayRecord {
  schema: 1;
  type: 'tenace.tray';
  session: string;
  board: number;
  /** The four hands, PBN 2.1 (`N:AKQ.JT9.876.5432 ...`). */
  hands: string;
  dealer: Seat;
  /** The turned trump card of the original play (whist): what the trump slip says. */
  trumpCard?: string;
  /** A trump suit declared for the sitting with no card turned (memory duplicate), S H D C. */
  trump?: string;
  /** Bridge: vulnerability from the board number ("None", "NS", "EW", "All"). */
  vulnerable?: string;
  variant?: string;
  source: TrayRecordSource;
  /** Counts corrections: 1 for the first record. */
  rev: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Round assignments (topic `<base>/<club>/<table>/assignment`, retained, written by the director)

/** What one table plays this round. */
export interface RoundAssignment {
  schema: 1;
  type: 'tenace.assignment';
  session: string;
  movement: string;
  round: number;
  table: string;
  ns?: string;
  ew?: string;
  players?: Partial<Record<Seat, string>>;
  /** The trays of this table this round, in order (nulls dropped). */
  trays: number[];
  /** Tables in play in the session (Dup. IV.9-10, V.1 choose between an average and a new deal by it). */
  tables: number;
  /** The trays lie turned this many quarters clockwise this round (the schedule's `turn`); absent: not turned. */
  turn?: TrayTurn;
  /** A trump suit declared for the sitting, no trump turned (Dup. IV.11): the original plays take it. */
  trump?: string;
  /** The players' names by seat, as the director entered them for the pairs: the table terminal pre-fills them. */
  names?: Partial<Record<Seat, string>>;
  variant: string;
  /** The table terminal's PIN for this session, made by the director (its console lists every table's). */
  pin?: string;
  at: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Alerts (director-only: `<base>/<club>/<table>/director` from a table, `<base>/<club>/club/<session>/alerts`)

/** One move of the tray doctor: put `card` from pocket `from` into pocket `to`. */
export interface TrayMove { card: string; from: Seat; to: Seat }

/** A club-level alert for the director. */
export interface ClubAlert {
  schema: 1;
  type: 'tenace.alert';
  /**
   * The director's intake (src/club/director/intake.ts) adds `refused-message` (a table's messages refused, once per
   * burst), `reused-seq` (an event number sent again with other content) and `unknown-board` (a deal of a board not
   * in the movement). `director-call`: a player called the director from the table terminal, with the reason.
   */
  kind: 'wrong-tray' | 'fouled-tray' | 'missing-result' | 'late-play' | 'refused-message' | 'reused-seq' | 'unknown-board' | 'director-call';
  session: string;
  table: string;
  board?: number;
  round?: number;
  /** The law the alert rests on, e.g. "Dup. III.2" or "L87". */
  law?: string;
  /** A sentence for the director. */
  message: string;
  /** wrong-tray: the trays this table should hold this round. */
  expected?: number[];
  /** fouled-tray: the cards that differ, per seat, between the record and this table's hands. */
  differences?: { card: string; record: Seat; table: Seat }[];
  /** fouled-tray: the tray doctor's moves that restore the record. */
  moves?: TrayMove[];
  /** fouled-tray: what the laws give at this table count. */
  outcome?: { remedy: 'new-deal' | 'rectify-and-average' | 'rectify' | 'score-in-groups'; law: string; message: string };
  seq?: number;
  at: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Travellers and score reports (`tenace score`)

/** One result of one board at one table: a line of a travellers NDJSON file. */
export interface Traveller {
  board: number;
  /** Pair (or team pair / player) ids as the schedule names them. */
  ns: string;
  ew: string;
  table?: number | string;
  round?: number;
  /** Whist: tricks per side, after the penalties of the code (`scored`). */
  tricks?: { NS: number; EW: number } | number;
  /** Bridge: contract such as "4HE", "3NTSX", or "PASS"; `tricks` is then the declarer's tricks. */
  contract?: string;
  /** Dup. X.4 marks of a pair match: "-R" / "+R". */
  marks?: Partial<Record<Direction, '-R' | '+R'>>;
  /** Whist with a revoke: the tricks as played (replay's `tricksWon`) beside `tricks` after the penalty, for Dup. X.4. */
  made?: { NS: number; EW: number };
  /** Whist with a revoke: the revoking side's tricks won before its first revoke, which no penalty may take (X.4). */
  wonBeforeRevoke?: Partial<Record<Direction, number>>;
  /** Individual movements: seat → player. */
  players?: Partial<Record<Seat, string>>;
  /** A director's adjusted score replaces the result: e.g. { "NS": 60, "EW": 40 } percent, or "average". */
  adjusted?: { NS: number; EW: number } | 'average' | 'average-plus' | 'average-minus';
  /** The opening lead, where the table entered it (a hand-scored table), e.g. "SK". */
  lead?: string;
  /** Entered by hand at a table without readers: the cards were not verified. */
  handScored?: true;
}

export type ScoreMethod = 'average' | 'matchpoints' | 'cross-imps' | 'butler';

/** One pair's line in the standings. */
export interface PairStanding {
  pair: string;
  /** The pair's players' names, where the director has entered them. */
  names?: string[];
  direction?: Direction;
  total: number;
  vsAverage?: number;
  rank: number;
  /** Ties share a rank: "2=". */
  rankLabel?: string;
  /** Method-specific: matchpoints percentage, IMPs, matches won. */
  percent?: number;
  matches?: number;
}

/** A scored result on a traveller. */
export interface ScoredResult {
  table?: number | string;
  ns: string;
  ew: string;
  tricks?: { NS: number; EW: number };
  contract?: string;
  declarerTricks?: number;
  /** Bridge: N-S score (negative when E-W scored). */
  score?: number;
  /** Matchpoints (N-S, E-W), IMPs (N-S, E-W). */
  mp?: { NS: number; EW: number };
  imps?: { NS: number; EW: number };
  /** Entered by hand at a table without readers: its cards were not verified. */
  handScored?: true;
}

/** What `tenace score --json` prints and the director publishes as standings. */
export interface ScoreReport {
  method: ScoreMethod | 'team-matches' | 'individuals';
  averages?: { NS: number; EW: number };
  pairs: PairStanding[];
  boards: { board: number; results: ScoredResult[]; top?: number }[];
}

// ---------------------------------------------------------------------------------------------------------------
// The director's session snapshot (served whole to the director page; retained on `club/<session>/director` as a
// DirectorSnapshotMessage)

/** One table as the director sees it. */
export interface DirectorTableView {
  table: string;
  status: 'online' | 'offline' | 'unknown';
  /** The round the director has assigned. */
  round: number;
  /** The board in play, if any, and its trick. */
  board?: number;
  trick?: number;
  /** Boards this table has completed this session. */
  done: number[];
  /** The last table seq stored. */
  lastSeq: number;
  /**
   * Issue 21: the latest claim at this table (its deal in play or just ended): tricks claimed of those left, and what
   * the claimer's side can take from the cards left with best play, once solved (absent while analysis is off).
   */
  claim?: { board: number; seat: Seat; claimed: number; left: number; canTake?: number };
  /** A hand-scored table (no readers): the director's config says so. */
  manual?: true;
}

/** A tray as the director sees it (private: holds the record). */
export interface DirectorTrayView {
  board: number;
  record?: TrayRecord;
  /** Tables that completed it, in order. */
  playedAt: string[];
  released: boolean;
  fouled?: ClubAlert;
}

/** Everything the director page shows. */
export interface DirectorSnapshot {
  schema: 1;
  type: 'tenace.director';
  club: string;
  session: string;
  variant: string;
  schedule: Schedule;
  /** The round in progress (1-based). */
  round: number;
  tables: DirectorTableView[];
  /** tables × rounds: boards played of boards scheduled. */
  progress: { table: number; round: number; played: number; of: number }[];
  trays: DirectorTrayView[];
  alerts: ClubAlert[];
  standings: ScoreReport | null;
  /** The players of each pair, as the config gives them or the director entered them. */
  pairs?: PairPlayers;
  /** Every finding of the engine at every table, original plays and overplays, each open or ruled. */
  findings?: DirectorFinding[];
  at: string;
}

/** The players of each pair by pair id ("1NS"), each with a name and, when known, a member number. */
export type PairPlayers = Record<string, { players: { name: string; member?: string }[] }>;

/** One finding of the engine (a renounce in error, a revoke, a lead out of turn, ...) as the director lists it. */
export interface DirectorFinding {
  /** `<table>:<seq of the deal>:<n>`: the same after a restart, which folds the same events again. */
  id: string;
  table: string;
  board: number;
  round?: number;
  kind: string;
  seat: Seat;
  trick: number;
  law: string;
  card?: string;
  message: string;
  seq?: number;
  /** The deal is still being played at the table. */
  inPlay?: true;
  /** open: the director has not yet decided anything on this board at this table; ruled: a decision names it. */
  state: 'open' | 'ruled';
  /** The decision that ruled it (adjust-score, fouled-board, ..., result-stands). */
  ruling?: string;
}

/**
 * The snapshot as retained on MQTT (`club/<session>/director`): no schedule or standings (each has its own topic), no
 * findings (the page reads them over HTTP), and the progress of the rounds begun only, so that a championship's
 * snapshot fits the broker's message size limit.
 */
export type DirectorSnapshotMessage = Omit<DirectorSnapshot, 'schedule' | 'standings' | 'findings'>;

/** A finished session as the exports (PBN 2.1 with results, USEBIO 1.2, CSV travellers) read it. */
export interface SessionExport {
  club: string;
  session: string;
  /** ISO date of the session. */
  date: string;
  variant: string;
  schedule: Schedule;
  records: TrayRecord[];
  travellers: Traveller[];
  report: ScoreReport;
  /** Optional player names by participant id. */
  names?: Record<string, string[]>;
  /** Optional players by participant id, with their member numbers (the director's console). */
  pairs?: PairPlayers;
}
