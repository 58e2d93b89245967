// Builders for the score keeper tests: a finished deal in one line, and a fold over several.
import type { Side } from '../../src/cards/seat.js';
import { type KeeperState, keep, startScore } from '../../src/laws/score/keeper.js';
import type { FinishedDeal, HonoursCall, RevokePenalty, ScoreRules } from '../../src/laws/score/types.js';

export interface DealSpec {
  /** Tricks of N-S (E-W have the rest of 13). */
  ns: number;
  trump?: string;
  /** Honours held: N-S's count (E-W hold the rest of four unless `ew` is given). */
  honours?: number;
  ewHonours?: number;
  /** Sides that called honours (Eng. 7). */
  called?: Side[];
  revokes?: RevokePenalty[];
  dummyPartner?: FinishedDeal['dummyPartner'];
  board?: number;
}

/** A finished deal from a short spec. */
export function deal(spec: DealSpec): FinishedDeal {
  const d: FinishedDeal = { variant: 'test', trump: spec.trump ?? 'H', tricks: { NS: spec.ns, EW: 13 - spec.ns } };
  if (spec.honours !== undefined) d.honours = { NS: spec.honours, EW: spec.ewHonours ?? 4 - spec.honours };
  d.calls = (spec.called ?? []).map((side): HonoursCall => ({ side, verdict: 'true' }));
  if (spec.revokes) d.revokes = spec.revokes;
  if (spec.dummyPartner) d.dummyPartner = spec.dummyPartner;
  if (spec.board !== undefined) d.board = spec.board;
  return d;
}

/** Fold the deals from a fresh score under the rules; every intermediate state is returned. */
export function fold(rules: ScoreRules, specs: DealSpec[]): KeeperState[] {
  let st = startScore(rules);
  return specs.map((s) => (st = keep(st, deal(s))));
}

/** The last state of a fold. */
export function last(rules: ScoreRules, specs: DealSpec[]): KeeperState {
  const all = fold(rules, specs);
  return all[all.length - 1];
}
