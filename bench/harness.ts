// Shared benchmark machinery: alternating timed rounds, medians, and plain-text tables. Each benchmark module
// (bench/rules.ts, later others) builds its inputs, hands timed cases to `measure`, and returns a BenchReport
// that bench/index.ts prints; inputs are converted before timing so only the work under test is measured.
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** One timed workload: `run` processes `input` once and returns a checksum, so the work cannot be optimised away. */
export interface BenchCase<I = unknown> {
  name: string;
  /** What one run processes, e.g. 10 000 deals. */
  units: number;
  input: I;
  run(input: I): number;
}

export interface Measured {
  name: string;
  units: number;
  /** Units per second in each timed round. */
  rates: number[];
  median: number;
  /** Checksum of the last run, printed so a change in results is visible next to a change in speed. */
  checksum: number;
}

export interface MeasureOptions {
  /** Untimed full runs of each case first, so every side is JIT-compiled before timing. */
  warmup: number;
  /** Timed rounds; within a round every case runs once, starting from a different case each round. */
  rounds: number;
}

export interface SanityLine { what: string; value: string; ok: boolean }

export interface BenchReport {
  title: string;
  /** Free-form lines describing the corpus. */
  notes: string[];
  results: Measured[];
  /** Ratios to print, as [label, numerator case, denominator case]. */
  ratios: [string, string, string][];
  sanity: SanityLine[];
}

/** The median of a non-empty list of numbers. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// A full collection before each timed run, so one side's garbage is not billed to the other. `npm run bench` runs
// plain tsx, so expose gc at run time (a fresh context picks the flag up); without it, rounds are just noisier.
const gc: (() => void) | undefined = (() => {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

function collect(): void {
  if (gc) gc();
}

/** Shortest timed sample; a run shorter than this is repeated within the sample. */
const MIN_SAMPLE_MS = 400;

/** Time the cases in alternating rounds after a warm-up; returns per-case rates and medians. */
export function measure(cases: readonly BenchCase<any>[], opts: MeasureOptions): Measured[] {
  const out: Measured[] = cases.map((c) => ({ name: c.name, units: c.units, rates: [], median: 0, checksum: 0 }));
  for (let w = 0; w < opts.warmup; w++) for (const c of cases) c.run(c.input);
  for (let r = 0; r < opts.rounds; r++) {
    // Rotate the starting case so no side always runs first (warm caches, GC debt left by the previous case).
    for (let k = 0; k < cases.length; k++) {
      const i = (r + k) % cases.length;
      const c = cases[i];
      collect();
      // Repeat the run for a minimum time: a single run right after a full collection measures the heap
      // regrowing, not the steady state a daemon lives in, and that transient punishes allocation unevenly.
      const t0 = performance.now();
      let runs = 0;
      let sum = 0;
      let ms = 0;
      do {
        sum = c.run(c.input);
        runs++;
        ms = performance.now() - t0;
      } while (ms < MIN_SAMPLE_MS);
      out[i].rates.push((c.units * runs) / (ms / 1000));
      out[i].checksum = sum;
    }
  }
  for (const m of out) m.median = median(m.rates);
  return out;
}

/** Render rows as a left-aligned text table with a header rule. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

/** Print a benchmark report: corpus notes, the rates table, the ratios and the sanity checks. */
export function printReport(rep: BenchReport): void {
  console.log(`\n== ${rep.title} ==`);
  for (const n of rep.notes) console.log(n);
  console.log('');
  console.log(table(
    ['case', 'units/run', 'median/s', 'min/s', 'max/s', 'rounds', 'checksum'],
    rep.results.map((m) => [m.name, fmt(m.units), fmt(m.median), fmt(Math.min(...m.rates)), fmt(Math.max(...m.rates)), String(m.rates.length), String(m.checksum)]),
  ));
  if (rep.ratios.length) {
    console.log('');
    const byName = new Map(rep.results.map((m) => [m.name, m]));
    console.log(table(['ratio (median rates)', 'value'], rep.ratios.map(([label, a, b]) => {
      const x = byName.get(a), y = byName.get(b);
      return [label, x && y ? `${(x.median / y.median).toFixed(2)}x` : 'n/a'];
    })));
  }
  console.log('');
  console.log(table(['sanity check', 'value', 'ok'], rep.sanity.map((s) => [s.what, s.value, s.ok ? 'yes' : 'NO'])));
}
