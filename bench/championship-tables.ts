// The championship benchmark's tables (bench/championship.ts): each one mqtt.js client publishing a deal's journal
// events as a table daemon's feed does, the tray records its room holds, and the slot barrier that starts a slot at
// every table once the slot before it is done everywhere.
import mqtt, { type MqttClient } from 'mqtt';
import type { TableEvent } from '../src/formats/table-log.js';
import { sessionTopics, tableTopics } from '../src/feed/topics.js';
import { type PlannedPlay, type SessionPlan, trayCodeOf } from '../src/club/session/plan.js';
import { decideScan, parseAssignment, parseTrayRecord } from '../src/club/table-side.js';
import type { RoundAssignment, TrayRecord } from '../src/club/types.js';

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/** MQTT 5 properties the feed puts on its JSON messages (src/feed/mqtt-feed.ts jsonOptions). */
const jsonProps = (kind: string) => ({ contentType: 'application/json', payloadFormatIndicator: true, userProperties: { schemaVersion: '1', contentType: 'application/json', kind } });
const statusProps = { contentType: 'text/plain', payloadFormatIndicator: true, userProperties: { schemaVersion: '1', contentType: 'text/plain', kind: 'status' } };

/** What a room's tables hold of the club: the tray records (one shared subscription per room). */
export class RoomRecords {
  readonly records = new Map<number, TrayRecord>();
  constructor(private readonly client: MqttClient) {}
  static async connect(url: string, club: string, session: string, id: string): Promise<RoomRecords> {
    const client = await mqtt.connectAsync(url, { clientId: id, protocolVersion: 5 });
    const r = new RoomRecords(client);
    client.on('message', (_t, payload) => {
      if (payload.length === 0) return;
      const p = parseTrayRecord(payload, { session });
      if (p.ok) r.records.set(p.value.board, p.value);
    });
    await client.subscribeAsync(sessionTopics(club, session).traysFilter, { qos: 1 });
    return r;
  }
  close(): Promise<void> { return this.client.endAsync(); }
}

/** One emulated table: a journal in memory, published as the feed publishes it, and request/events answered from it. */
export class EmulatedTable {
  readonly journal: TableEvent[] = [];
  assignment: RoundAssignment | null = null;
  private outbox: Promise<unknown> = Promise.resolve();
  requests = 0;
  publishFailures = 0;
  firstFailure = '';

  private constructor(readonly no: number, readonly id: string, private readonly client: MqttClient, private readonly t: ReturnType<typeof tableTopics>, private readonly session: string) {}

  static async connect(url: string, club: string, session: string, no: number, tag: string): Promise<EmulatedTable> {
    const id = String(no);
    const t = tableTopics(club, id);
    const client = await mqtt.connectAsync(url, {
      clientId: `tenace-bench-${tag}-t${no}`, protocolVersion: 5, clean: true, keepalive: 30, reconnectPeriod: 1000, resubscribe: true,
      will: { topic: t.status, payload: Buffer.from('offline'), qos: 1, retain: true, properties: statusProps },
    });
    // The feed turns Nagle off on its socket.
    (client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
    const table = new EmulatedTable(no, id, client, t, session);
    client.on('message', (topic, payload) => table.onMessage(topic, payload));
    await client.publishAsync(t.status, 'online', { qos: 1, retain: true, properties: statusProps });
    await client.subscribeAsync([t.requestFilter, t.assignment], { qos: 1 });
    return table;
  }

  private onMessage(topic: string, payload: Buffer): void {
    if (topic === this.t.assignment) {
      if (payload.length === 0) return;
      const a = parseAssignment(payload, { session: this.session, table: this.id });
      if (a.ok) this.assignment = a.value;
      return;
    }
    if (topic !== this.t.request('events')) return;
    this.requests++;
    let q: { transaction?: unknown; after?: unknown; limit?: unknown };
    try { q = JSON.parse(payload.toString('utf8')); } catch { return; }
    const after = Number.isSafeInteger(q.after) ? (q.after as number) : 0;
    const limit = Number.isSafeInteger(q.limit) && (q.limit as number) > 0 ? (q.limit as number) : 500;
    const events = this.journal.filter((e) => e.seq! > after).slice(0, limit);
    const body = { transaction: q.transaction, ok: true, session: this.session, events, last: this.journal.length };
    this.client.publish(this.t.response('events'), JSON.stringify(body), { qos: 1, properties: jsonProps('response') });
  }

  /** Journal one event and queue its `director/event` (the feed publishes one message at a time, in seq order). */
  append(ev: TableEvent): TableEvent {
    const stamped = { ...ev, seq: this.journal.length + 1, at: new Date().toISOString() } as TableEvent;
    this.journal.push(stamped);
    const m = { schema: 1, type: 'tenace.journal-event', session: this.session, seq: stamped.seq, event: stamped };
    this.outbox = this.outbox.then(() => this.client.publishAsync(this.t.directorEvent, JSON.stringify(m), { qos: 1, properties: jsonProps('journal-event') }))
      .catch((err: Error) => { if (this.publishFailures++ === 0) this.firstFailure = err.message; });
    return stamped;
  }

  async close(): Promise<void> {
    await this.outbox;
    await this.client.endAsync();
  }
}

/** Slot k of a round starts only when every table has finished the earlier slots (as in the club runner). */
export class SlotBarrier {
  private readonly pending = new Map<string, number>();
  private readonly waiters: (() => void)[] = [];
  constructor(plan: SessionPlan) {
    for (const p of [...plan.plays.values()].flat()) this.pending.set(`${p.round}:${p.slot}`, (this.pending.get(`${p.round}:${p.slot}`) ?? 0) + 1);
  }
  private open(p: PlannedPlay): boolean {
    for (const [k, n] of this.pending) {
      const [r, s] = k.split(':').map(Number);
      if (n > 0 && (r < p.round || (r === p.round && s < p.slot))) return false;
    }
    return true;
  }
  async enter(p: PlannedPlay): Promise<void> {
    while (!this.open(p)) await new Promise<void>((r) => this.waiters.push(r));
  }
  leave(p: PlannedPlay): void {
    const k = `${p.round}:${p.slot}`;
    this.pending.set(k, (this.pending.get(k) ?? 1) - 1);
    for (const w of this.waiters.splice(0)) w();
  }
}

/** Wait until `cond` holds, polling every 20 ms; throws after `ms`. */
export async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await sleep(20);
  }
}

/** A play's last card: when the table journaled it, and its seq (the witness keys the event at the broker by it). */
export interface Timing { table: number; board: number; round: number; slot: number; lastCardAt: number; lastCardSeq?: number }

/** One table's plays: wait for the round's assignment and the slot, scan the tray, play the cards at the chosen pace. */
export async function playTable(t: EmulatedTable, plays: readonly PlannedPlay[], x: { plan: SessionPlan; records: RoomRecords; barrier: SlotBarrier; intervalMs: number; timings: Timing[]; problems: string[]; deadline: number; late: string[] }): Promise<void> {
  for (const [k, p] of plays.entries()) {
    // Past the deadline no play starts: the rest of this table's plays (and of the tables waiting on its slot) go.
    const left = () => Math.max(0, x.deadline - Date.now());
    const waited = await until(() => (t.assignment?.round ?? 0) >= p.round, left(), `table ${t.no}'s assignment for round ${p.round}`).then(() => true, (err: Error) => { x.late.push(err.message); return false; });
    if (!waited || left() === 0) {
      for (const q of plays.slice(k)) x.barrier.leave(q);
      return;
    }
    await x.barrier.enter(p);
    try {
      if (p.playIndex > 0) {
        const got = await until(() => x.records.records.has(p.board), left(), `the record of tray ${p.board} in table ${t.no}'s room`).then(() => true, (err: Error) => { x.late.push(err.message); return false; });
        if (!got) {
          for (const q of plays.slice(k + 1)) x.barrier.leave(q);
          return;
        }
      }
      // Tables do not start in step: each begins within one event interval of the slot opening.
      let next = performance.now() + Math.random() * x.intervalMs;
      const pace = async () => {
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        next += x.intervalMs;
      };
      await pace();
      const tray = t.append({ type: 'tray', code: trayCodeOf(x.plan.session, p.board) });
      const d = decideScan({
        code: (tray as { code: string }).code, seq: tray.seq, at: tray.at!, session: x.plan.session, table: t.id, variant: x.plan.variant,
        records: x.records.records, assignment: t.assignment, inPlay: null,
      });
      if (d.kind !== 'deal') {
        x.problems.push(`table ${t.no} tray ${p.board}: the scan started no deal (${d.kind === 'alert' ? d.alert.message : d.reason})`);
        continue;
      }
      t.append(d.deal as TableEvent);
      const lastPlace = p.events.map((e) => e.type).lastIndexOf('place');
      for (const [i, ev] of p.events.entries()) {
        await pace();
        const stamped = t.append(ev);
        if (i === lastPlace) x.timings.push({ table: t.no, board: p.board, round: p.round, slot: p.slot, lastCardAt: Date.now(), lastCardSeq: stamped.seq });
      }
    } finally {
      x.barrier.leave(p);
    }
  }
}
