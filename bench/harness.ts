// Shared benchmark machinery: alternating timed rounds, medians, and plain-text tables. Each benchmark module
// (bench/rules.ts, later others) builds its inputs, hands timed cases to `measure`, and returns a BenchReport
// that bench/index.ts prints; inputs are converted before timing so only the work under test is measured.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
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

// ------------------------------------------------------------------ latency and memory reports (club, championship)

/** Nearest-rank percentile `p` of an ascending list (NaN when it is empty). */
export const pct = (sorted: readonly number[], p: number): number => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
/** Milliseconds to one decimal, or n/a. */
export const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a');
/** Kilobytes as megabytes to one decimal, or n/a. */
export const mb = (kb: number) => (Number.isFinite(kb) ? `${(kb / 1024).toFixed(1)} MB` : 'n/a');
/** a / b as `1.23x`, or n/a when either is not a number or b is not positive. */
export const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');

/** Latencies (ms, sorted) against their floor as a table: samples, p50, p99, max, and p99 over the floor's p99. */
export function latencyTable(path: string, lat: readonly number[], floorPath: string, floor: readonly number[]): string {
  return table(['path', 'samples', 'p50', 'p99', 'max', 'p99 / floor'], [
    [path, String(lat.length), ms(pct(lat, 50)), ms(pct(lat, 99)), ms(lat.at(-1) ?? NaN), ratio(pct(lat, 99), pct(floor, 99))],
    [floorPath, String(floor.length), ms(pct(floor, 50)), ms(pct(floor, 99)), ms(floor.at(-1) ?? NaN), '1.00x'],
  ]);
}

/** A process's resident memory (VmRSS) in kB, NaN when it is gone or unknown. */
export function rssKb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

// ------------------------------------------------------------------ benchmarks run in a child process

// The async benchmarks run in a child process (bench/index.ts is synchronous), which prints its report on one line.
const REPORT_PREFIX = 'TENACE-BENCH-REPORT ';

/** build/bench/bench → the repository. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface ChildBench {
  /** The benchmark module's import.meta.url: the child runs that file. */
  module: string;
  /** The argument that makes the module run as the child (see serveChild). */
  flag: string;
  timeoutMs: number;
  /** Name and title used for the report when the child gives none. */
  name: string;
  title: string;
}

/** Run a benchmark module in a child process with `opts` and return the report it prints (a failing one if none). */
export function runChild(b: ChildBench, opts: unknown): BenchReport {
  const r = spawnSync(process.execPath, [fileURLToPath(b.module), b.flag, JSON.stringify(opts)], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', timeout: b.timeoutMs, killSignal: 'SIGTERM', maxBuffer: 64 << 20,
  });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith(REPORT_PREFIX));
  if (line) return JSON.parse(line.slice(REPORT_PREFIX.length)) as BenchReport;
  const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
  return { title: b.title, notes: [`the benchmark process gave no report (${why}); its messages are above`], results: [], ratios: [], sanity: [{ what: `${b.name} benchmark completed`, value: why, ok: false }] };
}

/** In the child started by runChild (its `flag` in argv): run the benchmark, print its report for the parent, exit. */
export function serveChild<O>(flag: string, run: (o: O) => Promise<BenchReport>): void {
  if (process.argv[2] !== flag) return;
  run(JSON.parse(process.argv[3]) as O).then((rep) => {
    process.stdout.write(`${REPORT_PREFIX}${JSON.stringify(rep)}\n`);
    process.exit(0);
  }, (err: Error) => {
    process.stderr.write(`${err.stack ?? err.message}\n`);
    process.exit(1);
  });
}
