// (b) The broker dies mid-deal and comes back: the journal is the outbox, so every event arrives, in order after
// de-duplication by seq, and the retained state is fresh. Runs its own mosquitto on a free port.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, describe, it } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import { Feed, MemoryDeliveryMark, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import type { PublicState } from '../../src/feed/projection.js';
import { TableMirror } from '../../src/feed/subscriber.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { type Broker, client, sleep, startBroker, uid, waitFor } from './broker.js';

// The tests run concurrently: each registers its clean-ups and asserts through its own context.
type Ctx = Pick<TestContext, 'onTestFinished'>;

function cleanup(ctx: Ctx, fn: () => Promise<unknown>): void {
  ctx.onTestFinished(async () => { await fn().catch(() => {}); });
}

function dealEvents(seed: number): TableEvent[] {
  const sim = simulateDeal(createRng(seed), { variant: 'duplicate-whist', board: 3, withHands: true, renounceAt: { trick: 6 } });
  return sim.events.map((e, i) => ({ ...e, seq: i + 1, at: new Date(Date.UTC(2024, 5, 1, 20, 0, i)).toISOString() }));
}

async function ownBroker(ctx: Ctx, persistence: boolean): Promise<Broker> {
  const conf = [
    'listener {port} 127.0.0.1',
    'allow_anonymous true',
    persistence ? 'persistence true\npersistence_location {dir}/\nautosave_interval 1' : 'persistence false',
  ].join('\n');
  const b = await startBroker(conf);
  cleanup(ctx, () => b.dispose());
  return b;
}

/** The retained message of a topic, as a fresh subscriber gets it; throws when there is none. */
async function retained(url: string, topic: string): Promise<string> {
  const c = await client(url);
  try {
    const got = new Promise<string>((resolve) => c.on('message', (_t, p) => resolve(p.toString())));
    await c.subscribeAsync(topic, { qos: 1 });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_r, reject) => { timer = setTimeout(() => reject(new Error(`no retained message on ${topic}`)), 3000); });
    try {
      return await Promise.race([got, timeout]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await c.endAsync();
  }
}

async function retainedState(url: string, topic: string): Promise<PublicState> {
  return JSON.parse(await retained(url, topic)) as PublicState;
}

// Concurrent: each test has its own broker, and the short one runs during the long one's ten seconds of outage.
describe.concurrent('broker outage', () => {
  it('delivers every event in order after a 10 s broker crash mid-deal, with a fresh retained state', async (ctx) => {
    const { expect } = ctx;
    const broker = await ownBroker(ctx, true);
    const club = uid('c'), table = uid('t');
    const source = new MemoryEventSource();
    const mark = new MemoryDeliveryMark();
    const feed = new Feed({ url: broker.url, club, table, source, mark, reconnectPeriod: 250, keepalive: 5 });
    await feed.start();
    cleanup(ctx, () => feed.stop());
    await waitFor(() => feed.connected, 5000, 'the feed to connect');

    // A spectator with a persistent session: the broker keeps its subscription (and queues QoS 1 events) while it
    // is away, and restores the session from its database after the crash.
    const mirror = new TableMirror(club, table);
    const sub = await client(broker.url, {
      clientId: uid('spectator-'), clean: false, properties: { sessionExpiryInterval: 600 }, reconnectPeriod: 250,
    });
    cleanup(ctx, () => sub.endAsync(true));
    sub.on('message', (t, p) => mirror.handle(t, p));
    await sub.subscribeAsync(mirror.subscriptions(), { qos: 1 });
    const subscribedAt = Date.now();

    const events = dealEvents(99);
    const half = 50;
    for (const e of events.slice(0, half)) {
      source.append(e);
      feed.notify();
      await sleep(25);
    }
    await feed.whenDelivered(half, 5000);
    await waitFor(() => mirror.state?.seq === half, 5000, 'the mirror to follow the first half');
    // Let mosquitto's autosave (every second) store the spectator's session before the crash: wait for a save of
    // the database that came after the subscription, not for a fixed time (a loaded machine saves late).
    const db = join(broker.dir, 'mosquitto.db');
    await waitFor(() => existsSync(db) && statSync(db).mtimeMs > subscribedAt + 100, 8000, 'an autosave after the subscription');

    await broker.stop('SIGKILL');
    const downAt = Date.now();
    const markAtCrash = mark.get();
    // The table goes on: the rest of the deal is journaled while the broker is down.
    for (const e of events.slice(half)) {
      source.append(e);
      feed.notify();
      await sleep(40);
    }
    await sleep(Math.max(0, 10_000 - (Date.now() - downAt)));
    // Nothing was acknowledged while the broker was away (at most the event in flight at the crash).
    expect(mark.get()).toBeLessThanOrEqual(markAtCrash + 1);
    expect(feed.connected).toBe(false);

    await broker.start();
    const last = events[events.length - 1].seq!;
    await feed.whenDelivered(last, 10_000);
    await waitFor(() => mirror.state?.seq === last && mirror.events.length === events.length, 10_000, 'every event at the spectator');

    // Every event arrived, each counted once, first arrivals in seq order.
    expect(mirror.events.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    expect(mirror.arrivals).toEqual(events.map((e) => e.seq));
    expect(mirror.state).toEqual(feed.publicState());
    // The delivery mark only ever moved forward, one event at a time.
    expect(mark.history).toEqual(events.map((e) => e.seq));
    // A newcomer gets a fresh retained state (the broker's database held the one from before the crash).
    const fresh = await retainedState(broker.url, feed.topics.state);
    expect(fresh).toEqual(feed.publicState());
    expect(fresh.seq).toBe(last);
    expect(fresh.deal?.status).toBe('ended');
    expect(fresh.deal!.tricksWon!.NS + fresh.deal!.tricksWon!.EW).toBe(13);
    expect(feed.stats.connects).toBe(2);
  }, 45_000);

  it('republishes the retained state on every reconnect, also to a broker that lost everything', async (ctx) => {
    const { expect } = ctx;
    const broker = await ownBroker(ctx, false);
    const club = uid('c'), table = uid('t');
    const source = new MemoryEventSource();
    const mark = new MemoryDeliveryMark();
    const feed = new Feed({ url: broker.url, club, table, source, mark, reconnectPeriod: 200 });
    await feed.start();
    cleanup(ctx, () => feed.stop());
    await waitFor(() => feed.connected, 5000, 'the feed to connect');
    for (const e of dealEvents(5).slice(0, 30)) source.append(e);
    feed.notify();
    await feed.whenDelivered(30, 5000);

    // Two restarts without persistence: the retained state is gone each time unless the feed republishes it.
    for (let round = 1; round <= 2; round++) {
      await broker.stop('SIGKILL');
      await waitFor(() => !feed.connected, 5000, 'the feed to notice');
      await broker.start();
      await waitFor(() => feed.stats.connects === round + 1, 5000, `reconnect ${round}`);
      const s = await retainedState(broker.url, feed.topics.state);
      expect(s).toEqual(feed.publicState());
      expect(s.seq).toBe(30);
      const status = await retained(broker.url, feed.topics.status);
      expect(status).toBe('online');
    }
  }, 30_000);
});
