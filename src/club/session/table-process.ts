// A table of a simulated session as a process of its own, so that it can really be killed: `tenace run` (the
// package's bin/tenace.mjs, or the daemon of the build this module was compiled into: DAEMON_SCRIPT) on a config of
// its own, its journal on disk, and its bridge and tray scanner emulated in this process on the far ends of two socat
// pseudo-terminal pairs. The emulated bridge outlives the daemon, as the RP2040 under a real table outlives a crash
// of the Pi, and keeps the lines the daemon missed for its `since` replay.
// `tenace session simulate --faults crash=N` runs the N tables it crashes this way: SIGKILL of the daemon's process
// in the middle of a deal, then `tenace run` again on the same config and journal.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../../config/logger.js';
import type { TableEvent } from '../../formats/table-log.js';
import { type DeckFile, virtualDeck, writeDeckFile } from '../../hardware/deck.js';
import { FirmwareEmulator, ptyLink } from '../../hardware/emulator.js';
import { PtyPair } from '../../hardware/pty.js';
import { ScannerEmulator } from '../../hardware/scanner-emulator.js';
import { SESSION_EXT, readJournalFile } from '../../journal/file.js';
import { DAEMON_SCRIPT, freePort } from './director-process.js';

export interface TableProcessOptions {
  /** A folder of its own: the config, the deck, the journal and the pty links. */
  dir: string;
  club: string;
  table: string;
  session: string;
  variant: string;
  broker: string;
  /** 4 for a broker without MQTT 5 (the embedded aedes). */
  protocolVersion?: 4 | 5;
  /** RFID events per second, or 'max'. */
  speed: number | 'max';
  log: Logger;
  /** How long a start may take until the daemon is in step with its bridge (ms); default 60 s. */
  startMs?: number;
}

/** How one daemon process ended. */
export interface TableExit {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One table whose daemon is a child process; the emulated devices stay here across its restarts. */
export class TableProcess {
  readonly journalPath: string;
  readonly configPath: string;
  /** The table view (and its terminal, /terminal/), on the same port at every start. */
  url = '';
  /** Board → revision of each tray record the running daemon holds (from its log). */
  readonly records = new Map<number, number>();
  /** The round of the assignment the running daemon holds (from its log); 0 before one. */
  round = 0;
  /** The daemons that have ended, in order. */
  readonly exits: TableExit[] = [];
  private child: ChildProcess | null = null;
  private closed: Promise<void> = Promise.resolve();
  private stderr = '';
  private readonly emulator = new FirmwareEmulator({ readers: 4 });
  private readonly scanner = new ScannerEmulator({ terminator: 'cr' });
  private readonly deck: DeckFile;
  private bridgePty: PtyPair | null = null;
  private scannerPty: PtyPair | null = null;

  private constructor(private readonly o: TableProcessOptions) {
    this.journalPath = join(o.dir, 'journal', `${o.session}${SESSION_EXT}`);
    this.configPath = join(o.dir, 'tenace.yaml');
    this.deck = virtualDeck(`sim-${o.table}`);
  }

  /** Set up the devices and the config, start the daemon, and wait until it is in step with its bridge. */
  static async start(o: TableProcessOptions): Promise<TableProcess> {
    const t = new TableProcess(o);
    try {
      await t.setup();
      t.spawn();
      await t.waitBack(0, 0);
    } catch (e) {
      await t.stop();
      throw e;
    }
    return t;
  }

  private async setup(): Promise<void> {
    const o = this.o;
    mkdirSync(join(o.dir, 'journal'), { recursive: true });
    const deckPath = join(o.dir, 'deck.json');
    writeDeckFile(deckPath, this.deck);
    this.bridgePty = await PtyPair.create({ dir: join(o.dir, 'pty'), names: ['bridge-device', 'bridge-host'] });
    this.scannerPty = await PtyPair.create({ dir: join(o.dir, 'pty'), names: ['scanner-device', 'scanner-host'] });
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}/`;
    const yaml = [
      `club: { id: ${JSON.stringify(o.club)} }`,
      `table: { id: ${JSON.stringify(o.table)} }`,
      `session: ${JSON.stringify(o.session)}`,
      `variant: ${o.variant}`,
      `journal: { dir: ${JSON.stringify(join(o.dir, 'journal'))}, fsync: group, groupCommitMs: 5 }`,
      `mqtt: { url: ${JSON.stringify(o.broker)}, keepalive: 5${o.protocolVersion ? `, protocolVersion: ${o.protocolVersion}` : ''} }`,
      'feed: { embargo: tray-complete }',
      `http: { port: ${port}, host: 127.0.0.1 }`,
      // info: the daemon's log says which assignment and tray records it holds (what the players would see).
      'log: { level: info }',
      'hardware:',
      `  decks: [${JSON.stringify(deckPath)}]`,
      `  bridges: [{ id: sim, port: ${JSON.stringify(this.bridgePty.b)}, readers: [{reader: 0, seat: N}, {reader: 1, seat: E}, {reader: 2, seat: S}, {reader: 3, seat: W}] }]`,
      `  scanner: { mode: serial, port: ${JSON.stringify(this.scannerPty.b)}, terminator: cr }`,
    ].join('\n');
    writeFileSync(this.configPath, `${yaml}\n`);
    await this.emulator.start(ptyLink(this.bridgePty));
    await this.scanner.open(this.scannerPty.a);
  }

  /** The running daemon's process id. */
  pid(): number | undefined {
    return this.child?.pid;
  }

  /** Start `tenace run` on the table's config (the previous daemon must be gone). */
  spawn(): void {
    if (this.child) throw new Error(`table ${this.o.table}: its daemon is already running`);
    this.records.clear();
    this.round = 0;
    this.stderr = '';
    // Nothing of the environment's own table settings or systemd socket reaches the simulated table.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TENACE_') && !['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'WATCHDOG_PID'].includes(k)));
    const child = spawn(process.execPath, [DAEMON_SCRIPT, 'run', '--config', this.configPath], { stdio: ['ignore', 'pipe', 'pipe'], env });
    this.child = child;
    createInterface({ input: child.stdout! }).on('line', (line) => this.onLog(line));
    child.stderr!.on('data', (d: Buffer) => { this.stderr = (this.stderr + d.toString('utf8')).slice(-2000); });
    this.closed = new Promise((resolve) => child.once('close', (code, signal) => {
      this.exits.push({ pid: child.pid ?? 0, code, signal });
      if (this.child === child) this.child = null;
      resolve();
    }));
  }

  private onLog(line: string): void {
    let l: { msg?: string; round?: number; board?: number; rev?: number; level?: string };
    try {
      l = JSON.parse(line) as typeof l;
    } catch {
      return;
    }
    if (l.msg === 'round assignment' && typeof l.round === 'number') this.round = l.round;
    else if (l.msg === 'tray record' && typeof l.board === 'number') this.records.set(l.board, l.rev ?? 0);
    else if (l.level === 'error' || l.level === 'fatal') this.o.log.warn({ table: this.o.table, daemon: l.msg }, 'table daemon');
  }

  /** Resyncs the bridge has answered so far (snapshots and replays): a new daemon asks for one as it starts. */
  resyncs(): number {
    return this.emulator.stats.snapshots + this.emulator.stats.replays;
  }

  /** The journal's events after `after` as a reader sees them now (a torn tail left by a kill is not an event). */
  async events(after = 0): Promise<TableEvent[]> {
    return (await readJournalFile(this.journalPath).catch(() => ({ events: [] as TableEvent[] }))).events.filter((e) => (e.seq ?? 0) > after);
  }

  async lastSeq(): Promise<number> {
    return (await this.events()).at(-1)?.seq ?? 0;
  }

  /**
   * Wait until the running daemon has resynchronised with its bridge (more resyncs answered than `resyncsBefore`) and
   * its journal holds seq `seq`: every card the bridge saw before is journaled, once, and the next one reaches it.
   */
  async waitBack(seq: number, resyncsBefore: number): Promise<void> {
    const limit = Date.now() + (this.o.startMs ?? 60_000);
    for (;;) {
      if (!this.child) throw new Error(`table ${this.o.table}: tenace run --config ${this.configPath} stopped: ${JSON.stringify(this.exits.at(-1))}${this.stderr ? `\n${this.stderr.trim()}` : ''}`);
      if (this.resyncs() > resyncsBefore && (await this.lastSeq()) >= seq) return;
      if (Date.now() > limit) throw new Error(`table ${this.o.table}: its daemon (pid ${this.child.pid}) was not back in step with its bridge, journal at seq ${seq}, within ${(this.o.startMs ?? 60_000) / 1000} s`);
      await sleep(20);
    }
  }

  /**
   * Play table events as the hardware makes them: cards through the emulated bridge, trays through the emulated
   * scanner; each run is waited for until the journal holds it. Anything else goes through the table's terminal.
   */
  async playEvents(events: readonly TableEvent[]): Promise<void> {
    let run: TableEvent[] = [];
    const flush = async () => {
      if (run.length === 0) return;
      const expected = (await this.lastSeq()) + run.length;
      await this.emulator.play(run, { deck: this.deck, speed: this.o.speed, hostWaitMs: 30_000 });
      run = [];
      await this.untilSeq(expected, 30_000, 'the played cards');
    };
    for (const ev of events) {
      if (ev.type === 'place' || ev.type === 'lift') {
        run.push(ev);
        continue;
      }
      await flush();
      if (ev.type !== 'tray') throw new Error(`table ${this.o.table}: a ${ev.type} event is entered on the table's terminal, not read by its hardware`);
      const expected = (await this.lastSeq()) + 1;
      await this.scanner.scan(ev.code);
      await this.untilSeq(expected, 15_000, `the scan of tray code ${ev.code}`);
    }
    await flush();
  }

  /**
   * The crash: play these cards through the bridge without waiting for the journal, wait `delayMs`, SIGKILL the
   * daemon (the last lines may be on the wire, read, or half journaled), then start `tenace run` again and wait until
   * it is back in step with the bridge and its journal holds every card played.
   */
  async crash(cards: readonly TableEvent[], delayMs: number): Promise<{ killed: TableExit; restartedPid: number; downMs: number }> {
    const expected = (await this.lastSeq()) + cards.length;
    await this.emulator.play(cards, { deck: this.deck, speed: this.o.speed, hostWaitMs: 30_000 });
    await sleep(delayMs);
    const child = this.child;
    if (!child) throw new Error(`table ${this.o.table}: no daemon to kill`);
    const t0 = Date.now();
    child.kill('SIGKILL');
    await this.closed;
    const killed = this.exits.at(-1)!;
    const resyncs = this.resyncs();
    this.spawn();
    await this.waitBack(expected, resyncs);
    return { killed, restartedPid: this.child!.pid ?? 0, downMs: Date.now() - t0 };
  }

  private async untilSeq(seq: number, ms: number, what: string): Promise<void> {
    const limit = Date.now() + ms;
    while ((await this.lastSeq()) < seq) {
      if (!this.child) throw new Error(`table ${this.o.table}: its daemon stopped: ${JSON.stringify(this.exits.at(-1))}${this.stderr ? `\n${this.stderr.trim()}` : ''}`);
      if (Date.now() > limit) throw new Error(`table ${this.o.table}: timed out after ${ms / 1000} s waiting for the journal to hold ${what}`);
      await sleep(10);
    }
  }

  /** Stop the daemon (SIGTERM, a clean stop; SIGKILL after 5 s), then the emulated devices and their pty pairs. */
  async stop(): Promise<void> {
    const c = this.child;
    if (c) {
      c.kill('SIGTERM');
      const t = setTimeout(() => c.kill('SIGKILL'), 5000);
      await this.closed;
      clearTimeout(t);
    }
    await this.scanner.close().catch(() => undefined);
    await this.emulator.stop().catch(() => undefined);
    await this.scannerPty?.close().catch(() => undefined);
    await this.bridgePty?.close().catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
