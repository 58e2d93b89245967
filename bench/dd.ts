// `npm run bench -- dd`: double-dummy solves per second (issue 21): full tables (20 results a deal) and positions
// before each card (every legal card's result), through DoubleDummy's child process against DDS called in the same
// process, the floor. The timing runs in bench/dd-run.ts's own process: libdds segfaults at exit.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import type { BenchReport, Measured } from './harness.js';

export interface DdBenchOptions { deals: number; rounds: number }
export const DD_DEFAULTS: DdBenchOptions = { deals: 8, rounds: 3 };

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'dd-run.js');

/** Run the dd benchmark in its own process and turn its JSON line into a report. */
export function benchDd(opts: DdBenchOptions): BenchReport {
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  const r = spawnSync(process.execPath, [RUNNER, String(opts.deals), String(opts.rounds)], { encoding: 'utf8', timeout: 600_000 });
  let got: { results: Measured[]; deals: number; positions: number; parOk: number; version: string } | undefined;
  try {
    got = JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
  } catch {
    got = undefined;
  }
  const title = 'dd: double-dummy solves per second (DDS through DoubleDummy vs DDS in-process)';
  if (!got) {
    return { title, notes: [`the runner failed: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').pop()}`], results: [], ratios: [], sanity: [{ what: 'runner printed its results', value: 'no', ok: false }] };
  }
  const [tIso, tFloor, pIso, pFloor, live] = got.results;
  return {
    title,
    notes: [
      `corpus: the first ${got.deals} fully played deals of ../shared/data/camrose2024-ben.pbn; positions: before each card of the first two (${got.positions})`,
      'units: tables count 20 results each (4 declarers x 5 strains); a position is one SolveBoard giving every legal card\'s result',
      'live: the first two deals played card by card through the engine, LiveAnalysis (feed.analysis) publishing after each card: one card = one new position solved and the deal\'s message (its history from the cache) built',
      `DDS ${got.version}; one request at a time; no cache; ${opts.rounds} alternating rounds after a warm-up; load average ${load}; node ${process.version}`,
    ],
    results: got.results,
    ratios: [
      ['tables: child process / in-process', tIso.name, tFloor.name],
      ['positions: child process / in-process', pIso.name, pFloor.name],
      ...(live ? [['live after each card / positions in-process', live.name, pFloor.name] as [string, string, string]] : []),
    ],
    sanity: [
      { what: 'tables: both sides the same checksum', value: `${tIso.checksum} / ${tFloor.checksum}`, ok: tIso.checksum === tFloor.checksum },
      { what: 'positions: both sides the same checksum', value: `${pIso.checksum} / ${pFloor.checksum}`, ok: pIso.checksum === pFloor.checksum },
      // The live messages, summed over the opening lead and the position after each card, hold the same positions.
      ...(live ? [{ what: 'live: the messages hold the same positions', value: `${live.checksum} / ${pFloor.checksum}`, ok: live.checksum === pFloor.checksum }] : []),
      { what: 'par = the file\'s ParScore (BridgeComposer)', value: `${got.parOk} / ${got.deals}`, ok: got.parOk === got.deals },
    ],
  };
}
