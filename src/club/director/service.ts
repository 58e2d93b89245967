// The director service (docs/club.md): it follows every table's journal over MQTT, stores each event once, folds
// them through the engine, and from the completed deals derives the travellers, the tray records, the fouled-tray
// alerts, the released trays, the round assignments and the standings; it takes the director's decisions as
// journaled commands.
//
// Persist before acknowledging: the table events arrive at QoS 1 on a persistent session, and the PUBACK of each
// is sent by `customHandleAcks` only once the event (and all that was derived from it) is committed. Until then the
// broker keeps the message and gives it again after any disconnect or crash, so a kill -9 between receipt and
// commit loses nothing; a redelivery of a committed event is recognised by (session, table, seq) and counts once.
// mqtt.js handles incoming packets one at a time and waits for the ack callback, so the store is written in arrival
// order; nothing in that path may wait for another incoming packet (a PUBACK of our own publish, a response), or the
//
// This file only wires the director's modules, each with one concern: state.ts (what they share), commit.ts (the
// serial chain and the store's commits), mqtt.ts, messages.ts (incoming messages and the intake of events),
// gap-fill.ts, results.ts, records.ts (tray records), alerts.ts, rounds.ts, take-decision.ts, standings.ts,
// snapshot.ts, restore.ts (rebuild at start), cluster.ts and web-wiring.ts.
import { hostname } from 'node:os';
import { closeClient } from '../../broker/close-client.js';
import type { DirectorSnapshot, SessionExport, Schedule, TrayRecord } from '../types.js';
import type { DecisionResponse } from './decisions.js';
import type { HandTableView } from './hand-table.js';
import { PartitionLeases } from './leases.js';
import { newPinSecret } from './hand-scored.js';
import { DirectorStore } from './store.js';
import { Players } from './players.js';
import { type DirectorServiceOptions, type DirectorTraveller, DirectorState, LISTENED_SYNC_MS, SYNC_MS, warnOnce } from './state.js';
import { durable, enqueue, fail } from './commit.js';
import { connect } from './mqtt.js';
import { retryGaps, pendingEvents } from './gap-fill.js';
import { refusals } from './alerts.js';
import { trayRecords } from './records.js';
import { repartition, requestSync } from './cluster.js';
import { decide, renamePairs } from './take-decision.js';
import { flushNow, scoredTravellers, sessionExport } from './standings.js';
import { snapshot, subscribe } from './snapshot.js';
import { rebuild } from './restore.js';
import { handTable, startWeb, tablePins } from './web-wiring.js';
import { rehearse } from './rehearsal.js';

export { generateSchedule, type ClubFunctions, type DirectorServiceOptions, type DirectorTraveller } from './state.js';

/** The director service: start it, and it runs until stop(). */
export class DirectorService {
  readonly schedule: Schedule;
  private readonly st: DirectorState;

  constructor(private readonly opts: DirectorServiceOptions) {
    this.st = new DirectorState(opts);
    this.schedule = this.st.schedule;
  }

  /** The pairs' players (the console's names), once the store is open. */
  get players(): Players | null { return this.st.players; }
  set players(p: Players | null) { this.st.players = p; }
  /** This instance's name among the director instances (cluster mode; '' otherwise). */
  get instance(): string { return this.st.instance; }
  set instance(v: string) { this.st.instance = v; }
  /** The MQTT client id, which names the director's persistent session at the broker (set by start). */
  get clientId(): string { return this.st.clientId; }
  set clientId(v: string) { this.st.clientId = v; }
  /** The page's handle (test/club/console-rig.ts reads its url). */
  private get web(): { url: string; close(): Promise<void> } | null { return this.st.web; }

  /** Open the store, rebuild everything from it, connect to the broker and start the page. */
  async start(): Promise<void> {
    const st = this.st;
    if (!st.store) st.store = await DirectorStore.open(st.c.store.url);
    st.pinSecret = await st.store.metaValue('table-pin-secret', newPinSecret);
    st.players = new Players(st.store.db, st.c.session, st.c.pairs, () => st.store!.sync());
    await st.players.load();
    await rebuild(st);
    await rehearse(st);
    const cl = st.c.cluster;
    st.instance = cl ? (cl.instance ?? `${hostname()}-${process.pid}`) : '';
    st.clientId = st.c.mqtt.clientId
      ?? `tenace-director-${st.c.club.id}-${st.c.session}-${cl ? st.instance : (await st.store.instanceId()).slice(0, 8)}`;
    connect(st);
    st.retryTimer = setInterval(() => retryGaps(st), Math.max(500, (this.opts.requestRetryMs ?? 3000) / 2));
    st.retryTimer.unref();
    if (cl) {
      st.leases = new PartitionLeases({
        ops: st.store.leaseOps, session: st.c.session, instance: st.instance, partitions: cl.partitions,
        leaseMs: cl.leaseSeconds * 1000, heartbeatMs: cl.heartbeatSeconds * 1000, log: st.log,
        onChange: (gained, lost) => enqueue(st, () => repartition(st, gained, lost)),
        onFailure: (err) => fail(st, err),
      });
      await st.leases.start();
      // On PostgreSQL each instance's commits that others read back are notified (NOTIFY at commit), and read back at
      // once. Everything is read back every SYNC_MS for SQLite and while the LISTEN connection is lost, at once when
      // it is open again (what was committed meanwhile), and every LISTENED_SYNC_MS while it is open.
      st.unlisten = await st.store.listenChanges((session, instance, note) => {
        if (session === st.c.session && instance !== st.instance) requestSync(st, note ?? 'all');
      }, (err) => {
        st.listening = false;
        warnOnce(st, 'listen', { err: err.message }, 'director: lost the LISTEN connection for the other instances\' changes; reading back every SYNC_MS until it is open again');
      }, () => {
        st.listening = true;
        requestSync(st);
      });
      const listenedMs = this.opts.listenedSyncMs ?? LISTENED_SYNC_MS;
      let polled = performance.now();
      st.syncTimer = setInterval(() => {
        if (st.syncQueued || (st.listening && performance.now() - polled < listenedMs)) return;
        polled = performance.now();
        requestSync(st);
      }, this.opts.syncMs ?? SYNC_MS);
      st.syncTimer.unref();
    }
    if (this.opts.web ?? st.c.http.enabled) await startWeb(st, this);
    flushNow(st);
  }

  /** Stop: finish the message in hand, disconnect cleanly, close the page and the store. */
  async stop(): Promise<void> {
    const st = this.st;
    if (st.stopped) return;
    st.stopped = true;
    if (st.syncTimer) clearInterval(st.syncTimer);
    await st.unlisten?.();
    // A clean stop gives the leases up, so the other instances take the tables at once; a failed store cannot.
    if (st.leases) await st.leases.stop(!st.failed);
    if (st.retryTimer) clearInterval(st.retryTimer);
    st.flushCancel?.();
    if (st.snapTimer) clearTimeout(st.snapTimer);
    st.wakeRetry?.();
    await st.chain.catch(() => undefined);
    // The groups in flight commit, and their PUBACKs go out before the connection closes.
    await durable(st).catch(() => undefined);
    if (st.client) await closeClient(st.client).catch(() => undefined);
    if (st.web) await st.web.close().catch((err: unknown) => st.log.warn({ err }, 'director page did not close cleanly'));
    st.dd?.close();
    if (st.ownStore && st.store) await st.store.close();
  }

  /** The latest snapshot (what the page shows). */
  snapshot(): DirectorSnapshot {
    return snapshot(this.st);
  }

  /** Call `fn` on every new snapshot; returns the unsubscribe. */
  subscribe(fn: (s: DirectorSnapshot) => void): () => void {
    return subscribe(this.st, fn);
  }

  /** The travellers as scored: the results, the director's adjustments applied, fouled-board groups marked. */
  travellers(): DirectorTraveller[] {
    return scoredTravellers(this.st);
  }

  /** The session as the exports read it (PBN with results, USEBIO, CSV travellers). */
  sessionExport(): SessionExport {
    return sessionExport(this.st);
  }

  /** The tray records in force (latest revision of each board). */
  trayRecords(): TrayRecord[] {
    return trayRecords(this.st);
  }

  /** The refusals of the intake so far, by `"<table>:<reason>"`. */
  refusals(): Record<string, number> {
    return refusals(this.st);
  }

  /** How many events each table holds past a gap, not yet folded. */
  pendingEvents(): Record<string, number> {
    return pendingEvents(this.st);
  }

  /** The director page's URL, once it listens (null without a page). */
  get pageUrl(): string | null {
    return this.web?.url ?? null;
  }

  /** The ids of the hand-scored tables (no readers: their results are entered on /hand/). */
  get handScored(): ReadonlySet<string> { return this.st.handScored; }

  /** Each table's PIN for this session, for the director's console: the players of a table type it on its terminal. */
  tablePins(): Record<string, string> {
    return tablePins(this.st);
  }

  /** What a hand-scored table's terminal shows: its round, pairs and trays with the results entered, and where to go next. */
  handTable(id: string): HandTableView | null {
    return handTable(this.st, id);
  }

  /**
   * A decision from the director's own pages or a hand-scored table's terminal: the same checks, journal and
   * exactly-once answer as one from MQTT, taken in the same serialised chain as every message.
   */
  decide(cmd: string, payload: string): Promise<DecisionResponse> {
    return decide(this.st, cmd, payload);
  }

  /** The pairs' names changed: each table's assignment in force is given again, with the names. */
  renamePairs(): Promise<void> {
    return renamePairs(this.st);
  }
}
