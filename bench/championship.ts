// The championship (issue 10, item 4): N emulated tables in two rooms, each room its own Mosquitto bridged to a
// central Mosquitto, several `tenace director` instances on the central broker sharing one PostgreSQL database.
// The tables are light: one mqtt.js client each, publishing a deal's journal events as a table daemon's feed does
// (`director/event`, QoS 1, with seq; retained `status` with an `offline` last will), deciding each tray scan with
// the table's own `decideScan`, and answering `request/events` from an in-memory journal. Figures:
// (a) results lost or doubled: the (table, board) results in the final standings and in the database against the
//     plays the tables made;
// (b) card-to-standings: from the last card of a deal published at its table (room broker) to the first retained
//     standings at the centre holding its result, against the floor: a message published in a room, carried over
//     the bridge, relayed at the centre by a bare mqtt.js client and received by a subscriber at the centre;
// (c) each director instance's RSS (VmRSS), and the load average through the run.
// Like bench/club.ts it runs in a child process (async parts) that prints its report as JSON.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { stringify } from 'yaml';
import { sessionTopics } from '../src/feed/topics.js';
import { movementByName } from '../src/club/movements/index.js';
import { planSession } from '../src/club/session/plan.js';
import { freePort } from '../src/club/session/director-process.js';
import { REAL_EVENTS_PER_SECOND } from '../src/club/session/runner.js';
import type { ScoreReport } from '../src/club/types.js';
import type { BenchReport, SanityLine } from './harness.js';
import { floorLatencies } from './mqtt-floor.js';
import { EmulatedTable, RoomRecords, SlotBarrier, type Timing, playTable, until } from './championship-tables.js';
import { type Broker, adaptShipped, startBroker } from './broker.js';
import { ROOT, latencyTable, mb, ms, pct, rssKb, runChild, serveChild, table as textTable } from './harness.js';
import { bursts, directorLatencies, startWatch, type Watch, type WatchTimes } from './watch.js';
import { type CpuPart, type CpuReading, cpuLines, readCpu } from './cpu-parts.js';

export interface ChampionshipBenchOptions {
  seed: number;
  tables: number;
  /** Rounds of the Mitchell played (one tray a round: about 16 s a round at 10x). */
  rounds: number;
  boardsPerRound: number;
  /** Multiple of real play speed. */
  speed: number;
  /** Director instances on the central broker. */
  directors: number;
  /** The director's `cluster:` block (off: one director alone, for a build without cluster mode). */
  cluster: boolean;
  partitions: number;
  /** PostgreSQL server (a fresh database is created on it for the run and dropped after). */
  pgServer: string;
  floorMessages: number;
  /** No new play starts after this long (s): a director that cannot keep up shows as plays not made, not a hang. */
  playSeconds: number;
  /** After the last play, how long the standings may take to catch up (s). */
  drainSeconds: number;
}

export const CHAMPIONSHIP_DEFAULTS: ChampionshipBenchOptions = {
  seed: 7, tables: 200, rounds: 6, boardsPerRound: 1, speed: 10, directors: 3, cluster: true, partitions: 16,
  pgServer: 'postgres://postgres@127.0.0.1:5432', floorMessages: 300,
  playSeconds: 180, drainSeconds: 45,
};

const WAIT_MS = 120_000;
const here = dirname(fileURLToPath(import.meta.url));
/** The CLI of the same build as this module (build/bench/src/cli/main.js). */
const CLI = resolve(here, '..', 'src', 'cli', 'main.js');
const TITLE = 'championship: two rooms, bridged brokers, director instances on PostgreSQL (issue 10)';
const CHILD = { module: import.meta.url, flag: '--tenace-championship-bench-child', timeoutMs: 330_000, name: 'championship', title: TITLE };

/** Run the championship benchmark in a child process and return its report. */
export function benchChampionship(opts: ChampionshipBenchOptions = CHAMPIONSHIP_DEFAULTS): BenchReport {
  return runChild(CHILD, opts);
}

const progress = (msg: string) => process.stderr.write(`[bench championship] ${msg}\n`);
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/** The centre and two rooms, from the shipped mosquitto/central.conf and room.conf. */
async function startBrokers(work: string): Promise<{ centre: Broker; rooms: Broker[] }> {
  const [cp, ap, bp] = [await freePort(), await freePort(), await freePort()];
  const shippedCentre = readFileSync(join(ROOT, 'mosquitto', 'central.conf'), 'utf8');
  const shippedRoom = readFileSync(join(ROOT, 'mosquitto', 'room.conf'), 'utf8');
  const centre = await startBroker(work, 'central', progress, adaptShipped(shippedCentre, { port: cp }), cp, 'mosquitto/central.conf');
  const rooms: Broker[] = [];
  for (const [room, port] of [['a', ap], ['b', bp]] as const) {
    rooms.push(await startBroker(work, `room-${room}`, progress, adaptShipped(shippedRoom, { port, room, centralPort: cp }), port, 'mosquitto/room.conf'));
  }
  return { centre, rooms };
}

// ------------------------------------------------------------------------------------------------ directors

interface Director { instance: string; proc: ChildProcess; peakKb: number; idleKb: number; tail: string; exit: string | null; stopping: boolean }

/** The shipped central broker's message_size_limit: the directors' mqtt.maxMessageBytes (docs/championship.md). */
function centralMessageLimit(): number {
  const m = /^message_size_limit\s+(\d+)$/m.exec(readFileSync(join(ROOT, 'mosquitto', 'central.conf'), 'utf8'));
  if (!m) throw new Error('mosquitto/central.conf has no message_size_limit line: the directors need it as mqtt.maxMessageBytes');
  return Number(m[1]);
}

function directorYaml(o: ChampionshipBenchOptions, x: { club: string; session: string; broker: string; db: string; instance: string }): string {
  return stringify({
    club: { id: x.club }, session: x.session, variant: 'duplicate-whist',
    movement: { name: 'mitchell', tables: o.tables, boardsPerRound: o.boardsPerRound },
    mqtt: { url: x.broker, maxMessageBytes: centralMessageLimit() },
    store: { url: `${o.pgServer}/${x.db}` },
    ...(o.cluster ? { cluster: { partitions: o.partitions, leaseSeconds: 10, heartbeatSeconds: 2, instance: x.instance } } : {}),
    http: { enabled: false },
    log: { level: 'warn' },
  });
}

function startDirector(configPath: string, instance: string): Director {
  const proc = spawn(process.execPath, [CLI, 'director', '--config', configPath], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const d: Director = { instance, proc, peakKb: NaN, idleKb: NaN, tail: '', exit: null, stopping: false };
  proc.stderr!.on('data', (b: Buffer) => { d.tail = (d.tail + b.toString('utf8')).slice(-3000); });
  proc.once('exit', (code, sig) => { d.exit = `${sig ?? `exit ${code}`}${d.stopping ? '' : ' (before the end)'}`; });
  return d;
}

async function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const gone = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  const t = setTimeout(() => p.kill('SIGKILL'), 5000);
  await gone;
  clearTimeout(t);
}

// ------------------------------------------------------------------------------------------------ the centre's view

/** The retained standings at the centre: when each (board, table) result first appeared, and the latest report. */
class StandingsWatch {
  readonly firstSeen = new Map<string, number>();
  latest: ScoreReport | null = null;
  assignments = new Set<string>();
  constructor(private readonly client: MqttClient) {}
  static async connect(url: string, club: string, session: string, id: string): Promise<StandingsWatch> {
    const client = await mqtt.connectAsync(url, { clientId: id, protocolVersion: 5 });
    (client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
    const w = new StandingsWatch(client);
    const st = sessionTopics(club, session).standings;
    client.on('message', (topic, payload) => {
      if (payload.length === 0) return;
      const now = Date.now();
      if (topic === st) {
        let r: ScoreReport;
        try { r = JSON.parse(payload.toString('utf8')) as ScoreReport; } catch { return; }
        w.latest = r;
        for (const b of r.boards ?? []) for (const res of b.results) {
          const k = `${b.board}:${res.table}`;
          if (!w.firstSeen.has(k)) w.firstSeen.set(k, now);
        }
      } else if (topic.endsWith('/assignment')) {
        w.assignments.add(topic);
      }
    });
    await client.subscribeAsync([st, `tenace/${club}/+/assignment`], { qos: 1 });
    return w;
  }
  /** How often each (board, table) appears in the latest standings. */
  counts(): Map<string, number> {
    const c = new Map<string, number>();
    for (const b of this.latest?.boards ?? []) for (const r of b.results) c.set(`${b.board}:${r.table}`, (c.get(`${b.board}:${r.table}`) ?? 0) + 1);
    return c;
  }
  close(): Promise<void> { return this.client.endAsync(); }
}

/** Wait until every instance holds a lease and the holders have not changed for 3 s (or `ms` passes). */
async function leasesSettled(url: string, session: string, instances: number, ms: number): Promise<{ settled: boolean; holders: string }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const t0 = Date.now();
    let last = '';
    let since = Date.now();
    for (;;) {
      const r = await c.query<{ holder: string | null; n: string }>('select holder, count(*) as n from leases where session = $1 and expires_ms > $2 group by holder order by holder', [session, Date.now()]);
      const holders = r.rows.map((x) => `${x.holder ?? 'none'} ${x.n}`).join(', ');
      if (holders !== last) { last = holders; since = Date.now(); }
      if (r.rows.filter((x) => x.holder !== null).length >= instances && Date.now() - since >= 3000) return { settled: true, holders };
      if (Date.now() - t0 > ms) return { settled: false, holders };
      await sleep(250);
    }
  } finally {
    await c.end();
  }
}

// ------------------------------------------------------------------------------------------------ the run

async function child(o: ChampionshipBenchOptions): Promise<BenchReport> {
  const t0 = Date.now();
  const loads: number[] = [loadavg()[0]];
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const club = `champ${process.pid}`;
  const db = `tenace_bench_${process.pid}_${Date.now().toString(36)}`;
  const sanity: SanityLine[] = [];
  const notes: string[] = [];
  const problems: string[] = [];
  const movement = movementByName('mitchell')!;
  const full = movement.generate({ tables: o.tables, boardsPerRound: o.boardsPerRound });
  const schedule = { ...full, rounds: full.rounds.slice(0, o.rounds) };
  const plan = planSession({ session: `champ-${tag}`, variant: 'duplicate-whist', schedule, seed: o.seed });
  const directorsWanted = o.cluster ? o.directors : 1;
  progress(`${o.tables} tables in 2 rooms, ${schedule.rounds.length} of ${full.rounds.length} rounds of a Mitchell at ${o.speed}x real play, ${directorsWanted} director(s)${o.cluster ? ' in cluster mode' : ''}, PostgreSQL database ${db}`);

  const work = mkdtempSync(join(tmpdir(), 'tenace-champ-'));
  const undo: (() => Promise<unknown>)[] = [];
  const cleanup = async () => {
    for (const f of undo.splice(0).reverse()) await f().catch((err: Error) => progress(`cleanup: ${err.message}`));
    rmSync(work, { recursive: true, force: true });
  };
  process.once('SIGTERM', () => { void cleanup().finally(() => process.exit(1)); });

  const directors: Director[] = [];
  const timings: Timing[] = [];
  let watch: StandingsWatch | undefined;
  let witness: Watch | undefined;
  let seen: WatchTimes | undefined;
  let floor: number[] = [];
  let brokers: { centre: Broker; rooms: Broker[] } | undefined;
  const dbRows = new Map<string, number>();
  let leaseHolders = '';
  const holderOf = new Map<number, string>();
  let tables: EmulatedTable[] = [];
  let playSeconds = NaN;
  let cpuPlay: [CpuReading, CpuReading] | null = null;
  let drainSeconds = NaN;
  const late: string[] = [];
  let dbName: string | null = null;
  const loadTimer = setInterval(() => loads.push(loadavg()[0]), 2000);
  const rssTimer = setInterval(() => {
    for (const d of directors) {
      const kb = rssKb(d.proc.pid);
      if (Number.isFinite(kb)) d.peakKb = Number.isFinite(d.peakKb) ? Math.max(d.peakKb, kb) : kb;
    }
  }, 250);
  try {
    brokers = await startBrokers(work);
    const { centre, rooms } = brokers;
    undo.push(async () => { for (const b of [...rooms, centre]) await stopProcess(b.proc); });

    const admin = new pg.Client({ connectionString: `${o.pgServer}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${db}`);
    await admin.end();
    dbName = db;
    undo.push(async () => {
      const c = new pg.Client({ connectionString: `${o.pgServer}/postgres` });
      await c.connect();
      try { await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`); } finally { await c.end(); }
    });

    watch = await StandingsWatch.connect(centre.url, club, plan.session, `tenace-bench-champ-watch-${tag}`);
    const w = watch;
    undo.push(() => w.close());
    // The directors' own part, timed at the centre by a witness in a process of its own (the 200 tables share this
    // benchmark's event loop, and their clocks say when a card was appended, not when it reached the centre).
    witness = await startWatch(centre.url, club, sessionTopics(club, plan.session).standings);
    const wit = witness;
    undo.push(async () => { seen = await wit.stop(); });

    // The first instance creates the schema (migrations run at start); the others start once it is up.
    for (let i = 0; i < directorsWanted; i++) {
      const instance = `dir-${i + 1}`;
      const cfg = join(work, `${instance}.yaml`);
      writeFileSync(cfg, directorYaml(o, { club, session: plan.session, broker: centre.url, db, instance }));
      const d = startDirector(cfg, instance);
      directors.push(d);
      setTimeout(() => { d.idleKb = rssKb(d.proc.pid); }, 2000).unref();
      if (i === 0) await sleep(1500);
    }
    undo.push(async () => { for (const d of directors) await stopProcess(d.proc); });
    const dead = () => directors.find((d) => d.exit !== null);
    await until(() => {
      const d = dead();
      if (d) throw new Error(`director ${d.instance} stopped (${d.exit}): ${d.tail.trim().slice(-600)}`);
      return w.assignments.size >= o.tables;
    }, WAIT_MS, `the directors to assign all ${o.tables} tables`);
    progress(`assignments in after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (o.cluster && directorsWanted > 1) {
      // The figures are of a running championship, not of its start: let the leases spread over the instances first
      // (a takeover is the kill -9 acceptance test's business).
      const spread = await leasesSettled(`${o.pgServer}/${db}`, plan.session, directorsWanted, 30_000);
      progress(`leases ${spread.settled ? 'settled' : 'not settled after 30 s'}: ${spread.holders}`);
    }

    // Odd tables in room A, even tables in room B: each partition has tables in both rooms.
    const records = await Promise.all(rooms.map((r, i) => RoomRecords.connect(r.url, club, plan.session, `tenace-bench-champ-records${i}-${tag}`)));
    undo.push(async () => { for (const r of records) await r.close(); });
    const nos = [...plan.plays.keys()].sort((a, b) => a - b);
    for (let i = 0; i < nos.length; i += 20) {
      tables.push(...await Promise.all(nos.slice(i, i + 20).map((n) => EmulatedTable.connect(rooms[(n - 1) % 2].url, club, plan.session, n, tag))));
    }
    undo.push(async () => { for (const t of tables) await t.close().catch(() => undefined); });

    const barrier = new SlotBarrier(plan);
    const intervalMs = 1000 / (o.speed * REAL_EVENTS_PER_SECOND);
    const tp = Date.now();
    const parts: CpuPart[] = [
      { name: 'tables (this benchmark\'s process)', pids: [process.pid] },
      { name: 'brokers (rooms A, B and the centre)', pids: [...rooms, centre].map((b) => b.proc.pid) },
      { name: 'PostgreSQL (every postgres process)', pids: [], comms: ['postgres'] },
      ...directors.map((d) => ({ name: `director ${d.instance}`, pids: [d.proc.pid] })),
      { name: 'witness (bench/club-watch.ts)', pids: [witness.pid] },
    ];
    const cpuStart = readCpu(parts);
    const deadline = tp + o.playSeconds * 1000;
    const ticker = setInterval(() => progress(`${((Date.now() - tp) / 1000).toFixed(0)} s: ${timings.length} plays done, ${w.firstSeen.size} results in the standings, load ${loadavg()[0].toFixed(2)}`), 15_000);
    try {
      await Promise.all(tables.map((t) => playTable(t, plan.plays.get(t.no) ?? [], { plan, records: records[(t.no - 1) % 2], barrier, intervalMs, timings, problems, deadline, late })));
      playSeconds = (Date.now() - tp) / 1000;
      cpuPlay = [cpuStart, readCpu(parts)];
      progress(`tables done after ${playSeconds.toFixed(1)} s: ${timings.length} plays; waiting up to ${o.drainSeconds} s for the standings`);
      const td = Date.now();
      await until(() => {
        const d = dead();
        if (d) throw new Error(`director ${d.instance} stopped (${d.exit}): ${d.tail.trim().slice(-600)}`);
        return timings.every((tm) => w.firstSeen.has(`${tm.board}:${tm.table}`));
      }, o.drainSeconds * 1000, `the standings to hold all ${timings.length} results made`).catch((err: Error) => { sanity.push({ what: 'standings caught up', value: err.message, ok: false }); });
      drainSeconds = (Date.now() - td) / 1000;
    } finally {
      clearInterval(ticker);
    }
  } catch (e) {
    sanity.push({ what: 'session completed', value: (e as Error).message.slice(0, 400), ok: false });
  }
  try {
    // A doubled result would show in a later report: give the directors a moment past the last one.
    await sleep(2000);
    if (dbName === null) throw new Error('no database');
    const c = new pg.Client({ connectionString: `${o.pgServer}/${db}` });
    await c.connect();
    try {
      const r = await c.query<{ board: number; table_id: string; n: string }>('select board, table_id, count(*) as n from results where session = $1 group by board, table_id', [plan.session]);
      for (const row of r.rows) dbRows.set(`${row.board}:${row.table_id}`, Number(row.n));
      if (o.cluster) {
        const l = await c.query<{ holder: string | null; part: number }>('select holder, part from leases where session = $1 order by holder, part', [plan.session]);
        const byHolder = new Map<string, number>();
        for (const x of l.rows) {
          byHolder.set(x.holder ?? 'none', (byHolder.get(x.holder ?? 'none') ?? 0) + 1);
          holderOf.set(Number(x.part), x.holder ?? 'none');
        }
        leaseHolders = [...byHolder].map(([h, n]) => `${h} ${n}`).join(', ');
      }
    } finally {
      await c.end();
    }
    // (b)'s floor: published in a room, over the bridge, relayed by a bare client at the centre, received there.
    if (brokers) floor = await floorLatencies({ publishAt: brokers.rooms.map((r) => r.url), relayAt: brokers.centre.url, n: o.floorMessages, name: 'champ', tag, settleMs: 500 });
  } catch (e) {
    sanity.push({ what: 'database read and floor measured', value: (e as Error).message.slice(0, 400), ok: false });
  } finally {
    clearInterval(loadTimer);
    clearInterval(rssTimer);
    loads.push(loadavg()[0]);
  }
  const endKb = directors.map((d) => rssKb(d.proc.pid));
  for (const d of directors) d.stopping = true;
  await cleanup();

  // (a) lost or doubled, in the standings and in the database.
  const planned = [...plan.plays.values()].flat().map((p) => `${p.board}:${p.table}`);
  // What counts is what the tables played: a play the deadline stopped from starting is not a lost result.
  const made = timings.map((t) => `${t.board}:${t.table}`);
  const want = new Set(planned);
  const inStandings = watch?.counts() ?? new Map<string, number>();
  const lost = (have: Map<string, number>) => made.filter((k) => !have.has(k)).length;
  const doubled = (have: Map<string, number>) => [...have.values()].filter((n) => n > 1).length;
  const stray = (have: Map<string, number>) => [...have.keys()].filter((k) => !want.has(k)).length;
  const lat = timings.map((t) => (watch?.firstSeen.get(`${t.board}:${t.table}`) ?? NaN) - t.lastCardAt).filter(Number.isFinite).sort((a, b) => a - b);
  const events = tables.reduce((n, t) => n + t.journal.length, 0);
  // Sustained intake: the events the tables published while they played, over the time they played, per instance by
  // the partitions it held at the end (table n is in partition (n - 1) mod partitions).
  const perInstance = new Map<string, number>();
  for (const t of tables) {
    const h = o.cluster ? holderOf.get((t.no - 1) % o.partitions) ?? 'none' : 'the director';
    perInstance.set(h, (perInstance.get(h) ?? 0) + t.journal.length);
  }
  const rate = (n: number) => (Number.isFinite(playSeconds) && playSeconds > 0 ? `${Math.round(n / playSeconds)}` : 'n/a');

  notes.push(`brokers: Mosquitto ${brokers ? `centre ${brokers.centre.source}, rooms ${brokers.rooms[0]?.source}` : 'not started'}; node ${process.version}; PostgreSQL at ${o.pgServer} (database created for the run, dropped after)`);
  notes.push(`session: ${o.tables} tables (odd in room A, even in room B) playing ${schedule.rounds.length} of ${full.rounds.length} rounds of a Mitchell, ${o.boardsPerRound} tray a round (${planned.length} plays, ${events} journal events) at ${o.speed}x real play (an event every ${(1.5 / o.speed).toFixed(2)} s at each table); play took ${Number.isFinite(playSeconds) ? playSeconds.toFixed(1) : 'n/a'} s (${timings.length} plays made), the standings caught up ${Number.isFinite(drainSeconds) ? drainSeconds.toFixed(1) : 'n/a'} s later, ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
  notes.push(`intake while the tables played: ${rate(events)} events/s in all (offered: ${Math.round(o.tables * o.speed / 1.5)}); per instance ${[...perInstance].sort().map(([h, n]) => `${h} ${rate(n)}`).join(', ')}`);
  notes.push(`directors: ${directorsWanted} \`tenace director\` process(es) on the centre${o.cluster ? `, cluster mode, ${o.partitions} partitions (leases at the end: ${leaseHolders || 'n/a'})` : ', no cluster block'}; tables: one mqtt.js client each, in this benchmark's process`);
  notes.push(`load average (1 min): ${loads[0].toFixed(2)} at start, ${Math.max(...loads).toFixed(2)} at most, ${loads.at(-1)!.toFixed(2)} at end (2 cores, shared)`);
  notes.push('');
  notes.push(`(a) results: (board, table) pairs against the ${made.length} plays made`);
  // "missing": not there at the end: lost, or not scored within drainSeconds (then "standings caught up" fails too).
  notes.push(textTable(['where', 'results', 'missing', 'doubled', 'not played'], [
    ['final retained standings', String([...inStandings.values()].reduce((a, b) => a + b, 0)), String(lost(inStandings)), String(doubled(inStandings)), String(stray(inStandings))],
    ['database (results rows)', String([...dbRows.values()].reduce((a, b) => a + b, 0)), String(lost(dbRows)), String(doubled(dbRows)), String(stray(dbRows))],
  ]));
  notes.push('');
  notes.push('(b) card-to-standings: last card published at the table → first retained standings at the centre holding the result');
  notes.push(latencyTable('tables → bridge → directors → standings', lat, 'floor: room → bridge → relay at centre', floor));
  const part = seen ? directorLatencies(seen, timings) : [];
  notes.push('(b2) the directors\' part: the last card\'s event at the centre → the standings there holding its result, both seen by one idle subscriber process (bench/club-watch.ts)');
  notes.push(latencyTable('directors (event at the centre → standings)', part, 'floor: room → bridge → relay at centre', floor));
  notes.push(`p99 ${ms(pct(part, 99))} (goal 1: ≤ 100 ms: ${pct(part, 99) <= 100 ? 'met' : 'not met'}); the directors add ${ms(pct(part, 99) - pct(floor, 99))} to the floor at p99`);
  // A slot's end: every table starts a slot together and plays it at the same pace, so its results come as one burst.
  const slots = seen ? bursts(seen, timings) : [];
  const med = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 50);
  notes.push(`(b3) a slot's burst (every table plays a slot at once): ${slots.length} slots of ${med(slots.map((b) => b.results))} results (median); their last cards reached the centre within ${ms(med(slots.map((b) => b.arrivalMs)))} (median; at most ${ms(Math.max(...slots.map((b) => b.arrivalMs)))}), and all their results were in the standings ${ms(med(slots.map((b) => b.drainMs)))} after the first of them (median; at most ${ms(Math.max(...slots.map((b) => b.drainMs)))}); slot by slot: ${slots.map((b) => b.drainMs.toFixed(0)).join(', ')} ms`);
  notes.push('');
  notes.push('(c) director RSS (VmRSS)');
  notes.push(textTable(['instance', 'idle 2 s after start', 'peak', 'at end'], directors.map((d, i) => [d.instance, mb(d.idleKb), mb(d.peakKb), mb(endKb[i])])));
  notes.push('');
  notes.push('(d) CPU while the tables played, by part (/proc)');
  notes.push(...(cpuPlay ? cpuLines(...cpuPlay) : ['not measured: play did not finish']));
  notes.push('');
  notes.push('(no throughput table for this benchmark: its figures are the counts, latencies and RSS above)');
  for (const p of problems.slice(0, 5)) notes.push(`problem: ${p}`);

  sanity.push({ what: 'results missing (standings / database)', value: `${lost(inStandings)} / ${lost(dbRows)}`, ok: lost(inStandings) === 0 && lost(dbRows) === 0 });
  sanity.push({ what: 'results doubled (standings / database)', value: `${doubled(inStandings)} / ${doubled(dbRows)}`, ok: doubled(inStandings) === 0 && doubled(dbRows) === 0 });
  sanity.push({ what: 'plays made / planned (within --playSeconds)', value: `${timings.length} / ${planned.length}${late.length ? ` (${late.length} table(s) stopped: ${late[0]})` : ''}`, ok: timings.length === planned.length });
  sanity.push({ what: 'tray scans that started no deal', value: String(problems.length), ok: problems.length === 0 });
  const failed = tables.find((t) => t.publishFailures > 0);
  sanity.push({ what: 'table publishes failed', value: `${tables.reduce((n, t) => n + t.publishFailures, 0)}${failed ? ` (table ${failed.no}: ${failed.firstFailure.slice(0, 80)})` : ''}`, ok: !failed });
  sanity.push({ what: 'floor messages relayed', value: `${floor.length} / ${o.floorMessages}`, ok: floor.length === o.floorMessages });
  const early = directors.filter((d) => d.exit?.endsWith('(before the end)'));
  sanity.push({ what: 'director instances running to the end', value: `${directors.length - early.length} / ${directorsWanted}${early.length ? ` (${early.map((d) => `${d.instance}: ${d.exit}`).join(', ')})` : ''}`, ok: directors.length === directorsWanted && early.length === 0 });
  return { title: TITLE, notes, results: [], ratios: [], sanity };
}

serveChild(CHILD.flag, child);
