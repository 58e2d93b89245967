// The kill -9 test's table: the real daemon (`tenace run --config FILE`) as a child process, the firmware emulator in
// this process on the other end of a socat pty pair, a journal folder, and a spectator on the real Mosquitto that
// mirrors the table from its public topics. The child is launcher.ts bundled once by esbuild (the same transform tsx
// applies): the daemon's code loaded ahead, then `tenace run` on a `go` line. Every process started here is stopped by
// its own pid, never by name.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { MqttClient } from 'mqtt';
import type { TableEvent } from '../../../src/formats/table-log.js';
import { type DeckFile, virtualDeck, writeDeckFile } from '../../../src/hardware/deck.js';
import { FirmwareEmulator, type RfidStep, planSteps, ptyLink } from '../../../src/hardware/emulator.js';
import { PtyPair } from '../../../src/hardware/pty.js';
import { SeatMap } from '../../../src/hardware/seat-map.js';
import { readJournalFile } from '../../../src/journal/file.js';
import { TableMirror } from '../../../src/feed/subscriber.js';
import { client, uid } from '../../feed/broker.js';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const SOCAT = '/usr/bin/socat';
export const BROKER_URL = 'mqtt://127.0.0.1:1883';
const SESSION = 'kill9';
/** Launchers kept warming by default (see warm()). */
const SPARES = 2;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Poll `cond` every 10 ms until it holds; throws with `what()` after `timeoutMs`. */
export async function waitUntil(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: () => string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await sleep(10);
  }
}

/** Fail loudly (never skip) when socat is missing: the test needs a real pty pair. */
export function requireSocatBinary(): void {
  const r = spawnSync(SOCAT, ['-V'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error(`socat is missing at ${SOCAT}: the kill -9 test needs it for the pty pair (apt-get install socat)`);
}

/** The daemon as built for the test: the warm launcher of `tenace run` (see launcher.ts). */
export interface DaemonBuild {
  launcher: string;
}

/**
 * Bundle the launcher (src/cli/run.ts behind a `go` line on stdin) into `dir` once, with esbuild, the same transform
 * tsx applies. Packages stay external; a `node_modules` link in `dir` lets Node resolve them from there (ESM
 * resolution looks beside the file, not in the cwd).
 */
export async function buildDaemon(dir: string): Promise<DaemonBuild> {
  const { build } = await import('esbuild');
  const launcher = join(dir, 'launcher.mjs');
  await build({
    entryPoints: [join(ROOT, 'test/daemon/kill9/launcher.ts')], outfile: launcher, bundle: true, platform: 'node',
    format: 'esm', target: 'node20', packages: 'external', logLevel: 'error',
  });
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { launcher };
}

/**
 * What the driver logs (at debug when nothing was missed) once it is in step with the bridge again: a replay of the
 * bridge's event log applied (protocol v2), or a presence snapshot reconciled (v1, and v2's fallback).
 */
export const SYNC_MESSAGES: readonly string[] = ['replay applied', 'snapshot reconciled (order unknown)', 'snapshot reconciled'];

/** One JSON log line of the daemon's stdout. */
export interface LogLine {
  level?: string;
  msg?: string;
  [k: string]: unknown;
}

/** One daemon process (one "generation" of the table's daemon); spawned warm, started by go(). */
export class Daemon {
  readonly proc: ChildProcess;
  readonly logs: LogLine[] = [];
  readonly stderr: string[] = [];
  readonly closed: Promise<void>;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  generation = 0;
  /** When go() was called (ms since the epoch), and whether the launcher was warm by then. */
  goAt = 0;
  warmAtGo = false;

  constructor(launcher: string, config: string) {
    // No TENACE_* overrides and no systemd socket from the environment the tests run in.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TENACE_') && k !== 'NOTIFY_SOCKET' && k !== 'WATCHDOG_USEC' && k !== 'WATCHDOG_PID'));
    this.proc = spawn(process.execPath, [launcher, 'run', '--config', config], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdin!.on('error', () => { /* killed before go */ });
    createInterface({ input: this.proc.stdout! }).on('line', (line) => {
      try {
        this.logs.push(JSON.parse(line) as LogLine);
      } catch {
        this.logs.push({ msg: line });
      }
    });
    this.proc.stderr!.on('data', (d: Buffer) => this.stderr.push(String(d)));
    this.closed = new Promise((r) => this.proc.on('close', (code, signal) => {
      this.exit = { code, signal };
      r();
    }));
  }

  /** Run `tenace run` in this process now. */
  go(generation: number): void {
    this.generation = generation;
    this.goAt = Date.now();
    this.warmAtGo = this.logged('launcher warm').length > 0;
    this.proc.stdin!.end('go\n');
  }

  get running(): boolean {
    return this.exit === null;
  }

  /** Milliseconds from go() to the first log line with this message, or undefined. */
  since(msg: string): number | undefined {
    const l = this.logs.find((x) => x.msg === msg);
    return l && typeof l.time === 'string' ? Date.parse(l.time) - this.goAt : undefined;
  }

  /** Log lines with this message. */
  logged(msg: string): LogLine[] {
    return this.logs.filter((l) => l.msg === msg);
  }

  /** Milliseconds from go() to the driver's first resynchronisation, or undefined. */
  sinceSync(): number | undefined {
    const l = this.syncs()[0];
    return l && typeof l.time === 'string' ? Date.parse(l.time) - this.goAt : undefined;
  }

  /** The driver's resynchronisations so far (SYNC_MESSAGES lines). */
  syncs(): LogLine[] {
    return this.logs.filter((l) => SYNC_MESSAGES.includes(l.msg ?? ''));
  }

  /** SIGKILL, and wait until the process is gone (its stdout read to the end). */
  async kill9(): Promise<void> {
    if (this.exit === null) this.proc.kill('SIGKILL');
    await this.closed;
  }

  /** The end of what it wrote, for failure messages. */
  tail(n = 15): string {
    return [...this.logs.slice(-n).map((l) => JSON.stringify(l)), ...this.stderr].join('\n');
  }
}

export interface RigOptions {
  name: string;
  /** A fresh folder for the journal, the deck, the config and the pty links. */
  dir: string;
  daemon: DaemonBuild;
  /** Launchers to keep warming (default 2): more when kills come faster than a launcher warms. */
  spares?: number;
}

/** One table: pty pair, emulator, config, journal folder, spectator; daemons come and go. */
export class Rig {
  readonly club = uid('k9c');
  readonly table = uid('k9t');
  readonly journalDir: string;
  readonly journalPath: string;
  readonly configPath: string;
  readonly deck: DeckFile;
  readonly mirror: TableMirror;
  readonly emulator = new FirmwareEmulator({ readers: 4 });
  /** The daemons started so far, in order. */
  readonly daemons: Daemon[] = [];
  /** Launchers warming up for the next starts. */
  private spares: Daemon[] = [];
  /** Responses seen on response/<cmd>, in arrival order. */
  readonly responses: { cmd: string; payload: Record<string, unknown> }[] = [];
  private pty!: PtyPair;
  private sub!: MqttClient;

  private constructor(readonly opts: RigOptions) {
    this.journalDir = join(opts.dir, 'journal');
    this.journalPath = join(this.journalDir, `${SESSION}.ndjson`);
    this.configPath = join(opts.dir, 'tenace.yaml');
    this.deck = virtualDeck(`kill9-${opts.name}`);
    this.mirror = new TableMirror(this.club, this.table);
  }

  static async create(opts: RigOptions): Promise<Rig> {
    const rig = new Rig(opts);
    await rig.setup();
    return rig;
  }

  private async setup(): Promise<void> {
    const dir = this.opts.dir;
    mkdirSync(this.journalDir, { recursive: true });
    const deckPath = join(dir, 'deck.json');
    writeDeckFile(deckPath, this.deck);
    this.pty = await PtyPair.create({ dir: join(dir, 'pty'), names: ['emulator', 'bridge'] });
    // http.port 0 with an external broker: the controller starts no web view at all.
    const yaml = [
      `club: { id: ${JSON.stringify(this.club)} }`,
      `table: { id: ${JSON.stringify(this.table)} }`,
      `session: ${SESSION}`,
      'variant: duplicate-whist',
      `journal: { dir: ${JSON.stringify(this.journalDir)}, fsync: always }`,
      `mqtt: { url: ${JSON.stringify(BROKER_URL)}, keepalive: 5 }`,
      'feed: { embargo: live }',
      'http: { port: 0, host: 127.0.0.1 }',
      // debug: a resynchronisation is logged every time (SYNC_MESSAGES), which says when a restart is complete.
      'log: { level: debug }',
      'hardware:',
      `  decks: [${JSON.stringify(deckPath)}]`,
      `  bridges: [{ id: kill9, port: ${JSON.stringify(this.pty.b)}, readers: [{reader: 0, seat: N}, {reader: 1, seat: E}, {reader: 2, seat: S}, {reader: 3, seat: W}] }]`,
      '  scanner: { mode: none }',
    ].join('\n');
    writeFileSync(this.configPath, yaml + '\n');

    // The spectator subscribes before the first daemon starts, and stays for the whole deal.
    this.sub = await client(BROKER_URL, { clientId: uid('k9-spectator-') });
    const responsePrefix = this.mirror.topics.response('');
    this.sub.on('message', (topic, payload) => {
      if (topic.startsWith(responsePrefix)) {
        try {
          this.responses.push({ cmd: topic.slice(responsePrefix.length), payload: JSON.parse(payload.toString()) as Record<string, unknown> });
        } catch { /* not ours */ }
        return;
      }
      this.mirror.handle(topic, payload);
    });
    await this.sub.subscribeAsync([...this.mirror.subscriptions(), this.mirror.topics.response('+')], { qos: 1 });

    await this.emulator.start(ptyLink(this.pty));
    await this.emulator.whenReady();
  }

  /** The running daemon, if any. */
  get daemon(): Daemon | undefined {
    const d = this.daemons[this.daemons.length - 1];
    return d?.running ? d : undefined;
  }

  /** Start a daemon (the previous one must be gone): the oldest warm launcher, else a cold one. */
  spawn(): Daemon {
    if (this.daemon) throw new Error('a daemon is already running');
    this.spares = this.spares.filter((x) => x.running);
    const d = this.spares.shift() ?? new Daemon(this.opts.daemon.launcher, this.configPath);
    d.go(this.daemons.length + 1);
    this.daemons.push(d);
    return d;
  }

  /**
   * Top up the launchers warming for the next starts. Called once a daemon is back (or by a test right after a kill),
   * so that warming does not slow a start down; there are two because a launcher takes a second or two to warm on a
   * loaded machine, and kills can come faster than that.
   */
  warm(): void {
    this.spares = this.spares.filter((x) => x.running);
    while (this.spares.length < (this.opts.spares ?? SPARES)) this.spares.push(new Daemon(this.opts.daemon.launcher, this.configPath));
  }

  /**
   * Wait until daemon `d` has resynchronised with the bridge (its driver applied a replay or reconciled a snapshot) and
   * the journal holds at least `events` events. After that, every line the emulator writes reaches a synced driver.
   */
  async waitBack(d: Daemon, events: number, timeoutMs = 20_000): Promise<void> {
    await waitUntil(async () => {
      if (!d.running) throw new Error(`daemon #${d.generation} exited (${JSON.stringify(d.exit)}):\n${d.tail()}`);
      return d.syncs().length > 0 && (await this.journalEvents()).length >= events;
    }, timeoutMs, () => `daemon #${d.generation} to resynchronise with ${events} events journaled:\n${d.tail()}`);
    this.warm();
  }

  /** The journal's events as a reader sees them now (a torn tail left by a kill is not an event). */
  async journalEvents(): Promise<TableEvent[]> {
    return (await readJournalFile(this.journalPath)).events;
  }

  /** Wait until the journal holds at least `n` events and return them; fail at once if the daemon dies by itself. */
  async waitJournal(n: number, timeoutMs = 15_000): Promise<TableEvent[]> {
    const d = this.daemon;
    let events: TableEvent[] = [];
    await waitUntil(async () => {
      if (d && !d.running) throw new Error(`daemon #${d.generation} exited by itself (${JSON.stringify(d.exit)}):\n${d.tail()}`);
      events = await this.journalEvents();
      return events.length >= n;
    }, timeoutMs, () => `${n} events in ${this.journalPath} (it has ${events.length}):\n${d?.tail() ?? '(no daemon)'}`);
    return events;
  }

  /**
   * Send `request/<cmd>` with a transaction id (a fresh one unless given), again every second until a response to it
   * comes (the daemon subscribes to requests only after announcing itself, and the session is clean: a request sent
   * while it is down is lost; a repeat of a transaction it already applied is answered, not re-applied). Resolves to
   * the first response that arrives after this call.
   */
  async command(cmd: string, body: Record<string, unknown>, opts: { transaction?: string | number; timeoutMs?: number } = {}): Promise<Record<string, unknown>> {
    const transaction = opts.transaction ?? uid(`${cmd}-`);
    const from = this.responses.length;
    const timeoutMs = opts.timeoutMs ?? 15_000;
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      await this.send(cmd, body, transaction);
      const until = Date.now() + 1000;
      while (Date.now() < until) {
        const r = this.responses.slice(from).find((x) => x.cmd === cmd && x.payload.transaction === transaction);
        if (r) return r.payload;
        await sleep(10);
      }
    }
    throw new Error(`no response to ${cmd} ${JSON.stringify(transaction)} within ${timeoutMs} ms:\n${this.daemon?.tail() ?? ''}`);
  }

  /** Publish `request/<cmd>` once, without waiting for the response. */
  async send(cmd: string, body: Record<string, unknown>, transaction: string | number): Promise<void> {
    await this.sub.publishAsync(this.mirror.topics.request(cmd), JSON.stringify({ ...body, transaction }), { qos: 1 });
  }

  /** The emulator steps (reader, tag) of a table log's place/lift events. */
  steps(events: readonly TableEvent[]): RfidStep[] {
    return planSteps(events, this.deck, SeatMap.default(), 4).filter((s): s is RfidStep => s.kind === 'arrive' || s.kind === 'leave');
  }

  /** Lay a tag on a reader or take it off: the emulator writes the arrive/leave line at once. */
  play(step: RfidStep): void {
    const ok = step.kind === 'arrive' ? this.emulator.place(step.reader, step.uid) : this.emulator.lift(step.reader, step.uid);
    if (!ok) throw new Error(`the emulator could not play ${JSON.stringify(step.event)}`);
  }

  /** Stop the running daemon with SIGTERM and return how it exited (SIGKILL after `timeoutMs`). */
  async terminate(timeoutMs = 10_000): Promise<Daemon['exit']> {
    const d = this.daemon;
    if (!d) return null;
    d.proc.kill('SIGTERM');
    const t = setTimeout(() => d.proc.kill('SIGKILL'), timeoutMs);
    await d.closed;
    clearTimeout(t);
    return d.exit;
  }

  /** Stop the daemon with SIGTERM (a clean stop), the emulator, the pty pair and the spectator. */
  async dispose(): Promise<void> {
    await this.terminate(5000);
    for (const x of [...this.daemons, ...this.spares]) if (x.running) await x.kill9();
    await this.emulator.stop().catch(() => undefined);
    await this.pty?.close().catch(() => undefined);
    await this.sub?.endAsync(true).catch(() => undefined);
  }
}
