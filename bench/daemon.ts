// The table daemon end to end (issue 4, Benchmark), each figure a ratio against a floor measured in the same run.
// bench/README.md explains each part, its baseline and its goal; in short:
//
// (a) Card-to-subscriber latency, p50/p99. A card line goes in on a serialport MockBinding port and comes out as the
//     `event` message at a subscriber on a Mosquitto started from the shipped mosquitto/tenace.conf (with
//     `set_tcp_nodelay`; bench/broker.ts): the full daemon in this process (Controller: BridgeDriver on the
//     MockBinding port, journal with fsync, rules engine, MQTT feed), its bridge driven by the
//     FirmwareEmulator (hello, ident, snapshots, heartbeats, arrive/leave). The floor is the least any such pipeline
//     can do: a MockBinding port → SerialPortStream → ReadlineParser → client.publish (QoS 1) → the same subscriber on
//     the same broker. Cards go one at a time: the next card only once the previous one is through (its `event` and
//     the `director/state` after it have arrived) plus a random 1-4 ms pause, so every card meets an idle pipeline as
//     a card played by hand does. Daemon and floor take every card, in turns as to which goes first. A second daemon
//     with its journal on tmpfs (same code, fsync nearly free) plays every other deal, to separate the cost of the
//     disk from that of the code. Goal: daemon p99 <= 1.2x floor p99.
// (b) RSS of the built daemon (`node build/bench/src/cli/main.js run --config ...`, a child process) after 10,000
//     place/lift events fed through a socat pty pair by the FirmwareEmulator (deals started with `request/start-deal`
//     over MQTT), read from /proc/<pid>/status (VmRSS) once the 10,000th event is in its journal, against a bare
//     `node -e` read the same way. Goal (issue 20): <= 50 MB idle and after 10,000 events.
// (c) Time from spawning the built daemon to its retained `state` arriving at a subscriber, against spawning a
//     `node -e` that connects with mqtt.js and publishes one retained message (the floor); alternating, median of
//     runs. Goal: <= 500 ms.
//
// The work is asynchronous and bench/index.ts runs benchmarks synchronously, so benchDaemon() runs this module again
// as a child process (spawnSync, hard limit 59 s; each part has its own time budget) that prints its report as JSON.
// The child cleans up on every path, SIGTERM included: daemons and socat are killed, MQTT clients disconnected,
// retained topics cleared, temporary folders removed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/club/session/director-process.js';
import { type Broker, adaptShipped, startBroker } from './broker.js';
import type { BenchReport, SanityLine } from './harness.js';
import { table as textTable } from './harness.js';
import { BUDGET_A_MS, BUDGET_B_MS, BUDGET_C_MS, CHILD_FLAG, Cleanup, DAEMON, DAEMON_DEFAULTS, type DaemonBenchOptions, HARD_LIMIT_MS, Inbox, MIN_STARTS, REPORT_PREFIX, ROOT, connect, median, ms, pct, progress, ratio, sortNum } from './daemon-tools.js';
import { type PartA, partA } from './daemon-latency.js';
import { type PartBC, partBC } from './daemon-rss-start.js';

export { DAEMON_DEFAULTS, type DaemonBenchOptions } from './daemon-tools.js';

// ------------------------------------------------------------------ parent side (synchronous, for bench/index.ts)

/** Run the daemon benchmark in a child process and return its report. */
export function benchDaemon(opts: DaemonBenchOptions = DAEMON_DEFAULTS): BenchReport {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), CHILD_FLAG, JSON.stringify(opts)], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', timeout: HARD_LIMIT_MS, killSignal: 'SIGTERM', maxBuffer: 64 << 20,
  });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith(REPORT_PREFIX));
  if (line) return JSON.parse(line.slice(REPORT_PREFIX.length)) as BenchReport;
  const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
  return {
    title: 'daemon: card-to-subscriber latency, RSS, start time',
    notes: [`the benchmark process gave no report after ${Date.now() - t0} ms (${why}); its messages are above`],
    results: [], ratios: [],
    sanity: [{ what: 'daemon benchmark completed', value: why, ok: false }],
  };
}

// ------------------------------------------------------------------ the child: run both parts, print the report

async function childMain(given: DaemonBenchOptions): Promise<BenchReport> {
  // The broker outlives both parts: its own cleanup, run last (and by the signal handler).
  const brokerClean = new Cleanup();
  const { url, source } = await benchBroker(given.broker, brokerClean);
  const o = { ...given, broker: url };
  // The current cleanup list (one per part); the signal handler always runs the current one.
  let clean = new Cleanup();
  const failures: string[] = [];
  const finish = async () => {
    await clean.runAll();
    failures.push(...clean.failures);
    clean = new Cleanup();
  };
  const onSignal = (sig: string) => {
    progress(`${sig}: cleaning up`);
    void clean.runAll().then(() => brokerClean.runAll()).finally(() => process.exit(1));
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  const load0 = readLoad();
  const t0 = Date.now();
  const sanity: SanityLine[] = [];
  const notes: string[] = [];
  let a: PartA | undefined;
  let bc: PartBC | undefined;
  const errors: string[] = [];
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  if (o.parts.includes('a')) try {
    const inbox = new Inbox('tenace-bench/floor/');
    const sub = await connect(o.broker, `tenace-bench-sub-${tag}`);
    clean.add('disconnect subscriber', () => sub.endAsync());
    sub.on('message', (topic, payload) => inbox.onMessage(topic, payload));
    a = await partA(o, clean, inbox, sub);
  } catch (e) {
    errors.push(`(a) ${(e as Error).message}`);
  } finally {
    // Part (a)'s daemons, emulators and clients are gone before part (b, c) measures anything.
    await finish();
  }
  if (/[bc]/.test(o.parts)) try {
    const inbox = new Inbox('tenace-bench/floor/');
    const sub = await connect(o.broker, `tenace-bench-sub2-${tag}`);
    clean.add('disconnect subscriber', () => sub.endAsync());
    sub.on('message', (topic, payload) => inbox.onMessage(topic, payload));
    bc = await partBC(o, clean, inbox, sub);
  } catch (e) {
    errors.push(`(b, c) ${(e as Error).message}`);
  } finally {
    await finish();
  }
  await brokerClean.runAll();
  failures.push(...brokerClean.failures);
  const load1 = readLoad();

  notes.push(`broker: Mosquitto at ${o.broker}${source ? ` (${source}, made local)` : ''}; node ${process.version}; load average ${load0} at start, ${load1} at end (${cpuCount()} CPUs); ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
  if (a) {
    const s = { disk: sortNum(a.disk), tmpfs: sortNum(a.tmpfs), floor: sortNum(a.floor) };
    notes.push('');
    notes.push(`(a) card-to-subscriber latency: ${a.disk.length} cards per side after ${o.warmupCards} warm-up cards, one card at a time (the next one when the pipeline is idle, plus 1-4 ms), sides taking turns to go first; the tmpfs daemon plays every other deal; in-process daemons on MockBinding, fsync: always, embargo: live`);
    notes.push(textTable(['pipeline', 'samples', 'p50', 'p99', 'max', 'p50 / floor', 'p99 / floor'], [
      ['daemon, journal on disk (/tmp, default)', String(s.disk.length), ms(pct(s.disk, 50)), ms(pct(s.disk, 99)), ms(s.disk[s.disk.length - 1]), ratio(pct(s.disk, 50), pct(s.floor, 50)), ratio(pct(s.disk, 99), pct(s.floor, 99))],
      ['daemon, journal on tmpfs (/dev/shm)', String(s.tmpfs.length), ms(pct(s.tmpfs, 50)), ms(pct(s.tmpfs, 99)), ms(s.tmpfs[s.tmpfs.length - 1]), ratio(pct(s.tmpfs, 50), pct(s.floor, 50)), ratio(pct(s.tmpfs, 99), pct(s.floor, 99))],
      ['floor: ReadlineParser → append + fdatasync → publish QoS 1', String(s.floor.length), ms(pct(s.floor, 50)), ms(pct(s.floor, 99)), ms(s.floor[s.floor.length - 1]), '1.00x', '1.00x'],
    ]));
    const dd = sortNum(a.diskDurable), td = sortNum(a.tmpfsDurable);
    notes.push(`    of which bytes in → event durable in the journal (driver, validation, write + fdatasync): on disk p50 ${ms(pct(dd, 50))}, p99 ${ms(pct(dd, 99))}; on tmpfs p50 ${ms(pct(td, 50))}, p99 ${ms(pct(td, 99))}`);
    notes.push(`    goal: daemon p99 <= 1.2x floor p99 → on disk ${ratio(pct(s.disk, 99), pct(s.floor, 99))}, on tmpfs ${ratio(pct(s.tmpfs, 99), pct(s.floor, 99))}`);
    sanity.push({ what: '(a) cards recorded: disk daemon, floor', value: `${a.disk.length}, ${a.floor.length} / ${a.requested}`, ok: a.disk.length === a.requested && a.floor.length === a.requested });
    sanity.push({ what: '(a) events of the right type (place/lift)', value: `${a.mismatched} wrong`, ok: a.mismatched === 0 });
    sanity.push({ what: '(a) director alerts + feed incidents (legal play: none)', value: `${a.alerts} + ${a.incidents}`, ok: a.alerts === 0 && a.incidents === 0 });
    if (a.budgetHit) sanity.push({ what: `(a) finished within its ${BUDGET_A_MS / 1000} s budget`, value: 'no: stopped early', ok: false });
  }
  if (bc) {
    notes.push('');
    const dMed = median(bc.daemonStartMs), fMed = median(bc.floorStartMs);
    notes.push(`(c) spawn → retained state at the subscriber, ${bc.daemonStartMs.length} runs each, alternating; daemon: node ${relative(DAEMON)} run --config (fresh journal on disk, bridge on a socat pty with the emulator); floor: node -e (mqtt.js connect, one retained publish, QoS 1)`);
    notes.push(textTable(['start', 'runs', 'median', 'min', 'max', 'median / floor'], [
      ['daemon: tenace run', String(bc.daemonStartMs.length), ms(dMed), ms(Math.min(...bc.daemonStartMs)), ms(Math.max(...bc.daemonStartMs)), ratio(dMed, fMed)],
      ['floor: node -e + mqtt.js', String(bc.floorStartMs.length), ms(fMed), ms(Math.min(...bc.floorStartMs)), ms(Math.max(...bc.floorStartMs)), '1.00x'],
    ]));
    notes.push(`    goal: <= 500 ms with the built JS → median ${ms(dMed)} (${dMed <= 500 ? 'met' : 'NOT met'})`);
    notes.push('');
    const mb = (kb: number) => (Number.isFinite(kb) ? `${(kb / 1024).toFixed(1)} MB` : 'n/a');
    notes.push(`(b) RSS (VmRSS in /proc/<pid>/status) of the built daemon fed ${bc.eventsFed} place/lift events in ${bc.deals} deals (started by request/start-deal over MQTT) through the socat pty, at most 64 cards ahead of its journal (on tmpfs); all journaled after ${(bc.journalMs / 1000).toFixed(1)} s, RSS read 0.5 s later; the feed delivers from the journal behind the cards (${bc.eventsDeliveredAtRead} at the subscriber by then); the daemon's CPU time meanwhile ${(bc.cpuMs / 1000).toFixed(2)} s, ${((bc.cpuMs * 1000) / Math.max(1, bc.eventsJournaled)).toFixed(0)} µs an event (what the daemon's V8 flags, src/cli/lean.ts, cost: it moves less with the load than the wall time does)`);
    notes.push(textTable(['process', 'VmRSS', 'ratio to node -e'], [
      ['node -e "setInterval(...)" (baseline)', mb(bc.baselineRssKb), '1.00x'],
      ['daemon: started, bridge synced, no event yet', mb(bc.rssIdleKb), ratio(bc.rssIdleKb, bc.baselineRssKb)],
      [`daemon: after ${bc.eventsJournaled} events journaled`, mb(bc.rssJournaledKb), ratio(bc.rssJournaledKb, bc.baselineRssKb)],
      ['daemon: peak so far (VmHWM)', mb(bc.hwmKb), ratio(bc.hwmKb, bc.baselineRssKb)],
    ]));
    // Issue 20: 50 MB idle and after 10,000 events (a Pi Zero 2 W has 512 MB for everything).
    notes.push(`    goal: <= 50 MB idle and after 10,000 events → ${mb(bc.rssIdleKb)} idle, ${mb(bc.rssJournaledKb)} after (${Math.max(bc.rssIdleKb, bc.rssJournaledKb) / 1024 <= 50 ? 'met' : 'NOT met'})`);
    sanity.push({ what: '(b) events fed / requested', value: `${bc.eventsFed} / ${o.events}`, ok: bc.eventsFed === o.events });
    sanity.push({ what: '(b) events journaled / fed', value: `${bc.eventsJournaled} / ${bc.eventsFed}`, ok: bc.eventsJournaled === bc.eventsFed });
    if (bc.budgetHit) sanity.push({ what: `(b) fed within its ${BUDGET_B_MS / 1000} s budget`, value: 'no: stopped early', ok: false });
    sanity.push({ what: `(c) runs of each kind (${MIN_STARTS} at least, up to ${o.starts} within ${BUDGET_C_MS / 1000} s)`, value: `${bc.daemonStartMs.length} + ${bc.floorStartMs.length}`, ok: bc.daemonStartMs.length >= MIN_STARTS && bc.floorStartMs.length === bc.daemonStartMs.length });
    sanity.push({ what: 'daemons stopped by SIGTERM exit 0', value: bc.daemonExits.join(', '), ok: bc.daemonExits.every((x) => x === 'exit 0') });
    for (const e of bc.errors) errors.push(`(b) ${e}`);
  }
  for (const e of errors) sanity.push({ what: 'error', value: e.slice(0, 300), ok: false });
  sanity.push({ what: 'cleanup (children, ports, clients, retained topics, temp dirs)', value: failures.length ? failures.join('; ').slice(0, 300) : 'done', ok: failures.length === 0 });
  notes.push('');
  notes.push('(no throughput table for this benchmark: its figures are the latencies, RSS and start times above)');
  return { title: 'daemon: card-to-subscriber latency, RSS after 10,000 events, start to retained state', notes, results: [], ratios: [], sanity };
}

/** The broker the parts use: a Mosquitto started from the shipped config (stopped by `clean`), or the URL given. */
async function benchBroker(want: string, clean: Cleanup): Promise<{ url: string; source: string | null }> {
  if (want !== 'shipped') return { url: want, source: null };
  const work = mkdtempSync(join(tmpdir(), 'tenace-bench-daemon-broker-'));
  clean.add(`remove ${work}`, () => rmSync(work, { recursive: true, force: true }));
  const port = await freePort();
  const b: Broker = await startBroker(work, 'tenace', progress, adaptShipped(readFileSync(join(ROOT, 'mosquitto', 'tenace.conf'), 'utf8'), { port }), port, 'mosquitto/tenace.conf');
  clean.add('stop the broker', () => new Promise<void>((r) => {
    if (b.proc.exitCode !== null) return r();
    b.proc.once('exit', () => r());
    b.proc.kill('SIGTERM');
  }));
  return { url: b.url, source: b.source };
}

function readLoad(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

function cpuCount(): number {
  return availableParallelism();
}

function relative(p: string): string {
  return p.startsWith(ROOT + '/') ? p.slice(ROOT.length + 1) : p;
}

if (process.argv[2] === CHILD_FLAG && resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const o = { ...DAEMON_DEFAULTS, ...(JSON.parse(process.argv[3] ?? '{}') as Partial<DaemonBenchOptions>) };
  mkdirSync(tmpdir(), { recursive: true });
  childMain(o).then(
    (rep) => {
      process.stdout.write(`${REPORT_PREFIX}${JSON.stringify(rep)}\n`);
      process.exit(0);
    },
    (e) => {
      progress(`failed: ${(e as Error).stack ?? e}`);
      process.exit(1);
    },
  );
}
