// The table daemon: one Controller wires the hardware, the journal, the rules engine and the feed.
//
// Every physical or commanded event takes one path: journal.append (durable, fsync'd) → engine fold → feed.notify().
// Nothing is published about an event before it is on disk, and the feed reads what it publishes from the journal,
// so a broker outage or a crash loses nothing. Each part beyond the journal is an extension with start/stop: a failing
// extension is logged and counted, never fatal, and a lost serial port is reopened by its driver, never a reason to exit.
import type { Logger } from '../config/logger.js';
import type { TenaceConfig } from '../config/schema.js';
import { type TableEvent, validateTableEvent } from '../formats/table-log.js';
import { Journal, DeliveryMark as JournalMark, type UnstampedEvent } from '../journal/index.js';
import { Table } from '../laws/engine.js';
import { type ScoreOptions, rulesFor } from '../laws/score/index.js';
import { type Seat, seatIndex } from '../cards/seat.js';
import { Feed, CommandRejected, type ClubInbound } from '../feed/mqtt-feed.js';
import { isDealOver } from '../feed/projection.js';
import { ClubMemory, decideScan, type ScanDecision } from '../club/table-side.js';
import type { ClubAlert } from '../club/types.js';
import { type FeedCommand, TransactionIndex, commandTx } from '../feed/commands.js';
import { type BindingInterface, MultiBridge, presenceFromEvents, resumePoints, type SeatEvent } from '../hardware/bridge-driver.js';
import { SeatMap } from '../hardware/seat-map.js';
import { loadDecks } from '../hardware/deck.js';
import type { ScanErrorEvent } from '../hardware/tray-code.js';
import type { WebView } from '../web/server.js';
import { makePin } from '../web/terminal-api.js';
import { type TerminalView, terminalView } from '../web/terminal-state.js';
import type { EmbeddedBroker } from '../broker/embedded.js';
import type { LiveAnalysis } from '../dd/live.js';
import { startWatchdog, type Watchdog } from './watchdog.js';
import { isoNow } from '../formats/iso-time.js';

/** A part of the daemon with a lifetime: hardware, scanner, feed, web view. */
export interface Extension {
  name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface ControllerStats {
  events: number;
  rejected: number;
  scanErrors: number;
  extensionFailures: number;
  /** Club: tray scans that started a deal, and those that raised an alert instead. */
  trayDeals: number;
  trayAlerts: number;
}

export interface ControllerOptions {
  config: TenaceConfig;
  log: Logger;
  /** Extra extensions (the simulator's emulated hardware), started after the built-in ones. */
  extensions?: Extension[];
  /** MQTT password read from config.mqtt.passwordFile, or given directly. */
  password?: string;
  /** Protocol version for the broker; 4 for the embedded aedes, which does not speak MQTT 5. */
  protocolVersion?: 4 | 5;
  /** systemd notification; default startWatchdog(). */
  watchdog?: Watchdog;
  /** serialport binding for the bridges and the serial scanner; default the OS binding (simulate: a loopback). */
  binding?: BindingInterface;
}

/** The daemon of one table. */
export class Controller {
  readonly table: Table;
  readonly stats: ControllerStats = { events: 0, rejected: 0, scanErrors: 0, extensionFailures: 0, trayDeals: 0, trayAlerts: 0 };
  /**
   * Club session (config `session`): the tray records, the assignment and the released boards the table holds.
   * Null outside a session.
   */
  readonly club: ClubMemory | null;
  /** What the last tray scan decided (club session), for tests and the log. */
  lastScan: ScanDecision | null = null;
  journal!: Journal;
  feed: Feed | null = null;
  broker: EmbeddedBroker | null = null;
  web: WebView | null = null;
  /** The spectators' live double-dummy analysis (config `feed.analysis`), or null. */
  analysis: LiveAnalysis | null = null;
  /** The table terminal's PIN this run: `terminal.pin`, or four digits made at start (logged with the terminal's URL). */
  /** The PIN made at start, used when neither the config nor the director's assignment gives one. */
  private readonly ownPin: string;
  private readonly opts: ControllerOptions;
  private readonly log: Logger;
  private readonly extensions: Extension[] = [];
  private readonly started: Extension[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private watchdog: Watchdog | null = null;
  /** seq of the session's last `deal` event (null before the first): the journal keeps that deal in memory. */
  private lastDealSeq: number | null = null;

  constructor(opts: ControllerOptions) {
    this.opts = opts;
    this.log = opts.log;
    this.table = new Table({ variant: opts.config.variant });
    const c = opts.config;
    this.club = c.session ? new ClubMemory(c.session, c.table.id) : null;
    this.ownPin = makePin();
  }

  /** True when scans are decided by the club layer: a session, and `club.trays` not false. */
  /** The table terminal's PIN: the config's, else the one the director gave the table for this session, else its own. */
  get terminalPin(): string {
    return this.opts.config.terminal?.pin ?? this.club?.assignment?.pin ?? this.ownPin;
  }

  private get clubTrays(): boolean {
    return this.club !== null && this.opts.config.club.trays !== false;
  }

  /** Open the journal, restore the deal in progress from it, then start the extensions. */
  async start(): Promise<void> {
    const c = this.opts.config;
    this.watchdog = this.opts.watchdog ?? startWatchdog({ log: this.log });
    this.journal = await Journal.open(c.journal.dir, { session: c.session, fsync: c.journal.fsync, groupCommitMs: c.journal.groupCommitMs, log: this.log });
    const restored = this.journal.events();
    for (const ev of restored) {
      this.table.apply(ev);
      if (ev.type === 'deal') this.lastDealSeq = ev.seq!;
      this.club?.noteEvent(ev);
    }
    this.log.info({ session: this.journal.session, events: restored.length, lastSeq: this.journal.lastSeq }, 'journal replayed');

    if (c.mqtt.url === 'embedded') {
      // Loaded only when used: aedes, ws and the web server cost start time and memory on a Pi.
      const { startEmbeddedBroker } = await import('../broker/embedded.js');
      this.broker = await startEmbeddedBroker({ host: '127.0.0.1' });
      this.log.info({ url: this.broker.url }, 'embedded broker started');
    }
    this.extensions.push(...await this.feedExtensions(), ...this.hardwareExtensions(restored), ...await this.scannerExtensions(), this.webExtension(), ...(this.opts.extensions ?? []));
    for (const ext of this.extensions) {
      try {
        await ext.start();
        this.started.push(ext);
      } catch (err) {
        this.stats.extensionFailures++;
        this.log.error({ err, extension: ext.name }, 'extension failed to start; the daemon carries on without it');
      }
    }
    this.watchdog.ready(`table ${c.club.id}/${c.table.id}: ${this.journal.lastSeq} events`);
  }

  /** Stop the extensions in reverse order, then close the journal. */
  async stop(): Promise<void> {
    await this.watchdog?.stop('stopping');
    for (const ext of [...this.started].reverse()) {
      try {
        await ext.stop();
      } catch (err) {
        this.log.warn({ err, extension: ext.name }, 'extension failed to stop cleanly');
      }
    }
    this.started.length = 0;
    await this.queue.catch(() => undefined);
    await this.journal?.close();
    await this.broker?.close();
  }

  /**
   * Take one event: persist it, fold it, tell the feed. Calls are serialised so the journal order is the order of
   * arrival. Resolves to the stamped event; rejects (and applies nothing) when the event is invalid.
   */
  ingest(ev: UnstampedEvent): Promise<TableEvent> {
    const run = async (): Promise<TableEvent> => {
      const problem = validateTableEvent(ev);
      if (problem) {
        this.stats.rejected++;
        throw new CommandRejected(problem);
      }
      // Decided before the scan is journaled (so the deal in play is the one before it), acted on after.
      const scan = ev.type === 'tray' && this.clubTrays ? this.trayContext() : null;
      const stamped = await this.commit(ev);
      if (scan) await this.onScan(stamped, scan);
      // A deal started or abandoned by other means: the line about the last scan no longer describes the table.
      else if ((stamped.type === 'deal' || stamped.type === 'abandon') && this.club) this.feed?.setClubStatus(null);
      return stamped;
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** Persist, fold, tell the feed: one event, inside the serialised ingest. */
  private async commit(ev: UnstampedEvent): Promise<TableEvent> {
    const stamped = await this.journal.append(ev);
    if (stamped.type === 'deal') this.lastDealSeq = stamped.seq!;
    this.club?.noteEvent(stamped);
    const findings = this.table.apply(stamped);
    this.stats.events++;
    if (findings.length) this.log.info({ seq: stamped.seq, findings: findings.map((f) => `${f.kind} ${f.seat} t${f.trick} ${f.law}`) }, 'findings');
    this.feed?.notify();
    this.watchdog?.status(`seq ${stamped.seq}`);
    return stamped;
  }

  /** The deal in play before a scan (null when none, or when it is over or abandoned). */
  private trayContext(): { inPlay: { board: number | null; trick: number } | null } {
    const r = this.table.result();
    if (r === null || isDealOver(this.table)) return { inPlay: null };
    return { inPlay: { board: r.board ?? null, trick: this.table.currentTrick().number } };
  }

  /**
   * A tray was scanned and journaled: decide, once, what it becomes (docs/club.md, "The path of a tray"). The deal is
   * journaled in the same serialised step, so no card can come between the scan and its deal; an alert journals
   * nothing. A crash between the two leaves the scan without a deal: nothing re-decides it; the players scan again.
   */
  private async onScan(tray: TableEvent, ctx: { inPlay: { board: number | null; trick: number } | null }): Promise<void> {
    const club = this.club!;
    const c = this.opts.config;
    const d = decideScan({
      code: (tray as { code: string }).code, seq: tray.seq, at: tray.at ?? isoNow(), session: club.session, table: c.table.id,
      variant: c.variant, records: club.records, assignment: club.assignment, inPlay: ctx.inPlay, played: club.played,
    });
    this.lastScan = d;
    if (d.kind === 'none') {
      this.log.info({ seq: tray.seq, reason: d.reason }, 'tray scan: no deal started');
      return;
    }
    if (d.kind === 'alert') {
      this.stats.trayAlerts++;
      this.log.warn({ seq: tray.seq, board: d.alert.board, law: d.alert.law }, d.alert.message);
      this.feed?.publishClubAlert(d.alert, tray.seq);
      this.feed?.setClubStatus(d.status);
      return;
    }
    const problem = validateTableEvent(d.deal);
    if (problem) {
      // A record that passed its checks but makes no valid deal event: say so rather than journal it.
      this.stats.trayAlerts++;
      this.log.error({ seq: tray.seq, board: d.deal.board, problem }, 'tray scan: the deal from the tray record is not valid; no deal started (correct the record)');
      return;
    }
    const deal = await this.commit(d.deal);
    this.stats.trayDeals++;
    this.log.info({ seq: deal.seq, board: d.deal.board, overplay: d.deal.overplay === true }, d.status.message);
    this.feed?.setClubStatus(d.status);
  }

  /** A message on a club topic: keep the latest valid record / assignment; a malformed one is logged and ignored. */
  private onClubMessage(m: ClubInbound): void {
    const club = this.club;
    if (!club) return;
    if (m.kind === 'schedule') {
      const problem = club.takeSchedule(m.payload);
      if (problem) this.log.warn({ topic: m.topic, field: problem.field, malformed: club.malformed }, `club message ignored: ${problem.error}`);
      return;
    }
    if (m.kind === 'released') {
      const r = club.takeReleased(m.payload);
      if ('field' in r) this.log.warn({ topic: m.topic, field: r.field, malformed: club.malformed }, `club message ignored: ${r.error}`);
      else for (const b of r.added) this.feed?.setTrayComplete(b);
      return;
    }
    const problem = m.kind === 'tray' ? club.takeRecord(m.board, m.payload) : club.takeAssignment(m.payload);
    if (problem) this.log.warn({ topic: m.topic, field: problem.field, malformed: club.malformed }, `club message ignored: ${problem.error}`);
    else if (m.kind === 'assignment') this.log.info({ round: club.assignment?.round, trays: club.assignment?.trays }, 'round assignment');
    // Which record the table holds (never its hands): what a scan of the tray will start from.
    else if (m.payload.length > 0) this.log.info({ board: m.board, rev: club.records.get(m.board)?.rev }, 'tray record');
  }

  private async feedExtensions(): Promise<Extension[]> {
    const c = this.opts.config;
    // Issue 21: the spectators' live double-dummy analysis, when the config asks for it.
    const analysis = c.feed.analysis ? (await import('./analysis.js')).daemonAnalysis((a) => this.feed?.setAnalysis(a), this.log) : null;
    this.analysis = analysis?.live ?? null;
    const mark = await JournalMark.load(c.journal.dir, this.journal.session, this.log);
    const url = this.broker ? this.broker.url : c.mqtt.url;
    const feed = new Feed({
      url, club: c.club.id, table: c.table.id, base: c.mqtt.baseTopic, username: c.mqtt.username, password: this.opts.password ?? c.mqtt.password,
      clientId: c.mqtt.clientId ?? `tenace-${c.club.id}-${c.table.id}`, keepalive: c.mqtt.keepalive,
      protocolVersion: this.opts.protocolVersion ?? c.mqtt.protocolVersion ?? (this.broker ? 4 : 5),
      tls: c.mqtt.ca || c.mqtt.cert ? await readTls(c.mqtt) : undefined,
      source: { eventsAfter: (seq) => this.journal.eventsAfter(Math.max(0, seq)), lastSeq: () => this.journal.lastSeq },
      mark: {
        get: () => mark.seq,
        set: (seq) => {
          const done = mark.advance(seq);
          this.releaseJournal(seq);
          return done;
        },
      },
      embargo: c.feed.embargo, tableOptions: { variant: c.variant },
      // The club's agreed game (config `score`): the game length and variations the `state`'s score is kept by.
      scoreOptions: c.score,
      onCommand: (cmd) => this.command(cmd), logger: this.log,
      session: this.journal.session,
      directorEvents: this.club !== null && c.club.events !== false,
      clubSession: this.club ? { session: this.club.session, trays: this.clubTrays, onMessage: (m) => this.onClubMessage(m) } : undefined,
      // Rebuilt from the journal, where each command's `tx` is written with its event: a retry after a crash is answered.
      transactions: TransactionIndex.fromEvents(this.journal.events()),
      onFolded: analysis?.onFolded,
      onRelease: analysis?.onRelease,
    });
    this.feed = feed;
    return [...(analysis ? [analysis.extension] : []), { name: 'feed', start: () => feed.start(), stop: async () => { await feed.stop(); await mark.close(); } }];
  }

  /**
   * Let the journal forget what no one reads from memory any more: events the broker has acknowledged (`delivered`,
   * the feed reads on from there) that are before the deal in progress (undo and the table's probes look at it).
   * Before the first deal, everything stays. The rest is read back from the file when asked for.
   */
  private releaseJournal(delivered: number): void {
    if (this.lastDealSeq === null) return;
    this.journal.release(Math.min(delivered, this.lastDealSeq - 1));
  }

  /**
   * Apply a validated command from `request/<cmd>`: it becomes a journaled event like any other, carrying its `tx`, so
   * the answer `{seq}` is durable before it is sent and a retry is answered from the journal (the feed checks that).
   */
  private async command(cmd: FeedCommand): Promise<Record<string, unknown>> {
    const ev = commandEvent(cmd);
    if (ev.type === 'undo') {
      // From the deal in progress (or the target, if earlier) on: all undoProblem looks at, and what is in memory.
      const why = undoProblem(this.journal.events(Math.max(0, Math.min(ev.target, this.lastDealSeq ?? 0) - 1)), ev.target);
      if (why) throw new CommandRejected(why);
    }
    if (ev.type === 'honours') {
      const why = honoursCallProblem(this.table, ev.seat, this.opts.config.score);
      if (why) throw new CommandRejected(why);
    }
    if (ev.type === 'remedy') {
      // A remedy nobody is entitled to is refused before it reaches the journal: try it on a copy of the table.
      const probe = new Table({ variant: this.opts.config.variant });
      for (const e of this.journal.events()) probe.apply(e);
      const err = probe.remedy(ev);
      if (err) throw new CommandRejected(`remedy: ${err}`);
    }
    if (ev.type === 'claim-accepted' || ev.type === 'claim-disputed') {
      const why = this.table.claimAnswerProblem(ev.seat);
      if (why) throw new CommandRejected(`seat: ${why}`);
    }
    if (ev.type === 'result-accepted') {
      const why = resultAcceptProblem(this.table, ev.seat);
      if (why) throw new CommandRejected(why);
    }
    const stamped = await this.ingest(ev);
    if (stamped.type === 'director-call') this.callDirector(stamped.reason, stamped);
    // L68D: a disputed claim stops play and the director is called.
    if (stamped.type === 'claim-disputed') this.callDirector(`claim disputed by ${stamped.seat}${stamped.reason ? `: ${stamped.reason}` : ''} (L68D, Am. 27)`, stamped);
    return { seq: stamped.seq };
  }

  /** A player called the director: an alert on the table's `director` topic, right after the journaled call. */
  private callDirector(reason: string, ev: TableEvent & { seat?: Seat }): void {
    const r = this.table.result();
    const alert: ClubAlert = {
      schema: 1, type: 'tenace.alert', kind: 'director-call', session: this.club?.session ?? this.journal.session,
      table: this.opts.config.table.id, ...(r?.board !== undefined ? { board: r.board } : {}),
      ...(this.club?.assignment ? { round: this.club.assignment.round } : {}),
      message: `Table ${this.opts.config.table.id} calls the director${ev.seat ? ` (${ev.seat})` : ''}: ${reason}`, seq: ev.seq, at: ev.at ?? isoNow(),
    };
    this.log.warn({ seq: ev.seq, reason }, alert.message);
    this.feed?.publishClubAlert(alert, ev.seq);
  }

  /** What the table terminal shows now (src/web/terminal-state.ts). */
  terminalView(): TerminalView {
    const c = this.opts.config;
    const deal = this.lastDealSeq === null ? [] : this.journal.events(this.lastDealSeq - 1);
    return terminalView({
      table: c.table.id, variant: c.variant, engine: this.table, events: deal,
      assignment: this.club?.assignment ?? null, schedule: this.club?.schedule ?? null, released: this.club?.released ?? [],
      entered: this.club?.assignment ? this.club.names.get(this.club.assignment.round) : undefined,
    });
  }

  private hardwareExtensions(restored: readonly TableEvent[]): Extension[] {
    const hw = this.opts.config.hardware;
    if (hw.bridges.length === 0) return [];
    const decks = loadDecks(hw.decks);
    const seatMap = SeatMap.fromConfig({ bridges: Object.fromEntries(hw.bridges.map((b) => [b.id, Object.fromEntries(b.readers.map((r) => [String(r.reader), r.seat]))])) });
    const multi = new MultiBridge({
      bridges: hw.bridges.map((b) => ({ path: b.port, bridgeId: b.id, binding: this.opts.binding })), seatMap, decks,
      // Each bridge resumes after the last line journaled from it (its `src`): what it sent after that, it sends
      // again in order, and nothing twice. Events are journaled with their `src` and `orderUnknown` as they come.
      initialPresence: presenceFromEvents(restored), resume: resumePoints(restored), logger: this.log,
    });
    multi.on('event', (ev: SeatEvent) => { this.ingest(ev as UnstampedEvent).catch((err) => this.log.error({ err, ev }, 'event not journaled')); });
    multi.on('reader-status', (s: unknown) => this.log.info({ status: s }, 'reader status'));
    multi.on('bridge-status', (s: unknown) => this.log.info({ status: s }, 'bridge status'));
    return [{ name: 'bridges', start: () => multi.start(), stop: () => multi.stop() }];
  }

  private async scannerExtensions(): Promise<Extension[]> {
    const s = this.opts.config.hardware.scanner;
    if (s.mode === 'none') return [];
    const scanner = s.mode === 'serial'
      ? new (await import('../hardware/scanner-serial.js')).SerialScanner({ path: s.port!, baudRate: s.baudRate, terminator: s.terminator, interByteMs: s.interByteTimeoutMs, binding: this.opts.binding })
      : new (await import('../hardware/scanner-hid.js')).HidScanner({ target: s.port ? { path: s.port } : { vendorId: s.vendorId!, productId: s.productId! } });
    scanner.on('tray', (ev) => { this.ingest(ev).catch((err) => this.log.error({ err }, 'tray scan not journaled')); });
    scanner.on('scan-error', (e: ScanErrorEvent) => {
      this.stats.scanErrors++;
      this.log.warn({ scan: e.text, problem: e.problem }, e.error);
    });
    return [{ name: 'scanner', start: () => scanner.start(), stop: () => scanner.stop() }];
  }

  private webExtension(): Extension {
    const c = this.opts.config;
    return {
      name: 'web',
      start: async () => {
        const wsUrl = this.broker ? '/mqtt' : c.mqtt.url.replace(/^mqtts?:\/\/([^:/]+).*$/, 'ws://$1:9001');
        const { startWebView } = await import('../web/server.js');
        const { TerminalApi } = await import('../web/terminal-api.js');
        const terminal = new TerminalApi({
          pin: () => this.terminalPin, tries: c.terminal?.tries ?? 5, view: () => this.terminalView(),
          submit: (cmd, body) => this.feed?.submit(cmd, body) ?? null,
        });
        this.web = await startWebView({ port: c.http.port, host: c.http.host, club: c.club.id, table: c.table.id, base: c.mqtt.baseTopic, wsUrl, terminal, analysis: c.feed.analysis });
        if (this.broker) this.broker.attachWebSocket(this.web.server, '/mqtt');
        this.log.info({ url: this.web.url }, 'table view');
        this.log.info({ url: `${this.web.url}terminal/`, pin: this.terminalPin }, 'table terminal: the players open it and enter this PIN');
      },
      stop: async () => { await this.web?.close(); },
    };
  }
}

/** The table-log event a command stands for, with the command's `tx` (transaction id and body digest). */
export function commandEvent(cmd: FeedCommand): UnstampedEvent {
  const tx = commandTx(cmd);
  switch (cmd.name) {
    case 'start-deal': return { type: 'deal', ...cmd.params, tx };
    case 'abandon-deal': return { type: 'abandon', ...(cmd.params.reason ? { reason: cmd.params.reason } : {}), tx };
    case 'set-contract': return { type: 'contract', contract: cmd.params.contract, tx };
    case 'remedy': return { type: 'remedy', ...cmd.params, tx };
    case 'claim': return { type: 'claim', seat: cmd.params.seat, tricks: cmd.params.tricks, tx };
    case 'undo-misread': return { type: 'undo', target: cmd.params.seq, tx };
    case 'answer-claim': {
      const { seat, accept, reason } = cmd.params;
      return { type: accept ? 'claim-accepted' : 'claim-disputed', seat, ...(reason ? { reason } : {}), tx };
    }
    case 'accept-result': return { type: 'result-accepted', seat: cmd.params.seat, ...(cmd.params.board !== undefined ? { board: cmd.params.board } : {}), tx };
    case 'set-players': {
      // Trimmed; an empty name is kept as "" so that it clears a wrong one.
      const names = Object.fromEntries(Object.entries(cmd.params.names).map(([k, v]) => [k, (v ?? '').trim()]));
      return { type: 'players', round: cmd.params.round, names, tx };
    }
    case 'call-director': return { type: 'director-call', reason: cmd.params.reason, ...(cmd.params.seat ? { seat: cmd.params.seat } : {}), tx };
    case 'honours': {
      const { seat, count, cards } = cmd.params;
      return { type: 'honours', seat, ...(count !== undefined ? { count } : {}), ...(cards ? { cards: [...cards] } : {}), tx };
    }
  }
}

/**
 * Why `seat` cannot accept the result now, or null: the play must be over (every trick played, or a claim accepted),
 * and in bridge the acceptance is the defenders' (as on a Bridgemate: the opponents of declarer confirm).
 */
export function resultAcceptProblem(table: Table, seat: Seat): string | null {
  const r = table.result();
  if (!r) return 'seat: no deal has been played at this table yet; accept the result once play has ended';
  const over = r.tricksWon.NS + r.tricksWon.EW === 13 && (!r.claim || r.claim.accepted);
  if (!over) return 'seat: the play of this deal has not ended (or a claim is not yet accepted); accept the result once it has';
  const declarer = table.declarer();
  if (declarer && (seatIndex(declarer) & 1) === (seatIndex(seat) & 1)) return `seat: ${seat} is of declarer's side; the result is accepted by a defender`;
  return null;
}

/**
 * Why an honours call by `seat` cannot be taken now, or null: there must be a deal played or in progress whose game
 * scores honours (English Law 7: "they must be called at the end of the hand"), and the caller must be in play.
 */
export function honoursCallProblem(table: Table, seat: Seat, opts: ScoreOptions = {}): string | null {
  const cur = table.currentFacts();
  const facts = cur ?? table.finishedFacts().at(-1) ?? null;
  if (!facts) return 'seat: no deal has been played at this table yet; call honours at the end of the hand (English Law 7)';
  // With the config's options: in Favourite whist's progressive variation "Honours do not count".
  const rules = rulesFor(facts.variant, opts);
  if (!rules || rules.honours === 'none') {
    return `command: honours do not count in ${facts.variant}${opts.progressive && facts.variant === 'favourite-whist' ? ' (the progressive variation)' : ''}; no call is needed (they count in English, Prussian and Favourite whist, the Dummy games and Humbug)`;
  }
  if (!facts.seats.includes(seat)) return `seat: ${seat} is not in play in this deal; use one of ${facts.seats.join(', ')}`;
  return null;
}

/**
 * Why event `target` cannot be undone as a misread, or null: only a place or lift of the deal in progress (after the
 * last deal event, not abandoned, not undone already) can be. `events` is the session's journal.
 */
export function undoProblem(events: readonly TableEvent[], target: number): string | null {
  const fix = 'give the seq of a misread place or lift of the deal in progress';
  let start = events.length - 1;
  while (start >= 0 && events[start].type !== 'deal') start--;
  if (start < 0) return `seq: ${target} cannot be undone: no deal is in progress (start one with start-deal); ${fix}`;
  const deal = events[start];
  const dealSeq = deal.seq!;
  const abandoned = events.slice(start + 1).find((e) => e.type === 'abandon');
  if (abandoned) return `seq: ${target} cannot be undone: the deal of seq ${dealSeq} was abandoned at seq ${abandoned.seq}; nothing in it counts any more`;
  const ev = events.find((e) => e.seq === target);
  if (!ev) {
    const last = events.length ? events[events.length - 1].seq! : 0;
    return `seq: there is no event ${target} in this session (its last is seq ${last}); ${fix}`;
  }
  if (target < dealSeq) return `seq: event ${target} belongs to an earlier deal (the deal in progress starts at seq ${dealSeq}); ${fix}`;
  if (ev.type !== 'place' && ev.type !== 'lift') return `seq: event ${target} is a ${ev.type}, not a card read (place or lift); ${fix}`;
  const undone = events.slice(start + 1).find((e) => e.type === 'undo' && e.target === target);
  if (undone) return `seq: event ${target} was already undone by seq ${undone.seq}; ${fix}`;
  return null;
}

async function readTls(m: TenaceConfig['mqtt']): Promise<{ ca?: Buffer; cert?: Buffer; key?: Buffer; rejectUnauthorized: boolean }> {
  const { readFile } = await import('node:fs/promises');
  return {
    ca: m.ca ? await readFile(m.ca) : undefined,
    cert: m.cert ? await readFile(m.cert) : undefined,
    key: m.key ? await readFile(m.key) : undefined,
    rejectUnauthorized: m.rejectUnauthorized,
  };
}
