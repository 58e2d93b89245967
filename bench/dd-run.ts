// The `dd` benchmark's own process (bench/dd.ts spawns it): DDS is asynchronous through DoubleDummy and maps a
// library that segfaults at exit, so the timing runs here and prints one JSON line; the process then kills itself.
// Usage: node build/bench/bench/dd-run.js DEALS ROUNDS
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parsePbn } from '../src/formats/pbn.js';
import { contractTrump } from '../src/formats/record.js';
import { type Dds, loadDds } from '../src/dd/dds.js';
import { DoubleDummy, type DdTable, type Position, type PositionResult, STRAINS } from '../src/dd/index.js';
import { analysePlay } from '../src/dd/play.js';
import { LiveAnalysis } from '../src/dd/live.js';
import { Table } from '../src/laws/engine.js';
import { type Measured, median } from './harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DATA = resolve(ROOT, '../shared/data/camrose2024-ben.pbn');

/** One timed workload; `run` returns a checksum so that both sides are seen to compute the same thing. */
interface AsyncCase { name: string; units: number; run(): Promise<number> }

const tableSum = (t: DdTable) => STRAINS.reduce((n, s) => n + t[s].N + 2 * t[s].E + 3 * t[s].S + 4 * t[s].W, 0);
const solveSum = (r: PositionResult) => r.tricks.NS * 100 + r.tricks.EW + r.cards.reduce((n, c) => n + c.tricks, 0);

async function main(): Promise<void> {
  const [dealsArg, roundsArg] = process.argv.slice(2).map(Number);
  const deals = parsePbn(readFileSync(DATA, 'utf8')).records
    .filter((r) => r.hands && r.plays.length === 52 && r.contract)
    .slice(0, dealsArg);
  const direct: Dds = loadDds();
  // No cache: every round asks DDS again, as a table seeing new deals does.
  const dd = new DoubleDummy({ cacheSize: 0 });
  // The positions before each card of the first two deals, found by analysing their play once (untimed).
  const positions: Position[] = [];
  const recorder = { solve: async (p: Position) => { positions.push(p); return direct.solve(p); } };
  for (const r of deals.slice(0, 2)) {
    const t = contractTrump(r.contract);
    await analysePlay(recorder, r.hands!, t < 0 ? 'NT' : STRAINS[t], r.plays);
  }
  // The live path (src/dd/live.ts, config feed.analysis): the first two deals played card by card through the engine,
  // the analysis following the table and publishing after each card, as the daemon does with the embargo lifted. Its
  // own solver keeps a small cache: each position is solved once a round, the deal's history comes from the cache.
  const liveDd = new DoubleDummy({ cacheSize: 64 });
  const liveDeals = deals.slice(0, 2);
  let liveSum = 0;
  const live = new LiveAnalysis({ dd: liveDd, publish: (a) => { const p = a.positions.at(-1); if (p) liveSum += p.left.NS * 100 + p.left.EW + p.cards.reduce((n, c) => n + c.tricks, 0); } });
  const playLive = async (): Promise<number> => {
    liveSum = 0;
    for (const r of liveDeals) {
      const t = new Table({ variant: 'bridge' });
      t.deal({ board: r.board, variant: 'bridge', dealer: r.dealer, hands: r.hands!, contract: r.contract });
      live.observe(t, { seq: null, newDeal: true, released: true });
      await live.settled();
      for (const p of r.plays) {
        t.play(p.seat, p.card);
        live.observe(t, { seq: null, newDeal: false, released: true });
        await live.settled();
      }
    }
    return liveSum;
  };
  const cases: AsyncCase[] = [
    // A table is 20 results (4 declarers x 5 strains): counted so, the rates are not a rounded 1 a second.
    { name: 'tables: DoubleDummy (child process)', units: deals.length * 20, run: async () => { let n = 0; for (const r of deals) n += tableSum(await dd.table(r.hands!)); return n; } },
    { name: 'tables: DDS in this process (floor)', units: deals.length * 20, run: async () => { let n = 0; for (const r of deals) n += tableSum(direct.table(r.hands!)); return n; } },
    { name: 'positions: DoubleDummy (child process)', units: positions.length, run: async () => { let n = 0; for (const p of positions) n += solveSum(await dd.solve(p)); return n; } },
    { name: 'positions: DDS in this process (floor)', units: positions.length, run: async () => { let n = 0; for (const p of positions) n += solveSum(direct.solve(p)); return n; } },
    // Counted per card played (52 a deal): each is one new position solved, its message built and handed over.
    { name: 'live: after each card, LiveAnalysis (child process)', units: liveDeals.reduce((n, r) => n + r.plays.length, 0), run: playLive },
  ];
  await dd.status();
  await liveDd.status();
  for (const c of cases) await c.run(); // warm-up: the child started, both sides' memory allocated
  const out: Measured[] = cases.map((c) => ({ name: c.name, units: c.units, rates: [], median: 0, checksum: 0 }));
  for (let round = 0; round < roundsArg; round++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (round + k) % cases.length;
      const t0 = performance.now();
      out[i].checksum = await cases[i].run();
      out[i].rates.push(cases[i].units / ((performance.now() - t0) / 1000));
    }
  }
  for (const m of out) m.median = median(m.rates);
  // Sanity: the par of each deal is the ParScore BridgeComposer wrote in the file.
  let parOk = 0;
  for (const r of deals) {
    const par = direct.par(direct.table(r.hands!), (r.vulnerable === 'Both' ? 'All' : r.vulnerable ?? 'None') as 'None', r.dealer);
    if (String(par.score) === r.tags.ParScore) parOk++;
  }
  dd.close();
  liveDd.close();
  process.stdout.write(`${JSON.stringify({ results: out, deals: deals.length, positions: positions.length, parOk, version: direct.version })}\n`,
    () => process.kill(process.pid, 'SIGKILL'));
}

await main();
