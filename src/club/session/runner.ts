// `tenace session simulate`: a whole club session on one machine. Emulated tables run the real table path (emulated
// bridge and scanner → serial driver → journal → engine → feed), the director runs as its own process (as in a
// club: it can be killed and restarted), and everything meets on one broker. The players follow the plan
// (plan.ts): they wait for the director's round assignment, scan their trays, and play the cards.
// This file holds the orchestration (broker, director, tables, faults, teardown); the players' part is table-play.ts,
// the pacing slot-barrier.ts, the broker's view session-watch.ts and the report outcome.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../config/logger.js';
import { startSimulation } from '../../daemon/simulation.js';
import type { SessionPlan } from './plan.js';
import { type DirectorProcess, startDirectorProcess } from './director-process.js';
import { enterNames } from './names.js';
import { newCheck, type PlayTiming, resultsIn, type SessionOutcome } from './outcome.js';
import { clearRetained, SessionWatch } from './session-watch.js';
import { SlotBarrier } from './slot-barrier.js';
import { inProcessTable, processTable, type TableHandle } from './table-handle.js';
import { type PlayContext, playHandScored, playTable } from './table-play.js';
import { TableProcess } from './table-process.js';
import { HandTerminal, tablePins } from './terminals.js';

export type { PlayTiming, SessionCheck, SessionOutcome } from './outcome.js';

export interface RunOptions {
  plan: SessionPlan;
  club: string;
  /** Broker URL; undefined: an embedded aedes broker on a free port. */
  broker?: string;
  /**
   * A folder for the tables' journals (a temporary one is made in it and removed); default the session's own. A club
   * bench puts them on tmpfs: each table is a Pi of its own, and 30 journals fsyncing on the director's disk would
   * time the disk they share, not the director.
   */
  tablesDir?: string;
  /** The director's database file (SQLite); default a temporary one. */
  db?: string;
  /** Multiple of real play speed (1: a card event every 1.5 s per table), or 'max'. */
  speed: number | 'max';
  /** Director page port (0: any free port). */
  httpPort: number;
  serial: 'pty' | 'loopback' | 'auto';
  log: Logger;
  /** Called with each line worth telling the user (where the director page is, round progress). */
  say?: (line: string) => void;
  /** Give up waiting for the director or the broker after this long (ms); default 60 s. */
  waitMs?: number;
  signal?: AbortSignal;
  /** Called once the session is scored, before anything stops. */
  onScored?: (o: SessionOutcome) => void;
  /**
   * Faults of the machines, for the acceptance tests: kill -9 the director once this many plays are done (it is
   * started again 1 s later on the same database), and stop table `table` in the middle of its `play`-th play (at a
   * trick boundary) and start it again on the same journal.
   */
  chaos?: { killDirectorAfterPlays?: number; restartTable?: { table: number; play: number } };
  /** Called with the director process once it is started (the benchmark samples its memory). */
  onDirector?: (d: DirectorProcess) => void;
  /** Keep everything running (the director page open) until this resolves; called after onScored. */
  keepOpen?: (directorUrl: string) => Promise<void>;
}

/** Real play: about one card event (a place or a lift) every 1.5 s at a table. */
export const REAL_EVENTS_PER_SECOND = 1 / 1.5;

/** Run the whole session; resolves with the final standings once the director has scored every play. */
export async function runSession(opts: RunOptions): Promise<SessionOutcome> {
  const { plan, club } = opts;
  const say = opts.say ?? (() => undefined);
  const waitMs = opts.waitMs ?? 60_000;
  const work = mkdtempSync(join(tmpdir(), 'tenace-session-'));
  const tablesWork = opts.tablesDir ? mkdtempSync(join(opts.tablesDir, 'tenace-tables-')) : join(work, 'tables');
  const stack: (() => Promise<unknown>)[] = [];
  try {
    let url = opts.broker;
    if (!url) {
      const { startEmbeddedBroker } = await import('../../broker/embedded.js');
      const broker = await startEmbeddedBroker({ host: '127.0.0.1', port: 0 });
      stack.push(() => broker.close());
      url = broker.url;
    }
    // A simulated session starts fresh: retained messages of an earlier run under the same names would otherwise
    // hand its tables stale assignments and records.
    await clearRetained(url, club, plan);
    const watch = await SessionWatch.connect(url, club, plan.session);
    stack.push(() => watch.close());

    const director = await startDirectorProcess({
      work, club, session: plan.session, variant: plan.variant, trump: plan.trump, schedule: plan.schedule, broker: url, db: opts.db ?? join(work, 'club.db'),
      // The embedded aedes speaks MQTT 3.1.1 only.
      protocolVersion: opts.broker ? undefined : 4,
      httpPort: opts.httpPort, log: opts.log, handScored: plan.handScored.map(String),
    });
    stack.push(() => director.stop());
    opts.onDirector?.(director);
    await watch.until(() => {
      const why = director.failure();
      if (why) throw new Error(why);
      return watch.assignments.size >= plan.schedule.tables;
    }, waitMs, 'the director to assign the tables', opts.signal);
    // The page as bound: a port taken by another program stops the director, and its sentence stops the session.
    await director.ready(waitMs);
    say(`director page at ${director.url}`);
    // The director gives the pairs their players on the console before play starts, as at a club.
    for (const line of await enterNames(director.url!, plan, { ...(opts.db ? { kept: opts.db } : {}) })) say(line);

    const speed = opts.speed === 'max' ? 'max' : opts.speed * REAL_EVENTS_PER_SECOND;
    const tables = new Map<number, TableHandle>();
    const crashing = new Set([...plan.plays.values()].flat().filter((p) => p.crash).map((p) => p.table));
    for (const t of [...plan.plays.keys()].sort((a, b) => a - b)) {
      if (plan.handScored.includes(t)) continue;
      const journal = join(tablesWork, String(t));
      const log = opts.log.child({ table: t });
      if (crashing.has(t)) {
        // A table to crash is a process of its own, `tenace run`, so that the crash is a real SIGKILL.
        const proc = await TableProcess.start({
          dir: journal, club, table: String(t), session: plan.session, variant: plan.variant, broker: url, protocolVersion: opts.broker ? undefined : 4, speed, log,
        });
        stack.push(() => proc.stop());
        tables.set(t, processTable(proc, () => watch.assignments.get(String(t))?.pin ?? '', plan.variant));
        continue;
      }
      const start = () => startSimulation({
        broker: url, club, table: String(t), session: plan.session, events: [], speed, httpPort: 0, log,
        serial: opts.serial, autoplay: false, embargo: 'tray-complete', journal, protocolVersion: opts.broker ? undefined : 4,
        extraConfig: [`variant: ${plan.variant}`],
      });
      const handle = inProcessTable(await start(), start);
      tables.set(t, handle);
      stack.push(() => handle.stop());
    }
    say(`${plan.plays.size} tables${plan.handScored.length ? ` (${plan.handScored.length} hand-scored)` : ''}, ${plan.trays.size} trays, ${plan.schedule.rounds.length} rounds of ${plan.schedule.movement}`);
    // One table's terminal, as its players would open it (every table serves one; the daemon logs each URL and PIN).
    const [firstNo, first] = [...tables][0] ?? [];
    if (first?.url) say(`table ${firstNo}'s terminal at ${first.url}terminal/ (PIN ${first.pin()})`);
    if (crashing.size > 0) say(`tables ${[...crashing].sort((a, b) => a - b).join(', ')} run as their own tenace run processes: each is killed (SIGKILL) once in the middle of a deal and started again on its journal`);

    const barrier = new SlotBarrier(plan);
    const check = newCheck(plan);
    const timings: PlayTiming[] = [];
    const killAt = opts.chaos?.killDirectorAfterPlays;
    const chaos: PlayContext['chaos'] = {
      restartTable: opts.chaos?.restartTable,
      onPlayed: killAt === undefined ? undefined : (n) => {
        if (n !== killAt) return;
        say(`kill -9 of the director (pid ${director.pid()}) after ${n} plays`);
        director.kill();
        setTimeout(() => { director.restart().catch((err) => opts.log.error({ err }, 'director restart failed')); }, 1000);
      },
    };
    const ctx = (): PlayContext => ({ watch, barrier, plan, check, timings, chaos, waitMs, signal: opts.signal, say });
    const pins = plan.handScored.length > 0 ? await tablePins(opts.db ?? join(work, 'club.db'), plan) : new Map<number, string>();
    if (pins.size > 0) say(`hand-scored tables ${[...pins.keys()].join(', ')}: their terminal is ${director.url}hand/?table=N (PINs ${[...pins].map(([t, p]) => `${t}: ${p}`).join(', ')})`);
    await Promise.all([
      ...[...tables].map(([t, h]) => playTable(t, h, plan.plays.get(t) ?? [], ctx())),
      ...[...pins].map(([t, pin]) => playHandScored(t, new HandTerminal(director.url!, String(t), pin), plan.plays.get(t) ?? [], ctx())),
    ]);
    const total = check.plays;
    await watch.until(() => resultsIn(watch.standings) >= total, waitMs, `the director to score all ${total} plays`, opts.signal);
    check.alerts = watch.alerts;
    for (const tm of timings) tm.scoredAt = watch.scoredAt.get(`${tm.board}:${tm.table}`);
    const outcome: SessionOutcome = { standings: watch.standings!, check, directorUrl: director.url, timings };
    opts.onScored?.(outcome);
    if (opts.keepOpen && director.url) await opts.keepOpen(director.url);
    return outcome;
  } finally {
    for (const undo of stack.reverse()) await undo().catch((err) => opts.log.warn({ err }, 'session: part did not stop cleanly'));
    rmSync(work, { recursive: true, force: true });
    if (opts.tablesDir) rmSync(tablesWork, { recursive: true, force: true });
  }
}

export type { DirectorProcess };
