// Duplicate whist scoring, as Foster's Complete Hoyle (1914, seed 001) gives it: plus and minus against the N-S and
// E-W averages (Compass Whist), matches won by trick majorities (club against club, team against team, Howell teams,
// four and six pairs), individuals against the players who held the same cards, and the Laws of Duplicate Whist
// (Dup.) that only the club can apply: the average score for a deal (IV.9-10, V.1) and the revoke's limits (X.4).
// Pure: travellers in, a ScoreReport out.
import type { Seat } from '../../cards/seat.js';
import type { Direction, PairStanding, ScoreReport, ScoredResult, Traveller } from '../types.js';
import { ScoringError } from './errors.js';
import { compareIds } from './collate.js';
import type { ScoreCache } from './board-cache.js';

/** The whist methods: `average` (Compass Whist), `matches` (teams or pairs, match by match), `individuals`. */
export type WhistMethod = 'average' | 'matches' | 'individuals';

export interface WhistOptions {
  method?: WhistMethod;
  /**
   * `matches` only. `teams`: a match is two teams whose pairs met at the tables, each team's tricks added ("Howell
   * teams", club against club). `pairs`: a match is two pairs who held the same cards at different tables (four
   * and six pairs: "eight hands complete a match"). Default: `teams` when every id names its team ("O/1", or
   * "3NS" and "aEW" always in the direction they name), else `pairs`.
   */
  matches?: 'teams' | 'pairs';
  /**
   * Apply the pair-match sentences of Dup. X.4 (the other tables' maximum and minimum). Default: yes for `average`
   * and for matches between pairs, no for teams and individuals.
   */
  pairMatch?: boolean;
  /** Boards kept scored between scorings of a growing session (board-cache.ts); the same report as without. */
  cache?: ScoreCache;
}

/**
 * A whist traveller with what Dup. X.4 needs (optional extensions of `Traveller`): `made`, the tricks as played
 * (replay's `tricksWon`) beside `tricks` after the table's penalty (replay's `scored`), and the revoking side's
 * tricks won before its first revoke, which no penalty may take.
 */
export type WhistTraveller = Traveller;

/** A standing with the whist extras: tricks charged against the top score (individuals). */
export interface WhistStanding extends PairStanding {
  lost?: number;
}

/** A result with how the club scored it. */
export interface WhistResult extends ScoredResult {
  made?: { NS: number; EW: number };
  marks?: Traveller['marks'];
  adjusted?: Traveller['adjusted'];
  /** Why the score differs from the traveller's tricks, with the law. */
  notes?: string[];
}

/** One match (`matches`): the two sides, each side's tricks, its plus or minus and what it won (1, ½ or 0). */
export interface WhistMatch {
  sides: [string, string];
  tricks: [number, number];
  plus: [number, number];
  won: [number, number];
  /** Teams: each side's tricks and majority at each table (the seed's "a majority of one trick at table No. 1"). */
  tables?: { table: number | string; tricks: [number, number]; plus: [number, number] }[];
}

export interface WhistReport extends ScoreReport {
  method: 'average' | 'team-matches' | 'individuals';
  pairs: WhistStanding[];
  boards: { board: number; results: WhistResult[] }[];
  matches?: WhistMatch[];
}

const DIRS: readonly Direction[] = ['NS', 'EW'];
const SEAT_DIR: Record<Seat, Direction> = { N: 'NS', S: 'NS', E: 'EW', W: 'EW' };
const other = (d: Direction): Direction => (d === 'NS' ? 'EW' : 'NS');
/** "any" (six pairs: "the N & S positions being filled up by any of the other players") and "-" hold no score. */
const STAND_IN = /^(any|-|\?)$/i;

/** Two decimals: averages of tricks are fractions, and sums of them must not print as 206.99999999999997. */
export function round2(x: number): number {
  const r = Math.round(x * 100) / 100;
  return r === 0 ? 0 : r;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A result ready to score: the final tricks, and the tricks the averages and the other players are scored against. */
interface Scored {
  index: number;
  t: WhistTraveller;
  final: Record<Direction, number>;
  /** Differs from `final` only for a revoking side in a pair match (Dup. X.4, second paragraph). */
  forAverage: Record<Direction, number>;
  notes: string[];
}

function fail(message: string, index: number, field?: string): never {
  throw new ScoringError(message, index, field);
}

function where(t: Traveller): string {
  return `board ${t.board}, ${t.ns} v ${t.ew}${t.table !== undefined ? ` at table ${t.table}` : ''}`;
}

function isTricks(x: unknown): x is { NS: number; EW: number } {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return DIRS.every((d) => typeof o[d] === 'number' && Number.isInteger(o[d]) && (o[d] as number) >= 0 && (o[d] as number) <= 13);
}

/** Check one whist traveller's shape; throws a ScoringError naming the field and the fix. */
export function checkWhistTraveller(t: WhistTraveller, i: number): void {
  if (!Number.isInteger(t.board) || t.board < 1) fail(`board: ${JSON.stringify(t.board)} is not a board number: give an integer 1 or more`, i, 'board');
  for (const k of ['ns', 'ew'] as const) {
    if (typeof t[k] !== 'string' || t[k].trim() === '') fail(`${k}: give the ${k === 'ns' ? 'N-S' : 'E-W'} pair as the schedule names it, e.g. "${k}":"3${k.toUpperCase()}"`, i, k);
  }
  if (t.adjusted === undefined || t.tricks !== undefined) {
    if (typeof t.tricks === 'number') fail(`tricks: a number is a bridge declarer's tricks and needs "contract"; for whist give both sides, e.g. "tricks":{"NS":7,"EW":6}`, i, 'tricks');
    if (!isTricks(t.tricks)) fail(`tricks: give both sides' tricks, whole numbers 0-13, e.g. "tricks":{"NS":7,"EW":6}`, i, 'tricks');
    if (t.tricks.NS + t.tricks.EW !== 13) fail(`tricks: N-S ${t.tricks.NS} and E-W ${t.tricks.EW} make ${t.tricks.NS + t.tricks.EW}; a deal has 13 tricks`, i, 'tricks');
  }
  if (t.made !== undefined) {
    if (!isTricks(t.made) || t.made.NS + t.made.EW !== 13) fail(`made: give the tricks as played, 13 in all, e.g. "made":{"NS":8,"EW":5}`, i, 'made');
  }
  if (t.marks !== undefined) {
    for (const [k, v] of Object.entries(t.marks)) {
      if (!(DIRS as readonly string[]).includes(k) || (v !== '-R' && v !== '+R')) fail(`marks: ${JSON.stringify(t.marks)} is not a revoke mark: give e.g. {"NS":"-R","EW":"+R"} (Dup. X.4)`, i, 'marks');
    }
    if (Object.values(t.marks).includes('-R') && t.made === undefined && t.adjusted === undefined) {
      fail(`marks: a revoke needs "made" (the tricks as played, replay's "tricksWon") beside "tricks" (after the penalty, replay's "scored"), so the club can apply Dup. X.4`, i, 'made');
    }
  }
  const adj = t.adjusted;
  if (adj === 'average-plus' || adj === 'average-minus') {
    fail(`adjusted: "${adj}" is a bridge matchpoint adjustment; whist scores tricks: give "average" (Dup. IV.9, V.1) or the tricks, e.g. {"NS":7,"EW":6}`, i, 'adjusted');
  }
  if (adj !== undefined && adj !== 'average') {
    if (typeof adj !== 'object' || adj === null || !DIRS.every((d) => typeof adj[d] === 'number' && adj[d] >= 0 && adj[d] <= 13)) {
      fail(`adjusted: give "average" or the tricks each side is to score, 0-13, e.g. {"NS":7,"EW":6}`, i, 'adjusted');
    }
  }
  if (t.players !== undefined) {
    for (const [s, p] of Object.entries(t.players)) {
      if (!(s in SEAT_DIR) || typeof p !== 'string' || p === '') fail(`players: give each seat N, E, S, W its player, e.g. {"N":"1","E":"2","S":"3","W":"4"}`, i, 'players');
    }
  }
}

/** The results of one board, by index. */
function byBoard(ts: readonly WhistTraveller[]): Map<number, number[]> {
  const m = new Map<number, number[]>();
  ts.forEach((t, i) => { const l = m.get(t.board) ?? []; l.push(i); m.set(t.board, l); });
  return new Map([...m].sort((a, b) => a[0] - b[0]));
}

/**
 * The score of every result, board by board (scoreBoard), and each board's entry in the report; with a cache, a board
 * whose travellers are unchanged since the last scoring is not scored again (the director's standings, issue 18).
 */
function scoreResults(ts: readonly WhistTraveller[], pairMatch: boolean, cache?: ScoreCache): { scored: Scored[]; boards: WhistReport['boards'] } {
  const scored: Scored[] = new Array<Scored>(ts.length);
  const boards: WhistReport['boards'] = [];
  for (const [board, idx] of byBoard(ts)) {
    const own = idx.map((i) => ts[i]);
    const make = (): WhistBoardPart => {
      // With a cache the travellers are checked once, as their board is scored (scoreWhist checks them all otherwise).
      if (cache) idx.forEach((i) => checkWhistTraveller(ts[i], i));
      const part = scoreBoard(ts, idx, pairMatch);
      return { scored: part, entry: boardEntry(board, part) };
    };
    const part = cache ? cache.part(`whist:${pairMatch}`, board, own, make) : make();
    // A kept part's results may stand at other places in the list now.
    part.scored.forEach((s, k) => { s.index = idx[k]; scored[idx[k]] = s; });
    boards.push(part.entry);
  }
  return { scored, boards };
}

/** What a ScoreCache keeps of one whist board: its results scored, and its entry in the report. */
interface WhistBoardPart { scored: Scored[]; entry: WhistReport['boards'][number] }

/**
 * The score of each result of one board (`idx`, its places in `ts`): the director's adjustment, the average score
 * for the deal, and Dup. X.4 at session level. "The average on the deal" is that of the other tables' results on it,
 * as made (the revoke's table is left out, or its own revoke would move the average it is held to).
 */
function scoreBoard(ts: readonly WhistTraveller[], idx: readonly number[], pairMatch: boolean): Scored[] {
  const out: Scored[] = idx.map((index) => ({ index, t: ts[index], final: { NS: 0, EW: 0 }, forAverage: { NS: 0, EW: 0 }, notes: [] }));
  const played = idx.filter((i) => ts[i].adjusted === undefined);
  const asMade = (i: number): Record<Direction, number> => ts[i].made ?? (ts[i].tricks as Record<Direction, number>);
  idx.forEach((i, k) => {
    const t = ts[i];
    const s = out[k];
    const others = played.filter((j) => j !== i);
    if (t.adjusted === 'average') {
      // Dup. IV.9, IV.10, V.1: "the players at that table shall take the average score for the deal".
      if (others.length === 0) fail(`adjusted: ${where(t)} takes "the average score for the deal", but no other table played board ${t.board}; with fewer than three tables the laws give a new deal (Dup. IV.9, V.1)`, i, 'adjusted');
      for (const d of DIRS) s.final[d] = mean(others.map((j) => (ts[j].tricks as Record<Direction, number>)[d]));
      s.notes.push(`Dup. IV.9, V.1: the average score for the deal (${others.length} other table${others.length > 1 ? 's' : ''}): N-S ${round2(s.final.NS)}, E-W ${round2(s.final.EW)}`);
    } else if (typeof t.adjusted === 'object') {
      s.final = { NS: t.adjusted.NS, EW: t.adjusted.EW };
      s.notes.push(`adjusted by the director: N-S ${t.adjusted.NS}, E-W ${t.adjusted.EW}`);
    } else {
      s.final = { ...(t.tricks as Record<Direction, number>) };
    }
    s.forAverage = { ...s.final };
    if (t.adjusted === undefined && t.marks) revoke(s, others.map(asMade), pairMatch);
  });
  return out;
}

/** Dup. X.4 for one result with revoke marks: the cap and floor at the average, and in pair matches the maximum and minimum. */
function revoke(s: Scored, othersMade: Record<Direction, number>[], pairMatch: boolean): void {
  const t = s.t;
  const revokers = DIRS.filter((d) => t.marks?.[d] === '-R');
  if (revokers.length !== 1) {
    if (revokers.length === 2) s.notes.push('Dup. X.4: both sides revoked; the table\'s penalties stand');
    return;
  }
  const R = revokers[0];
  const O = other(R);
  const made = t.made!;
  const tricks = t.tricks as Record<Direction, number>;
  const penalty = made[R] - tricks[R];
  if (penalty < 0) fail(`made: ${where(t)}: ${R === 'NS' ? 'N-S' : 'E-W'} revoked ("-R") but "tricks" gives them more than "made"; "tricks" is after the penalty, "made" as played`, s.index, 'made');
  if (othersMade.length === 0) {
    s.notes.push(`Dup. X.4: no other table played board ${t.board}, so there is no average to hold the revoke to; the table's penalty stands`);
    return;
  }
  const avg = { NS: mean(othersMade.map((m) => m.NS)), EW: mean(othersMade.map((m) => m.EW)) };
  const before = Math.min(t.wonBeforeRevoke?.[R] ?? 0, tricks[R]);
  // First paragraph: "The revoking players cannot score more, nor their adversaries less than the average on the
  // deal"; "in no case shall the infliction of the revoke penalty deprive the revoking players of any tricks won by
  // them before their first revoke occurs".
  const revFinal = Math.max(Math.min(tricks[R], avg[R]), before);
  let oppFinal = Math.max(tricks[O], avg[O]);
  let revForAverage = revFinal;
  if (pairMatch) {
    const maxO = Math.max(...othersMade.map((m) => m[O]));
    const minR = Math.min(...othersMade.map((m) => m[R]));
    // "the penalty for a revoke shall not increase the score of the opponents ... above the maximum, as made at the
    // other tables"; "if the opponents win more tricks than such maximum, independently of the revoke penalty, their
    // score shall stand as made".
    oppFinal = made[O] >= maxO ? made[O] : Math.min(oppFinal, maxO);
    // "Nor shall the score of the revoking players be reduced ... below the minimum so made at the other tables until
    // the averages for the match and the relative scores of the other players have been determined".
    // The full penalty of the first paragraph (revFinal), but not below the minimum or the tricks as made.
    revForAverage = Math.max(revFinal, Math.min(made[R], minR));
    if (revForAverage !== revFinal) s.notes.push(`Dup. X.4: ${label(R)} count ${round2(revForAverage)} for the averages and the other players (the other tables' minimum ${minR}), then ${round2(revFinal)}: the full penalty`);
    if (oppFinal !== tricks[O]) {
      const why = made[O] >= maxO ? `their score stands as made, above the other tables' maximum ${maxO}`
        : oppFinal === maxO ? `held to the other tables' maximum ${maxO}` : 'raised to the average on the deal';
      s.notes.push(`Dup. X.4: ${label(O)} ${round2(oppFinal)}, not ${tricks[O]}: ${why}`);
    }
  } else if (oppFinal !== tricks[O]) {
    s.notes.push(`Dup. X.4: ${label(O)} ${round2(oppFinal)}, not ${tricks[O]}: the adversaries score no less than the average on the deal`);
  }
  if (revFinal !== tricks[R]) s.notes.push(`Dup. X.4: ${label(R)} ${round2(revFinal)}, not ${tricks[R]}: the revoking players score no more than the average on the deal${revFinal === before && before > Math.min(tricks[R], avg[R]) ? ', keeping the tricks they won before the revoke' : ''}`);
  s.final = { [R]: revFinal, [O]: oppFinal } as Record<Direction, number>;
  s.forAverage = { [R]: revForAverage, [O]: oppFinal } as Record<Direction, number>;
}

function label(d: Direction): string {
  return d === 'NS' ? 'N-S' : 'E-W';
}

/** Standings ranked by `better` (negative when a ranks above b); equal keys share a rank, labelled "2=". */
export function rankStandings<T extends PairStanding>(list: T[], better: (a: T, b: T) => number): T[] {
  const sorted = [...list].sort((a, b) => better(a, b) || compareIds(a.pair, b.pair));
  // One pass over the sorted list, not a count of the better pairs for each (issue 18: 400 pairs cost 160,000
  // comparisons at every standings): equal keys are neighbours, and a tie group's rank is its first place.
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && better(sorted[i], sorted[j]) === 0) j++;
    for (let k = i; k < j; k++) {
      sorted[k].rank = i + 1;
      sorted[k].rankLabel = `${i + 1}${j - i > 1 ? '=' : ''}`;
    }
    i = j;
  }
  return sorted;
}

/** Compare two trick counts as the report prints them (two decimals). */
const cmp = (a: number, b: number): number => round2(a) - round2(b);

/** One board's entry in the report: its results in the travellers' order, as scored. */
function boardEntry(board: number, scored: readonly Scored[]): WhistReport['boards'][number] {
  const results: WhistResult[] = [];
  for (const s of scored) {
    const t = s.t;
    // Assigned in the report's key order, not spread from a temporary object per field (issue 18: this ran for every
    // result at every standings).
    const r = {} as WhistResult;
    if (t.table !== undefined) r.table = t.table;
    r.ns = t.ns;
    r.ew = t.ew;
    r.tricks = { NS: round2(s.final.NS), EW: round2(s.final.EW) };
    if (t.made) r.made = t.made;
    if (t.marks) r.marks = t.marks;
    if (t.adjusted !== undefined) r.adjusted = t.adjusted;
    if (t.handScored) r.handScored = true;
    if (s.notes.length) r.notes = s.notes;
    results.push(r);
  }
  return { board, results };
}

/** Compass Whist: each pair's tricks against the average of the hands it held, N-S and E-W apart. */
function average(scored: readonly Scored[], boards: WhistReport['boards']): WhistReport {
  // Each board's average per direction, from the scores the averages are made of (Dup. X.4).
  const boardAvg = new Map<number, Record<Direction, number>>();
  for (const [board, idx] of byBoard(scored.map((s) => s.t))) {
    boardAvg.set(board, { NS: mean(idx.map((i) => scored[i].forAverage.NS)), EW: mean(idx.map((i) => scored[i].forAverage.EW)) });
  }
  const pairs = new Map<string, { total: number; plus: number; dirs: Set<Direction> }>();
  for (const s of scored) {
    for (const d of DIRS) {
      const id = d === 'NS' ? s.t.ns : s.t.ew;
      if (STAND_IN.test(id)) continue;
      const p = pairs.get(id) ?? { total: 0, plus: 0, dirs: new Set<Direction>() };
      p.total += s.final[d];
      p.plus += s.final[d] - boardAvg.get(s.t.board)![d];
      p.dirs.add(d);
      pairs.set(id, p);
    }
  }
  // "each side, N & S and E & W, is then added up in order to find the average": the sum of each board's average,
  // which is the average of the pairs' totals when every pair held every board, as in the seed.
  const averages = { NS: 0, EW: 0 };
  for (const a of boardAvg.values()) { averages.NS += a.NS; averages.EW += a.EW; }
  const standings: WhistStanding[] = [...pairs].map(([pair, p]) => ({
    pair,
    ...(p.dirs.size === 1 ? { direction: [...p.dirs][0] } : {}),
    total: round2(p.total),
    vsAverage: round2(p.plus),
    rank: 0,
  }));
  // "the f pair, having won the greatest number of tricks above the average of the hands, would be the winners".
  return {
    method: 'average',
    averages: { NS: round2(averages.NS), EW: round2(averages.EW) },
    pairs: rankStandings(standings, (a, b) => cmp(b.vsAverage!, a.vsAverage!)),
    boards,
  };
}

/** The team of a pair id: "O/1NS" → "O", "3NS" → "3", "aEW" → "a"; undefined when the id names no team. */
export function teamOf(id: string): string | undefined {
  const slash = id.indexOf('/');
  if (slash > 0) return id.slice(0, slash);
  const m = /^(.+?)[\s._-]*(NS|EW|N&S|E&W)$/i.exec(id);
  return m ? m[1] : undefined;
}

interface MatchAcc { own: number; opp: number; tables: Map<number | string, [number, number]> }

/** Matches: "The winner is the team that wins the most matches; not the one that gains the most tricks." */
function matches(scored: readonly Scored[], boards: WhistReport['boards'], mode: 'teams' | 'pairs'): WhistReport {
  // acc.get(a).get(b): a's tricks and b's, in a's view (b's scores as the averages take them, Dup. X.4).
  const acc = new Map<string, Map<string, MatchAcc>>();
  const add = (a: string, b: string, own: number, opp: number, table?: number | string): void => {
    const row = acc.get(a) ?? new Map<string, MatchAcc>();
    acc.set(a, row);
    const m = row.get(b) ?? { own: 0, opp: 0, tables: new Map() };
    row.set(b, m);
    m.own += own;
    m.opp += opp;
    if (table !== undefined) {
      const tt = m.tables.get(table) ?? [0, 0];
      tt[0] += own;
      tt[1] += opp;
      m.tables.set(table, tt);
    }
  };
  if (mode === 'teams') {
    // A team's two pairs hold all 52 cards between them; against the other team's two pairs, at the tables.
    for (const s of scored) {
      const [a, b] = [teamOf(s.t.ns), teamOf(s.t.ew)];
      if (!a || !b || a === b || STAND_IN.test(s.t.ns) || STAND_IN.test(s.t.ew)) continue;
      add(a, b, s.final.NS, s.forAverage.EW, s.t.table);
      add(b, a, s.final.EW, s.forAverage.NS, s.t.table);
    }
  } else {
    // "Eight hands complete a match": a pair against the pair that held the same cards at the other table.
    for (const idx of byBoard(scored.map((s) => s.t)).values()) {
      for (const d of DIRS) {
        for (const i of idx) {
          for (const j of idx) {
            const [a, b] = [scored[i], scored[j]].map((s) => (d === 'NS' ? s.t.ns : s.t.ew));
            if (i === j || a === b || STAND_IN.test(a) || STAND_IN.test(b)) continue;
            add(a, b, scored[i].final[d], scored[j].forAverage[d]);
          }
        }
      }
    }
  }
  // Two teams hold the same cards at two tables, so the difference of their totals counts each trick gained twice:
  // the seed compares "the score cards of the East and West hands played at the same table", half of it.
  const unit = mode === 'teams' ? 2 : 1;
  const list: WhistMatch[] = [];
  const stand = new Map<string, { won: number; plus: number; tricks: number }>();
  for (const [a, row] of acc) {
    const st = stand.get(a) ?? { won: 0, plus: 0, tricks: 0 };
    stand.set(a, st);
    for (const [b, m] of row) {
      const plus = (m.own - m.opp) / unit;
      // "If the number of tricks taken by each side is a tie in any match, the score is marked zero, and each team
      // counts half a match won."
      st.won += cmp(plus, 0) > 0 ? 1 : cmp(plus, 0) === 0 ? 0.5 : 0;
      st.plus += plus;
      st.tricks += m.own;
      if (compareIds(a, b) < 0) {
        const back = acc.get(b)!.get(a)!;
        const pb = (back.own - back.opp) / unit;
        const w = (p: number): number => (cmp(p, 0) > 0 ? 1 : cmp(p, 0) === 0 ? 0.5 : 0);
        list.push({
          sides: [a, b],
          tricks: [round2(m.own), round2(back.own)],
          plus: [round2(plus), round2(pb)],
          won: [w(plus), w(pb)],
          ...(m.tables.size ? {
            tables: [...m.tables].map(([table, [x, y]]) => ({ table, tricks: [round2(x), round2(y)] as [number, number], plus: [round2((x - y) / unit), round2((y - x) / unit)] as [number, number] })),
          } : {}),
        });
      }
    }
  }
  const standings: WhistStanding[] = [...stand].map(([pair, s]) => ({ pair, total: s.won, matches: s.won, vsAverage: round2(s.plus), rank: 0 }));
  // "In case of ties, the number of tricks won must decide": the tricks gained over the matches ("6 tricks plus").
  return {
    method: 'team-matches',
    pairs: rankStandings(standings, (a, b) => b.total - a.total || cmp(b.vsAverage!, a.vsAverage!)),
    boards,
    matches: list,
  };
}

/**
 * Individuals: "These totals must then be compared with those of the player occupying the same position, N, S, E,
 * or W, at the other table in the set ... call the top score zero, and charge all players with the loss of as many
 * tricks as their total is short of the top score." A set is what a table played in one round with the same players;
 * sets of the same boards are compared. A player who held both sides of the same deals (memory duplicate) is one
 * comparison, not two: his gains in a set are the mean over his places in it.
 */
function individuals(scored: readonly Scored[], boards: WhistReport['boards']): WhistReport {
  interface Sitting { boards: number[]; players: Partial<Record<Seat, string>>; final: Record<Direction, number>; forAverage: Record<Direction, number> }
  const sittings = new Map<string, Sitting>();
  for (const s of scored) {
    const p = s.t.players;
    if (!p || !(['N', 'E', 'S', 'W'] as const).every((k) => p[k])) fail(`players: ${where(s.t)}: individuals need every seat's player, e.g. "players":{"N":"1","E":"2","S":"3","W":"4"}`, s.index, 'players');
    // Without a round each result is its own set.
    const key = s.t.round === undefined ? `#${s.index}` : `${s.t.table ?? ''}|${s.t.round}|${JSON.stringify(p, ['N', 'E', 'S', 'W'])}`;
    const x = sittings.get(key) ?? { boards: [], players: p, final: { NS: 0, EW: 0 }, forAverage: { NS: 0, EW: 0 } };
    x.boards.push(s.t.board);
    for (const d of DIRS) { x.final[d] += s.final[d]; x.forAverage[d] += s.forAverage[d]; }
    sittings.set(key, x);
  }
  const groups = new Map<string, Sitting[]>();
  for (const x of sittings.values()) {
    const key = [...x.boards].sort((a, b) => a - b).join(',');
    groups.set(key, [...(groups.get(key) ?? []), x]);
  }
  const players = new Map<string, { tricks: number; plus: number; lost: number }>();
  const get = (id: string) => { const p = players.get(id) ?? { tricks: 0, plus: 0, lost: 0 }; players.set(id, p); return p; };
  for (const group of groups.values()) {
    // Each player's gains in this set, over his places in it.
    const gains = new Map<string, { plus: number; lost: number; n: number }>();
    for (const x of group) {
      for (const seat of ['N', 'E', 'S', 'W'] as const) {
        const id = x.players[seat]!;
        const d = SEAT_DIR[seat];
        get(id).tricks += x.final[d];
        if (group.length < 2) continue;
        const others = group.filter((y) => y !== x).map((y) => y.forAverage[d]);
        const top = Math.max(x.final[d], ...others);
        const g = gains.get(id) ?? { plus: 0, lost: 0, n: 0 };
        g.plus += x.final[d] - mean(others);
        g.lost += top - x.final[d];
        g.n++;
        gains.set(id, g);
      }
    }
    for (const [id, g] of gains) {
      const p = get(id);
      p.plus += g.plus / g.n;
      p.lost += g.lost / g.n;
    }
  }
  const standings: WhistStanding[] = [...players].map(([pair, p]) => ({ pair, total: round2(p.tricks), vsAverage: round2(p.plus), lost: round2(p.lost), rank: 0 }));
  // "The winner is the player who loses the fewest tricks."
  return {
    method: 'individuals',
    pairs: rankStandings(standings, (a, b) => cmp(a.lost!, b.lost!) || cmp(b.vsAverage!, a.vsAverage!)),
    boards,
  };
}

/**
 * Teams or pairs, from the ids alone: a schedule names team pairs and plain pairs alike by starting table and
 * direction ("3NS"), but a team's pairs keep their direction all session, while the pairs of a four- or six-pair
 * game change sides. Ids with a slash ("O/1") always name their team. The director knows the movement's kind and
 * should say `matches` itself.
 */
function defaultMatches(ts: readonly Traveller[]): 'teams' | 'pairs' {
  const ok = (id: string, d: Direction): boolean => {
    if (STAND_IN.test(id) || id.includes('/')) return teamOf(id) !== undefined;
    const m = /(NS|EW|N&S|E&W)$/i.exec(id);
    return m !== null && teamOf(id) !== undefined && m[1].toUpperCase().replace('&', '') === d;
  };
  return ts.every((t) => ok(t.ns, 'NS') && ok(t.ew, 'EW')) ? 'teams' : 'pairs';
}

/** Score duplicate whist travellers (tricks per side) by the seed's methods; throws a ScoringError for bad input. */
export function scoreWhist(travellers: readonly WhistTraveller[], opts: WhistOptions = {}): WhistReport {
  const method = opts.method ?? 'average';
  travellers.forEach((t, i) => {
    if (t.contract !== undefined) fail(`contract: ${where(t)} is a bridge result; whist travellers give "tricks":{"NS":7,"EW":6} and no contract`, i, 'contract');
    if (!opts.cache) checkWhistTraveller(t, i);
  });
  // Only matches ask whether the ids name teams: the other methods do not read every id through a regex.
  const mode = method === 'matches' ? opts.matches ?? defaultMatches(travellers) : undefined;
  const pairMatch = opts.pairMatch ?? (method === 'average' || (method === 'matches' && mode === 'pairs'));
  const { scored, boards } = scoreResults(travellers, pairMatch, opts.cache);
  if (method === 'average') return average(scored, boards);
  if (method === 'matches') return matches(scored, boards, mode!);
  return individuals(scored, boards);
}
