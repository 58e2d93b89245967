// The club session (issue 7): N emulated tables through the real table path and the real `tenace director` process
// on the real Mosquitto, at a multiple of real play speed. Figures, each against a floor measured in the same run:
// (a) card-to-standings: from the last card of a deal journaled at its table to the first retained standings that
//     hold its result, against the floor: a message relayed through Mosquitto twice by a bare mqtt.js client (the
//     table → director → subscriber hops, with no work in between);
// (a2) the director's part of it: from the last card's event at the broker to the standings at a subscriber, both seen
//     by a witness in a process of its own (bench/club-watch.ts), since the tables share this process's event loop;
// (b) the director's RSS (VmRSS) idle after start and at its peak, against a `node -e` holding an mqtt.js client.
// The benchmark runs in a child process (async parts) that prints its report as JSON, like bench/daemon.ts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createLogger } from '../src/config/logger.js';
import { movementByName } from '../src/club/movements/index.js';
import { planSession } from '../src/club/session/plan.js';
import { runSession, type SessionOutcome } from '../src/club/session/runner.js';
import type { DirectorProcess } from '../src/club/session/director-process.js';
import type { BenchReport, SanityLine } from './harness.js';
import { floorLatencies } from './mqtt-floor.js';
import { directorLatencies, startWatch, type Watch, type WatchTimes } from './watch.js';
import { type CpuPart, type CpuReading, cpuLines, readCpu } from './cpu-parts.js';
import { sessionTopics } from '../src/feed/topics.js';
import { type Broker, adaptShipped, startBroker } from './broker.js';
import { CLI_SCRIPT, freePort } from '../src/club/session/director-process.js';
import { ROOT, latencyTable, mb, ms, pct, ratio, rssKb, runChild, serveChild } from './harness.js';

// The tables' journals go on tmpfs where there is one: at a club each table journals on its own Pi, and thirty
// journals fsyncing on the disk the director's SQLite syncs to made the director's sync wait for theirs.
const TABLES_DIR = existsSync('/dev/shm') ? '/dev/shm' : undefined;

export interface ClubBenchOptions {
  seed: number;
  /**
   * The broker: 'shipped' starts a Mosquitto from the shipped mosquitto/tenace.conf (made local: an anonymous listener
   * on a free port), so that the floor is the one a club gets (set_tcp_nodelay); or the URL of a running broker.
   */
  broker: string;
  tables: number;
  movement: string;
  /** Rounds of the movement played: 24 of a 30-table Mitchell is the issue's 24 trays at each table. */
  rounds: number;
  boardsPerRound: number;
  /** Multiple of real play speed. */
  speed: number;
  /** Floor messages. */
  floorMessages: number;
}

export const CLUB_DEFAULTS: ClubBenchOptions = { seed: 7, broker: 'shipped', tables: 30, movement: 'mitchell', rounds: 24, boardsPerRound: 1, speed: 10, floorMessages: 300 };

const CHILD = { module: import.meta.url, flag: '--tenace-club-bench-child', name: 'club', title: 'club: card-to-standings, director RSS' };

/** Run the club benchmark in a child process and return its report. */
export function benchClub(opts: ClubBenchOptions = CLUB_DEFAULTS): BenchReport {
  // A deal at 10× real play takes about 16 s; allow each round four times that, and two minutes to set up and score.
  const perRoundMs = (opts.boardsPerRound * 64_000 * 10) / opts.speed;
  return runChild({ ...CHILD, timeoutMs: 120_000 + opts.rounds * perRoundMs }, opts);
}

const progress = (msg: string) => process.stderr.write(`[bench club] ${msg}\n`);

/** A `node -e` holding one mqtt.js connection: the least a director process could weigh. */
async function nodeFloorRssKb(broker: string): Promise<number> {
  const code = `import('mqtt').then(async (m) => { const c = await m.default.connectAsync(${JSON.stringify(broker)}); process.stdout.write('up\\n'); setTimeout(() => c.end(), 60000); })`;
  const child = spawn(process.execPath, ['-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((r) => child.stdout!.once('data', () => r()));
  await new Promise((r) => setTimeout(r, 500));
  const kb = rssKb(child.pid);
  child.kill('SIGKILL');
  return kb;
}

async function child(o: ClubBenchOptions): Promise<BenchReport> {
  const t0 = Date.now();
  const load0 = loadavg()[0].toFixed(2);
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const sanity: SanityLine[] = [];
  const notes: string[] = [];
  const movement = movementByName(o.movement);
  if (!movement) throw new Error(`no movement ${o.movement}`);
  const full = movement.generate({ tables: o.tables, boardsPerRound: o.boardsPerRound });
  const schedule = { ...full, rounds: full.rounds.slice(0, o.rounds) };
  const plan = planSession({ session: `bench-${tag}`, variant: 'duplicate-whist', schedule, seed: o.seed });
  progress(`${o.tables} tables, ${schedule.rounds.length} of ${full.rounds.length} rounds of ${o.movement} (${full.trays} trays in the full session) at ${o.speed}x real play`);

  let director: DirectorProcess | undefined;
  let idleKb = NaN;
  let peakKb = NaN;
  let sampler: NodeJS.Timeout | undefined;
  let outcome: SessionOutcome | undefined;
  let shipped: Broker | undefined;
  const work = mkdtempSync(join(tmpdir(), 'tenace-club-bench-'));
  let broker = o.broker;
  if (o.broker === 'shipped') {
    const port = await freePort();
    shipped = await startBroker(work, 'tenace', progress, adaptShipped(readFileSync(join(ROOT, 'mosquitto', 'tenace.conf'), 'utf8'), { port }), port, 'mosquitto/tenace.conf');
    broker = shipped.url;
  }
  const club = `bench${process.pid}`;
  let watch: Watch | undefined;
  let seen: WatchTimes | undefined;
  let cpuParts: CpuPart[] = [];
  let cpuStart: CpuReading | undefined;
  let cpuEnd: CpuReading | undefined;
  try {
    watch = await startWatch(broker, club, sessionTopics(club, plan.session).standings);
    outcome = await runSession({
      plan, club, broker, speed: o.speed, httpPort: 0, serial: 'loopback', ...(TABLES_DIR ? { tablesDir: TABLES_DIR } : {}),
      log: createLogger({ log: { level: 'error' } }), waitMs: 120_000,
      onDirector: (d) => {
        director = d;
        cpuParts = [
          { name: 'tables (this benchmark\'s process)', pids: [process.pid] },
          ...(shipped ? [{ name: 'broker (shipped config)', pids: [shipped.proc.pid] }] : []),
          { name: 'director', pids: [d.pid()] },
          { name: 'witness (bench/club-watch.ts)', pids: [watch?.pid] },
        ];
        cpuStart = readCpu(cpuParts);
        setTimeout(() => { idleKb = rssKb(d.pid()); }, 2000);
        sampler = setInterval(() => {
          const kb = rssKb(d.pid());
          if (Number.isFinite(kb)) peakKb = Number.isFinite(peakKb) ? Math.max(peakKb, kb) : kb;
          // The last reading while the director still runs: the session stops it before it returns.
          if (Number.isFinite(kb)) cpuEnd = readCpu(cpuParts);
        }, 250);
      },
    });
  } catch (e) {
    sanity.push({ what: 'session completed', value: (e as Error).message.slice(0, 300), ok: false });
  } finally {
    clearInterval(sampler);
    seen = await watch?.stop().catch(() => undefined);
  }
  // (a)'s floor: the table → director → subscriber hops through the one broker.
  const floor = await floorLatencies({ publishAt: [broker], relayAt: broker, n: o.floorMessages, name: 'club', tag });
  const nodeKb = await nodeFloorRssKb(broker);
  if (shipped) {
    const exited = new Promise((r) => shipped!.proc.once('exit', r));
    shipped.proc.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
  const lat = (outcome?.timings ?? []).filter((t) => t.scoredAt !== undefined).map((t) => t.scoredAt! - t.lastCardAt).sort((a, b) => a - b);
  notes.push(`broker: Mosquitto at ${broker}${shipped ? ` (${shipped.source}, made local)` : ''}; node ${process.version}; load average ${load0} at start, ${loadavg()[0].toFixed(2)} at end; ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
  notes.push(`session: ${o.tables} tables of ${o.movement}, ${schedule.rounds.length} round(s) of ${o.boardsPerRound} tray(s) (${plan.trays.size} trays in play, ${outcome?.check.plays ?? 0} plays), ${o.speed}x real play (a card event every ${(1.5 / o.speed).toFixed(2)} s at each table); tables on in-process serial lines, the director is \`tenace director\` (SQLite), started as node ${relative(ROOT, CLI_SCRIPT)}`);
  notes.push('');
  notes.push(`tables' journals on ${TABLES_DIR ?? tmpdir()} (each table is a Pi with its own storage; the director's SQLite is on ${tmpdir()})`);
  notes.push('(a) card-to-standings: last card journaled at the table → first retained standings holding the result');
  notes.push(latencyTable('director', lat, 'floor: Mosquitto twice (relay)', floor));
  notes.push('');
  // The tables share the benchmark's event loop: the director's own part is timed by the witness, an idle process.
  const part = seen ? directorLatencies(seen, outcome?.timings ?? []) : [];
  notes.push('(a2) the director\'s part: the last card\'s event at the broker → the standings holding its result, both seen by one idle subscriber process (bench/club-watch.ts)');
  notes.push(latencyTable('director', part, 'floor: Mosquitto twice (relay)', floor));
  notes.push(`director adds ${ms(pct(part, 99) - pct(floor, 99))} to the floor at p99 (goal ≤ 20 ms: ${pct(part, 99) - pct(floor, 99) <= 20 ? 'met' : 'not met'})`);
  notes.push('');
  notes.push(`(b) director RSS (VmRSS): idle 2 s after start ${mb(idleKb)}, peak ${mb(peakKb)}; node -e with one mqtt.js client ${mb(nodeKb)} → peak ${ratio(peakKb, nodeKb)}`);
  notes.push('');
  notes.push('(c) CPU while the director ran (its last reading, every 250 ms), by part (/proc)');
  notes.push(...(cpuStart && cpuEnd ? cpuLines(cpuStart, cpuEnd) : ['not measured: the session did not finish']));
  notes.push('');
  notes.push('(no throughput table for this benchmark: its figures are the latencies and RSS above)');
  const c = outcome?.check;
  sanity.push({ what: 'results scored / plays', value: `${lat.length} / ${c?.plays ?? 0}`, ok: !!c && lat.length === c.plays });
  sanity.push({ what: 'overplays verified against the tray record', value: `${c?.verified ?? 0} / ${c?.overplays ?? 0}`, ok: !!c && c.verified === c.overplays });
  sanity.push({ what: 'plays timed by the witness / plays', value: `${part.length} / ${c?.plays ?? 0}`, ok: !!c && part.length === c.plays });
  sanity.push({ what: 'floor messages relayed', value: `${floor.length} / ${o.floorMessages}`, ok: floor.length === o.floorMessages });
  sanity.push({ what: 'director process seen', value: director ? 'yes' : 'no', ok: !!director });
  // Its memory is the figure: the director must run the compiled JavaScript, not the sources under tsx (issue 18).
  sanity.push({ what: 'director started from compiled JavaScript', value: relative(ROOT, CLI_SCRIPT), ok: CLI_SCRIPT.endsWith('.js') });
  return { title: 'club: card-to-standings, director RSS (issue 7)', notes, results: [], ratios: [], sanity };
}

serveChild(CHILD.flag, child);
