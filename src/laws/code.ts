// The interface every code of laws implements: each rule is a small named function returning a ruling.
import type { Seat } from '../cards/seat.js';
import type { Remedy } from './types.js';

/** What a code needs to know about the table to rule. */
export interface RuleContext {
  /** Seats in play, in rotation order. */
  seats: readonly number[];
  /** Seats that are dummies (played by their partner). */
  dummies: ReadonlySet<number>;
  declarer: number;
  dealer: number;
  /** 1-based number of the current trick. */
  trick: number;
  tables?: number;
  overplay: boolean;
  /** Total tricks in the deal (13). */
  totalTricks: number;
}

/** A ruling: the citation, the remedies and whose option each is. */
export interface Ruling {
  law: string;
  remedies: Remedy[];
  message: string;
}

/** A penalty that stays pending until exacted, waived or lost. */
export interface PendingPenalty {
  kind: 'call-suit' | 'call-card' | 'highest-or-lowest' | 'trump-or-not' | 'win' | 'accept-or-retract';
  /** The seat the penalty is exacted from (for call-suit: one of `from`). */
  from: Seat[];
  /** The seats entitled to exact it. */
  by: Seat[];
  law: string;
  card?: string;
  /** The penalty lapses once this trick number is turned and quitted (Dup. VIII.1's "first trick won ..."). */
  lapsesAfterTrick?: number;
  /** Chosen remedy, once exacted: the demand the offender must now comply with. */
  demand?: { remedy: string; suit?: number; card?: number };
}

/** Why a card is exposed: a second card to a trick, a card taken back, or cards led ahead before the partner played (Dup. XI.6). */
export type ExposedWhy = 'second-card' | 'taken-back' | 'led-ahead';

/** Where an established revoke came from, for the wording of the finding. */
export type Establishment = 'quitted' | 'next-trick' | 'proved' | 'claim' | 'end-of-play';

export interface RevokeRecord {
  seat: number;
  /** 1-based trick of the renounce. */
  trick: number;
  suit: number;
  /** Set when the revoke was failing to comply with a lawful call (Dup. XI.5) rather than a renounce. */
  failureToComply?: boolean;
  /** The renounce was failing to play a penalty card or a dummy card (L64B3). */
  penaltyCardOrDummy?: boolean;
}

export interface ScoreInput {
  /** Seats in play (two-handed games score each player as a side). */
  seats: readonly number[];
  tricksWon: [number, number];
  /** Winner side (0 NS, 1 EW) of each trick in order, including claimed tricks appended as a count. */
  trickWinners: number[];
  /** Winner seat of each played trick. */
  trickWinnerSeats: number[];
  revokes: readonly RevokeRecord[];
  dummies: ReadonlySet<number>;
  /** Chosen penalty form where the law offers tricks or points (Mort, English). */
  penaltyChoice?: 'tricks' | 'points';
}

export interface ScoreOutput {
  scored: [number, number];
  marks?: { NS?: string; EW?: string };
}

/** A code of laws. */
export interface LawCode {
  name: string;
  /** Does turning and quitting the renounce trick establish the revoke (whist: yes, bridge L63: no)? */
  quitEstablishes: boolean;
  renounceInError(ctx: RuleContext, seat: number): Ruling;
  revoke(ctx: RuleContext, seat: number, how: Establishment): Ruling;
  /**
   * The law's words when this seat cannot revoke at all (Double Dummy: "Neither dummy can revoke"): its renounce is
   * then no revoke, reported in the deal's notes in these words instead of a revoke finding. Absent: every seat can.
   */
  cannotRevoke?(ctx: RuleContext, seat: number): string | null;
  /** Called when a renounce in error is lawfully corrected; returns the ruling on the withdrawn card, or null. */
  correction(ctx: RuleContext, seat: number, laterPlayed: boolean): Ruling | null;
  leadOutOfTurn(ctx: RuleContext, offender: number, proper: number): { ruling: Ruling; penalty: PendingPenalty | null; };
  /** A lead out of turn taken back before all played: the ruling on the retracted card, or null (not liable). */
  leadRetracted(ctx: RuleContext, seat: number): Ruling | null;
  playOutOfTurn(ctx: RuleContext, offender: number, skipped: number, played: readonly number[]): { ruling: Ruling; penalty: PendingPenalty | null } | null;
  /** A card exposed otherwise than in the course of play (second card to a trick, card taken back): liable? */
  exposedCard(ctx: RuleContext, seat: number, why: ExposedWhy): Ruling | null;
  failureToComply(ctx: RuleContext, seat: number, what: string): Ruling;
  wrongTrumpCard(ctx: RuleContext, seat: number, stage: 'corrected' | 'play-begun' | 'slip-wrong'): Ruling;
  handIrregularity(ctx: RuleContext, seat: number, what: 'card-not-in-hand' | 'wrong-card-count' | 'duplicate-card'): Ruling;
  /** The play order of a stretch of cards is not known: the authority the director rules by (disputed facts). */
  playOrderLost(ctx: RuleContext, seat: number): Ruling;
  /** A claim not admitted and play goes on (Am. 36, Dup. VII.2): the claimant's partner's cards. */
  claimNotAdmitted(ctx: RuleContext, seat: number): Ruling | null;
  score(input: ScoreInput): ScoreOutput;
}
