// "Did you mean ...?" for config keys, enum values and environment variable names.

/** Edit distance (insert, delete, substitute, swap of neighbours) between two strings. */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  // Three rows are enough for the optimal-string-alignment variant, which counts "fsnyc" -> "fsync" as one edit.
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = new Array<number>(n + 1);
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}

// Compare spellings without case, "_" or "-", so group_commit_ms, GroupCommitMs and groupCommitMs all match.
function fold(s: string): string {
  return s.toLowerCase().replace(/[_-]/g, '');
}

/** The candidate closest to `word`, when it is close enough to be a plausible typo; otherwise undefined. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = fold(word);
  // One or two letters are too short to guess from ("X" is one edit from every seat): only a case slip counts.
  if (w.length < 3) return candidates.find((c) => fold(c) === w);
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(w, fold(c));
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  // A third of the length tolerates one slip in short words and two or three in long ones, but never
  // "suggests" an unrelated key.
  const limit = Math.max(1, Math.floor(Math.max(w.length, 3) / 3));
  if (bestD <= limit) return best;
  // A longer or shorter form of a name ("logging" for "log", "keepaliveSeconds" for "keepalive").
  return candidates.find((c) => {
    const f = fold(c);
    return f.length >= 3 && (w.startsWith(f) || f.startsWith(w));
  });
}
