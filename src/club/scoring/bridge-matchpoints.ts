// Matchpoints on one board, and the Neuberg formula that factors a smaller comparison group up to the full field.
//
// The scale is the EBU's (and the WBF's): 2 matchpoints for each score beaten, 1 for each tie, so a board played n
// times has a top of 2(n - 1) and an average of n - 1. (ACBL's 1 per score beaten, half per tie is this halved.)

/** Matchpoints of each N-S score against the other N-S scores of its group: 2 per score beaten, 1 per tie. */
export function matchpoints(scores: readonly number[]): number[] {
  return scores.map((s, i) => {
    let mp = 0;
    for (let j = 0; j < scores.length; j++) {
      if (j === i) continue;
      if (s > scores[j]) mp += 2;
      else if (s === scores[j]) mp += 1;
    }
    return mp;
  });
}

/** The top of a board with `results` scores on the 2-per-beaten scale: 2(n - 1). */
export function matchpointTop(results: number): number {
  return Math.max(0, 2 * (results - 1));
}

/**
 * The Neuberg formula on the 2-per-beaten scale: matchpoints `mp` earned in a group of `actual` results, factored
 * up to a board of `expected` results: (mp + 1) × E / A - 1. Written by the EBU as ((M × E) + (E - A)) / A
 * ("Scoring of fouled boards", Nick Doe), by the WBF and ACBL as M = N·S/n + (N - n)/2n on the 1-per scale.
 * The group's average maps to the full average and the group's total to A × the full average; a top in a smaller
 * group maps to less than the full top (the formula assumes the missing results would spread like the ones we have).
 */
export function neuberg(mp: number, actual: number, expected: number): number {
  if (!(actual >= 1) || !(expected >= actual)) throw new Error(`neuberg: ${actual} results cannot be factored up to ${expected}; give 1 <= actual <= expected`);
  return ((mp + 1) * expected) / actual - 1;
}

/**
 * Rounds factored matchpoints to the nearest 0.1, a half (0.05) going towards the board's average, as the EBU does:
 * "Scores are rounded to the nearest 0.1 of a match point (0.05 being rounded towards average)".
 */
export function roundTowardsAverage(mp: number, average: number): number {
  const x = mp * 10;
  const f = Math.floor(x);
  const frac = x - f;
  let tenths: number;
  if (Math.abs(frac - 0.5) < 1e-9) tenths = mp > average ? f : f + 1;
  else tenths = Math.round(x);
  return Number((tenths / 10).toFixed(1));
}

/**
 * Matchpoints of each N-S score on a board where the scores form comparison groups (one group normally; one per
 * version of a fouled board, Law 87B), with `expected` results on a full board. A group smaller than `expected`
 * is factored up with Neuberg and rounded to 0.1 towards average; a full group keeps its whole matchpoints.
 */
export function boardMatchpoints(groups: readonly (readonly number[])[], expected: number): number[][] {
  const average = expected - 1;
  return groups.map((scores) => {
    const raw = matchpoints(scores);
    if (scores.length === expected) return raw;
    return raw.map((mp) => roundTowardsAverage(neuberg(mp, scores.length, expected), average));
  });
}
