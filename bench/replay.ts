// `npm run bench -- replay`: the whole `tenace replay FILE --json > /dev/null` process on a big real PBN file, against
// the peer's whole process (@bridge-tools/core: regex parse + Board.isPlayValid, bench/replay-peer.ts) and against
// a physical floor (read the file, split it into games, write as many bytes of JSON: bench/replay-floor.ts). Each
// runs as its own node process, timed end to end; peak RSS of each is read at exit (bench/replay-rss.ts) on the file
// once and four times over, so memory that grows with the file shows.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchReport, type BenchCase, type SanityLine, measure } from './harness.js';

export interface ReplayBenchOptions {
  /** Games with a full play taken from the real files, then repeated `copies` times. */
  games: number;
  copies: number;
  warmup: number;
  rounds: number;
}

export const REPLAY_DEFAULTS: ReplayBenchOptions = { games: 292, copies: 40, warmup: 1, rounds: 5 };

const here = dirname(fileURLToPath(import.meta.url));
// Compiled by `npm run bench` next to this file: build/bench/bench/*.js and build/bench/src/cli/main.js, the same
// JavaScript `npm run build` puts in dist/ (the bin runs that), so no TypeScript loader is timed.
const MAIN = process.env.TENACE_BENCH_MAIN ?? resolve(here, '../src/cli/main.js');
const PEER = join(here, 'replay-peer.js');
const FLOOR = join(here, 'replay-floor.js');
const RSS = join(here, 'replay-rss.js');
const DATA = resolve(here, '../../../../shared/data');
const SOURCES = ['camrose2024-ben.pbn', 'tablemonitor-training.pbn'];

/** Games with a complete play (13 rows after the Play tag) from the real files, CRLF normalised, in file order. */
function realGames(want: number): string[] {
  const out: string[] = [];
  for (const f of SOURCES) {
    for (const g of readFileSync(join(DATA, f), 'utf8').replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)) {
      const play = g.indexOf('[Play ');
      // Brace commentary may hold an empty line: such a piece is not a whole game, and is left out.
      if (play < 0 || !g.includes('[Deal ') || (g.split('{').length !== g.split('}').length)) continue;
      const rows = g.slice(play).split('\n').slice(1).filter((l) => /^\s*\S+\s+\S+\s+\S+\s+\S+\s*$/.test(l));
      if (rows.length < 13) continue;
      out.push(g.trim());
      if (out.length === want) return out;
    }
  }
  return out;
}

interface Run { ms: number; rss: number; stdout: string; stderr: string; status: number | null }

/** One process, end to end: wall time, peak RSS, what it said. */
function runProcess(args: string[], toNull: boolean, rssFile: string): Run {
  const devnull = openSync('/dev/null', 'w');
  try {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', RSS, ...args], {
      stdio: ['ignore', toNull ? devnull : 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 30,
      env: { ...process.env, TENACE_BENCH_RSS: rssFile },
    });
    const ms = performance.now() - t0;
    let rss = 0;
    try { rss = Number(readFileSync(rssFile, 'utf8')); } catch { /* no exit hook ran */ }
    return { ms, rss, stdout: r.stdout ?? '', stderr: r.stderr ?? '', status: r.status };
  } finally {
    closeSync(devnull);
  }
}

const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;

/** Build the file, check what each side makes of it, time the three processes in alternating rounds, report. */
export function benchReplay(opts: ReplayBenchOptions = REPLAY_DEFAULTS): BenchReport {
  const dir = mkdtempSync(join(tmpdir(), 'tenace-bench-replay-'));
  try {
    const games = realGames(opts.games);
    const one = Array.from({ length: opts.copies }, () => games.join('\n\n')).join('\n\n') + '\n';
    const file = join(dir, 'big.pbn');
    const file4 = join(dir, 'big4.pbn');
    writeFileSync(file, one);
    writeFileSync(file4, one + '\n' + one + '\n' + one + '\n' + one);
    const n = games.length * opts.copies;
    const rssFile = join(dir, 'rss');
    const ours = (f: string) => [MAIN, 'replay', f, '--json'];

    // Untimed: what each side makes of the file, and the size of our JSON for the floor to write as much.
    const check = spawnSync(process.execPath, ours(file), { encoding: 'utf8', maxBuffer: 1 << 30 });
    let dealsOut = -1, full = -1, findings = -1;
    try {
      const j = JSON.parse(check.stdout) as { deals: { tricks: unknown[]; findings: unknown[] }[] };
      dealsOut = j.deals.length;
      full = j.deals.filter((d) => d.tricks.length === 13).length;
      findings = j.deals.reduce((a, d) => a + d.findings.length, 0);
    } catch { /* reported below */ }
    const outBytes = Buffer.byteLength(check.stdout ?? '');
    const perGame = Math.round(outBytes / Math.max(1, n));
    const peerCheck = runProcess([PEER, file], false, rssFile);
    const [peerValid, peerGames] = peerCheck.stdout.trim().split('/').map(Number);

    const cases: BenchCase<string>[] = [
      { name: 'ours: tenace replay FILE --json > /dev/null', units: n, input: file, run: (f) => runProcess(ours(f), true, rssFile).status ?? -1 },
      { name: 'peer: regex parse + Board.isPlayValid', units: n, input: file, run: (f) => Number(runProcess([PEER, f], false, rssFile).stdout.split('/')[0]) },
      { name: 'floor: read + split + write the JSON', units: n, input: file, run: (f) => runProcess([FLOOR, f, String(perGame)], true, rssFile).status ?? -1 },
    ];
    const results = measure(cases, { warmup: opts.warmup, rounds: opts.rounds });

    // Peak RSS on the file once and four times over (each measured once, after the timing).
    const rssOurs1 = runProcess(ours(file), true, rssFile).rss;
    const rssOurs4 = runProcess(ours(file4), true, rssFile).rss;
    const rssPeer1 = runProcess([PEER, file], false, rssFile).rss;
    const rssPeer4 = runProcess([PEER, file4], false, rssFile).rss;
    const rssFloor1 = runProcess([FLOOR, file, String(perGame)], true, rssFile).rss;
    const rssFloor4 = runProcess([FLOOR, file4, String(perGame)], true, rssFile).rss;

    const sanity: SanityLine[] = [
      { what: 'ours: exit status 0, nothing on stderr', value: `${check.status}, ${JSON.stringify((check.stderr ?? '').slice(0, 60))}`, ok: check.status === 0 && !check.stderr },
      { what: 'ours: deals replayed', value: `${dealsOut} / ${n}`, ok: dealsOut === n },
      { what: 'ours: deals with 13 tricks', value: `${full} / ${n}`, ok: full === n },
      { what: 'peer: games judged valid', value: `${peerValid} / ${n} (read ${peerGames})`, ok: peerValid === n && peerGames === n },
      { what: 'ours: RSS x4 file / x1 file (flat: near 1)', value: `${mb(rssOurs4)} / ${mb(rssOurs1)} = ${(rssOurs4 / rssOurs1).toFixed(2)}`, ok: rssOurs4 > 0 && rssOurs1 > 0 },
      { what: 'peer: RSS x4 file / x1 file', value: `${mb(rssPeer4)} / ${mb(rssPeer1)} = ${(rssPeer4 / rssPeer1).toFixed(2)}`, ok: rssPeer4 > 0 },
      { what: 'floor: RSS x4 file / x1 file', value: `${mb(rssFloor4)} / ${mb(rssFloor1)} = ${(rssFloor4 / rssFloor1).toFixed(2)}`, ok: rssFloor4 > 0 },
    ];
    return {
      title: 'replay: whole process, tenace replay FILE --json > /dev/null, deals/second',
      notes: [
        `file: ${games.length} fully played real deals (${SOURCES.join(', ')} in ../shared/data) x ${opts.copies} = ${n} deals, ${mb(statSync(file).size)}; x4 file ${mb(statSync(file4).size)}`,
        `ours: ${MAIN} (compiled JavaScript, as dist/), ${findings} findings, ${mb(outBytes)} of JSON; floor writes ${perGame} bytes of JSON per game`,
        `timing: each case a fresh node process, wall time from spawn to exit; ${opts.warmup} warm-up run(s), ${opts.rounds} alternating rounds; median; node ${process.version}`,
      ],
      results,
      ratios: [
        ['ours / peer (goal >= 4x)', cases[0].name, cases[1].name],
        ['ours / floor (goal >= 0.67x: within 1.5x of the floor)', cases[0].name, cases[2].name],
      ],
      sanity,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `node build/bench/bench/replay.js`: this benchmark alone, until bench/index.ts registers it. */
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { printReport } = await import('./harness.js');
  const rep = benchReplay();
  printReport(rep);
  if (rep.sanity.some((s) => !s.ok)) process.exitCode = 1;
}
