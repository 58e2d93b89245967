// closeClient must stop a client in bounded time whatever its broker does: mqtt.js's end(false) waits for every QoS 1
// acknowledgement, for ever when the broker is gone or has handed the client id to another connection (the director
// test that hung CI's clean-up for 30 s).
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { closeClient } from '../../src/broker/close-client.js';
import { type Broker, startBroker, uid, waitFor } from '../feed/broker.js';

const brokers: Broker[] = [];
afterEach(async () => { for (const b of brokers.splice(0)) await b.dispose(); });

async function broker(): Promise<Broker> {
  const b = await startBroker('listener {port} 127.0.0.1\nallow_anonymous true\n');
  brokers.push(b);
  return b;
}

describe('closeClient', () => {
  it('closes a client whose id another connection took over, with a QoS 1 message queued', async () => {
    const b = await broker();
    const id = uid('taken-');
    const c = await mqtt.connectAsync(b.url, { clientId: id, protocolVersion: 5, reconnectPeriod: 60_000 });
    const thief = await mqtt.connectAsync(b.url, { clientId: id, protocolVersion: 5, reconnectPeriod: 0 });
    await waitFor(() => !c.connected, 5000, 'the takeover');
    void c.publishAsync('t/x', 'queued', { qos: 1 }).catch(() => undefined);
    expect(Object.keys(c.outgoing).length).toBeGreaterThan(0);
    await closeClient(c, 500);
    expect(c.disconnected).toBe(true);
    await thief.endAsync();
  });

  it('closes a connected client whose broker stopped answering, after the grace period', async () => {
    const b = await broker();
    const c = await mqtt.connectAsync(b.url, { clientId: uid('stalled-'), protocolVersion: 5, reconnectPeriod: 0 });
    const pid = b.pid()!;
    process.kill(pid, 'SIGSTOP');
    try {
      void c.publishAsync('t/x', 'unacknowledged', { qos: 1 }).catch(() => undefined);
      expect(c.connected).toBe(true);
      await closeClient(c, 300);
      expect(c.disconnected).toBe(true);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });

  it('waits for the acknowledgement when the broker answers', async () => {
    const b = await broker();
    const c = await mqtt.connectAsync(b.url, { clientId: uid('ok-'), protocolVersion: 5, reconnectPeriod: 0 });
    let acked = false;
    void c.publishAsync('t/x', 'fine', { qos: 1 }).then(() => { acked = true; });
    await closeClient(c, 5000);
    expect(acked).toBe(true);
  });
});
