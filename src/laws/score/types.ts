// Shapes of the score keeper (issue 9): what it takes from each finished deal, the rules of each social game as
// data, and the readable Score it keeps (points, games, rubbers, honours called and counted, a line per deal).
import type { Seat, Side } from '../../cards/seat.js';

/** A revoke that the code of laws penalised, and how the adversaries took the penalty. */
export interface RevokePenalty {
  /** The revoking side. */
  offender: Side;
  /**
   * `tricks`: already transferred in `tricks` by the code of laws; `add`: three points added to the adversaries'
   * score; `deduct`: three points taken from the revoking side's score (Mort: The Revoke; English penalty).
   */
  form: 'tricks' | 'add' | 'deduct';
}

/** An honours call (English Law 7) as the keeper counts it: which side called, and whether the cards bore it out. */
export interface HonoursCall {
  side: Side;
  seat?: Seat;
  count?: number;
  /** `false` when the table saw cards that contradict the call; `unchecked` when it could not see enough. */
  verdict: 'true' | 'false' | 'unchecked';
  /** Why the call is false, in words. */
  message?: string;
}

/** One finished deal, as the score keeper needs it. */
export interface FinishedDeal {
  board?: number;
  variant: string;
  /** The trump suit letter (S H D C), or null when none is known. */
  trump: string | null;
  /** Tricks per side after the revoke penalties in tricks (the engine's `scored`). In two-handed games the side keys stand for the players. */
  tricks: { NS: number; EW: number };
  /** Trump honours (A K Q J) held per side (per player in two-handed games); null when the table could not see them. */
  honours?: { NS: number; EW: number } | null;
  /** Honours calls made for this deal (Eng. 6, 7). */
  calls?: HonoursCall[];
  /** Revokes the code penalised, in order. */
  revokes?: RevokePenalty[];
  /** The seat that played the dummy's hand (the dummy's partner), in the dummy games. */
  dummyPartner?: Seat;
  /** The deal was abandoned or not played to the end: the keeper notes it and scores nothing. */
  unfinished?: string;
}

/** How a won game is valued. */
export type GameValue =
  /** English Law 8: treble, double or single by the losers' score (scaled for the 7 and 10 point games, see english.ts). */
  | 'english'
  /** American: seven less the losers' score. */
  | 'american'
  /** The game is worth the points the winners made, all of them (Mort). */
  | 'winners-points'
  /** Progressive Favourite whist: the game's points are kept for each side and the rubber is their difference. */
  | 'difference';

/** The rules of one social game, as data. */
export interface ScoreRules {
  game: string;
  /** Points to game: 5, 7 or 10. */
  gamePoints: number;
  /** How honours count: as in whist (per side), per player (Humbug), or not at all. */
  honours: 'whist' | 'per-player' | 'none';
  /** Honours must be called to be scored (English Law 7). */
  honoursMustBeCalled: boolean;
  /** Those at this score when the deal begins cannot score honours (English Law 4: four in the five-point game). */
  noHonoursAt: number | null;
  /** Thirteen and the Odd: "The winner of the odd trick scores a point." */
  oddTrickOnly: boolean;
  /** Points made in the deal that wins a game count beyond the game (Mort, the progressive variation). */
  overflow: boolean;
  /** Honours are scored only while neither side has made game in the deal (Eng. 5: "Honours last"). */
  gameValue: GameValue;
  /** Best of three games; null when games are kept singly (American). */
  rubber: null | { points: number; deductLosersGame: boolean };
  /** The highest score a revoking side may reach in the deal ("cannot win the game", Eng.; "up to the score of six", Am. 31). */
  revokeCap: number;
  /** Favourite whist: the trump of the rubber's first deal doubles tricks and honours after that deal. */
  favourite: boolean;
  /** The progressive variation: trick values by trump suit (S 1, C 2, D 3, H 4). */
  progressive: boolean;
  /** English Dummy: one player took dummy throughout and concedes a point each rubber. */
  continuousDummy: boolean;
  /** Rubbers (or Mort games) to a tournée; null when none are played. */
  tournee: number | null;
  /** Law cited for each rule in the per-deal lines. */
  laws: { game: string; tricks: string; honours: string; value: string; rubber: string; revoke: string };
}

/** One thing scored in a deal. */
export interface ScoreItem {
  side: Side;
  what: 'revoke' | 'tricks' | 'honours' | 'odd-trick';
  /** Points marked (negative when deducted). */
  points: number;
  law: string;
  note?: string;
}

/** A game won. */
export interface GameRecord {
  winner: Side;
  /** The game's value: 3, 2 or 1 in English whist; the points in Mort; the winners' points in the progressive game. */
  value: number;
  /** Each side's score when the game ended. */
  score: { NS: number; EW: number };
  board?: number;
  /** Mort: the Vivant of the game (the dummy's partner), who pays or receives double. */
  vivant?: Seat;
  /** Mort: what each player wins (+) or pays (-) in units: "The Vivant must pay or receive double, as he has to settle with each adversary." */
  stakes?: Partial<Record<Seat, number>>;
  law: string;
}

/** A rubber finished. */
export interface RubberRecord {
  winner: Side;
  games: GameRecord[];
  /** The rubber points (English Law 9) or bonus (progressive). */
  rubberPoints: number;
  /** The losers' game value deducted (English Law 10). */
  deducted: number;
  /** English Dummy: the point conceded by the player who takes dummy throughout. */
  concession?: { to: Side; points: number };
  /** What the rubber is worth to its winners. */
  value: number;
  /** Progressive: each side's total over the rubber ("Totals 38 to 30"). */
  totals?: { NS: number; EW: number };
  /** English Dummy: the seat that played with the dummy in this rubber. */
  dummyPartner?: Seat;
  /** English Dummy: "Dummy's partner must pay to, or receive from each adversary the amount agreed", in units of the rubber. */
  stakes?: Partial<Record<Seat, number>>;
  law: string;
}

/** A deal's line on the score sheet. */
export interface DealLine {
  board?: number;
  trump: string | null;
  tricks: { NS: number; EW: number };
  /** Favourite whist: the favourite, and the multiplier applied to tricks and honours. */
  favourite?: string;
  multiplier?: number;
  items: ScoreItem[];
  honours: { held: { NS: number; EW: number } | null; called: Side[]; counted: Side | null };
  /** The score after the deal (0-0 again when it won a game). */
  after: { NS: number; EW: number };
  game?: GameRecord;
  rubber?: RubberRecord;
  notes: string[];
}

/** A finding of the score keeper: an honours call the cards do not bear out. */
export interface ScoreFinding {
  kind: 'false-honours-claim';
  seat?: Seat;
  side: Side;
  board?: number;
  law: string;
  message: string;
}

/** The score of the table, readable as JSON. */
export interface Score {
  game: string;
  gamePoints: number;
  /** Points in the game in progress. */
  points: { NS: number; EW: number };
  /** Games won in the rubber in progress, in order. */
  games: GameRecord[];
  /** Games won in the rubber in progress, per side. */
  gamesWon: { NS: number; EW: number };
  /** The favourite suit of the rubber in progress (Favourite whist). */
  favourite?: string;
  rubbers: RubberRecord[];
  /** Rubber values won so far, per side (Mort: game values). */
  totals: { NS: number; EW: number };
  /** Tournée: rubbers (Mort: games) played of how many. */
  tournee?: { played: number; of: number; complete: boolean };
  deals: DealLine[];
  findings: ScoreFinding[];
}
