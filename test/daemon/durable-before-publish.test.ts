// Persist before you acknowledge (DESIGN §1, issue 20 goal 3): the daemon publishes a card's `event` only once that
// event is written and fdatasync'ed in its journal. A Controller (no hardware) on the real Mosquitto (127.0.0.1:1883);
// the test looks at the journal at the moment the feed hands each `event` to mqtt.js.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { createLogger } from '../../src/config/logger.js';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Controller } from '../../src/daemon/controller.js';
import { tableTopics } from '../../src/feed/topics.js';
import type { UnstampedEvent } from '../../src/journal/index.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { uid, waitFor } from '../feed/broker.js';

const URL = 'mqtt://127.0.0.1:1883';
const base = mkdtempSync(join(tmpdir(), 'tenace-durable-'));
const noWatchdog = { enabled: false, intervalMs: undefined, ready() {}, status() {}, ping() {}, stop: async () => {} };
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('durable before published', () => {
  it('each event is in the journal file and flushed when the feed publishes it (fsync: always)', async () => {
    const club = uid('db'), id = uid('dt');
    const topics = tableTopics(club, id);
    const yaml = `club: { id: ${club} }\ntable: { id: ${id} }\njournal: { dir: ${JSON.stringify(join(base, id))}, fsync: always }\nmqtt: { url: ${JSON.stringify(URL)} }\nhttp: { port: 0, host: 127.0.0.1 }\nfeed: { embargo: live }\n`;
    const parsed = parseConfig(yaml, { env: {} });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const controller = new Controller({ config: parsed.config, log: createLogger({ log: { level: 'silent' } }), watchdog: noWatchdog });
    await controller.start();
    try {
      await waitFor(() => controller.feed?.connected === true, 10_000, 'the feed to connect');
      const client = (controller.feed as unknown as { client: MqttClient }).client;
      // At each `event` publish: the seq, whether its line is in the file, and how many flushes the journal had made.
      const seen: { seq: number; inFile: boolean; fsyncs: number }[] = [];
      const publish = client.publish.bind(client) as (...a: unknown[]) => MqttClient;
      (client as unknown as { publish: (...a: unknown[]) => MqttClient }).publish = (topic: unknown, payload: unknown, ...rest: unknown[]) => {
        if (topic === topics.event) {
          const seq = (JSON.parse(String(payload)) as { seq: number }).seq;
          const lines = readFileSync(controller.journal.path, 'utf8').split('\n').filter(Boolean);
          seen.push({ seq, inFile: lines.some((l) => (JSON.parse(l) as { seq: number }).seq === seq), fsyncs: controller.journal.stats.fsyncs });
        }
        return publish(topic, payload, ...rest);
      };
      const events = simulateDeal(createRng(5), { variant: 'bridge', board: 1, withHands: true }).events.slice(0, 12);
      const fsyncs0 = controller.journal.stats.fsyncs;
      for (const e of events) {
        const { seq: _s, at: _a, ...ev } = e as typeof e & { seq?: number; at?: string };
        void controller.ingest(ev as UnstampedEvent);
      }
      const last = await controller.ingest({ type: 'director-call', reason: 'end of the test' });
      await waitFor(() => seen.some((s) => s.seq === last.seq), 10_000, `the event of seq ${last.seq} to be published`);
      expect(seen.length).toBe(events.length + 1);
      for (const [i, s] of seen.entries()) {
        expect(s.inFile, `seq ${s.seq} in the journal file before its publish`).toBe(true);
        // One write and one fdatasync an event with fsync: always, made before the event goes out.
        expect(s.fsyncs - fsyncs0, `flushes made before seq ${s.seq} was published`).toBeGreaterThanOrEqual(i + 1);
      }
    } finally {
      await controller.stop();
    }
  }, 30_000);
});
