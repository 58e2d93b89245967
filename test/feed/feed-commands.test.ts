// (d) Commands over MQTT on the real Mosquitto at 127.0.0.1:1883: malformed ones get a clear error response and
// nothing is applied; valid ones reach the handler once (a repeated transaction is answered, not re-applied; its id
// reused for another body is refused).
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedCommand } from '../../src/feed/commands.js';
import { CommandRejected, Feed, MemoryDeliveryMark, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { client, sleep, uid, waitFor } from './broker.js';

const URL = 'mqtt://127.0.0.1:1883';
const club = uid('c'), table = uid('t');
let feed: Feed;
let source: MemoryEventSource;
let sender: MqttClient;
const calls: FeedCommand[] = [];
const responses = new Map<string, { payload: Record<string, unknown>; correlation?: string }[]>();

beforeAll(async () => {
  source = new MemoryEventSource();
  const sim = simulateDeal(createRng(3), { variant: 'duplicate-whist', board: 4, withHands: true });
  sim.events.slice(0, 20).forEach((e, i) => source.append({ ...e, seq: i + 1 }));
  feed = new Feed({
    url: URL, club, table, source, mark: new MemoryDeliveryMark(), reconnectPeriod: 200,
    // A handler like the daemon's: journal the command as an event, then let the feed publish it.
    onCommand: async (c) => {
      calls.push(c);
      if (c.name === 'undo-misread' && c.params.seq > source.events.length) throw new CommandRejected(`seq: no event ${c.params.seq} in this session; give the seq of the misread event`);
      if (c.name === 'claim') {
        const seq = source.events.length + 1;
        source.append({ type: 'claim', seat: c.params.seat, tricks: c.params.tricks, seq });
        feed.notify();
        return { seq };
      }
      return { noted: c.name };
    },
  });
  await feed.start();
  await waitFor(() => feed.connected, 5000, 'the feed');
  await feed.whenDelivered(20, 5000);
  sender = await client(URL);
  sender.on('message', (topic, p, packet) => {
    const body = JSON.parse(p.toString()) as Record<string, unknown>;
    const key = `${topic.split('/').pop()}:${String(body.transaction)}`;
    const corr = packet.properties?.correlationData?.toString();
    responses.set(key, [...(responses.get(key) ?? []), { payload: body, correlation: corr }]);
  });
  await sender.subscribeAsync(feed.topics.response('+'), { qos: 1 });
  // The feed subscribes to its requests right after connecting; give the SUBACK a moment.
  await sleep(200);
}, 20_000);

afterAll(async () => {
  await feed?.stop();
  const c = await client(URL);
  for (const t of [feed.topics.status, feed.topics.state, feed.topics.directorState]) await c.publishAsync(t, '', { qos: 1, retain: true });
  await c.endAsync();
  await sender?.endAsync();
});

async function ask(cmd: string, payload: string, key: string, props?: { correlationData: Buffer }) {
  await sender.publishAsync(feed.topics.request(cmd), payload, { qos: 1, ...(props ? { properties: props } : {}) });
  await waitFor(() => responses.has(key), 3000, `a response to ${key}`);
  return responses.get(key)!;
}

describe('commands over MQTT', () => {
  it('answers malformed commands with "<field>: <fix>" and applies nothing', async () => {
    const state = JSON.stringify(feed.publicState());
    const malformed: [cmd: string, payload: string, key: string, error: RegExp][] = [
      ['claim', '{"transaction":"m1","seat":"N"', 'claim:null', /^payload: is not valid JSON/],
      ['claim', '{"transaction":"m2","seat":"X","tricks":2}', 'claim:m2', /^seat: is not allowed; use one of N, E, S, W$/],
      ['claim', '{"transaction":"m3","seat":"N","tricks":99}', 'claim:m3', /^tricks: must be <= 13; /],
      ['remedy', '{"transaction":"m4","by":"E","remedy":"call-suit"}', 'remedy:m4', /^suit: is missing; use one of S, H, D, C$/],
      ['start-deal', '{"transaction":"m5","board":"seven"}', 'start-deal:m5', /^board: must be an integer; give the board number/],
      ['set-contract', '{"transaction":"m6","contract":"9ZQ"}', 'set-contract:m6', /^contract: "9ZQ" is not a contract/],
      ['undo-misread', '{"transaction":"m7"}', 'undo-misread:m7', /^seq: is missing/],
      ['abandon-deal', '{"transaction":"m8","why":"x"}', 'abandon-deal:m8', /^why: is not a field of abandon-deal; remove it/],
      ['launch', '{"transaction":"m9"}', 'launch:m9', /^command: "launch" is not a command; use one of start-deal/],
    ];
    for (const [cmd, payload, key, error] of malformed) {
      const [r] = await ask(cmd, payload, key);
      expect(r.payload.ok, key).toBe(false);
      expect(r.payload.error, key).toMatch(error);
    }
    expect(feed.stats.malformedCommands).toBe(malformed.length);
    expect(calls).toHaveLength(0);
    expect(source.events).toHaveLength(20);
    await sleep(100);
    expect(JSON.stringify(feed.publicState())).toBe(state);
  });

  it('passes a valid command to the handler once and sends its result back, with the correlation data', async () => {
    const corr = Buffer.from('corr-42');
    const [r] = await ask('claim', '{"transaction":"c1","seat":"S","tricks":4}', 'claim:c1', { correlationData: corr });
    expect(r.payload).toEqual({ transaction: 'c1', ok: true, seq: 21 });
    expect(r.correlation).toBe('corr-42');
    expect(calls.map((c) => c.name)).toEqual(['claim']);
    await feed.whenDelivered(21, 3000);
    expect(feed.publicState().deal?.status).toBe('ended');

    // The same transaction again (a client retrying, a QoS 1 redelivery): the same answer, nothing applied twice.
    await sender.publishAsync(feed.topics.request('claim'), '{"transaction":"c1","seat":"S","tricks":4}', { qos: 1 });
    await waitFor(() => responses.get('claim:c1')!.length === 2, 3000, 'the repeated answer');
    expect(responses.get('claim:c1')![1].payload).toEqual(r.payload);
    expect(calls).toHaveLength(1);
    expect(source.events).toHaveLength(21);
    expect(feed.stats.duplicateCommands).toBe(1);
  });

  it('refuses a transaction id reused with another body, naming it, and applies nothing (issue 12 item 5)', async () => {
    // c1 was a claim S 4 (the test above): the same id for claim N 2 and for another command are both refused.
    const before = { calls: calls.length, events: source.events.length, refused: feed.stats.commandsRefused };
    await sender.publishAsync(feed.topics.request('claim'), '{"transaction":"c1","seat":"N","tricks":2}', { qos: 1 });
    await waitFor(() => responses.get('claim:c1')!.length === 3, 3000, 'the answer to the reused id');
    expect(responses.get('claim:c1')![2].payload).toEqual({
      transaction: 'c1', ok: false,
      error: 'transaction: "c1" was already used for another command (claim, journaled as seq 21); send this command with a new transaction id, or repeat the first one unchanged to get its answer again',
    });
    const [r] = await ask('abandon-deal', '{"transaction":"c1"}', 'abandon-deal:c1');
    expect(r.payload).toMatchObject({ transaction: 'c1', ok: false, error: expect.stringMatching(/^transaction: "c1" was already used/) });
    expect(calls).toHaveLength(before.calls);
    expect(source.events).toHaveLength(before.events);
    expect(feed.stats.commandsRefused).toBe(before.refused + 2);
  });

  it('binds no id to a refused command: the same id, corrected, is applied', async () => {
    const [r] = await ask('undo-misread', '{"transaction":"fix","seq":600}', 'undo-misread:fix');
    expect(r.payload).toMatchObject({ transaction: 'fix', ok: false });
    await sender.publishAsync(feed.topics.request('undo-misread'), '{"transaction":"fix","seq":3}', { qos: 1 });
    await waitFor(() => responses.get('undo-misread:fix')!.length === 2, 3000, 'the corrected command');
    expect(responses.get('undo-misread:fix')![1].payload).toEqual({ transaction: 'fix', ok: true, noted: 'undo-misread' });
  });

  it("sends the handler's refusal back as ok:false", async () => {
    const [r] = await ask('undo-misread', '{"transaction":7,"seq":500}', 'undo-misread:7');
    expect(r.payload).toEqual({ transaction: 7, ok: false, error: 'seq: no event 500 in this session; give the seq of the misread event' });
    expect(feed.stats.commandsRefused).toBe(4);
  });
});
