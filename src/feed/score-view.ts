// The score of the social games on the feed (issue 9): what the public and the director see of the score keeper's
// `Score` (src/laws/score). Public: points, games, rubbers, the running lines and the honours called and counted,
// never a card: an honours call is counted, not listed, and a false call is named without the cards that prove it.
// The director: the whole Score and every call with the engine's verdict. Pure: no I/O, no clock.
import type { Seat, Side } from '../cards/seat.js';
import type { DealFacts, HonoursClaim, Table } from '../laws/engine.js';
import { type Score, type ScoreFinding, type ScoreOptions, rulesFor, scoreOf, startScore } from '../laws/score/index.js';
import type { DealResult } from '../laws/types.js';

/** An honours call as the public may hear it: who called and how many, never which cards (English Law 7). */
export interface PublicHonoursCall {
  seat: Seat;
  side: Side;
  /** The number of honours called (the length of the cards, when the call named them). */
  count: number | null;
  board?: number;
}

/**
 * A score finding as the public may see it: the keeper's fields, its message rewritten without the cards that show
 * the call false (publicScore).
 */
export type PublicScoreFinding = ScoreFinding;

/**
 * The score of a social game on the public `state`: the keeper's Score without card-naming texts, plus the honours
 * called for the deal in progress. Absent for duplicate whist and bridge (their score is the club's).
 */
export interface PublicScore extends Omit<Score, 'findings'> {
  findings: PublicScoreFinding[];
  /** Honours called for the deal in progress and not yet in a line of `deals`: counted, not listed. */
  calls: PublicHonoursCall[];
  /** Deals played to the end here whose score is held back by the embargo (`tray-complete`), not yet in `deals`. */
  withheld: number;
}

/** An honours call with the engine's verdict, for the director. */
export interface DirectorHonoursCall extends HonoursClaim {
  board?: number;
}

/** The deals a score is made of: the closed ones, and the one in progress once its thirteen tricks are played. */
export interface ScoreInputs {
  results: DealResult[];
  facts: DealFacts[];
  /** True when the last entry is the deal in progress (played out, not yet closed by the next deal event). */
  includesCurrent: boolean;
  /** The variant whose rules keep the score: the first deal's, or the deal in progress when none has closed. */
  variant: string | null;
  /** The facts of the deal in progress so far (its calls checked against the cards seen), or null. */
  current: DealFacts | null;
}

/** The inputs of `tableScore`, gathered once (a Table's answers copy their arrays). */
export function scoreInputs(table: Table): ScoreInputs {
  const results = table.finishedResults();
  const facts = table.finishedFacts();
  const cur = table.result();
  const curFacts = table.currentFacts();
  let includesCurrent = false;
  // The same rule as tableScore(): the deal in progress counts once its thirteen tricks are played or claimed.
  if (cur && curFacts && !cur.abandoned && cur.scored.NS + cur.scored.EW === 13) {
    results.push(cur);
    facts.push(curFacts);
    includesCurrent = true;
  }
  return { results, facts, includesCurrent, variant: results[0]?.variant ?? cur?.variant ?? null, current: curFacts };
}

/**
 * The Score of the first `upTo` deals of the inputs (all by default); a fresh sheet when none; null for no social game.
 * Memoised on the inputs' `results` array: do not change the arrays of inputs once scored, nor the Score returned.
 */
export function scoreOfInputs(inputs: ScoreInputs, opts: ScoreOptions = {}, upTo = inputs.results.length): Score | null {
  if (inputs.variant === null) return null;
  const rules = rulesFor(inputs.variant, opts);
  if (!rules) return null;
  if (upTo <= 0) return startScore(rules).score;
  // The fold is over every deal of the session: a projector asks for the same one on each event, so keep it.
  let byKey = folds.get(inputs.results);
  if (!byKey) folds.set(inputs.results, byKey = new Map());
  const key = `${upTo}|${JSON.stringify(opts)}`;
  if (!byKey.has(key)) byKey.set(key, scoreOf(inputs.results.slice(0, upTo), inputs.facts.slice(0, upTo), opts));
  return byKey.get(key)!;
}

/** Folds already made, by the results array they were made from (a projector's cached inputs). */
const folds = new WeakMap<readonly DealResult[], Map<string, Score | null>>();

/** JSON-clean copy: drops `undefined` fields (the keeper leaves `board: undefined` on deals without a board). */
function clean<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/**
 * The public form of a Score. `pending` are the honours calls of the deal in progress not yet scored; `withheld` the
 * deals the embargo keeps out. A false call's message is rewritten: the keeper's names the honours the caller's side
 * held, which may never have been played (a claim ends a deal with cards unseen).
 */
export function publicScore(score: Score, pending: readonly HonoursClaim[], withheld = 0, board?: number): PublicScore {
  const { findings, ...rest } = clean(score);
  return {
    ...rest,
    findings: findings.map((f) => {
      const out: PublicScoreFinding = {
        kind: f.kind, side: f.side, law: f.law,
        message: `${f.seat ?? f.side}'s honours call is not borne out by the cards (${f.law}); the honours held are counted`,
      };
      if (f.seat !== undefined) out.seat = f.seat;
      if (f.board !== undefined) out.board = f.board;
      return out;
    }),
    calls: pending.map((c) => {
      const out: PublicHonoursCall = { seat: c.seat, side: c.side, count: c.count ?? c.cards?.length ?? null };
      if (board !== undefined) out.board = board;
      return out;
    }),
    withheld,
  };
}

/**
 * The smallest public score: numbers only (points, games won, totals), for when the full one fails the privacy
 * guard. Nothing in it can name a card.
 */
export function minimalPublicScore(score: PublicScore): PublicScore {
  return {
    game: score.game, gamePoints: score.gamePoints, points: { ...score.points }, gamesWon: { ...score.gamesWon }, games: [],
    rubbers: [], totals: { ...score.totals }, deals: [], findings: [], calls: [], withheld: score.withheld,
    ...(score.tournee ? { tournee: { ...score.tournee } } : {}),
  };
}

/** Every honours call of the session with its verdict and board, oldest first (the director's list). */
export function directorCalls(inputs: ScoreInputs): DirectorHonoursCall[] {
  const all = inputs.includesCurrent || !inputs.current ? inputs.facts : [...inputs.facts, inputs.current];
  return all.flatMap((f) => f.claims.map((c) => clean({ ...c, ...(f.board !== undefined ? { board: f.board } : {}) })));
}

/** A stable key for a call, to tell a false call already reported to the director from a new one. */
export function callKey(c: DirectorHonoursCall): string {
  return `${c.board ?? ''}|${c.seq ?? ''}|${c.seat}|${c.count ?? ''}|${(c.cards ?? []).join(',')}`;
}
