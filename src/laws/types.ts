// Public shapes of the rules engine: findings (DESIGN §5 contract), results, variant descriptors.
import type { Seat, Side } from '../cards/seat.js';
import type { RemedyName } from '../formats/table-log.js';

export type FindingKind =
  | 'renounce-in-error' | 'revoke' | 'lead-out-of-turn' | 'play-out-of-turn' | 'wrong-trump-card'
  | 'card-not-in-hand' | 'wrong-card-count' | 'duplicate-card' | 'unknown-card' | 'card-liable-to-be-called'
  | 'failure-to-comply' | 'play-order-lost';

/** A remedy the law offers, and whose option it is (a seat, a side, or "director"). */
export interface Remedy {
  remedy: RemedyName | 'new-deal' | 'average' | 'transfer' | 'correct' | 'none' | 'director-ruling';
  /** Who may exact or choose it. */
  option: Seat | Side | 'director' | 'offender';
  /** Human text quoting what the law allows. */
  text: string;
}

export interface Finding {
  kind: FindingKind;
  seat: Seat;
  /** 1-based trick number the irregularity belongs to. */
  trick: number;
  /** Citation, e.g. "Dup. X.1(a)", "Am. 24", "L64A". */
  law: string;
  card?: string;
  remedies: Remedy[];
  message: string;
  /** For a revoke proved later (hands unknown): the trick in which the renounce was made. */
  renounceTrick?: number;
  /** seq of the table event that produced the finding, when the event carried one. */
  seq?: number;
  /** play-order-lost: seq of the first event whose order is unknown. */
  fromSeq?: number;
  /** play-order-lost: seq of the first event in known order after the stretch; absent when the play ended first. */
  toSeq?: number;
}

export interface TrickRecord {
  leader: Seat;
  cards: Partial<Record<Seat, string>>;
  winner: Seat;
  /** Play order, given only when it was not clockwise from the leader (a play out of turn); else the key order of `cards`. */
  order?: Seat[];
  /**
   * Extension: a stretch whose order is unknown touched this trick; its leader, card order and winner are the
   * engine's best reading of the cards, and the trick may lack cards the table never saw.
   */
  orderUnknown?: true;
}

export interface DealResult {
  board?: number;
  variant: string;
  tricks: TrickRecord[];
  tricksWon: { NS: number; EW: number };
  findings: Finding[];
  scored: { NS: number; EW: number };
  /** Extension: revoke marks for pair matches (Dup. X.4), e.g. { NS: "-R", EW: "+R" }. */
  marks?: Partial<Record<Side, string>>;
  /** Extension, two-handed games: the player counted under each side key, e.g. { NS: "N", EW: "S" }. */
  sides?: Record<Side, Seat>;
  /** Extension: the deal was abandoned (a new deal is required); the reason given. */
  abandoned?: string;
  /** Extension: the claim that ended the play, and whether an adversary accepted it (Am. 27). */
  claim?: { seat: Seat; tricks: number; accepted: boolean };
  /** Extension: things the engine could not apply (a remedy nobody was entitled to, a bad contract). */
  notes?: string[];
}

export interface ReplayResult { deals: DealResult[] }

/** Where the trump suit comes from. */
export type TrumpSource = 'turned' | 'declared' | 'contract' | 'none';

/** A variant descriptor: everything the engine needs to know about a game, in data, not if-chains. */
export interface VariantDescriptor {
  name: string;
  /** Seats in play by default (the deal event may override with `seats`). */
  seats: readonly Seat[];
  /** Default dummies; the deal event may override with `dummy`. Each is played by its partner. */
  dummies: readonly Seat[];
  trump: TrumpSource;
  /** Whether the turned trump card is taken into the dealer's hand (false in Thirteen and the Odd). */
  trumpCardToDealer: boolean;
  /** Who leads to the first trick. */
  firstLeader: 'dealer-left' | 'declarer-left' | 'dealer-adversary';
  /** The code of laws that judges irregularities and scores penalties. */
  code: string;
}
