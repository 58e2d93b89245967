// `tenace session simulate`: a whole club session on one machine. Emulated tables run the real table path (emulated
// bridge and scanner → serial driver → journal → engine → feed), the director runs as its own process (as in a
// club: it can be killed and restarted), and everything meets on one broker. The players follow the plan
// (plan.ts): they wait for the director's round assignment, scan their trays, and play the cards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { SEATS, type Seat } from '../../cards/seat.js';
import { dealAtTable } from '../../cards/tray-turn.js';
import { type Simulation, startSimulation } from '../../daemon/simulation.js';
import type { TableEvent } from '../../formats/table-log.js';
import { Table } from '../../laws/engine.js';
import type { DealResult } from '../../laws/types.js';
import { DEFAULT_BASE, sessionTopics } from '../../feed/topics.js';
import type { ClubAlert, RoundAssignment, ScoreReport, TrayRecord } from '../types.js';
import { type PlannedPlay, type SessionPlan, trayCodeOf } from './plan.js';
import { type DirectorProcess, startDirectorProcess } from './director-process.js';
import { enterNames } from './names.js';
import { TableProcess } from './table-process.js';

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

/** What a session did, beside the standings. */
export interface SessionCheck {
  plays: number;
  /** Plays done so far. */
  played: number;
  overplays: number;
  /** Overplays whose deal was started with the tray record's hands. */
  verified: number;
  /** Fouled trays injected, and found at their first misplaced card (card-not-in-hand naming a swapped card). */
  fouled: { board: number; table: number; found: boolean; card?: string }[];
  /** Wrong trays scanned, and alerted before any card of them was played. */
  wrongTrays: { board: number; table: number; alerted: boolean }[];
  /** Renounces in error injected, and found. */
  revokes: { board: number; table: number; seat: string; found: boolean }[];
  /** Results entered by hand at the hand-scored tables. */
  handScored: number;
  /** Plays that ended with a claim of the last tricks. */
  claims: number;
  /**
   * Crashes (`--faults crash=N`): the table's daemon, a `tenace run` process, killed with SIGKILL in the middle of a
   * deal (after `afterCard` of its card events), and the new process started on the same journal.
   */
  crashes: { table: number; board: number; afterCard: number; pid: number; signal: string | null; restartedPid: number; downMs: number }[];
  alerts: ClubAlert[];
}

/** When a play's last card was journaled at its table, and when the standings first included its result (ms epoch). */
export interface PlayTiming { table: number; board: number; lastCardAt: number; lastCardSeq?: number; scoredAt?: number }

export interface SessionOutcome {
  standings: ScoreReport;
  check: SessionCheck;
  directorUrl: string | null;
  timings: PlayTiming[];
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

/**
 * A table of the session as the runner drives it: in this process (startSimulation), or a `tenace run` child process
 * for a table the session crashes. restart() stops it cleanly and starts it again on the same journal.
 */
interface TableHandle {
  /** The table view (its terminal at /terminal/), or null when it has none. */
  url: string | null;
  /** The table terminal's PIN. */
  pin(): string;
  /** The round of the assignment the table itself holds (0 before one). */
  round(): number;
  /** True when the table itself holds the record of this tray. */
  holdsRecord(board: number): boolean;
  /** The table's journal after `after`. */
  events(after?: number): Promise<TableEvent[]>;
  lastSeq(): Promise<number>;
  /** Cards and trays through the emulated hardware; anything else as the club layer sends it. */
  playEvents(events: readonly TableEvent[]): Promise<void>;
  /** The last deal's result as the table's engine has it. */
  lastResult(): Promise<DealResult | null>;
  /** What the last tray scan did, for an error message. */
  lastScan(): string;
  /** The process to crash, when the table is one. */
  process?: TableProcess;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function inProcessTable(first: Simulation, start: () => Promise<Simulation>): TableHandle {
  let sim = first;
  return {
    get url() { return sim.url; },
    pin: () => sim.controller.terminalPin,
    // What counts is what the table itself holds: its own subscription may lag behind the runner's.
    round: () => sim.controller.club?.assignment?.round ?? 0,
    holdsRecord: (board) => sim.controller.club?.records.has(board) === true,
    events: async (after = 0) => sim.controller.journal.events(after),
    lastSeq: async () => sim.controller.journal.lastSeq,
    playEvents: (events) => sim.playEvents(events),
    lastResult: async () => sim.controller.table.results().at(-1) ?? sim.controller.table.result(),
    lastScan: () => (sim.controller.lastScan ? JSON.stringify(sim.controller.lastScan).slice(0, 200) : ''),
    async restart() {
      await sim.stop();
      sim = await start();
    },
    stop: () => sim.stop(),
  };
}

function processTable(proc: TableProcess, pin: () => string, variant: string): TableHandle {
  return {
    url: proc.url,
    // The daemon's terminal takes the PIN the director gives the table in its assignment.
    pin,
    round: () => proc.round,
    holdsRecord: (board) => proc.records.has(board),
    events: (after) => proc.events(after),
    lastSeq: () => proc.lastSeq(),
    playEvents: (events) => proc.playEvents(events),
    async lastResult() {
      // The engine folded over the journal on disk, as the daemon itself restores it.
      const table = new Table({ variant });
      for (const e of await proc.events()) table.apply(e);
      return table.results().at(-1) ?? table.result();
    },
    lastScan: () => '',
    process: proc,
    async restart() {
      throw new Error('a crashed table is restarted by its crash, not by restartTable');
    },
    stop: () => proc.stop(),
  };
}

interface PlayContext {
  chaos: { restartTable?: { table: number; play: number }; onPlayed?: (plays: number) => void };
  watch: SessionWatch;
  barrier: SlotBarrier;
  plan: SessionPlan;
  check: SessionCheck;
  timings: PlayTiming[];
  waitMs: number;
  signal?: AbortSignal;
  say: (line: string) => void;
}

/** One table's part: round by round, wait for the assignment, then each tray in its slot. */
async function playTable(table: number, h: TableHandle, plays: readonly PlannedPlay[], ctx: PlayContext): Promise<void> {
  const { watch, plan } = ctx;
  for (const [i, p] of plays.entries()) {
    // What counts is what the table itself holds: its own subscription may lag behind the runner's.
    await watch.until(() => h.round() >= p.round, ctx.waitMs, `table ${table}'s assignment for round ${p.round}`, ctx.signal);
    await ctx.barrier.enter(p, ctx.signal);
    try {
      // An overplay waits for the tray's record: in the club the tray cannot reach the next table sooner.
      if (p.playIndex > 0) await watch.until(() => h.holdsRecord(p.board), ctx.waitMs, `table ${table} to hold the record of tray ${p.board}`, ctx.signal);
      if (p.wrongScan !== undefined) {
        await h.playEvents([{ type: 'tray', code: trayCodeOf(plan.session, p.wrongScan) }]);
        // The alert must reach the director before any card is played: wait for it before the right tray is scanned.
        const wrong = p.wrongScan;
        const alerted = await watch.until(() => watch.alerts.some((a) => a.kind === 'wrong-tray' && a.table === String(table) && a.board === wrong), 10_000, 'the wrong-tray alert', ctx.signal)
          .then(() => true, () => false);
        ctx.check.wrongTrays.push({ board: wrong, table, alerted });
      }
      const before = await h.lastSeq();
      await h.playEvents([{ type: 'tray', code: trayCodeOf(plan.session, p.board) }]);
      const deal = await waitForDeal(h, before, p.board, ctx);
      // Verified: the table started the overplay from the tray's record, laid as the tray lies (a turned tray's too).
      if (p.playIndex > 0 && deal.hands === dealAtTable(plan.trays.get(p.board)!.pbn, deal.turn ?? 0)) ctx.check.verified++;
      const r = ctx.chaos.restartTable;
      if (p.crash && h.process) {
        // The crash: SIGKILL of the table's daemon after the bridge has sent `afterCard` of the play's card events,
        // then `tenace run` again on its journal; the players play on once it is back.
        const cards = p.events.map((e, k) => (e.type === 'place' || e.type === 'lift' ? k : -1)).filter((k) => k >= 0);
        const cut = cards[p.crash.afterCard - 1] + 1;
        const head = p.events.slice(0, cut);
        const firstCard = head.findIndex((e) => e.type === 'place' || e.type === 'lift');
        await playAtTable(h, p, head.slice(0, firstCard), ctx, false);
        const crash = await h.process.crash(head.slice(firstCard), p.crash.delayMs);
        ctx.check.crashes.push({ table, board: p.board, afterCard: p.crash.afterCard, pid: crash.killed.pid, signal: crash.killed.signal, restartedPid: crash.restartedPid, downMs: crash.downMs });
        ctx.say(`table ${table}: its daemon (pid ${crash.killed.pid}) killed with ${crash.killed.signal} after ${p.crash.afterCard} card events of tray ${p.board}; started again (pid ${crash.restartedPid}) on its journal, back in ${crash.downMs} ms`);
        await playAtTable(h, p, p.events.slice(cut), ctx, true);
      } else if (r && r.table === table && r.play === i + 1) {
        // Stop the table between tricks (no card on the table, as after a power cut the players would re-place
        // any), start it again on its journal, and play on: the deal in progress is restored from the journal.
        const cut = trickBoundary(p.events);
        await h.playEvents(p.events.slice(0, cut));
        ctx.say(`table ${table} stopped and started again in the middle of tray ${p.board}`);
        await h.restart();
        await h.playEvents(p.events.slice(cut));
      } else {
        await playAtTable(h, p, p.events, ctx, true);
      }
      const lastCard = (await h.events(before)).filter((e) => e.type === 'place').at(-1);
      if (lastCard?.at) ctx.timings.push({ table, board: p.board, lastCardAt: Date.parse(lastCard.at), lastCardSeq: lastCard.seq });
      const result = await h.lastResult();
      if (p.fouled) {
        const f = result?.findings.find((x) => x.kind === 'card-not-in-hand');
        ctx.check.fouled.push({ board: p.board, table, found: !!f && p.fouled.cards.includes(f.card ?? ''), card: f?.card });
      }
      if (p.renounce) {
        const found = !!result?.findings.some((x) => x.kind === 'renounce-in-error' && x.seat === p.renounce!.seat);
        ctx.check.revokes.push({ board: p.board, table, seat: p.renounce.seat, found });
      }
    } finally {
      ctx.barrier.leave(p);
    }
    ctx.check.played++;
    ctx.chaos.onPlayed?.(ctx.check.played);
  }
}

/**
 * A play as the people at the table make it: the cards through the readers, and what the readers cannot see through
 * the table's terminal (its HTTP interface, as the page uses it): the contract, a claim and the opponents' answer
 * (a disputed claim calls the director, who lets it stand), and the opponents' acceptance of the result.
 */
async function playAtTable(h: TableHandle, p: PlannedPlay, events: readonly TableEvent[], ctx: PlayContext, accept: boolean): Promise<void> {
  if (!h.url) return h.playEvents(events);
  if (events.length === 0 && !accept) return;
  const terminal = await TableTerminal.open(h.url, h.pin());
  let cards: TableEvent[] = [];
  const flush = async () => { if (cards.length) await h.playEvents(cards); cards = []; };
  for (const ev of events) {
    if (ev.type === 'place' || ev.type === 'lift') { cards.push(ev); continue; }
    await flush();
    if (ev.type === 'contract') await terminal.send('set-contract', { contract: ev.contract });
    else if (ev.type === 'claim') {
      const adversary = SEATS[(SEATS.indexOf(ev.seat) + 1) % 4];
      await terminal.send('claim', { seat: ev.seat, tricks: ev.tricks });
      if (p.claim?.disputed) {
        await terminal.send('answer-claim', { seat: adversary, accept: false, reason: 'we think we take a trick' });
        // The director comes, hears both sides, and lets the claim stand (L70): it is made again and accepted.
        await terminal.send('claim', { seat: ev.seat, tricks: ev.tricks });
      }
      await terminal.send('answer-claim', { seat: adversary, accept: true });
      // The tray's first play: the terminal asks the players to pass the cards they still hold over the readers.
      if (p.shown) cards.push(...p.shown);
    } else {
      await h.playEvents([ev]);
    }
  }
  await flush();
  if (accept && p.contract) {
    const declarer = p.contract.match(/([NESW])X{0,2}$/)![1];
    await terminal.send('accept-result', { seat: SEATS[(SEATS.indexOf(declarer as Seat) + 1) % 4], board: p.board }).catch((e: Error) => ctx.say(`table ${p.table}: ${e.message}`));
  }
}

/** A table terminal's HTTP interface: the PIN opens it, then each action is a command with its own transaction id. */
class TableTerminal {
  private n = 0;
  private constructor(private readonly url: string, private readonly cookie: string) {}

  static async open(url: string, pin: string): Promise<TableTerminal> {
    const res = await fetch(new URL('terminal/api/pin', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin }) });
    if (!res.ok) throw new Error(`the table terminal refused its PIN: ${res.status}`);
    return new TableTerminal(url, (res.headers.get('set-cookie') ?? '').split(';')[0]);
  }

  async send(cmd: string, body: Record<string, unknown>): Promise<void> {
    const res = await fetch(new URL(`terminal/api/command/${cmd}`, this.url), {
      method: 'POST', headers: { 'content-type': 'application/json', cookie: this.cookie },
      body: JSON.stringify({ transaction: `sim-${process.pid}-${Date.now()}-${++this.n}`, ...body }),
    });
    const j = await res.json() as { ok?: boolean; error?: string };
    if (!j.ok) throw new Error(`the table terminal refused ${cmd}: ${j.error ?? res.status}`);
  }
}

/** A hand-scored table's part: round by round, wait for the assignment, then enter each tray's result on the terminal. */
async function playHandScored(table: number, terminal: HandTerminal, plays: readonly PlannedPlay[], ctx: PlayContext): Promise<void> {
  const bridge = ctx.plan.variant === 'bridge';
  await terminal.login();
  for (const p of plays) {
    await ctx.watch.until(() => (ctx.watch.assignments.get(String(table))?.round ?? 0) >= p.round, ctx.waitMs, `table ${table}'s assignment for round ${p.round}`, ctx.signal);
    await ctx.barrier.enter(p, ctx.signal);
    try {
      const r = p.result!;
      // As the players tap it: board, contract and declarer (whist: N-S's tricks), the lead, the tricks; E-W accept.
      await terminal.enter(bridge
        ? { board: p.board, round: p.round, contract: p.contract, tricks: r.tricks, lead: r.lead }
        : { board: p.board, round: p.round, tricks: { NS: r.tricks, EW: 13 - r.tricks }, lead: r.lead });
    } finally {
      ctx.barrier.leave(p);
    }
    ctx.check.played++;
    ctx.chaos.onPlayed?.(ctx.check.played);
  }
}

/** The hand-scoring terminal's HTTP interface, as its page uses it. */
class HandTerminal {
  private token = '';
  private n = 0;
  constructor(private readonly url: string, private readonly table: string, private readonly pin: string) {}

  async login(): Promise<void> {
    const r = await this.post('login', { table: this.table, pin: this.pin });
    this.token = (r as { token: string }).token;
  }

  async enter(result: Record<string, unknown>): Promise<void> {
    await this.post('result', { transaction: `sim-${this.table}-${++this.n}`, ...result });
  }

  private async post(what: string, body: unknown): Promise<unknown> {
    const res = await fetch(new URL(`api/hand/${what}`, this.url), {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
    });
    const j = await res.json() as { error?: string };
    if (!res.ok) throw new Error(`table ${this.table}'s terminal: ${what}: ${j.error ?? res.status}`);
    return j;
  }
}

/** The hand-scored tables' PINs, as the director's console shows them: made from the secret in its store. */
async function tablePins(db: string, plan: SessionPlan): Promise<Map<number, string>> {
  const { DirectorStore } = await import('../director/store.js');
  const { newPinSecret, tablePin } = await import('../director/hand-scored.js');
  const store = await DirectorStore.open(`sqlite:${db}`);
  try {
    const secret = await store.metaValue('table-pin-secret', newPinSecret);
    return new Map(plan.handScored.map((t) => [t, tablePin(secret, plan.session, String(t))]));
  } finally {
    await store.close();
  }
}

/** The index just after the middle trick's last lift: no card lies on the table there. */
function trickBoundary(events: readonly TableEvent[]): number {
  let onTable = 0;
  let lifts = 0;
  let cut = 0;
  events.forEach((e, i) => {
    if (e.type === 'place') onTable++;
    if (e.type === 'lift') { onTable--; lifts++; }
    if (onTable === 0 && lifts > 0 && lifts <= 28) cut = i + 1;
  });
  return cut;
}

async function waitForDeal(h: TableHandle, after: number, board: number, ctx: PlayContext): Promise<Extract<TableEvent, { type: 'deal' }>> {
  const limit = Date.now() + ctx.waitMs;
  for (;;) {
    const found = (await h.events(after)).find((e): e is Extract<TableEvent, { type: 'deal' }> => e.type === 'deal' && e.board === board);
    if (found) return found;
    if (ctx.signal?.aborted) throw new Error('session stopped');
    if (Date.now() > limit) throw new Error(`timed out after ${ctx.waitMs / 1000} s waiting for table ${h.lastScan() ? `(last scan: ${h.lastScan()})` : ''} to start the deal of tray ${board}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Publish empty retained messages over the session's retained topics (MQTT's way to delete them). */
async function clearRetained(url: string, club: string, plan: SessionPlan, base = DEFAULT_BASE): Promise<void> {
  const t = sessionTopics(club, plan.session, base);
  const topics = [t.standings, t.released, t.director, t.schedule, ...[...plan.trays.keys()].map((b) => t.tray(b)),
    ...[...plan.plays.keys()].map((n) => `${base}/${club}/${n}/assignment`)];
  const client = await mqtt.connectAsync(url, { clientId: `tenace-session-clear-${process.pid}`, protocolVersion: 4 });
  try {
    await Promise.all(topics.map((topic) => client.publishAsync(topic, '', { qos: 1, retain: true })));
  } finally {
    await client.endAsync();
  }
}

function newCheck(plan: SessionPlan): SessionCheck {
  const all = [...plan.plays.values()].flat();
  return {
    plays: all.length, played: 0, overplays: all.filter((p) => p.playIndex > 0 && !p.handScored).length, verified: 0, fouled: [], wrongTrays: [], revokes: [],
    handScored: all.filter((p) => p.handScored).length, claims: all.filter((p) => p.claim).length, crashes: [], alerts: [],
  };
}

function resultsIn(r: ScoreReport | null): number {
  return r ? r.boards.reduce((n, b) => n + b.results.length, 0) : 0;
}

/**
 * Slot k of a round starts at a table only when every table has finished slot k-1 of that round: the schedule's
 * promise that a tray is at one table at a time holds in time, not only on paper.
 */
class SlotBarrier {
  private readonly pending = new Map<string, number>();
  private readonly waiters = new Map<string, (() => void)[]>();

  constructor(plan: SessionPlan) {
    for (const p of [...plan.plays.values()].flat()) {
      const k = key(p.round, p.slot);
      this.pending.set(k, (this.pending.get(k) ?? 0) + 1);
    }
  }

  /** Resolves when every earlier slot of this round (and every earlier round) is done. */
  async enter(p: PlannedPlay, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const open = [...this.pending].find(([k, n]) => n > 0 && before(k, p.round, p.slot));
      if (!open) return;
      if (signal?.aborted) throw new Error('session stopped');
      await new Promise<void>((r) => this.waiters.set(open[0], [...(this.waiters.get(open[0]) ?? []), r]));
    }
  }

  leave(p: PlannedPlay): void {
    const k = key(p.round, p.slot);
    const n = (this.pending.get(k) ?? 1) - 1;
    this.pending.set(k, n);
    if (n === 0) for (const w of this.waiters.get(k) ?? []) w();
  }
}

function key(round: number, slot: number): string {
  return `${round}:${slot}`;
}

function before(k: string, round: number, slot: number): boolean {
  const [r, s] = k.split(':').map(Number);
  return r < round || (r === round && s < slot);
}

/** What the session runner reads from the broker: records, assignments, alerts, standings. */
class SessionWatch {
  readonly records = new Map<number, TrayRecord>();
  readonly assignments = new Map<string, RoundAssignment>();
  readonly alerts: ClubAlert[] = [];
  standings: ScoreReport | null = null;
  /** `board:table` → when the standings first held that result (ms epoch). */
  readonly scoredAt = new Map<string, number>();
  private readonly changed = new Set<() => void>();

  private constructor(private readonly client: MqttClient) {}

  static async connect(url: string, club: string, session: string, base = DEFAULT_BASE): Promise<SessionWatch> {
    const client = await mqtt.connectAsync(url, { clientId: `tenace-session-${club}-${session}-${process.pid}`, protocolVersion: 4, reconnectPeriod: 500 });
    const w = new SessionWatch(client);
    const t = sessionTopics(club, session, base);
    const assignment = `${base}/${club}/+/assignment`;
    const tableAlerts = `${base}/${club}/+/director`;
    client.on('message', (topic, payload) => {
      if (payload.length === 0) return;
      let msg: unknown;
      try { msg = JSON.parse(payload.toString('utf8')); } catch { return; }
      const m = msg as { type?: string; session?: string };
      if (m.type === 'tenace.tray' && m.session === session) w.records.set((msg as TrayRecord).board, msg as TrayRecord);
      else if (m.type === 'tenace.assignment' && m.session === session) w.assignments.set((msg as RoundAssignment).table, msg as RoundAssignment);
      // The table's alert comes on its own topic and again as the director relays it: keep one of each.
      else if (m.type === 'tenace.alert' && m.session === session) { if (!w.alerts.some((a) => JSON.stringify(a) === JSON.stringify(msg))) w.alerts.push(msg as ClubAlert); }
      else if (topic === t.standings) {
        w.standings = msg as ScoreReport;
        const now = Date.now();
        for (const b of w.standings.boards ?? []) for (const r of b.results) {
          const k = `${b.board}:${r.table}`;
          if (!w.scoredAt.has(k)) w.scoredAt.set(k, now);
        }
      }
      for (const f of w.changed) f();
    });
    await client.subscribeAsync([t.traysFilter, assignment, tableAlerts, t.alerts, t.standings], { qos: 1 });
    return w;
  }

  /** Resolves when `cond` holds (checked on every message and every 50 ms); rejects after `ms` naming `what`. */
  until(cond: () => boolean, ms: number, what: string, signal?: AbortSignal): Promise<void> {
    // An abort listener added after the abort never fires: the wait would hold the process until its timeout.
    if (signal?.aborted) return Promise.reject(new Error('session stopped'));
    try {
      if (cond()) return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.changed.delete(check);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err); else resolve();
      };
      const check = () => {
        try {
          if (cond()) done();
        } catch (err) {
          done(err as Error);
        }
      };
      const onAbort = () => done(new Error('session stopped'));
      const timer = setTimeout(() => done(new Error(`timed out after ${ms / 1000} s waiting for ${what}`)), ms);
      const poll = setInterval(check, 50);
      this.changed.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }
}

export type { DirectorProcess };
