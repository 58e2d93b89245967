// The daemon benchmark's parts (b) RSS after 10,000 events and (c) start to the first retained state (bench/daemon.ts
// explains them): the built daemon in a child process, its bridge on a socat pty with the emulator.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MqttClient } from 'mqtt';
import { FirmwareEmulator, ptyLink } from '../src/hardware/emulator.js';
import { PtyPair } from '../src/hardware/pty.js';
import { procCpuMs, procStatus } from './proc.js';
import { BUDGET_B_MS, BUDGET_C_MS, CLUB, DAEMON, Cleanup, type DaemonBenchOptions, Inbox, MIN_STARTS, ROOT, clearRetained, dealParams, dealsFor, progress, sleep, tableTopicsOf, timeLeft, partDirs } from './daemon-tools.js';

// ------------------------------------------------------------------ (b) RSS and (c) start time, built daemon in a child

export interface PartBC {
  daemonStartMs: number[];
  floorStartMs: number[];
  rssIdleKb: number;
  /** When the last of the events was in the journal. */
  rssJournaledKb: number;
  hwmKb: number;
  baselineRssKb: number;
  eventsFed: number;
  eventsJournaled: number;
  eventsDeliveredAtRead: number;
  deals: number;
  journalMs: number;
  /** CPU time (user + system) the daemon spent from idle until every fed event was journaled, ms. */
  cpuMs: number;
  budgetHit: boolean;
  daemonExits: string[];
  errors: string[];
}

/** The environment for child processes, without TENACE_* variables (they would override the bench's config). */
function childEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('TENACE_')) env[k] = v;
  return { ...env, ...extra };
}

/** A child process whose output is drained (the tail kept for error messages). */
function spawnDrained(args: string[], env: Record<string, string> = {}): { child: ChildProcess; tail: () => string; exited: Promise<string> } {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(env) });
  let tail = '';
  const keep = (b: Buffer) => { tail = (tail + b.toString('utf8')).slice(-4000); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<string>((r) => child.once('exit', (code, sig) => r(sig ? `signal ${sig}` : `exit ${code}`)));
  return { child, tail: () => tail, exited };
}

async function stopChild(p: { child: ChildProcess; exited: Promise<string> }): Promise<string> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return p.exited;
  p.child.kill('SIGTERM');
  const t = setTimeout(() => p.child.kill('SIGKILL'), 5000);
  const how = await p.exited;
  clearTimeout(t);
  return how;
}

/** Counts the lines of a file that only grows (the journal), reading only what was added since the last call. */
class GrowingFile {
  private offset = 0;
  private readonly buf = Buffer.alloc(1 << 16);
  lines = 0;
  constructor(private readonly path: string) {}
  poll(): number {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return this.lines;
    }
    try {
      for (;;) {
        const n = readSync(fd, this.buf, 0, this.buf.length, this.offset);
        if (n <= 0) break;
        for (let i = 0; i < n; i++) if (this.buf[i] === 0x0a) this.lines++;
        this.offset += n;
      }
    } finally {
      closeSync(fd);
    }
    return this.lines;
  }
}

async function until(cond: () => boolean, timeoutMs: number, what: string, everyMs = 5): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

const FLOOR_SCRIPT = `
const mqtt = require('mqtt');
const c = mqtt.connect(process.env.BENCH_URL, { protocolVersion: 5, clientId: process.env.BENCH_ID });
c.on('connect', () => c.publish(process.env.BENCH_TOPIC, process.env.BENCH_PAYLOAD, { qos: 1, retain: true }, () => c.end()));
c.on('error', (e) => { console.error(e.message); process.exit(1); });
`;

const SESSION = 'bench';

export async function partBC(o: DaemonBenchOptions, clean: Cleanup, inbox: Inbox, sub: MqttClient): Promise<PartBC> {
  if (!existsSync(DAEMON)) throw new Error(`${DAEMON} is missing: run \`node scripts/bundle-daemon.mjs build/bench/src/bundle\` first (npm run bench does)`);
  const out: PartBC = {
    daemonStartMs: [], floorStartMs: [], rssIdleKb: NaN, rssJournaledKb: NaN, hwmKb: NaN, baselineRssKb: NaN,
    eventsFed: 0, eventsJournaled: 0, eventsDeliveredAtRead: 0, deals: 0, journalMs: NaN, cpuMs: NaN, budgetHit: false, daemonExits: [], errors: [],
  };
  const { dir, shm, deck, deckPath } = partDirs(clean, 'proc');
  const pair = await PtyPair.create({ dir: join(dir, 'pty'), names: ['device', 'host'] });
  clean.add('stop socat', () => pair.close());
  const emu = new FirmwareEmulator({ readers: 4 });
  await emu.start(ptyLink(pair));
  clean.add('stop emulator (pty)', () => emu.stop());

  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const floorPrefix = `tenace-bench/floor/${tag}/`;
  await sub.subscribeAsync([`tenace/${CLUB}/+/state`, `tenace/${CLUB}/+/event`, `tenace/${CLUB}/+/response/+`, `${floorPrefix}+`], { qos: 1 });
  const usedTables: string[] = [];
  const floorTopics: string[] = [];
  clean.add('clear retained (b, c)', () => clearRetained(sub, [...usedTables.flatMap(tableTopicsOf), ...floorTopics]));

  const writeConfig = (table: string, journalDir: string): string => {
    const file = join(dir, `${table}.yaml`);
    writeFileSync(file, [
      `club: { id: ${CLUB} }`,
      `table: { id: ${JSON.stringify(table)} }`,
      `session: ${SESSION}`,
      `journal: { dir: ${JSON.stringify(journalDir)} }`,
      `mqtt: { url: ${JSON.stringify(o.broker)} }`,
      `http: { port: 0, host: 127.0.0.1 }`,
      `hardware:`,
      `  decks: [${JSON.stringify(deckPath)}]`,
      `  bridges: [{ id: bench, port: ${JSON.stringify(pair.b)}, readers: [{reader: 0, seat: N}, {reader: 1, seat: E}, {reader: 2, seat: S}, {reader: 3, seat: W}] }]`,
      '',
    ].join('\n'));
    return file;
  };
  /** Spawn the built daemon; resolves once its retained state has arrived (after the spawn). */
  const startDaemon = async (table: string, journalDir: string, timeoutMs = 10_000) => {
    if (!usedTables.includes(table)) usedTables.push(table);
    const cfg = writeConfig(table, journalDir);
    const t0 = performance.now();
    const p = spawnDrained([DAEMON, 'run', '--config', cfg]);
    clean.add(`kill daemon ${table}`, () => stopChild(p));
    try {
      await Promise.race([
        inbox.wait(() => (inbox.stateAt.get(table)?.at ?? -1) > t0, timeoutMs, `the retained state of ${table}`),
        p.exited.then((how) => { throw new Error(`the daemon ${how} before publishing its state: ${p.tail()}`); }),
      ]);
    } catch (e) {
      await stopChild(p);
      throw e;
    }
    return { p, ms: inbox.stateAt.get(table)!.at - t0, bytes: inbox.stateAt.get(table)!.bytes };
  };
  const startFloor = async (n: number, bytes: number) => {
    const topic = `${floorPrefix}${n}`;
    floorTopics.push(topic);
    const t0 = performance.now();
    const p = spawnDrained(['-e', FLOOR_SCRIPT], {
      BENCH_URL: o.broker, BENCH_ID: `tenace-bench-floor-${tag}-${n}`, BENCH_TOPIC: topic, BENCH_PAYLOAD: JSON.stringify({ pad: 'x'.repeat(Math.max(0, bytes - 10)) }),
    });
    clean.add(`kill floor ${n}`, () => stopChild(p));
    await Promise.race([
      inbox.wait(() => (inbox.floor.get(topic)?.n ?? 0) > 0, 10_000, `the floor's retained message ${n}`),
      p.exited.then((how) => (inbox.floor.get(topic) ? undefined : Promise.reject(new Error(`the floor ${how}: ${p.tail()}`)))),
    ]);
    const ms = inbox.floor.get(topic)!.at - t0;
    await Promise.race([p.exited, sleep(5000)]);
    return ms;
  };

  // (b) baseline: a bare node, read the same way as the daemon; it idles while (c) runs.
  const base = spawnDrained(['-e', 'setInterval(() => {}, 1000)']);
  const baseAt = Date.now();
  clean.add('kill baseline', () => stopChild(base));

  // (c) start times, alternating daemon and floor; each daemon with a fresh journal on disk (default fsync).
  let stateBytes = 300;
  const cDeadline = Date.now() + BUDGET_C_MS;
  for (let i = 0; i < o.starts; i++) {
    if (i >= MIN_STARTS && Date.now() > cDeadline) break;
    const table = `start-${tag}-${i}`;
    const d = await startDaemon(table, join(dir, `journal-${i}`));
    out.daemonStartMs.push(d.ms);
    stateBytes = d.bytes;
    out.daemonExits.push(await stopChild(d.p));
    out.floorStartMs.push(await startFloor(i, stateBytes));
    progress(`(c) start ${i + 1}/${o.starts}: daemon ${d.ms.toFixed(0)} ms, floor ${out.floorStartMs[i].toFixed(0)} ms`);
  }

  await sleep(Math.max(0, 1500 - (Date.now() - baseAt)));
  out.baselineRssKb = procStatus(base.child.pid!).rss;
  await stopChild(base);
  // (b) the daemon, fed `events` place/lift events at the pace it journals them (at most WINDOW cards ahead of its
  // journal). The journal is on tmpfs so that the disk does not set the pace; the feed delivers behind it, from the
  // journal (the outbox), as designed.
  const table = `rss-${tag}`;
  const journalDir = join(shm, 'journal');
  const journal = new GrowingFile(join(journalDir, `${SESSION}.ndjson`));
  let sawPresent = false;
  const onRx = (line: string) => { if (/ present\*/.test(line)) sawPresent = true; };
  emu.on('rx', onRx);
  const d = await startDaemon(table, journalDir);
  const pid = d.p.child.pid!;
  try {
    // The driver identified the bridge and asked for its snapshot: cards from now on are seen.
    await until(() => sawPresent, 5000, 'the daemon to identify the bridge');
    emu.off('rx', onRx);
    await sleep(300);
    out.rssIdleKb = procStatus(pid).rss;
    const cpu0 = procCpuMs(pid);
    const deals = dealsFor(o.seed + 1, deck, Math.ceil(o.events / 104));
    const deadline = Date.now() + Math.min(BUDGET_B_MS, timeLeft());
    const t0 = performance.now();
    const WINDOW = 64;
    const journaledCards = () => journal.poll() - out.deals;
    feed: for (let i = 0; i < deals.length; i++) {
      const tx = `deal-${i}`;
      await until(() => journaledCards() >= out.eventsFed, 10_000, 'the cards of the previous deal to be journaled', 2);
      await sub.publishAsync(`tenace/${CLUB}/${table}/request/start-deal`, JSON.stringify({ transaction: tx, ...dealParams(deals[i].deal) }), { qos: 1 });
      await inbox.wait(() => inbox.responses.has(`${table}/${tx}`), 10_000, `the start-deal response ${tx}`);
      const r = inbox.responses.get(`${table}/${tx}`)!;
      if (!r.ok) throw new Error(`start-deal refused: ${r.error}`);
      out.deals++;
      for (const step of deals[i].steps) {
        if (out.eventsFed >= o.events) break feed;
        if (Date.now() > deadline) {
          out.budgetHit = true;
          break feed;
        }
        // At most WINDOW cards ahead of the journal: a steady stream the daemon keeps up with, not a flood.
        if (out.eventsFed - journaledCards() >= WINDOW) await until(() => out.eventsFed - journaledCards() < WINDOW, 10_000, 'the daemon to journal the cards', 2);
        if (step.kind === 'arrive') emu.place(step.reader, step.uid);
        else emu.lift(step.reader, step.uid);
        out.eventsFed++;
      }
      if (i % 24 === 23) progress(`(b) ${out.eventsFed}/${o.events} events fed, ${journaledCards()} journaled, ${inbox.cardEvents.get(table) ?? 0} delivered`);
    }
    await until(() => journaledCards() >= out.eventsFed, Math.max(1000, deadline - Date.now()), 'every fed event to be journaled').catch((e) => out.errors.push((e as Error).message));
    out.eventsJournaled = journaledCards();
    out.journalMs = performance.now() - t0;
    out.cpuMs = procCpuMs(pid) - cpu0;
    await sleep(500);
    const st = procStatus(pid);
    out.rssJournaledKb = st.rss;
    out.eventsDeliveredAtRead = inbox.cardEvents.get(table) ?? 0;
    out.hwmKb = st.hwm;
  } finally {
    out.daemonExits.push(await stopChild(d.p));
  }
  return out;
}

