// The delivery mark is written behind the outbox (issue 20): it is the next start's bookmark, and one that lags only
// makes events be sent again after a restart, which subscribers drop by seq. So the next event's publish does not wait
// for the mark's write (an append and a flush on the table's SD card), a failed write is said once and tried again at
// the next event, and a clean stop leaves the mark at the last event acknowledged.
import { describe, expect, it, vi } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import { type DeliveryMark, Feed, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { client, uid, waitFor } from './broker.js';

const BROKER = 'mqtt://127.0.0.1:1883';

function dealEvents(seed: number): TableEvent[] {
  const sim = simulateDeal(createRng(seed), { variant: 'duplicate-whist', board: 2, withHands: true });
  return sim.events.map((e, i) => ({ ...e, seq: i + 1, at: new Date(Date.UTC(2024, 5, 1, 20, 0, i)).toISOString() }));
}

/** A mark whose writes finish only when the test lets them (a slow flush), or fail while `failing` is set. */
class HeldMark implements DeliveryMark {
  durable = -1;
  readonly asked: number[] = [];
  failing = false;
  private readonly held: (() => void)[] = [];
  get(): number {
    return this.durable;
  }
  set(seq: number): Promise<void> {
    this.asked.push(seq);
    if (this.failing) return Promise.reject(new Error('ENOSPC: no space left on device'));
    return new Promise((resolve) => this.held.push(() => { this.durable = Math.max(this.durable, seq); resolve(); }));
  }
  release(): void {
    for (const r of this.held.splice(0)) r();
  }
}

describe('the delivery mark, written behind the outbox', () => {
  it('the next events go out while the mark\'s first write is still held; stop() waits for the mark', async () => {
    const club = uid('c'), table = uid('t');
    const source = new MemoryEventSource();
    const mark = new HeldMark();
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const feed = new Feed({ url: BROKER, club, table, source, mark, logger: log });
    const sub = await client(BROKER);
    try {
      const seen: number[] = [];
      sub.on('message', (_t, p) => seen.push((JSON.parse(p.toString()) as { seq: number }).seq));
      await sub.subscribeAsync(`tenace/${club}/${table}/event`, { qos: 1 });
      await feed.start();
      await waitFor(() => feed.connected, 5000, 'the feed to connect');
      const events = dealEvents(5).slice(0, 5);
      for (const e of events) source.append(e);
      feed.notify();
      // Before, each event's publish waited for the mark of the one before: only the first would arrive.
      await waitFor(() => seen.length === 5, 5000, 'all five events while the mark is held');
      expect(seen).toEqual([1, 2, 3, 4, 5]);
      expect(mark.durable, 'nothing written yet').toBe(-1);
      await feed.whenDelivered(5, 1000);
      expect(mark.asked, 'asked for each event, in order').toEqual([1, 2, 3, 4, 5]);
      const stopped = feed.stop();
      let done = false;
      void stopped.then(() => { done = true; });
      await new Promise((r) => setTimeout(r, 50));
      expect(done, 'stop() waits for the mark').toBe(false);
      mark.release();
      await stopped;
      expect(mark.durable).toBe(5);
    } finally {
      await feed.stop();
      await sub.endAsync();
    }
  });

  it('a mark that cannot be written is said once, delivery goes on, and the next event writes it again', async () => {
    const club = uid('c'), table = uid('t');
    const source = new MemoryEventSource();
    const mark = new HeldMark();
    mark.failing = true;
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const feed = new Feed({ url: BROKER, club, table, source, mark, logger: log });
    try {
      await feed.start();
      await waitFor(() => feed.connected, 5000, 'the feed to connect');
      const events = dealEvents(6);
      for (const e of events.slice(0, 4)) source.append(e);
      feed.notify();
      await feed.whenDelivered(4, 5000);
      await waitFor(() => mark.asked.length === 4, 2000, 'four advances');
      const said = log.error.mock.calls.filter(([, msg]) => String(msg).includes('cannot write the delivery mark'));
      expect(said, 'one line for four failures').toHaveLength(1);
      expect(said[0][0]).toMatchObject({ err: 'ENOSPC: no space left on device' });
      mark.failing = false;
      source.append(events[4]);
      feed.notify();
      await feed.whenDelivered(5, 5000);
      mark.release();
      await waitFor(() => mark.durable === 5, 2000, 'the mark written again');
      await waitFor(() => log.info.mock.calls.some(([, msg]) => String(msg).includes('written again')), 2000, 'the recovery said');
    } finally {
      await feed.stop();
    }
  });
});
