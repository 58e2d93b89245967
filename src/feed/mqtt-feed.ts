// The MQTT feed of one table (DESIGN §6, issue 4 part 3) over mqtt.js v5, MQTT 5.
//
// The journal is the outbox. The feed never holds events of its own: it reads them from an EventSource (the journal)
// after the last seq the broker acknowledged, folds each through the projection, publishes it with QoS 1, and only
// after the PUBACK advances the delivery mark (written behind the next publish: a mark that lags only resends). While
// the broker is down nothing is read and nothing is lost; on every (re)connect the feed announces `online`,
// republishes the retained snapshots (a restarted broker may have lost or kept stale ones), then sends everything
// after the mark in order. A subscriber de-duplicates by `seq`.
//
// One sequential "pump" does all of that, so status, snapshots and events leave in a well-defined order.
import { EventEmitter } from 'node:events';
import type { IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
import type { TableEvent } from '../formats/table-log.js';
import { TransactionIndex } from './commands.js';
import { type CommandDesk, answerEventsQuery, decideCommand } from './command-desk.js';
import { type DirectorState, type PublicState, SCHEMA_VERSION } from './projection.js';
import { type Projected, type ProjectionIncident, Projector } from './projector.js';
import { type SessionTopics, type TableTopics, isQueryName, sessionTopics, tableTopics } from './topics.js';
import type { ClubStatus } from '../club/table-side.js';
import { closeClient, withTimeout } from '../broker/close-client.js';
import { connectMqtt } from '../broker/connect.js';
import type { ClubInbound, CommandResponse, FeedLogger, FeedOptions, FeedStats } from './feed-types.js';
import { isSeq } from './memory.js';
import { BrokerLink } from './broker-link.js';

export * from './feed-types.js';
export { MemoryDeliveryMark, MemoryEventSource } from './memory.js';

interface FeedEvents {
  connect: [];
  close: [];
  delivered: [seq: number];
  incident: [ProjectionIncident];
  command: [name: string, response: CommandResponse];
}

const SILENT: FeedLogger = { debug() {}, info() {}, warn() {}, error() {} };
const MAX_BACKOFF_MS = 5000;

/** Publishes a table to MQTT from its journal; see the module comment. */
export class Feed extends EventEmitter<FeedEvents> {
  readonly topics: TableTopics;
  readonly stats: FeedStats = {
    connects: 0, disconnects: 0, delivered: 0, publishFailures: 0, malformedCommands: 0, commandsHandled: 0,
    commandsRefused: 0, duplicateCommands: 0, skippedEvents: 0, engineErrors: 0, privacyGuardTrips: 0, queries: 0, clubAlerts: 0,
  };
  /** Club topics of the session, when the feed takes part in one. */
  readonly clubTopics: SessionTopics | null;
  private readonly opts: FeedOptions;
  private readonly log: FeedLogger;
  private readonly projector: Projector;
  private client: MqttClient | null = null;
  /** seq of the last event folded into the projector. */
  private folded = -1;
  /** seq of the last event the broker acknowledged in this run (the mark on disk may lag it: markWrite). */
  private acked = -1;
  /** The delivery mark's write for the last acknowledged event: awaited by stop(), not by the next publish. */
  private markWrite: Promise<void> = Promise.resolve();
  private markFailing = false;
  /** Folded but not yet acknowledged: sent again first (the fold cannot be undone). */
  private pending: Projected | null = null;
  /** The journal event of `pending`, for `director/event`. */
  private pendingEvent: TableEvent | null = null;
  /** Club alerts (wrong tray) waiting to go out, each right after the event it is about (`afterSeq`). */
  private alerts: { afterSeq: number; alert: object }[] = [];
  private pumping = false;
  private again = false;
  private announceDue = false;
  private stateDirty = false;
  /** The retained spectator analysis (`analysis` topic), and whether it still has to go out. */
  private analysis: string | null = null;
  private analysisDirty = false;
  private stopped = false;
  private backoff = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  /** The link to the broker as the log tells it, and mqtt.js's reconnection back-off (broker-link.ts). */
  private link: BrokerLink | null = null;
  /** What the commands and queries are decided with (command-desk.ts). */
  private readonly desk: CommandDesk;
  private commandChain: Promise<void> = Promise.resolve();

  constructor(opts: FeedOptions) {
    super();
    this.opts = opts;
    this.topics = tableTopics(opts.club, opts.table, opts.base);
    this.clubTopics = opts.clubSession ? sessionTopics(opts.club, opts.clubSession.session, opts.base) : null;
    this.log = opts.logger ?? SILENT;
    this.desk = {
      log: this.log, stats: this.stats, transactions: opts.transactions ?? new TransactionIndex(), handler: opts.onCommand,
      source: opts.source, session: opts.session ?? null,
    };
    this.projector = new Projector({
      embargo: opts.embargo, tableOptions: opts.tableOptions, scoreOptions: opts.scoreOptions,
      onIncident: (i) => {
        if (i.what === 'engine-error') this.stats.engineErrors++;
        else this.stats.privacyGuardTrips++;
        this.log.error({ incident: i }, i.what === 'privacy-guard' ? 'public payload replaced: it would have named a hidden card' : 'the engine refused an event');
        this.emit('incident', i);
      },
    });
  }

  /** True while connected to the broker. */
  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** The last public snapshot (what `state` carries). */
  publicState(): PublicState {
    return this.projector.publicState();
  }

  /** The director's snapshot (what `director/state` carries). */
  directorState(): DirectorState {
    return this.projector.directorState();
  }

  /** seq of the last event folded into the snapshots, or -1. */
  get foldedSeq(): number {
    return this.folded;
  }

  /** Restore the snapshots from the events already delivered, then connect; resolves without waiting for the broker. */
  async start(): Promise<void> {
    if (this.client) throw new Error('Feed.start: already started');
    this.catchUp();
    const o = this.opts;
    const status = this.topics.status;
    if (o.protocolVersion !== undefined && o.protocolVersion !== 5 && o.protocolVersion !== 4) {
      throw new Error(`protocolVersion: ${String(o.protocolVersion)} is not supported; use 5, or 4 for a broker without MQTT 5`);
    }
    const link = new BrokerLink({ url: o.url, clientId: this.clientId, log: this.log, reconnectPeriod: o.reconnectPeriod, maxReconnectPeriod: o.maxReconnectPeriod });
    this.link = link;
    const options: IClientOptions = {
      protocolVersion: o.protocolVersion ?? 5,
      clientId: this.clientId,
      keepalive: o.keepalive ?? 30,
      reconnectPeriod: link.reconnectDelay,
      connectTimeout: o.connectTimeout ?? 10_000,
      // A clean session: a command sent while the table was away is stale by the time it would arrive, so the broker
      // must not queue requests for us. The outbox (journal) covers what we send.
      clean: true,
      // We subscribe on every connect ourselves, after announcing the table.
      resubscribe: false,
      queueQoSZero: false,
      // mqtt-packet otherwise builds a cache of 65,536 two-byte Buffers (one per packet id) on the first write: 6 MB of
      // heap, a tenth of a Pi's budget for the daemon (issue 8). Without it, each packet id is written from a fresh one.
      writeCache: false,
      will: {
        topic: status, payload: Buffer.from('offline'), qos: 1, retain: true,
        properties: { contentType: 'text/plain', payloadFormatIndicator: true, userProperties: { schemaVersion: String(SCHEMA_VERSION), contentType: 'text/plain', kind: 'status' } },
      },
    };
    if (o.username !== undefined) options.username = o.username;
    if (o.password !== undefined) options.password = o.password;
    if (o.tls) {
      if (o.tls.ca !== undefined) options.ca = o.tls.ca;
      if (o.tls.cert !== undefined) options.cert = o.tls.cert;
      if (o.tls.key !== undefined) options.key = o.tls.key;
      if (o.tls.passphrase !== undefined) (options as { passphrase?: string }).passphrase = o.tls.passphrase;
      if (o.tls.servername !== undefined) options.servername = o.tls.servername;
      options.rejectUnauthorized = o.tls.rejectUnauthorized ?? true;
    }
    const client = connectMqtt(o.url, options);
    this.client = client;
    link.attach(client);
    client.on('connect', () => this.onConnect());
    client.on('disconnect', (packet) => link.brokerDisconnect(packet));
    client.on('close', () => this.onClose());
    client.on('error', (err) => link.error(err));
    client.on('message', (topic, payload, packet) => this.onMessage(topic, payload, packet));
  }

  /** New events are in the source: publish them (when connected). */
  notify(): void {
    this.kick();
  }

  /**
   * The club layer reports that a board's tray has been played at every table (the `tray-complete` embargo).
   * Publishes a new snapshot when that releases anything.
   */
  setTrayComplete(board: number, complete = true): void {
    if (complete && this.opts.onRelease) {
      try {
        this.opts.onRelease(board);
      } catch (err) {
        this.log.error({ err: (err as Error).message, board }, 'the live analysis failed to take a released board');
      }
    }
    if (this.projector.setTrayComplete(board, complete)) {
      this.stateDirty = true;
      this.tellFolded(null, false);
      this.kick();
    }
  }

  /**
   * Issue 21: the spectators' double-dummy analysis, retained on the spectator-only `analysis` topic (never a public
   * one: it names unplayed cards). The caller hands it over only once the embargo lets the deal out.
   */
  setAnalysis(payload: object): void {
    this.analysis = JSON.stringify(payload);
    this.analysisDirty = true;
    this.kick();
  }

  /** Tell `onFolded` where the table is now; its failure is logged, never the feed's. */
  private tellFolded(ev: TableEvent | null, newDeal: boolean): void {
    const hook = this.opts.onFolded;
    if (!hook) return;
    try {
      hook(this.projector.table, { seq: ev?.seq ?? null, newDeal, released: this.projector.released() });
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'the live analysis failed to follow the table');
    }
  }

  /** Club: set (or clear) the club line of the public state (`state.club`, docs/club.md "Wrong tray"). */
  setClubStatus(status: ClubStatus | null): void {
    if (this.projector.setClubStatus(status)) {
      this.stateDirty = true;
      this.kick();
    }
  }

  /**
   * Club: publish an alert (a `ClubAlert`) on the table's `director` topic, QoS 1, right after event `afterSeq` (the
   * scan it is about), so it precedes the cards played after it. Held in memory while the broker is away.
   */
  publishClubAlert(alert: object, afterSeq = -1): void {
    this.alerts.push({ afterSeq, alert });
    this.kick();
  }

  /**
   * Resolves once the broker has acknowledged event `seq` (or a later one); rejects after `timeoutMs` (Infinity: no
   * limit), or when `signal` aborts.
   */
  whenDelivered(seq: number, timeoutMs = 30_000, signal?: AbortSignal): Promise<void> {
    if (Math.max(this.acked, this.opts.mark.get()) >= seq) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(new Error(`stopped waiting for event ${seq}`));
    return new Promise((resolve, reject) => {
      const finish = (err?: Error): void => {
        clearTimeout(timer);
        this.off('delivered', on);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => finish(new Error(`event ${seq} not delivered within ${timeoutMs} ms (mark ${this.opts.mark.get()})`)), timeoutMs)
        : undefined;
      const on = (s: number): void => { if (s >= seq) finish(); };
      const onAbort = (): void => finish(new Error(`stopped waiting for event ${seq}`));
      this.on('delivered', on);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Announce `offline` (a clean disconnect does not fire the last will) and disconnect. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.link?.stop();
    // A clean stop leaves the mark at the last event acknowledged (nothing sent again at the next start).
    await withTimeout(this.markWrite, 2000).catch(() => undefined);
    const client = this.client;
    if (!client) return;
    if (client.connected) {
      try {
        await withTimeout(client.publishAsync(this.topics.status, 'offline', this.textOptions()), 2000);
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'could not announce offline; the last will covers it');
      }
    }
    await closeClient(client);
  }

  // ------------------------------------------------------------------ the link to the broker

  private get clientId(): string {
    return this.opts.clientId ?? `tenace-${this.opts.club}-${this.opts.table}`;
  }

  private onClose(): void {
    if (this.stopped) return;
    this.stats.disconnects++;
    this.link!.closed();
    this.emit('close');
  }

  // ------------------------------------------------------------------ outbox

  /** Fold, without publishing, what the broker already acknowledged in an earlier run. */
  private catchUp(): void {
    const mark = this.opts.mark.get();
    for (const ev of this.opts.source.eventsAfter(-1)) {
      if (!isSeq(ev.seq)) { this.stats.skippedEvents++; continue; }
      if (ev.seq > mark) break;
      if (ev.seq <= this.folded) { this.stats.skippedEvents++; continue; }
      this.projector.apply(ev);
      this.folded = ev.seq;
      this.tellFolded(ev, ev.type === 'deal');
    }
    this.log.info({ mark, folded: this.folded }, 'restored the table from the journal');
  }

  private onConnect(): void {
    this.stats.connects++;
    // A card is one small packet and we wait for its PUBACK: with Nagle's algorithm on, the second of two small
    // writes waits for the broker's delayed ACK (~40 ms). mqtt.js leaves the socket's default, so turn it off.
    (this.client?.stream as { setNoDelay?: (on: boolean) => void } | undefined)?.setNoDelay?.(true);
    this.backoff = 0;
    this.link!.connected(this.stats.connects);
    // On EVERY connect, not only the first: a restarted broker may have lost the retained state, or kept a stale one.
    this.announceDue = true;
    this.emit('connect');
    this.kick();
  }

  private kick(): void {
    if (this.stopped || !this.client) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump().finally(() => {
      this.pumping = false;
    });
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.again = false;
        if (!this.connected) return;
        if (this.announceDue) {
          this.announceDue = false;
          await this.announce();
        }
        if (this.pending) {
          await this.deliver(this.pending, this.pendingEvent);
          this.pending = null;
          this.pendingEvent = null;
        }
        const batch = this.pull(this.opts.batchSize ?? 256);
        for (const ev of batch) {
          // A reconnect happened meanwhile: announce before anything else goes out.
          if (this.announceDue || !this.connected || this.stopped) break;
          this.pending = this.projector.apply(ev);
          this.pendingEvent = ev;
          this.folded = ev.seq!;
          this.stateDirty = true;
          this.tellFolded(ev, ev.type === 'deal');
          await this.deliver(this.pending, ev);
          this.pending = null;
          this.pendingEvent = null;
          await this.sendAlerts();
        }
        await this.sendAlerts();
        if (this.stateDirty && this.connected && !this.announceDue) {
          this.stateDirty = false;
          await this.publishSnapshots();
        }
        if (this.analysisDirty && this.analysis !== null && this.connected && !this.announceDue) {
          const text = this.analysis;
          await this.client!.publishAsync(this.topics.analysis, text, this.jsonOptions('analysis', true));
          // A newer analysis handed over meanwhile goes out on the next pass.
          if (this.analysis === text) this.analysisDirty = false;
        }
        if (batch.length > 0) this.again = true;
      } while (this.again && !this.stopped);
      this.backoff = 0;
    } catch (err) {
      if (this.stopped) return;
      this.stats.publishFailures++;
      // Never skip an event: wait and try the same one again (a broker refusing it is a misconfiguration to fix).
      this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff ? this.backoff * 2 : 250);
      this.log.error({ err: (err as Error).message, retryInMs: this.backoff, pendingSeq: this.pending?.public.seq }, 'publish failed');
      this.stateDirty = true;
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.kick();
      }, this.backoff);
    }
  }

  /** Up to `n` events after the last folded one, read afresh from the source (never held across reconnects). */
  private pull(n: number): TableEvent[] {
    const out: TableEvent[] = [];
    for (const ev of this.opts.source.eventsAfter(this.folded)) {
      const last = out.length ? out[out.length - 1].seq! : this.folded;
      if (!isSeq(ev.seq) || ev.seq <= last) {
        this.stats.skippedEvents++;
        this.log.error({ seq: ev.seq, after: last }, 'the event source returned an event without a greater seq; skipped');
        continue;
      }
      out.push(ev);
      if (out.length >= n) break;
    }
    return out;
  }

  private async announce(): Promise<void> {
    const client = this.client!;
    await client.publishAsync(this.topics.status, 'online', this.textOptions());
    await this.publishSnapshots();
    if (this.analysis !== null) this.analysisDirty = true;
    try {
      await client.subscribeAsync(this.topics.requestFilter, { qos: 1 });
    } catch (err) {
      // mqtt.js rejects on a SUBACK failure code; the feed still publishes, it only cannot take commands.
      this.log.error({ topic: this.topics.requestFilter, err: (err as Error).message }, 'the broker refused the command subscription (check the ACL)');
    }
    const club = this.opts.clubSession;
    if (club && this.clubTopics) {
      // The schedule is public; the table terminal reads where everyone goes next round from it.
      const topics = [this.clubTopics.released, this.clubTopics.schedule, ...(club.trays ? [this.clubTopics.traysFilter, this.topics.assignment] : [])];
      for (const topic of topics) {
        try {
          await client.subscribeAsync(topic, { qos: 1 });
        } catch (err) {
          this.log.error({ topic, err: (err as Error).message }, 'the broker refused a club subscription (check the ACL: a table reads trays/# and club/+/released of its club)');
        }
      }
    }
  }

  // Publishes are awaited one at a time on purpose. Two PUBACKs owed at once make a broker without TCP_NODELAY
  // (mosquitto's default) hold the second until our delayed ACK, ~40 ms per card; one at a time costs a LAN round trip.
  private async publishSnapshots(): Promise<void> {
    const client = this.client!;
    await client.publishAsync(this.topics.state, JSON.stringify(this.projector.publicState()), this.jsonOptions('state', true));
    await client.publishAsync(this.topics.directorState, JSON.stringify(this.projector.directorState()), this.jsonOptions('director-state', true));
  }

  /** The club alerts whose event has gone out: a wrong-tray alert follows its scan and precedes the next card. */
  private async sendAlerts(): Promise<void> {
    while (this.alerts.length > 0 && this.alerts[0].afterSeq <= this.folded && this.connected && !this.announceDue && !this.stopped) {
      await this.client!.publishAsync(this.topics.director, JSON.stringify(this.alerts[0].alert), this.jsonOptions('club-alert', false));
      this.alerts.shift();
      this.stats.clubAlerts++;
    }
  }

  private async deliver(p: Projected, ev: TableEvent | null): Promise<void> {
    const client = this.client!;
    // The event's messages go out back to back, in this order, and are then awaited together: the broker keeps each
    // topic's order, and the mark below waits for all of them, but the card's public event no longer waits a round
    // trip for the director's copy's PUBACK (issue 20, card to subscriber).
    const acks: Promise<unknown>[] = [];
    if (this.opts.directorEvents && ev) {
      const m = { schema: 1, type: 'tenace.journal-event', session: this.opts.session ?? null, seq: ev.seq, event: ev };
      acks.push(client.publishAsync(this.topics.directorEvent, JSON.stringify(m), this.jsonOptions('journal-event', false)));
    }
    if (p.director) acks.push(client.publishAsync(this.topics.director, JSON.stringify(p.director), this.jsonOptions('director-alert', false)));
    acks.push(client.publishAsync(this.topics.event, JSON.stringify(p.public), this.jsonOptions('event', false)));
    await Promise.all(acks);
    const seq = p.public.seq;
    this.acked = seq;
    // The mark is the next start's bookmark, not a condition of the next publish: one that lags only makes events
    // be sent again after a restart, which subscribers drop by seq. So its write (an append and a flush) goes on
    // behind the next event instead of before it (issue 20: a card's lifts come in a burst, and each waited for the
    // flush of the one before on top of its own journal's).
    this.markWrite = this.opts.mark.set(seq).then(() => {
      if (this.markFailing) this.log.info({ seq }, 'the delivery mark is written again');
      this.markFailing = false;
    }, (err: Error) => {
      // Said once an outage: the next event's advance tries again.
      if (!this.markFailing) this.log.error({ err: err.message, seq }, 'cannot write the delivery mark; events after it will be sent again after a restart');
      this.markFailing = true;
    });
    this.stats.delivered++;
    this.emit('delivered', seq);
  }

  private jsonOptions(kind: string, retain: boolean) {
    return {
      qos: 1 as const, retain,
      properties: {
        contentType: 'application/json', payloadFormatIndicator: true,
        userProperties: { schemaVersion: String(SCHEMA_VERSION), contentType: 'application/json', kind },
      },
    };
  }

  private textOptions() {
    return {
      qos: 1 as const, retain: true,
      properties: { contentType: 'text/plain', payloadFormatIndicator: true, userProperties: { schemaVersion: String(SCHEMA_VERSION), contentType: 'text/plain', kind: 'status' } },
    };
  }

  // ------------------------------------------------------------------ commands

  private onMessage(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const cmd = this.topics.commandOf(topic);
    if (cmd === null) {
      this.onClubMessage(topic, payload);
      return;
    }
    if (isQueryName(cmd)) {
      // A read: answered in turn with the commands (it sees what they journaled), never journaled itself.
      this.commandChain = this.commandChain.then(() => this.handleQuery(cmd, payload, packet)).catch((err) => {
        this.log.error({ err: (err as Error).message, cmd }, 'query handling failed');
      });
      return;
    }
    // One command at a time, in arrival order: each may change the table the next one is judged against.
    this.commandChain = this.commandChain.then(() => this.handleCommand(cmd, payload, packet)).catch((err) => {
      this.log.error({ err: (err as Error).message, cmd }, 'command handling failed');
    });
  }

  private async handleCommand(cmd: string, payload: Buffer, packet: IPublishPacket): Promise<void> {
    const response = await this.decide(cmd, payload);
    this.emit('command', cmd, response);
    await this.respond(cmd, response, packet);
  }

  /**
   * A command from another door (the table terminal's HTTP API): checked, de-duplicated by its transaction and
   * applied exactly as one on `request/<cmd>`, in turn with them; resolves to the same answer, sent nowhere else.
   */
  submit(cmd: string, payload: string | Buffer): Promise<CommandResponse> {
    const run = this.commandChain.then(() => this.decide(cmd, typeof payload === 'string' ? Buffer.from(payload) : payload));
    this.commandChain = run.then(() => undefined, () => undefined);
    return run;
  }

  /** Check, look up and apply one command; the answer to send. */
  private decide(cmd: string, payload: Buffer): Promise<CommandResponse> {
    return decideCommand(this.desk, cmd, payload);
  }

  private onClubMessage(topic: string, payload: Buffer): void {
    const club = this.opts.clubSession;
    const t = this.clubTopics;
    if (!club || !t) return;
    let m: ClubInbound | null = null;
    if (topic === t.released) m = { kind: 'released', topic, payload };
    else if (topic === t.schedule) m = { kind: 'schedule', topic, payload };
    else if (topic === this.topics.assignment) m = { kind: 'assignment', topic, payload };
    else if (topic.startsWith(t.traysFilter.slice(0, -1))) {
      const last = topic.slice(t.traysFilter.length - 1);
      const board = /^[0-9]{1,4}$/.test(last) ? Number(last) : NaN;
      if (Number.isInteger(board) && board >= 1) m = { kind: 'tray', board, topic, payload };
      else this.log.warn({ topic }, 'a message under trays/ that is not a board number; ignored (publish records on trays/<session>/<board>)');
    }
    if (!m) return;
    try {
      club.onMessage(m);
    } catch (err) {
      this.log.error({ topic, err: (err as Error).message }, 'the club message handler failed');
    }
  }

  /** `request/events`: the journal events after `after`, a page of at most `limit`; a read, nothing is journaled. */
  private async handleQuery(cmd: 'events', payload: Buffer, packet: IPublishPacket): Promise<void> {
    await this.respond(cmd, answerEventsQuery(this.desk, payload), packet);
  }

  private async respond(cmd: string, response: CommandResponse, request: IPublishPacket): Promise<void> {
    const client = this.client;
    if (!client) return;
    const opts = this.jsonOptions('response', false);
    // MQTT 5 request/response: echo the correlation data so a client can match without parsing.
    const corr = request.properties?.correlationData;
    const properties = corr ? { ...opts.properties, correlationData: corr } : opts.properties;
    try {
      await client.publishAsync(this.topics.response(cmd), JSON.stringify(response), { ...opts, properties });
    } catch (err) {
      this.log.warn({ err: (err as Error).message, cmd }, 'could not send the response');
    }
  }
}
