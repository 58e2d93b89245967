// The score of the social games (issue 9): the ScoreKeeper fold, the rules of each game, and the bridge from the
// engine's results (DealResult + DealFacts) to the keeper's finished deals. Pure: no I/O, no clock.
import type { Seat, Side } from '../../cards/seat.js';
import type { DealFacts, Table } from '../engine.js';
import type { DealResult } from '../types.js';
import { americanRules } from './american.js';
import { doubleDummyRules, englishDummyRules, humbugRules, thirteenRules } from './dummy.js';
import { englishRules } from './english.js';
import { favouriteRules, progressiveRules, prussianRules } from './favourite.js';
import { type KeeperState, ScoreSheet, keep, keepAll, startScore } from './keeper.js';
import { mortRules } from './mort.js';
import type { FinishedDeal, RevokePenalty, Score, ScoreRules } from './types.js';

export * from './types.js';
export { type KeeperState, ScoreSheet, keep, keepAll, startScore } from './keeper.js';
export { americanRules, doubleDummyRules, englishDummyRules, englishRules, favouriteRules, humbugRules, mortRules, progressiveRules, prussianRules, thirteenRules };

/** The fold, by name: `ScoreKeeper.keep(state, finishedDeal) → state`. */
export const ScoreKeeper = { start: startScore, keep, keepAll } as const;

/** Options a table may set for its game: the "5, 7 or 10 point" game, the progressive variation, the dummy concession. */
export interface ScoreOptions {
  gamePoints?: number;
  /** Favourite whist: the progressive-value variation (S 1, C 2, D 3, H 4; ten points; bonus 10). */
  progressive?: boolean;
  /** English Dummy: one player takes dummy throughout and concedes a point each rubber. */
  continuousDummy?: boolean;
  /** Mort with four players: four games to the tournée. */
  players?: 3 | 4;
  /** Score honours without a call (a table that calls them itself); English Law 7 wants them called. */
  honoursWithoutCall?: boolean;
}

/** The rules of a variant's social game, or null for the games scored otherwise (duplicate whist, bridge). */
export function rulesFor(variant: string, opts: ScoreOptions = {}): ScoreRules | null {
  const over: Partial<ScoreRules> = {};
  if (opts.gamePoints !== undefined) over.gamePoints = opts.gamePoints;
  if (opts.honoursWithoutCall) over.honoursMustBeCalled = false;
  let r: ScoreRules | null;
  switch (variant) {
    case 'english-whist': r = englishRules(over); break;
    case 'whist': r = americanRules(over); break;
    case 'prussian-whist': r = prussianRules(over); break;
    case 'favourite-whist': r = opts.progressive ? progressiveRules(over) : favouriteRules(over); break;
    case 'english-dummy': r = englishDummyRules({ ...over, continuousDummy: opts.continuousDummy ?? false }); break;
    case 'double-dummy': r = doubleDummyRules(over); break;
    case 'mort': r = mortRules({ ...over, tournee: opts.players ?? 3 }); break;
    case 'humbug': r = humbugRules(over); break;
    case 'thirteen-and-the-odd': r = thirteenRules(over); break;
    default: r = null;
  }
  // A game length given without the rest follows it: the bar on honours and the revoke cap stay one short of game.
  if (r && opts.gamePoints !== undefined && r.noHonoursAt !== null) r.noHonoursAt = opts.gamePoints - 1;
  if (r && opts.gamePoints !== undefined) r.revokeCap = opts.gamePoints - 1;
  return r;
}

/** Codes whose adversaries may take the revoke in points as well as tricks (the English penalty, Mort). */
const POINTS_CODES = new Set(['english-whist', 'prussian-whist', 'favourite-whist', 'english-dummy', 'double-dummy', 'mort']);

const sideKey = (f: DealFacts, seat: Seat): Side =>
  f.seats.length === 2 ? (f.seats[0] === seat ? 'NS' : 'EW') : seat === 'N' || seat === 'S' ? 'NS' : 'EW';

/** The keeper's view of one engine result and its facts. */
export function finishedDeal(r: DealResult, f: DealFacts): FinishedDeal {
  const deal: FinishedDeal = { variant: r.variant, trump: f.trump, tricks: { ...r.scored } };
  if (r.board !== undefined) deal.board = r.board;
  const held = { NS: 0, EW: 0 };
  for (const s of f.seats) held[sideKey(f, s)] += f.honoursHeld[s]?.length ?? 0;
  deal.honours = f.honoursComplete ? held : null;
  deal.calls = f.claims.map((c) => ({ side: c.side, seat: c.seat, ...(c.count !== undefined || c.cards ? { count: c.count ?? c.cards!.length } : {}), verdict: c.verdict, message: c.message }));
  // Penalised revokes: a dummy's revoke carries "no penalty" (its only remedy is none).
  const revokes = r.findings.filter((x) => (x.kind === 'revoke' || x.kind === 'failure-to-comply') && x.remedies.some((m) => m.remedy !== 'none'));
  const choice = f.penalties[f.penalties.length - 1]?.remedy;
  const pointsChoices = f.penalties.filter((p) => p.remedy === 'points');
  deal.revokes = revokes.map((x, k): RevokePenalty => {
    const offender = sideKey(f, x.seat);
    // The engine applies the last choice to every revoke of the deal; in points, each revoke may be paid "in a
    // different manner" (Mort: The Revoke): the k-th points choice says add or deduct, adding when it does not say.
    if (!POINTS_CODES.has(r.variant) || choice !== 'points') return { offender, form: 'tricks' };
    return { offender, form: (pointsChoices[k] ?? pointsChoices[pointsChoices.length - 1])?.points ?? 'add' };
  });
  if (f.dummies.length === 1) {
    const d = f.dummies[0];
    deal.dummyPartner = (['S', 'W', 'N', 'E'] as const)[['N', 'E', 'S', 'W'].indexOf(d)];
  }
  const total = r.scored.NS + r.scored.EW;
  if (r.abandoned) deal.unfinished = `abandoned (${r.abandoned})`;
  else if (total < 13) deal.unfinished = `play not finished (${total} of 13 tricks)`;
  return deal;
}

/**
 * The score of a table from its results and facts (Table.finishedResults()/finishedFacts(), or replayWithFacts):
 * the function the table state and the MQTT `state` need. Null when the first deal's variant has no social score.
 */
export function scoreOf(results: readonly DealResult[], facts: readonly DealFacts[], opts: ScoreOptions = {}): Score | null {
  const first = results[0]?.variant;
  const rules = first ? rulesFor(first, opts) : null;
  if (!rules) return null;
  // Only the last state is wanted: fold one sheet in place rather than copy it per deal (quadratic over a session).
  const sheet = new ScoreSheet(rules, { keepLines: true });
  results.forEach((r, i) => sheet.keep(finishedDeal(r, facts[i])));
  return sheet.score;
}

/** The running score after each deal (the state after deal i at index i), or null when there is no social score. */
export function scoreStates(results: readonly DealResult[], facts: readonly DealFacts[], opts: ScoreOptions = {}): KeeperState[] | null {
  const first = results[0]?.variant;
  const rules = first ? rulesFor(first, opts) : null;
  if (!rules) return null;
  let st = startScore(rules);
  const out: KeeperState[] = [];
  results.forEach((r, i) => {
    st = keep(st, finishedDeal(r, facts[i]));
    out.push(st);
  });
  if (out.length === 0) out.push(st);
  return out;
}

/** The score of a live table: the deals it closed, and the deal in progress once its thirteen tricks are played. */
export function tableScore(table: Table, opts: ScoreOptions = {}): Score | null {
  const results = table.finishedResults();
  const facts = table.finishedFacts();
  const cur = table.result();
  const curFacts = table.currentFacts();
  if (cur && curFacts && !cur.abandoned && cur.scored.NS + cur.scored.EW === 13) { results.push(cur); facts.push(curFacts); }
  return scoreOf(results, facts, opts);
}
