// Bridge session scoring: travellers in, standings out. Matchpoints (EBU scale, Neuberg for boards with fewer
// results than the others and for the groups of a fouled board, Law 87B), cross-IMPs and Butler.
//
// Conventions, stated once:
// - Matchpoints are 2 per N-S score beaten and 1 per tie (top 2(n - 1)); percentages are of the tops of the boards a
//   pair played. Every result is compared only with results in the same direction on the same board.
// - A Mitchell (no pair sits both N-S and E-W) is ranked in two fields, N-S and E-W; a Howell in one.
// - Artificial adjusted scores (Law 12C2): 'average' is 50% (0 IMPs), 'average-plus' 60% (+3 IMPs) and
//   'average-minus' 40% (-3 IMPs) to both sides; `{NS, EW}` gives each side its percentage (as IMPs, (p - 50) × 0.3,
//   so 60 → +3). An adjusted result takes no part in the comparisons: the other results are factored up with Neuberg.
// - Cross-IMPs are averaged per comparison; Butler compares with a datum (bridge-imps.ts states the rule).
import type { Direction, PairStanding, ScoreMethod, ScoreReport, ScoredResult, Traveller } from '../types.js';
import { bridgeScore, isPassedOut } from './bridge-score.js';
import { butlerImps, crossImps, round2 } from './bridge-imps.js';
import { boardMatchpoints, matchpointTop } from './bridge-matchpoints.js';
import { compareIds } from './collate.js';
import type { ScoreCache } from './board-cache.js';

export { boardDealer, boardVulnerability, bridgeScore, contractScore, isPassedOut, isVulnerable, type Vulnerability } from './bridge-score.js';
export { butlerDatum, crossImps, imps } from './bridge-imps.js';
export { matchpoints, neuberg } from './bridge-matchpoints.js';

/**
 * A bridge traveller line. `version` (optional, this module's addition to `Traveller`) names the version of a fouled
 * board the result was played in (Law 87B): results are compared only with results of the same version.
 */
export interface BridgeTraveller extends Traveller {
  version?: string | number;
}

export interface BridgeScoreOptions {
  /** Results a full board has; default: the most results (played or adjusted) any board has. */
  expected?: number;
  /** Boards kept scored between scorings of a growing session (board-cache.ts); the same report as without. */
  cache?: ScoreCache;
}

type BridgeMethod = Exclude<ScoreMethod, 'average'>;

interface Line {
  t: BridgeTraveller;
  /** N-S score, absent for an adjusted result. */
  score?: number;
  /** Adjusted percentages per side. */
  adjusted?: { NS: number; EW: number };
  group: string;
}

const ADJUSTED: Record<string, { NS: number; EW: number }> = {
  average: { NS: 50, EW: 50 },
  'average-plus': { NS: 60, EW: 60 },
  'average-minus': { NS: 40, EW: 40 },
};

function where(t: Traveller, i: number): string {
  return `traveller ${i + 1} (board ${t.board}, ${t.ns} v ${t.ew})`;
}

function readLine(t: BridgeTraveller, i: number): Line {
  if (!Number.isInteger(t.board) || t.board < 1) throw new Error(`traveller ${i + 1}: board ${JSON.stringify(t.board)} must be a whole number 1 or more`);
  if (typeof t.ns !== 'string' || typeof t.ew !== 'string' || !t.ns || !t.ew) throw new Error(`${where(t, i)}: give both pair ids, "ns" and "ew"`);
  if (t.ns === t.ew) throw new Error(`${where(t, i)}: pair ${t.ns} cannot play against itself; correct "ns" or "ew"`);
  const group = t.version === undefined ? '' : String(t.version);
  if (t.adjusted !== undefined) {
    const a = typeof t.adjusted === 'string' ? ADJUSTED[t.adjusted] : t.adjusted;
    const ok = (p: unknown) => typeof p === 'number' && p >= 0 && p <= 100;
    if (!a || !ok(a.NS) || !ok(a.EW)) throw new Error(`${where(t, i)}: adjusted must be "average", "average-plus", "average-minus" or {"NS": percent, "EW": percent} with percents 0 to 100`);
    return { t, adjusted: a, group };
  }
  if (typeof t.contract !== 'string') throw new Error(`${where(t, i)}: give "contract" (e.g. "4HE" or "PASS") and "tricks" (declarer's), or "adjusted"`);
  if (!isPassedOut(t.contract) && typeof t.tricks !== 'number') throw new Error(`${where(t, i)}: tricks must be the declarer's tricks, a number 0 to 13`);
  try {
    return { t, score: bridgeScore(t.board, t.contract, typeof t.tricks === 'number' ? t.tricks : undefined), group };
  } catch (e) {
    throw new Error(`${where(t, i)}: ${(e as Error).message}`);
  }
}

function rankField(rows: PairStanding[], key: (p: PairStanding) => number): void {
  const values = rows.map((r) => round2(key(r)));
  // Sorted once, not every row against every other (issue 18): a value's rank is one more than the count above it.
  const desc = [...values].sort((a, b) => b - a);
  const above = new Map<number, number>();
  const count = new Map<number, number>();
  desc.forEach((v, i) => {
    if (!above.has(v)) above.set(v, i);
    count.set(v, (count.get(v) ?? 0) + 1);
  });
  rows.forEach((r, i) => {
    const v = values[i];
    r.rank = above.get(v)! + 1;
    r.rankLabel = count.get(v)! > 1 ? `${r.rank}=` : String(r.rank);
  });
}

/** What a ScoreCache keeps of one bridge board: its entry in the report, and what it gives each pair in order. */
interface BridgeBoardPart {
  entry: ScoreReport['boards'][number];
  credits: [string, Direction, number][];
}

/** One board's results scored (`idx`: the lines' places in the travellers, for the messages). */
function scoreBoard(board: number, list: Line[], idx: readonly number[], method: BridgeMethod, expected: number): BridgeBoardPart {
  list.forEach((l, k) => {
    for (const o of list.slice(0, k)) {
      for (const p of [l.t.ns, l.t.ew]) {
        if (p === o.t.ns || p === o.t.ew) throw new Error(`${where(l.t, idx[k])}: pair ${p} already has a result on board ${l.t.board}; remove the duplicate line`);
      }
    }
  });
  const top = matchpointTop(expected);
  const mp = method === 'matchpoints';
  // Comparison groups: one per version of the board (one when it was not fouled); adjusted results stand apart.
  const groups = new Map<string, Line[]>();
  for (const l of list) {
    if (l.score === undefined) continue;
    groups.set(l.group, [...(groups.get(l.group) ?? []), l]);
  }
  const ns = new Map<Line, number>();
  const groupLists = [...groups.values()];
  if (mp) {
    const values = boardMatchpoints(groupLists.map((g) => g.map((l) => l.score!)), expected);
    groupLists.forEach((g, gi) => g.forEach((l, k) => ns.set(l, values[gi][k])));
  } else {
    for (const g of groupLists) {
      const scores = g.map((l) => l.score!);
      const values = method === 'butler' ? butlerImps(scores).imps : crossImps(scores);
      g.forEach((l, k) => ns.set(l, values[k]));
    }
  }
  const credits: BridgeBoardPart['credits'] = [];
  const results: ScoredResult[] = list.map((l) => {
    const r: ScoredResult = { ns: l.t.ns, ew: l.t.ew };
    if (l.t.table !== undefined) r.table = l.t.table;
    if (l.t.handScored) r.handScored = true;
    let nsValue: number;
    let ewValue: number;
    if (l.adjusted) {
      nsValue = mp ? round2((l.adjusted.NS * top) / 100) : round2((l.adjusted.NS - 50) * 0.3);
      ewValue = mp ? round2((l.adjusted.EW * top) / 100) : round2((l.adjusted.EW - 50) * 0.3);
    } else {
      r.contract = l.t.contract;
      if (typeof l.t.tricks === 'number') r.declarerTricks = l.t.tricks;
      r.score = l.score;
      nsValue = ns.get(l)!;
      ewValue = mp ? round2(top - nsValue) : round2(-nsValue);
    }
    if (mp) r.mp = { NS: nsValue, EW: ewValue };
    else r.imps = { NS: nsValue, EW: ewValue };
    credits.push([l.t.ns, 'NS', nsValue], [l.t.ew, 'EW', ewValue]);
    return r;
  });
  return { entry: mp ? { board, results, top } : { board, results }, credits };
}

/** Score bridge travellers by matchpoints (Neuberg where a board was not played everywhere), cross-IMPs or Butler. */
export function scoreBridge(travellers: readonly Traveller[], method: BridgeMethod, opts: BridgeScoreOptions = {}): ScoreReport {
  if (method !== 'matchpoints' && method !== 'cross-imps' && method !== 'butler') {
    throw new Error(`method ${JSON.stringify(method)}: bridge is scored by "matchpoints", "cross-imps" or "butler"`);
  }
  const all = travellers as readonly BridgeTraveller[];
  // Each board's travellers by their places in the list, in its order.
  const byBoard = new Map<number, number[]>();
  all.forEach((t, i) => {
    const list = byBoard.get(t.board);
    if (list) list.push(i);
    else byBoard.set(t.board, [i]);
  });
  // Without a cache every line is read first: the first bad line in the list is the one reported.
  const lines = opts.cache ? null : all.map(readLine);
  const most = Math.max(0, ...[...byBoard.values()].map((l) => l.length));
  const expected = opts.expected ?? most;
  if (!Number.isInteger(expected) || expected < most) {
    throw new Error(`expected: ${opts.expected} results a board is fewer than the ${most} one board has; give ${most} or more`);
  }
  const top = matchpointTop(expected);
  const mp = method === 'matchpoints';

  const pairs = new Map<string, { dirs: Set<Direction>; total: number; possible: number }>();
  const credit = (pair: string, dir: Direction, value: number) => {
    const p = pairs.get(pair) ?? { dirs: new Set<Direction>(), total: 0, possible: 0 };
    p.dirs.add(dir);
    p.total += value;
    p.possible += top;
    pairs.set(pair, p);
  };

  const boards: ScoreReport['boards'] = [];
  for (const board of [...byBoard.keys()].sort((a, b) => a - b)) {
    const idx = byBoard.get(board)!;
    const make = () => scoreBoard(board, idx.map((i) => lines ? lines[i] : readLine(all[i], i)), idx, method, expected);
    // A board's scores depend on the method and, for matchpoints, on the results a board is expected to have.
    const part = opts.cache ? opts.cache.part(`bridge:${method}:${expected}`, board, idx.map((i) => all[i]), make) : make();
    // Summed board by board, line by line, as the lines come: the totals are the same to the last bit either way.
    for (const [pair, dir, value] of part.credits) credit(pair, dir, value);
    boards.push(part.entry);
  }

  // A Mitchell keeps each pair in one direction all session and is ranked in two fields; a Howell in one.
  const mitchell = [...pairs.values()].every((p) => p.dirs.size === 1);
  const standings: PairStanding[] = [...pairs.entries()].map(([pair, p]) => {
    const s: PairStanding = { pair, total: round2(p.total), rank: 0 };
    if (mitchell) s.direction = [...p.dirs][0];
    if (mp) {
      s.percent = p.possible > 0 ? round2((100 * p.total) / p.possible) : 0;
      s.vsAverage = round2(p.total - p.possible / 2);
    }
    return s;
  });
  // Matchpoints rank by percentage (pairs may have played different numbers of boards); IMPs by total.
  const key = mp ? (s: PairStanding) => s.percent ?? 0 : (s: PairStanding) => s.total;
  const fields: PairStanding[][] = mitchell
    ? [standings.filter((s) => s.direction === 'NS'), standings.filter((s) => s.direction === 'EW')]
    : [standings];
  const out: PairStanding[] = [];
  for (const field of fields) {
    rankField(field, key);
    out.push(...field.sort((a, b) => a.rank - b.rank || compareIds(a.pair, b.pair)));
  }
  return { method, pairs: out, boards };
}
