// The score keeper: a pure fold over finished deals (no I/O, no clock), as a person keeping markers would score
// them. `keep(state, deal)` returns a new state; `state.score` is the readable Score.
import type { Seat, Side } from '../../cards/seat.js';
import { americanGameValue } from './american.js';
import { englishGameValue, whistHonours } from './english.js';
import { PROGRESSIVE } from './favourite.js';
import type { DealLine, FinishedDeal, GameRecord, RubberRecord, Score, ScoreRules } from './types.js';

/** The keeper's state: the rules, the readable score, and what the score sheet does not show. */
export interface KeeperState {
  readonly rules: ScoreRules;
  readonly score: Score;
  /** Deals scored in the rubber in progress (the favourite is the trump of the first). */
  readonly dealsInRubber: number;
}

const SIDES: readonly Side[] = ['NS', 'EW'];
const other = (s: Side): Side => (s === 'NS' ? 'EW' : 'NS');

/** A fresh score sheet under these rules. */
export function startScore(rules: ScoreRules): KeeperState {
  const score: Score = {
    game: rules.game, gamePoints: rules.gamePoints, points: { NS: 0, EW: 0 }, games: [], gamesWon: { NS: 0, EW: 0 },
    rubbers: [], totals: { NS: 0, EW: 0 }, deals: [], findings: [],
  };
  if (rules.tournee !== null) score.tournee = { played: 0, of: rules.tournee, complete: false };
  return { rules, score, dealsInRubber: 0 };
}

/** Fold one finished deal into the score; the state passed in is left untouched. */
export function keep(state: KeeperState, deal: FinishedDeal): KeeperState {
  const s: Score = structuredClone(state.score);
  const { dealsInRubber } = foldDeal(state.rules, s, state.dealsInRubber, deal, true);
  return { rules: state.rules, score: s, dealsInRubber };
}

/**
 * A score sheet kept in place, for a long stream of deals (`tenace replay` of a whole archive): `keep` copies the
 * whole sheet per deal, which is quadratic over a log; this one changes its score and forgets each deal's line once
 * returned, so memory stays flat. Same rules, same lines and running score as `keep`.
 */
export class ScoreSheet {
  readonly rules: ScoreRules;
  /** The running score; its `deals` stays empty unless `keepLines` (each line is returned by `keep`). */
  readonly score: Score;
  /** Deals scored in the rubber in progress. */
  dealsInRubber = 0;
  private readonly keepLines: boolean;

  constructor(rules: ScoreRules, opts: { keepLines?: boolean } = {}) {
    this.rules = rules;
    this.score = startScore(rules).score;
    this.keepLines = opts.keepLines ?? false;
  }

  /** Fold one finished deal into the sheet; returns its line. */
  keep(deal: FinishedDeal): DealLine {
    const r = foldDeal(this.rules, this.score, this.dealsInRubber, deal, this.keepLines);
    this.dealsInRubber = r.dealsInRubber;
    return r.line;
  }
}

/** Fold one deal into `s` (changed in place); its line is pushed onto `s.deals` when `keepLine` is set. */
function foldDeal(r: ScoreRules, s: Score, rubberDeals: number, deal: FinishedDeal, keepLine: boolean): { line: DealLine; dealsInRubber: number } {
  let dealsInRubber = rubberDeals;
  const line: DealLine = {
    board: deal.board, trump: deal.trump, tricks: { ...deal.tricks }, items: [],
    honours: { held: deal.honours ?? null, called: [], counted: null }, after: s.points, notes: [],
  };
  for (const c of deal.calls ?? []) {
    if (c.verdict === 'false') {
      s.findings.push({ kind: 'false-honours-claim', seat: c.seat, side: c.side, board: deal.board, law: 'Eng. 7',
        message: c.message ?? `${c.side} called honours the cards do not bear out` });
    }
  }
  if (deal.unfinished) {
    line.notes.push(`not scored: ${deal.unfinished}`);
    if (keepLine) s.deals.push(line);
    return { line, dealsInRubber };
  }

  // Favourite whist: "whichever suit is cut for the trump on the first deal of the rubber is called the favourite.
  // Whenever the suit turns up for trump, after the first deal, tricks and honours count double towards game."
  let mult = 1;
  if (r.favourite) {
    if (dealsInRubber === 0) s.favourite = deal.trump ?? undefined;
    else if (deal.trump !== null && deal.trump === s.favourite) mult = 2;
    if (s.favourite) { line.favourite = s.favourite; line.multiplier = mult; }
  }
  dealsInRubber++;

  const start = { ...s.points };
  const revoked = new Set((deal.revokes ?? []).map((x) => x.offender));
  let gameBy: Side | null = null;
  /** Mark points for a side, in the order the law gives (Eng. 5); after game only the overflow games go on. */
  const mark = (side: Side, pts: number, what: DealLine['items'][number]['what'], law: string, note?: string): void => {
    if (pts === 0) return;
    if (gameBy !== null && !(r.overflow && side === gameBy)) {
      line.notes.push(`${side}'s ${what} not scored: ${gameBy} had already made game in this deal (${r.laws.revoke}: revoke first, tricks next, honours last)`);
      return;
    }
    const before = s.points[side];
    let after = Math.max(0, before + pts);
    let why = note;
    if (pts > 0 && revoked.has(side) && after > r.revokeCap) {
      // The revoking side cannot win the game that hand: it stops short of game.
      after = Math.max(before, r.revokeCap);
      why = `revoking side stops at ${r.revokeCap} (${r.laws.revoke})`;
    }
    if (after === before && pts > 0) { line.notes.push(`${side}'s ${what} (${pts}) not scored: ${why ?? ''}`.trim()); return; }
    line.items.push({ side, what, points: after - before, law, ...(why ? { note: why } : {}) });
    s.points[side] = after;
    if (gameBy === null && after >= r.gamePoints) gameBy = side;
  };

  // 1. The revoke (it "takes precedence of all other scores", Eng. 5).
  for (const rv of deal.revokes ?? []) {
    if (rv.form === 'add') mark(other(rv.offender), 3, 'revoke', r.laws.revoke, `three points added for ${rv.offender}'s revoke`);
    else if (rv.form === 'deduct') mark(rv.offender, -3, 'revoke', r.laws.revoke, `three points taken from ${rv.offender} for its revoke`);
    else line.notes.push(`${rv.offender}'s revoke: tricks transferred to the adversaries (${r.laws.revoke})`);
  }

  // 2. Tricks: "Each trick, above six, counts one point" (Eng. 2); Thirteen and the Odd: "The winner of the odd trick
  // scores a point"; the progressive variation values a trick by the trump suit.
  const winner: Side | null = deal.tricks.NS > 6 ? 'NS' : deal.tricks.EW > 6 ? 'EW' : null;
  if (winner) {
    if (r.oddTrickOnly) mark(winner, 1, 'odd-trick', r.laws.tricks);
    else {
      const per = r.progressive ? (deal.trump ? PROGRESSIVE[deal.trump] ?? 0 : 0) : mult;
      if (r.progressive && !deal.trump) line.notes.push('no trump known: the progressive variation cannot value the tricks');
      mark(winner, (deal.tricks[winner] - 6) * per, 'tricks', r.laws.tricks, per > 1 ? `${deal.tricks[winner] - 6} × ${per}` : undefined);
    }
  }

  // 3. Honours, last.
  if (r.honours !== 'none') scoreHonours(r, deal, line, start, mult, mark);

  // 4. The game, and the rubber.
  const gw = gameBy as Side | null;
  if (gw) {
    const loser = other(gw);
    const value = r.gameValue === 'english' ? englishGameValue(r.gamePoints, s.points[loser])
      : r.gameValue === 'american' ? americanGameValue(r.gamePoints, s.points[loser]) : s.points[gw];
    const g: GameRecord = { winner: gw, value, score: { ...s.points }, board: deal.board, law: r.laws.value };
    if (r.game === 'mort' && deal.dummyPartner) {
      g.vivant = deal.dummyPartner;
      g.stakes = settle(deal.dummyPartner, gw, value);
    }
    line.game = g;
    s.games.push(g);
    s.gamesWon[gw]++;
    s.points = { NS: 0, EW: 0 };
    if (!r.rubber) {
      // Games kept singly (American whist, Mort): each game is settled at its value.
      s.totals[gw] += value;
      s.games = [];
      s.gamesWon = { NS: 0, EW: 0 };
      dealsInRubber = 0;
      if (s.tournee) s.tournee = tournee(s.tournee.played + 1, s.tournee.of);
    } else if (s.gamesWon[gw] === 2) {
      // Eng. 1: "The rubber is the best of three games. If the first two games are won by the same players, the third is not played."
      const rb = rubberRecord(r, s.games, gw, deal);
      line.rubber = rb;
      s.rubbers.push(rb);
      // The progressive rubber is a difference of scores: should the losers of the rubber have outscored its winners,
      // the difference is theirs.
      if (rb.value >= 0) s.totals[gw] += rb.value;
      else s.totals[loser] -= rb.value;
      if (rb.concession && rb.value <= 0) line.notes.push('the dummy\'s partner won the rubber but his concession leaves him nothing');
      s.games = [];
      s.gamesWon = { NS: 0, EW: 0 };
      s.favourite = undefined;
      dealsInRubber = 0;
      if (s.tournee) s.tournee = tournee(s.tournee.played + 1, s.tournee.of);
    }
  }
  line.after = { ...s.points };
  if (keepLine) s.deals.push(line);
  return { line, dealsInRubber };
}

function tournee(played: number, of: number): NonNullable<Score['tournee']> {
  return { played, of, complete: played >= of };
}

/** Honours as whist counts them (per side, Eng. 3, 4, 7) or as Humbug does (per player). */
function scoreHonours(r: ScoreRules, deal: FinishedDeal, line: DealLine, start: { NS: number; EW: number }, mult: number,
  mark: (side: Side, pts: number, what: 'honours', law: string, note?: string) => void): void {
  const calls = deal.calls ?? [];
  // A side that called has called (Eng. 7), even if it called the wrong number: the table counts the cards it saw, as
  // markers are corrected when "an erroneous score be proved" (Eng. 11); the false call is a finding all the same.
  const called = SIDES.filter((x) => calls.some((c) => c.side === x));
  line.honours.called = called;
  let held = deal.honours ?? null;
  if (!held) {
    // The table did not see the honours: a call nobody could check is scored as called, as at a table of markers;
    // one the cards already contradict scores nothing.
    const claimed = (x: Side) => calls.find((c) => c.side === x && c.verdict !== 'false' && c.count !== undefined)?.count ?? 0;
    if (!called.length) return;
    held = { NS: claimed('NS'), EW: claimed('EW') };
    line.notes.push('honours not seen by the table: scored as called');
  }
  for (const side of SIDES) {
    const n = held[side];
    const o = held[other(side)];
    let pts = 0;
    if (r.honours === 'whist') pts = whistHonours(n);
    // Humbug: "if each player holds two, neither can count. But if one player has only one honour, or none, the other
    // counts 2 points for two honours, if he holds them; 3 points for three; and 4 points for four."
    else if (n >= 2 && o <= 1) pts = n;
    if (pts === 0) continue;
    line.honours.counted = side;
    if (r.noHonoursAt !== null && start[side] >= r.noHonoursAt) {
      line.notes.push(`${side}'s honours not scored: at the score of ${start[side]} when the deal began (Eng. 4)`);
    } else if (r.honoursMustBeCalled && !called.includes(side)) {
      line.notes.push(`${side}'s honours not scored: not called (Eng. 7: "they must be called at the end of the hand")`);
    } else {
      mark(side, pts * mult, 'honours', r.laws.honours, mult > 1 ? `${pts} × ${mult}` : undefined);
    }
  }
}

/** A finished rubber's value: its games, rubber points and deduction (Eng. 9, 10), or the progressive difference. */
function rubberRecord(r: ScoreRules, games: GameRecord[], winner: Side, deal: FinishedDeal): RubberRecord {
  const loser = other(winner);
  const rubberPoints = r.rubber!.points;
  if (r.gameValue === 'difference') {
    // "the winners of the rubber add 10 points for bonus. The value of the rubber is the difference between the scores
    // of the winners and that of the losers."
    const totals = { NS: 0, EW: 0 };
    for (const g of games) { totals.NS += g.score.NS; totals.EW += g.score.EW; }
    totals[winner] += rubberPoints;
    return { winner, games, rubberPoints, deducted: 0, value: totals[winner] - totals[loser], totals, law: r.laws.rubber };
  }
  const won = games.filter((g) => g.winner === winner).reduce((a, g) => a + g.value, 0);
  // Eng. 10: "Should the rubber have consisted of three games, the value of the losers' game is deducted".
  const deducted = r.rubber!.deductLosersGame ? games.filter((g) => g.winner === loser).reduce((a, g) => a + g.value, 0) : 0;
  let value = won + rubberPoints - deducted;
  const rec: RubberRecord = { winner, games, rubberPoints, deducted, value, law: r.laws.rubber };
  if (deal.dummyPartner) rec.dummyPartner = deal.dummyPartner;
  if (r.game === 'english-dummy' && deal.dummyPartner) rec.stakes = settle(deal.dummyPartner, winner, Math.abs(value));
  if (r.continuousDummy && deal.dummyPartner) {
    // English Dummy: "one player shall take dummy continuously, on condition that he concedes to his adversaries one
    // point in each rubber" — his rubber is one less, theirs one more.
    const dummySide: Side = deal.dummyPartner === 'N' || deal.dummyPartner === 'S' ? 'NS' : 'EW';
    const to = other(dummySide);
    value += winner === to ? 1 : -1;
    rec.concession = { to, points: 1 };
    rec.value = value;
    if (rec.stakes) rec.stakes = settle(deal.dummyPartner, winner, value);
  }
  return rec;
}

/**
 * The settlement of a game or rubber played by one living player with a dummy against two adversaries: he settles
 * with each of them, so he wins or pays double (Mort: Stakes; English Dummy: Stakes).
 */
function settle(living: Seat, winner: Side, value: number): Partial<Record<Seat, number>> {
  const seats: Seat[] = ['N', 'E', 'S', 'W'];
  const i = seats.indexOf(living);
  const mine: Side = i % 2 === 0 ? 'NS' : 'EW';
  const v = winner === mine ? value : -value;
  return { [living]: 2 * v, [seats[(i + 1) % 4]]: -v, [seats[(i + 3) % 4]]: -v };
}

/** Fold a list of finished deals from a fresh sheet. */
export function keepAll(rules: ScoreRules, deals: readonly FinishedDeal[]): KeeperState {
  // One sheet changed in place: the same score as `keep` deal after deal, without a copy of the sheet per deal.
  const sheet = new ScoreSheet(rules, { keepLines: true });
  for (const d of deals) sheet.keep(d);
  return { rules, score: sheet.score, dealsInRubber: sheet.dealsInRubber };
}
