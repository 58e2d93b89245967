// International Match Points: the WBF IMP scale, cross-IMPs and Butler. Pure functions over N-S scores.

// The WBF scale by its lower edges: a difference of 20-40 is 1 IMP, 50-80 is 2, ..., 4000 and more is 24.
// Scores are multiples of 10, so a difference between two edges (15, say) only comes from hand-made input; it takes
// the IMPs of the edge below.
const IMP_EDGES: readonly number[] = [
  20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000,
  3500, 4000,
];

/** IMPs for a score difference on the WBF scale (0-10 → 0, 20-40 → 1, ..., 4000+ → 24), signed like the difference. */
export function imps(difference: number): number {
  const d = Math.abs(difference);
  let n = 0;
  while (n < IMP_EDGES.length && d >= IMP_EDGES[n]) n++;
  return difference < 0 && n > 0 ? -n : n;
}

/**
 * Cross-IMPs of each N-S score against every other N-S score of the same comparison group, divided by the number of
 * comparisons (n - 1), as BBO and the EBU's scorers print them: the result reads like IMPs against one other table.
 * A score alone in its group has nothing to compare with and gets 0.
 */
export function crossImps(scores: readonly number[]): number[] {
  const n = scores.length;
  if (n < 2) return scores.map(() => 0);
  return scores.map((s, i) => {
    let sum = 0;
    for (let j = 0; j < n; j++) if (j !== i) sum += imps(s - scores[j]);
    return round2(sum / (n - 1));
  });
}

/** From this many results on, Butler's datum leaves out the highest and the lowest N-S score. */
export const BUTLER_TRIM_FROM = 5;

/**
 * Butler's datum: the average N-S score, leaving out one highest and one lowest score when there are 5 or more
 * (so 3 or more remain), rounded to the nearest 10 (halves away from zero: 425 → 430, -425 → -430).
 */
export function butlerDatum(scores: readonly number[]): number {
  if (scores.length === 0) throw new Error('butler: a datum needs at least one score');
  const sorted = [...scores].sort((a, b) => a - b);
  const used = sorted.length >= BUTLER_TRIM_FROM ? sorted.slice(1, -1) : sorted;
  const sum = used.reduce((a, b) => a + b, 0);
  // In whole numbers: the nearest multiple of 10 to |sum| / k, halves up, is floor((2|sum| + 10k) / 20k) tens.
  const k = used.length;
  const r = Math.floor((2 * Math.abs(sum) + 10 * k) / (20 * k)) * 10;
  return sum < 0 ? -r : r;
}

/** Butler IMPs of each N-S score against the group's datum. */
export function butlerImps(scores: readonly number[]): { datum: number; imps: number[] } {
  const datum = butlerDatum(scores);
  return { datum, imps: scores.map((s) => imps(s - datum)) };
}

/** Rounds to hundredths, so sums of thirds print as 1.33 rather than 1.3333333333333333. */
export function round2(x: number): number {
  const r = Math.round(x * 100) / 100;
  return r === 0 ? 0 : r;
}
