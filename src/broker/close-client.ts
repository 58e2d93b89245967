// Closing an mqtt.js client without hanging. `end(false)` waits until every QoS 1 message in flight is acknowledged,
// and it stops reconnecting first, so a client that has lost its broker (or been taken over by its own client id)
// would wait for ever, and a later end(true) is ignored. Wait a bounded time, then close by force; what was not
// acknowledged is still in the journal or the store and is sent again after the restart.
import type { MqttClient } from 'mqtt';

/** Reject with a timeout error if `p` has not settled within `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e: unknown) => { clearTimeout(t); reject(e as Error); });
  });
}

/** Close `client` once what is in flight is acknowledged, or by force after `graceMs` or when the broker is gone. */
export async function closeClient(client: MqttClient, graceMs = 2000): Promise<void> {
  const pending = (): boolean => Object.keys(client.outgoing).length > 0;
  // Wait here rather than in end(false): once end() has begun, a later end(true) is ignored. mqtt.js says when the
  // window empties only while it is ending, so look every 10 ms.
  const until = Date.now() + graceMs;
  while (client.connected && pending() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  await client.endAsync(!client.connected || pending());
}
