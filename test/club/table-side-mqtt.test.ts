// The table side of a club session over MQTT (docs/club.md, "The path of a tray"): a real Controller (no hardware;
// scans and cards go in through ingest, as the scanner and the bridge driver hand them over) against the real
// Mosquitto on 127.0.0.1:1883 with a club of its own, and against a mosquitto of our own that is restarted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { createLogger } from '../../src/config/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClubAlert, RoundAssignment, TrayRecord } from '../../src/club/types.js';
import { parseConfig } from '../../src/config/load.js';
import { Controller } from '../../src/daemon/controller.js';
import type { DirectorAlert, PublicState } from '../../src/feed/projection.js';
import { sessionTopics, tableTopics } from '../../src/feed/topics.js';
import type { DealEvent, TableEvent } from '../../src/formats/table-log.js';
import type { UnstampedEvent } from '../../src/journal/index.js';
import { type Broker, client, startBroker, uid, waitFor } from '../feed/broker.js';

const URL = 'mqtt://127.0.0.1:1883';
const HANDS = 'N:J4.T72.J.AKQ9864 9.KJ43.QT9763.J5 AK732.AQ96.42.72 QT865.85.AK85.T3';
const base = mkdtempSync(join(tmpdir(), 'tenace-table-side-'));
const noWatchdog = { enabled: false, intervalMs: undefined, ready() {}, status() {}, ping() {}, stop: async () => {} };
const AT = '2026-12-03T09:00:00.000Z';

afterAll(() => rmSync(base, { recursive: true, force: true }));

async function openController(o: { club: string; table: string; session: string; url: string; dir: string }): Promise<Controller> {
  const yaml = `club: { id: ${o.club} }\ntable: { id: ${o.table} }\nsession: ${o.session}\njournal: { dir: ${JSON.stringify(o.dir)}, fsync: group, groupCommitMs: 2 }\n` +
    `mqtt: { url: ${JSON.stringify(o.url)} }\nhttp: { port: 0, host: 127.0.0.1 }\n`;
  const parsed = parseConfig(yaml, { env: {} });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const c = new Controller({ config: parsed.config, log: createLogger({ log: { level: 'silent' } }), watchdog: noWatchdog });
  await c.start();
  return c;
}

function record(session: string, board: number): TrayRecord {
  return { schema: 1, type: 'tenace.tray', session, board, hands: HANDS, dealer: 'W', trumpCard: 'H5', source: { kind: 'hand-record', file: 'x.pbn', at: AT }, rev: 1 };
}

interface Got { topic: string; json: Record<string, unknown> }

describe('a table in a club session (shared Mosquitto)', () => {
  const club = uid('ts'), table = 't1', session = 'eve';
  const t = tableTopics(club, table);
  const s = sessionTopics(club, session);
  let director: MqttClient;
  let controller: Controller;
  const got: Got[] = [];
  const on = (topic: string) => got.filter((g) => g.topic === topic);
  const journal = () => controller.journal.events();
  const ingest = (ev: UnstampedEvent) => controller.ingest(ev);

  beforeAll(async () => {
    director = await client(URL);
    director.on('message', (topic, p) => { if (p.length > 0) got.push({ topic, json: JSON.parse(p.toString()) as Record<string, unknown> }); });
    await director.subscribeAsync([t.director, t.directorEvent, t.response('events'), t.state], { qos: 1 });
    // What the director publishes before the table starts: retained, so the table gets them when it subscribes.
    await director.publishAsync(s.tray(1), JSON.stringify(record(session, 1)), { qos: 1, retain: true });
    await director.publishAsync(s.tray(2), JSON.stringify(record(session, 2)), { qos: 1, retain: true });
    await director.publishAsync(s.tray(9), '{"schema":1,"type":"tenace.tray"}', { qos: 1, retain: true }); // malformed
    const a: RoundAssignment = { schema: 1, type: 'tenace.assignment', session, movement: 'howell', round: 1, table, trays: [1, 2, 3], tables: 3, variant: 'duplicate-whist', at: AT };
    await director.publishAsync(t.assignment, JSON.stringify(a), { qos: 1, retain: true });
    controller = await openController({ club, table, session, url: URL, dir: join(base, 'shared') });
    await waitFor(() => controller.club!.records.size === 2 && controller.club!.assignment !== null && controller.club!.malformed === 1, 5000, 'the retained records and assignment');
  });

  afterAll(async () => {
    await controller?.stop();
    for (const topic of [s.tray(1), s.tray(2), s.tray(9), t.assignment, s.released, t.status, t.state, t.directorState]) await director.publishAsync(topic, '', { qos: 1, retain: true });
    await director?.endAsync();
  });

  it(`a malformed record is counted and ignored; a wrong tray gives the wrong-tray alert before any card, a clear status, and no deal`, async () => {
    expect(controller.club!.records.has(9)).toBe(false);
    const scan = await ingest({ type: 'tray', code: 'eve:5' });
    await waitFor(() => on(t.director).some((g) => g.json.type === 'tenace.alert'), 5000, 'the wrong-tray alert');
    const alert = on(t.director).find((g) => g.json.type === 'tenace.alert')!.json as unknown as ClubAlert;
    expect(alert).toMatchObject({ kind: 'wrong-tray', session, table, board: 5, round: 1, expected: [1, 2, 3], seq: scan.seq, law: 'Dup. def. (c), (f)' });
    expect(journal().map((e) => e.type)).toEqual(['tray']);
    await waitFor(() => on(t.state).some((g) => (g.json as unknown as PublicState).club?.status === 'wrong-tray'), 5000, 'the wrong-tray status on the public state');
    const st = on(t.state).map((g) => g.json as unknown as PublicState).find((x) => x.club)!;
    expect(st.club).toMatchObject({ status: 'wrong-tray', board: 5, expected: [1, 2, 3] });
    expect(st.deal).toBeNull();
  });

  it('a scan of its tray journals the deal with the hands; a renounce in error is a finding at that card on the director topic', async () => {
    await ingest({ type: 'tray', code: 'eve:1' });
    const deal = journal().at(-1) as DealEvent;
    expect(deal).toMatchObject({ type: 'deal', board: 1, dealer: 'W', hands: HANDS, trumpSlip: 'H5', overplay: true, tables: 3, variant: 'duplicate-whist' });
    await ingest({ type: 'place', seat: 'W', card: 'H5' }); // the turned trump
    await ingest({ type: 'place', seat: 'N', card: 'CK' });
    const renounce = await ingest({ type: 'place', seat: 'E', card: 'D3' }); // E holds the CJ and C5
    await waitFor(() => on(t.director).some((g) => g.json.type === 'tenace.director-alert'), 5000, 'the director alert');
    const alerts = on(t.director).filter((g) => g.json.type === 'tenace.director-alert').map((g) => g.json as unknown as DirectorAlert);
    expect(alerts[0].seq).toBe(renounce.seq);
    expect(alerts[0].findings.map((f) => f.kind)).toContain('renounce-in-error');
    await waitFor(() => on(t.state).some((g) => (g.json as unknown as PublicState).club?.status === 'overplay'), 5000, 'the overplay status');
  });

  it('released boards lift the tray-complete embargo of the deal in play', async () => {
    const released = () => on(t.state).some((g) => (g.json as unknown as PublicState).deal?.released === true);
    expect(released()).toBe(false);
    await director.publishAsync(s.released, JSON.stringify({ schema: 1, type: 'tenace.released', session, boards: [1] }), { qos: 1, retain: true });
    await waitFor(released, 5000, 'the deal of board 1 released on the public state');
  });

  it('another tray while the deal is in play is an alert (Dup. IV.7), and no deal', async () => {
    const before = journal().length;
    await ingest({ type: 'tray', code: 'eve:2' });
    expect(journal().slice(before).map((e) => e.type)).toEqual(['tray']);
    await waitFor(() => on(t.director).some((g) => g.json.type === 'tenace.alert' && g.json.law === 'Dup. IV.7'), 5000, 'the deal-in-play alert');
  });

  it('a misplaced card in the next tray is card-not-in-hand at the first card; a tray without a record is the original play', async () => {
    await ingest({ type: 'abandon', reason: 'test' });
    await ingest({ type: 'tray', code: 'eve:2' });
    expect(journal().at(-1)).toMatchObject({ type: 'deal', board: 2, hands: HANDS, overplay: true });
    await ingest({ type: 'place', seat: 'W', card: 'H5' });
    const first = await ingest({ type: 'place', seat: 'N', card: 'S2' }); // the S2 is in S's pocket
    await waitFor(() => on(t.director).some((g) => g.json.seq === first.seq), 5000, 'the fouled-tray finding');
    const a = on(t.director).find((g) => g.json.seq === first.seq)!.json as unknown as DirectorAlert;
    expect(a.findings.map((f) => f.kind)).toContain('card-not-in-hand');

    await ingest({ type: 'abandon', reason: 'test' });
    await ingest({ type: 'tray', code: 'eve:3' });
    const orig = journal().at(-1) as DealEvent;
    expect(orig).toMatchObject({ type: 'deal', board: 3, dealer: 'S', tables: 3 });
    expect(orig.hands).toBeUndefined();
    expect(orig.overplay).toBeUndefined();
  });

  it('request/events returns the journal events after a seq, paged, and journals nothing; a bad query names the field', async () => {
    const last = controller.journal.lastSeq;
    const ask = async (payload: Record<string, unknown>) => {
      await director.publishAsync(t.request('events'), JSON.stringify(payload), { qos: 1 });
      await waitFor(() => on(t.response('events')).some((g) => g.json.transaction === payload.transaction), 5000, `response ${String(payload.transaction)}`);
      return on(t.response('events')).find((g) => g.json.transaction === payload.transaction)!.json;
    };
    const r = await ask({ transaction: 'q1', after: 2 });
    expect(r).toMatchObject({ ok: true, session, last });
    expect((r.events as TableEvent[]).map((e) => e.seq)).toEqual(journal().filter((e) => e.seq! > 2).map((e) => e.seq));
    expect(r.events).toEqual(JSON.parse(JSON.stringify(journal().filter((e) => e.seq! > 2))));
    const page = await ask({ transaction: 'q2', after: 0, limit: 3 });
    expect((page.events as TableEvent[]).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(page.last).toBe(last);
    const bad = await ask({ transaction: 'q3', after: -4 });
    expect(bad).toMatchObject({ ok: false });
    expect(String(bad.error)).toMatch(/^after: /);
    expect(controller.journal.lastSeq).toBe(last);
  });

  it('director/event carries every journal event in full, in seq order', async () => {
    const last = controller.journal.lastSeq;
    await waitFor(() => on(t.directorEvent).some((g) => g.json.seq === last), 5000, 'the last journal event on director/event');
    const msgs = on(t.directorEvent).map((g) => g.json);
    expect(msgs.every((m) => m.schema === 1 && m.type === 'tenace.journal-event' && m.session === session)).toBe(true);
    expect(msgs.map((m) => m.seq)).toEqual(journal().map((e) => e.seq));
    expect(msgs.map((m) => m.event)).toEqual(JSON.parse(JSON.stringify(journal())));
  });

  it('a restart replays the outcome, never decides again: the same journal, the deal of the last scan still from its record', async () => {
    await ingest({ type: 'abandon', reason: 'test' });
    await ingest({ type: 'tray', code: 'eve:1' });
    const before = JSON.parse(JSON.stringify(journal())) as TableEvent[];
    expect(before.at(-1)).toMatchObject({ type: 'deal', board: 1, overplay: true });
    // The director withdraws the record and the assignment meanwhile: a new decision would differ, a replay must not.
    await director.publishAsync(s.tray(1), '', { qos: 1, retain: true });
    await director.publishAsync(t.assignment, '', { qos: 1, retain: true });
    await controller.stop();
    controller = await openController({ club, table, session, url: URL, dir: join(base, 'shared') });
    await waitFor(() => controller.feed!.connected, 5000, 'the restarted table online');
    expect(JSON.parse(JSON.stringify(journal()))).toEqual(before);
    expect(controller.table.remaining('N')).not.toBeNull();
    expect(controller.club!.records.has(1)).toBe(false);
    // Def. (f) survives the restart: the journal says tray 1 was dealt in round 1 from record revision 1, and the
    // abandoned deals before it (trays 1, 2 and 3) do not count.
    expect([...controller.club!.played]).toEqual([['1:1', 1]]);
  });
});

describe('director/event across a broker restart (own mosquitto)', () => {
  let broker: Broker;
  let controller: Controller | null = null;
  let director: MqttClient | null = null;

  beforeAll(async () => {
    // Persistence keeps the director's session (and what is queued for it) over the restart, as tenace.conf does.
    broker = await startBroker('listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location {dir}/\n');
  });

  afterAll(async () => {
    await controller?.stop();
    await director?.endAsync(true);
    await broker?.dispose();
  });

  it('every event reaches the director once durable, in seq order, none lost; a redelivery repeats the same event', async () => {
    const club = uid('tr'), table = 't2', session = 'restart';
    const t = tableTopics(club, table);
    const received: { seq: number; text: string }[] = [];
    // A persistent session (MQTT 3.1.1, clean false): messages published while the director is away wait for it.
    director = await mqtt.connectAsync(broker.url, { protocolVersion: 4, clean: false, clientId: uid('dir-'), reconnectPeriod: 100, connectTimeout: 5000 });
    director.on('message', (_topic, p) => {
      const m = JSON.parse(p.toString()) as { seq: number; event: unknown };
      received.push({ seq: m.seq, text: JSON.stringify(m.event) });
    });
    await director.subscribeAsync(t.directorEvent, { qos: 1 });
    controller = await openController({ club, table, session, url: broker.url, dir: join(base, 'restart') });
    const cards: UnstampedEvent[] = [
      { type: 'place', seat: 'W', card: 'H5' }, { type: 'place', seat: 'N', card: 'CK' }, { type: 'place', seat: 'E', card: 'C5' },
      { type: 'place', seat: 'S', card: 'C7' }, { type: 'lift', seat: 'W', card: 'H5' }, { type: 'place', seat: 'W', card: 'C3' },
    ];
    await controller.ingest({ type: 'tray', code: 'restart:1' });
    for (const ev of cards.slice(0, 2)) await controller.ingest(ev);
    await controller.feed!.whenDelivered(controller.journal.lastSeq, 10_000);

    await broker.stop('SIGTERM');
    for (const ev of cards.slice(2, 4)) await controller.ingest(ev); // journaled while the broker is down
    await broker.start();
    for (const ev of cards.slice(4)) await controller.ingest(ev);
    const last = controller.journal.lastSeq;
    await controller.feed!.whenDelivered(last, 20_000);
    await waitFor(() => received.some((r) => r.seq === last), 20_000, 'the director to receive the last event');

    const events = controller.journal.events();
    expect(events.map((e) => e.type)).toEqual(['tray', 'deal', 'place', 'place', 'place', 'place', 'lift', 'place']);
    const firsts: number[] = [];
    for (const r of received) {
      if (firsts.includes(r.seq)) {
        // QoS 1 is at least once: a repeat is the same event again, which the director drops by seq.
        expect(r.text).toBe(JSON.stringify(events.find((e) => e.seq === r.seq)));
        continue;
      }
      firsts.push(r.seq);
    }
    expect(firsts).toEqual(events.map((e) => e.seq));
    for (const r of received) expect(r.text).toBe(JSON.stringify(events.find((e) => e.seq === r.seq)));
  });
  it('the wrong-tray alert goes out right after its scan, before the cards journaled after it, also after an outage', async () => {
    const club = uid('tw'), table = 't3', session = 'eve';
    const t = tableTopics(club, table);
    const order: string[] = [];
    const watcher = await mqtt.connectAsync(broker.url, { protocolVersion: 4, clean: false, clientId: uid('dir-'), reconnectPeriod: 100, connectTimeout: 5000 });
    try {
      watcher.on('message', (topic, p) => {
        const m = JSON.parse(p.toString()) as { type?: string; seq?: number; event?: { type?: string } };
        if (topic === t.director && m.type === 'tenace.alert') order.push('alert');
        if (topic === t.directorEvent) order.push(`${m.event?.type} ${m.seq}`);
      });
      await watcher.subscribeAsync([t.director, t.directorEvent], { qos: 1 });
      const a: RoundAssignment = { schema: 1, type: 'tenace.assignment', session, movement: 'howell', round: 1, table, trays: [1], tables: 3, variant: 'duplicate-whist', at: AT };
      await watcher.publishAsync(t.assignment, JSON.stringify(a), { qos: 1, retain: true });
      const c = await openController({ club, table, session, url: broker.url, dir: join(base, 'order') });
      try {
        await waitFor(() => c.club!.assignment !== null, 5000, 'the assignment');
        // Scan and card both wait in the journal while the broker is down, and go out in one batch after it.
        await broker.stop('SIGTERM');
        await c.ingest({ type: 'tray', code: 'eve:2' });
        await c.ingest({ type: 'place', seat: 'N', card: 'CK' });
        await broker.start();
        await waitFor(() => order.includes('place 2') && order.includes('alert'), 20_000, 'the alert and the card');
        expect(order.filter((x, i) => order.indexOf(x) === i)).toEqual(['tray 1', 'alert', 'place 2']);
        expect(c.journal.events().map((e) => e.type)).toEqual(['tray', 'place']);
      } finally {
        await c.stop();
      }
    } finally {
      await watcher.endAsync(true);
    }
  });
});
