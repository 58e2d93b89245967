// The embedded broker of `tenace simulate` (aedes) speaks MQTT 3.1.1 only: the feed must work there with
// protocolVersion 4, and say clearly why it cannot connect with MQTT 5.
import { describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../src/broker/embedded.js';
import { Feed, MemoryDeliveryMark, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import { TableMirror } from '../../src/feed/subscriber.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { client, sleep, waitFor } from './broker.js';

describe('feed on the embedded aedes broker', () => {
  it('publishes with MQTT 3.1.1 and a mirror follows it', async () => {
    const broker = await startEmbeddedBroker();
    const source = new MemoryEventSource();
    const feed = new Feed({ url: broker.url, club: 'demo', table: 't1', source, mark: new MemoryDeliveryMark(), protocolVersion: 4, reconnectPeriod: 200 });
    const sub = await client(broker.url, { protocolVersion: 4 });
    try {
      const m = new TableMirror('demo', 't1');
      sub.on('message', (t, p) => m.handle(t, p));
      await sub.subscribeAsync(m.subscriptions(), { qos: 1 });
      await feed.start();
      await waitFor(() => feed.connected, 5000, 'the feed on aedes');
      const sim = simulateDeal(createRng(1), { variant: 'duplicate-whist', board: 1, withHands: true, firstSeq: 1 });
      for (const e of sim.events) source.append(e);
      feed.notify();
      const last = sim.events[sim.events.length - 1].seq!;
      await feed.whenDelivered(last, 10_000);
      await waitFor(() => m.state?.seq === last, 5000, 'the mirror');
      expect(m.state).toEqual(feed.publicState());
      expect(m.status).toBe('online');
    } finally {
      await sub.endAsync();
      await feed.stop();
      await broker.close();
    }
  });

  it('logs the refusal of MQTT 5 by aedes and keeps retrying instead of crashing', async () => {
    const broker = await startEmbeddedBroker();
    const errors: string[] = [];
    const feed = new Feed({
      url: broker.url, club: 'demo', table: 't1', source: new MemoryEventSource(), mark: new MemoryDeliveryMark(), reconnectPeriod: 100,
      logger: { debug() {}, info() {}, warn() {}, error: (o) => errors.push(JSON.stringify(o)) },
    });
    try {
      await feed.start();
      await sleep(400);
      expect(feed.connected).toBe(false);
      expect(errors.some((e) => /protocol version/i.test(e))).toBe(true);
    } finally {
      await feed.stop();
      await broker.close();
    }
  });
});
