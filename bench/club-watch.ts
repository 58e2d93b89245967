// The club and championship benchmarks' witness, in a process of its own: when each table event reached the broker
// (seen as a subscriber of `<base>/<club>/+/director/event`), and when the retained standings first held each result.
// The tables run in the benchmark's own process, thirty of them on one event loop, so their clocks say when a card
// was journaled, not when the director could have had it; the director's part of card-to-standings is measured here,
// from the event at the broker to the standings at a subscriber, by one idle process with one clock.
//
// Usage: node club-watch.js URL CLUB STANDINGS_TOPIC; prints `ready` once subscribed; when its stdin ends it prints
// one line of JSON, {events: {"table:seq": ms}, scored: {"board:tableNo": ms}}, and exits.
import { performance } from 'node:perf_hooks';
import mqtt from 'mqtt';

import type { WatchTimes } from './watch.js';

async function main(): Promise<void> {
  const [url, club, standings] = process.argv.slice(2);
  const events: Record<string, number> = {};
  const scored: Record<string, number> = {};
  const base = standings.slice(0, standings.indexOf(`/${club}/`));
  const client = await mqtt.connectAsync(url, { protocolVersion: 5, clientId: `tenace-bench-watch-${process.pid}` });
  (client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
  client.on('message', (topic, payload) => {
    const now = performance.now();
    if (topic === standings) {
      if (payload.length === 0) return;
      const r = JSON.parse(payload.toString('utf8')) as { boards?: { board: number; results: { table: number }[] }[] };
      for (const b of r.boards ?? []) for (const x of b.results) scored[`${b.board}:${x.table}`] ??= now;
      return;
    }
    const table = topic.slice(`${base}/${club}/`.length, -'/director/event'.length);
    const seq = (JSON.parse(payload.toString('utf8')) as { seq?: number }).seq;
    if (seq !== undefined) events[`${table}:${seq}`] ??= now;
  });
  // QoS 0: the witness takes no part in the acknowledgements it times.
  await client.subscribeAsync([`${base}/${club}/+/director/event`, standings], { qos: 0 });
  process.stdout.write('ready\n');
  process.stdin.resume();
  process.stdin.on('end', () => {
    // Exit once the line is written: a pipe takes it in pieces, and process.exit would cut it short.
    process.stdout.write(`${JSON.stringify({ events, scored } satisfies WatchTimes)}\n`, () => {
      void client.endAsync().finally(() => process.exit(0));
    });
  });
}

void main();
