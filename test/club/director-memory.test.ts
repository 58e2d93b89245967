// The director's memory (issue 8, as for the table's feed): mqtt.js must not make mqtt-packet build its cache of
// 65,536 packet-id Buffers, 6 MB of the director's heap. This file runs no other MQTT client before the assertion:
// the first QoS 1 write in the process decides whether the cache is built.
import { createRequire } from 'node:module';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore } from '../../src/club/director/store.js';
import type { RoundAssignment } from '../../src/club/types.js';
import { sleep, uid, waitFor } from '../feed/broker.js';
import { BROKER, SCHEDULE, quietLog, testConfig } from './director-rig.js';
import { freshDb } from './store-engines.js';

describe('the director\'s memory', () => {
  it('publishes its QoS 1 assignments without mqtt-packet\'s cache of packet-id Buffers', async () => {
    const numbers = createRequire(import.meta.url)('mqtt-packet/numbers') as { cache: Record<number, Buffer> };
    expect(Object.keys(numbers.cache)).toHaveLength(0);
    const club = uid('mem');
    const db = await freshDb('sqlite');
    const store = await DirectorStore.open(db.url);
    const s = new DirectorService({ config: testConfig(club, db.url), log: quietLog, schedule: SCHEDULE, store, web: false });
    try {
      await s.start();
      // The assignments are published retained at QoS 1 once the director is up.
      await waitFor(() => s.snapshot().tables.every((t) => t.round === 1), 10_000, 'the round 1 assignments');
      // Published after their commit: give the writes time to go out (checked below).
      await sleep(1000);
      expect(Object.keys(numbers.cache)).toHaveLength(0);
    } finally {
      await s.stop();
      await store.close();
    }
    // They did go out: read one back (this client may build the cache now), then clear what the test left.
    const c = await mqtt.connectAsync(BROKER, { protocolVersion: 5, clientId: uid('mem-check-') });
    let got: RoundAssignment | undefined;
    c.on('message', (_t, p) => { if (p.length > 0) got = JSON.parse(p.toString()) as RoundAssignment; });
    await c.subscribeAsync(`tenace/${club}/1/assignment`, { qos: 1 });
    await waitFor(() => got !== undefined, 5000, 'the retained assignment of table 1');
    expect(got).toMatchObject({ type: 'tenace.assignment', round: 1, table: '1' });
    for (const t of ['1', '2']) await c.publishAsync(`tenace/${club}/${t}/assignment`, '', { qos: 1, retain: true });
    await (await mqtt.connectAsync(BROKER, { clientId: s.clientId, clean: true, protocolVersion: 5 })).endAsync();
    await c.endAsync();
    await db.drop();
  }, 30_000);
});
