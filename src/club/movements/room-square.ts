// The frame of a complete Howell for 2T pairs: 2T - 1 rounds, each a set of T matches, each match with a board set,
// such that every pair meets every other once and plays every set once. When no set is played twice in a round this
// is a Room square of side n = 2T - 1 (rows rounds, columns sets); those exist for every odd side but 3 and 5.
//
// We build it from a starter and an adder over Z_n (symbols 0..n-1 and ∞ = n). A starter is a partition of the
// nonzero elements into pairs {x, y} whose differences ±(y - x) are every nonzero element once; an adder gives each
// starter pair a distinct nonzero a such that the elements x - a, y - a are again every nonzero element once. Round
// r then has {∞, r} at set r and {x + r, y + r} at set r + a: every row and column a perfect matching, every pair
// of symbols once. The patterned starter {x, -x} has an adder for every side from 7 to 49 except 9; for 9 (and as a
// fallback) we try the other starters in order. For 3 and 5 there is none: we take the cyclic rounds and, among all
// the ways to give each match a set (one-factorizations of K4, K6), the one with the fewest sets shared in a round.
// Deterministic and quick (milliseconds up to side 49); nothing is stored on disk.

/** One match of a round: two symbols (0..n-1, and n for ∞), and its board set (0..n-1). */
export interface FrameMatch { a: number; b: number; set: number }

/** Rounds × matches. Match 0 of every round is the one with ∞; match i (1..T-1) comes from starter pair i. */
export interface HowellFrame { side: number; rounds: FrameMatch[][] }

const mod = (a: number, n: number): number => ((a % n) + n) % n;

/** The patterned starter {x, n - x}, x = 1..(n-1)/2. */
function patterned(n: number): [number, number][] {
  return Array.from({ length: (n - 1) / 2 }, (_, i) => [i + 1, n - i - 1] as [number, number]);
}

/** An adder for the starter by depth-first search, or null when none exists or `budget` steps run out. */
export function findAdder(n: number, starter: [number, number][], budget: number): number[] | null {
  const adder: number[] = [];
  const usedA = new Array<boolean>(n).fill(false);
  const usedE = new Array<boolean>(n).fill(false);
  usedA[0] = true;
  usedE[0] = true;
  let steps = 0;
  const visit = (i: number): boolean => {
    if (++steps > budget) return false;
    if (i === starter.length) return true;
    const [x, y] = starter[i];
    for (let a = 1; a < n; a++) {
      const e1 = mod(x - a, n);
      const e2 = mod(y - a, n);
      if (usedA[a] || usedE[e1] || usedE[e2] || e1 === e2) continue;
      usedA[a] = usedE[e1] = usedE[e2] = true;
      adder[i] = a;
      if (visit(i + 1)) return true;
      usedA[a] = usedE[e1] = usedE[e2] = false;
    }
    return false;
  };
  return visit(0) ? adder.slice(0, starter.length) : null;
}

/** The starters of Z_n in lexicographic order (lowest free element paired with each larger one in turn). */
function* starters(n: number): Generator<[number, number][]> {
  const used = new Array<boolean>(n).fill(false);
  const diff = new Array<boolean>(n).fill(false);
  used[0] = true;
  diff[0] = true;
  const pairs: [number, number][] = [];
  function* visit(): Generator<[number, number][]> {
    const x = used.indexOf(false);
    if (x < 0) { yield pairs.slice(); return; }
    for (let y = x + 1; y < n; y++) {
      const d = mod(y - x, n);
      const e = mod(x - y, n);
      if (used[y] || diff[d] || diff[e]) continue;
      used[x] = used[y] = diff[d] = diff[e] = true;
      pairs.push([x, y]);
      yield* visit();
      pairs.pop();
      used[x] = used[y] = diff[d] = diff[e] = false;
    }
  }
  yield* visit();
}

/** A starter and adder for side n (odd, 7 or more), or null if the bounded search finds none. */
export function starterAdder(n: number): { starter: [number, number][]; adder: number[] } | null {
  const first = patterned(n);
  const a = findAdder(n, first, 2_000_000);
  if (a) return { starter: first, adder: a };
  let tried = 0;
  for (const s of starters(n)) {
    const b = findAdder(n, s, 20_000);
    if (b) return { starter: s, adder: b };
    if (++tried > 2_000) break;
  }
  return null;
}

/** The perfect matchings of the symbols `vs`, lowest symbol first, in a fixed order. */
function matchings(vs: number[]): [number, number][][] {
  if (vs.length === 0) return [[]];
  const [a, ...rest] = vs;
  const out: [number, number][][] = [];
  for (const b of rest) for (const m of matchings(rest.filter((x) => x !== b))) out.push([[a, b], ...m]);
  return out;
}

/** Sides 3 and 5: cyclic rounds, and the set assignment (a one-factorization) sharing the fewest sets in a round. */
function smallFrame(n: number): HowellFrame {
  const inf = n;
  const starter = patterned(n);
  const key = (a: number, b: number): number => (a < b ? a * 64 + b : b * 64 + a);
  const roundOf = new Map<number, number>();
  for (let r = 0; r < n; r++) {
    roundOf.set(key(inf, r), r);
    for (const [x, y] of starter) roundOf.set(key(mod(x + r, n), mod(y + r, n)), r);
  }
  const edges = [...roundOf.keys()].sort((p, q) => p - q);
  const all = matchings(Array.from({ length: n + 1 }, (_, i) => i)).map((m) => m.map(([a, b]) => key(a, b)));
  let best: number[][] | undefined;
  let bestCost = Infinity;
  const chosen: number[][] = [];
  const used = new Set<number>();
  const visit = (): void => {
    const free = edges.find((e) => !used.has(e));
    if (free === undefined) {
      // Cost: the matches beyond the first that play the same set in the same round.
      const cells = new Map<number, number>();
      chosen.forEach((m, set) => m.forEach((e) => { const c = roundOf.get(e)! * 64 + set; cells.set(c, (cells.get(c) ?? 0) + 1); }));
      const cost = [...cells.values()].reduce((s, v) => s + v - 1, 0);
      if (cost < bestCost) { bestCost = cost; best = chosen.map((m) => m.slice()); }
      return;
    }
    for (const m of all) {
      if (!m.includes(free) || m.some((e) => used.has(e))) continue;
      m.forEach((e) => used.add(e));
      chosen.push(m);
      visit();
      chosen.pop();
      m.forEach((e) => used.delete(e));
    }
  };
  visit();
  const setOf = new Map<number, number>();
  best!.forEach((m, set) => m.forEach((e) => setOf.set(e, set)));
  const rounds: FrameMatch[][] = [];
  for (let r = 0; r < n; r++) {
    const pairs: [number, number][] = [[inf, r], ...starter.map(([x, y]) => [mod(x + r, n), mod(y + r, n)] as [number, number])];
    rounds.push(pairs.map(([a, b]) => ({ a, b, set: setOf.get(key(a, b))! })));
  }
  return { side: n, rounds };
}

const frames = new Map<number, HowellFrame>();

/** The Howell frame for side n = 2T - 1 (odd, 3 or more): a Room square from 7 on, the least sharing for 3 and 5. */
export function howellFrame(n: number): HowellFrame {
  if (!Number.isInteger(n) || n < 3 || n % 2 === 0) throw new Error(`side: ${n} is not an odd number of rounds of 3 or more (a bug in the caller)`);
  const cached = frames.get(n);
  if (cached) return cached;
  let frame: HowellFrame;
  if (n <= 5) {
    frame = smallFrame(n);
  } else {
    const sa = starterAdder(n);
    if (!sa) throw new Error(`howell: no Room square of side ${n} found by the bounded search; use fewer tables`);
    const rounds: FrameMatch[][] = [];
    for (let r = 0; r < n; r++) {
      rounds.push([
        { a: n, b: r, set: r },
        ...sa.starter.map(([x, y], i) => ({ a: mod(x + r, n), b: mod(y + r, n), set: mod(r + sa.adder[i], n) })),
      ]);
    }
    frame = { side: n, rounds };
  }
  frames.set(n, frame);
  return frame;
}
