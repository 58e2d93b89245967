// The floor the club and championship benchmarks measure their card-to-standings path against: a message relayed
// through the broker(s) by a bare mqtt.js client, with no work in between.
import { performance } from 'node:perf_hooks';
import mqtt from 'mqtt';

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

export interface FloorOptions {
  /** Brokers the messages are published at, in turn (the rooms; or the one broker). */
  publishAt: string[];
  /** Broker of the relay client and the subscriber. */
  relayAt: string;
  n: number;
  /** Names the clients and topics (`tenace-bench/<name>-floor/...`, which the rooms' bridges carry). */
  name: string;
  tag: string;
  /** Wait after subscribing before the first message (bridges subscribe at the centre on their own schedule). */
  settleMs?: number;
}

/** Publish → relay client → subscriber, `n` messages; returns the latencies received, in ms, sorted. */
export async function floorLatencies(o: FloorOptions): Promise<number[]> {
  const opts = { protocolVersion: 5 as const };
  const pubs = await Promise.all(o.publishAt.map((url, i) => mqtt.connectAsync(url, { ...opts, clientId: `tenace-bench-${o.name}-pub${i}-${o.tag}` })));
  const [relay, sub] = await Promise.all(['relay', 'sub'].map((k) => mqtt.connectAsync(o.relayAt, { ...opts, clientId: `tenace-bench-${o.name}-${k}-${o.tag}` })));
  // The feed and the director turn Nagle off on their sockets (mqtt.js does not): so does the floor, or it measures
  // delayed ACKs instead of the broker.
  for (const c of [...pubs, relay, sub]) (c.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
  const a = `tenace-bench/${o.name}-floor/${o.tag}/a`;
  const b = `tenace-bench/${o.name}-floor/${o.tag}/b`;
  relay.on('message', (_t, payload) => { relay.publish(b, payload, { qos: 1 }); });
  await relay.subscribeAsync(a, { qos: 1 });
  const got: number[] = [];
  sub.on('message', (_t, payload) => { got.push(performance.now() - Number(payload.toString())); });
  await sub.subscribeAsync(b, { qos: 1 });
  if (o.settleMs) await sleep(o.settleMs);
  for (let i = 0; i < o.n; i++) {
    pubs[i % pubs.length].publish(a, String(performance.now()), { qos: 1 });
    await sleep(5);
  }
  const t0 = Date.now();
  while (got.length < o.n && Date.now() - t0 < 10_000) await sleep(20);
  await Promise.all([...pubs, relay, sub].map((c) => c.endAsync()));
  return got.sort((x, y) => x - y);
}
