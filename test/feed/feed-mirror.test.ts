// (a) A subscriber rebuilds the complete table state from the retained state plus events alone, on the real Mosquitto
// at 127.0.0.1:1883 with a unique club and table. Also: the last will, and the retained state republished on a
// reconnect.
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import { Feed, MemoryDeliveryMark, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import { Projector } from '../../src/feed/projector.js';
import { TableMirror } from '../../src/feed/subscriber.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { client, sleep, uid, waitFor } from './broker.js';

const URL = 'mqtt://127.0.0.1:1883';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

/** Two deals of a session: duplicate whist with a renounce in error, then bridge. */
function sessionEvents(seed: number): TableEvent[] {
  const a = simulateDeal(createRng(seed), { variant: 'duplicate-whist', board: 1, withHands: true, renounceAt: { trick: 3 } });
  const b = simulateDeal(createRng(seed + 1), { variant: 'bridge', board: 2, withHands: true });
  const events = [...a.events, ...b.events].map((e) => ({ ...e }));
  events.forEach((e, i) => { e.seq = i + 1; e.at = new Date(Date.UTC(2024, 5, 1, 19, 0, i)).toISOString(); });
  return events;
}

async function startFeed(club: string, table: string, extra: Partial<ConstructorParameters<typeof Feed>[0]> = {}) {
  const source = new MemoryEventSource();
  const mark = new MemoryDeliveryMark();
  const feed = new Feed({ url: URL, club, table, source, mark, reconnectPeriod: 200, ...extra });
  await feed.start();
  cleanups.push(async () => {
    await feed.stop();
    // Leave the shared broker as we found it: clear our retained messages.
    const c = await client(URL);
    for (const t of [feed.topics.status, feed.topics.state, feed.topics.directorState]) await c.publishAsync(t, '', { qos: 1, retain: true });
    await c.endAsync();
  });
  await waitFor(() => feed.connected, 5000, 'the feed to connect');
  return { feed, source, mark };
}

async function mirrorClient(club: string, table: string): Promise<{ c: MqttClient; m: TableMirror; props: Map<string, unknown> }> {
  const m = new TableMirror(club, table);
  const c = await client(URL);
  cleanups.push(() => c.endAsync());
  const props = new Map<string, unknown>();
  c.on('message', (topic, payload, packet) => {
    props.set(topic, packet.properties);
    m.handle(topic, payload);
  });
  return { c, m, props };
}

describe('feed → TableMirror over Mosquitto', () => {
  it('rebuilds the complete public state from the retained state plus events alone', async () => {
    const club = uid('c'), table = uid('t');
    const { feed, source } = await startFeed(club, table);
    const events = sessionEvents(42);

    // A subscriber from the start, following events only after the first snapshot.
    const early = await mirrorClient(club, table);
    await early.c.subscribeAsync(early.m.subscriptions(), { qos: 1 });

    const joinAt = 45;
    let late: Awaited<ReturnType<typeof mirrorClient>> | null = null;
    for (let i = 0; i < events.length; i++) {
      source.append(events[i]);
      feed.notify();
      if (i % 10 === 9) await feed.whenDelivered(events[i].seq!, 5000);
      if (i === joinAt) {
        await feed.whenDelivered(events[i].seq!, 5000);
        // A late subscriber: events first, then the retained state once, then no more snapshots: events alone.
        late = await mirrorClient(club, table);
        await late.c.subscribeAsync([late.m.topics.event, late.m.topics.status], { qos: 1 });
        await late.c.subscribeAsync(late.m.topics.state, { qos: 1 });
        await waitFor(() => late!.m.state !== null, 3000, 'the retained state');
        await late.c.unsubscribeAsync(late.m.topics.state);
      }
    }
    const last = events[events.length - 1].seq!;
    await feed.whenDelivered(last, 10_000);
    await waitFor(() => late!.m.state?.seq === last && early.m.state?.seq === last, 5000, 'the mirrors to reach the last event');

    const published = feed.publicState();
    expect(late!.m.state).toEqual(published);
    expect(early.m.state).toEqual(published);
    // The late mirror took exactly one snapshot (the retained one); everything after came from event patches.
    expect(late!.m.stats.snapshots).toBe(1);
    expect(late!.m.stats.applied).toBeGreaterThan(events.length - joinAt - 5);
    expect(late!.m.stats.patchFailures).toBe(0);
    // The state is the real game: the bridge deal ended with 13 tricks.
    expect(published.deal?.board).toBe(2);
    expect(published.deal?.status).toBe('ended');
    expect(published.deal!.tricksWon!.NS + published.deal!.tricksWon!.EW).toBe(13);
    expect(late!.m.status).toBe('online');
    // Events after the join arrived once each, in order.
    expect(late!.m.arrivals).toEqual([...late!.m.arrivals].sort((x, y) => x - y));
    // MQTT 5 properties: content type and schema version.
    const p = early.props.get(early.m.topics.event) as { contentType?: string; userProperties?: Record<string, string> };
    expect(p.contentType).toBe('application/json');
    expect(p.userProperties).toMatchObject({ schemaVersion: '1', contentType: 'application/json', kind: 'event' });
    // The public topics never carried the renounce alert of deal 1; the director topic did (checked in the ACL test).
    expect(early.m.events.flatMap((e) => e.findings).map((f) => f.kind)).not.toContain('renounce-in-error');
  });

  it('announces offline through the last will on a dropped connection, then online with the state again', async () => {
    const club = uid('c'), table = uid('t');
    const { feed, source } = await startFeed(club, table);
    const events = sessionEvents(7).slice(0, 20);
    for (const e of events) source.append(e);
    feed.notify();
    await feed.whenDelivered(20, 5000);

    const watcher = await mirrorClient(club, table);
    const statuses: string[] = [];
    const states: number[] = [];
    watcher.c.on('message', (topic, payload) => {
      if (topic === watcher.m.topics.status) statuses.push(payload.toString());
      if (topic === watcher.m.topics.state) states.push(JSON.parse(payload.toString()).rev);
    });
    await watcher.c.subscribeAsync(watcher.m.subscriptions(), { qos: 1 });
    await waitFor(() => statuses.length >= 1 && states.length >= 1, 3000, 'the retained status and state');
    expect(statuses).toEqual(['online']);

    // Cut the TCP connection under the feed, as a Wi-Fi drop would: the broker publishes the will.
    (feed as unknown as { client: MqttClient }).client.stream.destroy();
    await waitFor(() => statuses.includes('offline'), 5000, 'the last will');
    await waitFor(() => statuses[statuses.length - 1] === 'online' && states.length >= 2, 5000, 'online and the state again');
    expect(statuses).toEqual(['online', 'offline', 'online']);
    expect(feed.stats.connects).toBeGreaterThanOrEqual(2);
    await sleep(100);
    expect(watcher.m.state).toEqual(feed.publicState());
  });

  it('resumes after a daemon restart from the delivery mark: nothing re-sent, nothing skipped', async () => {
    const club = uid('c'), table = uid('t');
    const events = sessionEvents(11).slice(0, 60);
    const source = new MemoryEventSource();
    const mark = new MemoryDeliveryMark();
    const watcher = await mirrorClient(club, table);
    await watcher.c.subscribeAsync(watcher.m.subscriptions(), { qos: 1 });

    const first = new Feed({ url: URL, club, table, source, mark, reconnectPeriod: 200 });
    await first.start();
    await waitFor(() => first.connected, 5000, 'the first feed');
    for (const e of events.slice(0, 30)) source.append(e);
    first.notify();
    await first.whenDelivered(30, 5000);
    await first.stop();

    // The daemon was down while the table went on: ten more events reached the journal.
    for (const e of events.slice(30, 40)) source.append(e);
    const { feed: second } = await startFeed(club, table, { source, mark });
    for (const e of events.slice(40)) source.append(e);
    second.notify();
    await second.whenDelivered(60, 5000);
    await waitFor(() => watcher.m.state?.seq === 60, 5000, 'the mirror to follow the restarted feed');

    expect(mark.history).toEqual(events.map((e) => e.seq));
    expect(second.stats.delivered).toBe(30);
    expect(watcher.m.arrivals).toEqual(events.map((e) => e.seq));
    expect(watcher.m.state).toEqual(second.publicState());
    expect(watcher.m.state?.epoch).not.toBe(first.publicState().epoch);
    // The restored snapshot is the same game as an uninterrupted run.
    const uninterrupted = new Projector();
    for (const e of events) uninterrupted.apply(e);
    const { epoch: _a, rev: _b, ...expected } = uninterrupted.publicState();
    const { epoch: _c, rev: _d, ...actual } = second.publicState();
    expect(actual).toEqual(expected);
  });
});
