// The feed's memory (issue 8): mqtt.js must not make mqtt-packet build its cache of 65,536 packet-id Buffers, 6 MB
// of a daemon's heap on a Pi Zero.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Feed, MemoryDeliveryMark, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import { client, sleep, uid, waitFor } from './broker.js';

const URL = 'mqtt://127.0.0.1:1883';

describe('the feed\'s memory', () => {
  it('publishes QoS 1 packets without mqtt-packet\'s cache of packet-id Buffers', async () => {
    const club = uid('c');
    const table = uid('t');
    const feed = new Feed({ url: URL, club, table, source: new MemoryEventSource(), mark: new MemoryDeliveryMark() });
    const numbers = createRequire(import.meta.url)('mqtt-packet/numbers') as { cache: Record<number, Buffer> };
    // No other client in this file has written yet: the feed's first write decides whether the cache is built.
    expect(Object.keys(numbers.cache)).toHaveLength(0);
    await feed.start();
    await waitFor(() => feed.connected, 5000, 'the feed to connect');
    await sleep(300);
    let sub: Awaited<ReturnType<typeof client>> | null = null;
    try {
      expect(Object.keys(numbers.cache)).toHaveLength(0);
      // The retained `online` went out with QoS 1, so a packet id was written meanwhile.
      sub = await client(URL);
      let online = false;
      sub.on('message', (_t, p) => { if (p.toString() === 'online') online = true; });
      await sub.subscribeAsync(`tenace/${club}/${table}/status`, { qos: 1 });
      await waitFor(() => online, 5000, 'the feed\'s retained status');
    } finally {
      await feed.stop();
      sub ??= await client(URL);
      for (const t of ['status', 'state', 'director/state']) await sub.publishAsync(`tenace/${club}/${table}/${t}`, '', { qos: 1, retain: true });
      await sub.endAsync();
    }
  });
});
