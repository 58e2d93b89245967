// An event's messages (the director's copy on director/event, then the public event) go out back to back and are
// awaited together (issue 20, card to subscriber): the card's public event does not wait a round trip for the
// director's copy's PUBACK, and the delivery mark still waits for both.
import { describe, expect, it, vi } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { TableEvent } from '../../src/formats/table-log.js';
import { type DeliveryMark, Feed, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { client, uid, waitFor } from './broker.js';

const BROKER = 'mqtt://127.0.0.1:1883';

function dealEvents(seed: number): TableEvent[] {
  const sim = simulateDeal(createRng(seed), { variant: 'duplicate-whist', board: 3, withHands: true });
  return sim.events.map((e, i) => ({ ...e, seq: i + 1, at: new Date(Date.UTC(2024, 5, 1, 20, 0, i)).toISOString() }));
}

class RecordingMark implements DeliveryMark {
  readonly asked: number[] = [];
  get(): number {
    return -1;
  }
  async set(seq: number): Promise<void> {
    this.asked.push(seq);
  }
}

describe('an event\'s messages go out back to back', () => {
  it('the public event reaches a subscriber while the director\'s copy is still unacknowledged; the mark waits for both', async () => {
    const club = uid('c'), table = uid('t');
    const source = new MemoryEventSource();
    const mark = new RecordingMark();
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const feed = new Feed({ url: BROKER, club, table, source, mark, logger: log, session: 's1', directorEvents: true });
    const sub = await client(BROKER);
    try {
      const events: number[] = [];
      const copies: number[] = [];
      sub.on('message', (t, p) => {
        const m = JSON.parse(p.toString()) as { seq: number };
        (t.endsWith('/director/event') ? copies : events).push(m.seq);
      });
      await sub.subscribeAsync([`tenace/${club}/${table}/event`, `tenace/${club}/${table}/director/event`], { qos: 1 });
      await feed.start();
      await waitFor(() => feed.connected, 5000, 'the feed to connect');
      // Hold the feed's view of the director copy's PUBACK: the broker has it, the feed is not told until released.
      const c = (feed as unknown as { client: MqttClient }).client;
      const publishAsync = c.publishAsync.bind(c);
      const held: (() => void)[] = [];
      c.publishAsync = ((topic: string, message: string, opts: object) => {
        const sent = publishAsync(topic, message, opts as never);
        if (!topic.endsWith('/director/event')) return sent;
        return sent.then((r) => new Promise((resolve) => held.push(() => resolve(r))));
      }) as MqttClient['publishAsync'];

      source.append(dealEvents(7)[0]);
      feed.notify();
      await waitFor(() => events.length === 1 && copies.length === 1, 5000, 'both messages at the subscriber');
      expect(held, 'the director copy\'s acknowledgement is still held').toHaveLength(1);
      expect(events).toEqual([1]);
      await new Promise((r) => setTimeout(r, 50));
      expect(mark.asked, 'no mark before both are acknowledged').toEqual([]);
      expect(feed.stats.delivered).toBe(0);
      held.shift()!();
      await feed.whenDelivered(1, 2000);
      expect(mark.asked).toEqual([1]);
      c.publishAsync = publishAsync;
    } finally {
      await feed.stop();
      await sub.endAsync();
    }
  });
});
