// Issue 9 at the table: the score the daemon publishes in its MQTT `state` is kept by the game the club agreed, set in
// the config's `score:` block. Tables on the real Mosquitto (127.0.0.1:1883), each a Controller (no hardware) built
// from a YAML config as `tenace run` builds it; the deals are journaled through the daemon, and the test reads the
// retained `state` as a subscriber does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { createLogger } from '../../src/config/logger.js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadLog } from '../../src/cli/load-log.js';
import { parseConfig } from '../../src/config/load.js';
import { Controller } from '../../src/daemon/controller.js';
import type { PublicState } from '../../src/feed/projection.js';
import { tableTopics } from '../../src/feed/topics.js';
import type { UnstampedEvent } from '../../src/journal/index.js';
import { client, uid, waitFor } from '../feed/broker.js';

const URL = 'mqtt://127.0.0.1:1883';
const base = mkdtempSync(join(tmpdir(), 'tenace-score-config-'));
const noWatchdog = { enabled: false, intervalMs: undefined, ready() {}, status() {}, ping() {}, stop: async () => {} };
const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', 'score', name);

/** The events of a fixture log, unstamped (the daemon's journal numbers them). */
function events(name: string): UnstampedEvent[] {
  const log = loadLog(readFileSync(fixture(name), 'utf8'), name);
  expect(log.errors).toEqual([]);
  return log.events.map(({ seq: _s, at: _a, ...e }) => e as UnstampedEvent);
}

/** The English whist fixture's deals as American whist (`whist`): the same cards, no honours calls (none count). */
function americanEvents(): UnstampedEvent[] {
  return events('english-whist.ndjson').filter((e) => e.type !== 'honours').map((e) => (e.type === 'deal' ? { ...e, variant: 'whist' } : e));
}

interface Run {
  state: PublicState;
  /** A command's answer, as the club layer gets it on response/<cmd>. */
  ask(cmd: string, payload: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  rmSync(base, { recursive: true, force: true });
}, 30_000);

/** A table daemon with `configLines` added to its config: journal `evs`, wait for the `state` of the last one. */
async function table(configLines: string, evs: UnstampedEvent[]): Promise<Run> {
  const club = uid('sc'), id = uid('st');
  const topics = tableTopics(club, id);
  const dir = join(base, id);
  const yaml = `club: { id: ${club} }\ntable: { id: ${id} }\njournal: { dir: ${JSON.stringify(dir)} }\nmqtt: { url: ${JSON.stringify(URL)} }\nhttp: { port: 0, host: 127.0.0.1 }\nfeed: { embargo: live }\n${configLines}`;
  const parsed = parseConfig(yaml, { env: {} });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));

  const sub: MqttClient = await client(URL);
  let state: PublicState | null = null;
  const responses: { cmd: string; payload: Record<string, unknown> }[] = [];
  const prefix = topics.response('');
  sub.on('message', (topic, p) => {
    if (topic === topics.state && p.length > 0) state = JSON.parse(p.toString()) as PublicState;
    else if (topic.startsWith(prefix)) responses.push({ cmd: topic.slice(prefix.length), payload: JSON.parse(p.toString()) as Record<string, unknown> });
  });
  await sub.subscribeAsync([topics.state, topics.response('+')], { qos: 1 });

  const controller = new Controller({ config: parsed.config, log: createLogger({ log: { level: 'silent' } }), watchdog: noWatchdog });
  cleanups.push(async () => {
    await controller.stop();
    for (const t of [topics.status, topics.state, topics.directorState]) await sub.publishAsync(t, '', { qos: 1, retain: true });
    await sub.endAsync();
  });
  await controller.start();
  for (const ev of evs) await controller.ingest(ev);
  const last = controller.journal.lastSeq;
  await waitFor(() => (state as PublicState | null)?.seq === last, 10_000, `the state of seq ${last} on ${topics.state}`);

  return {
    get state() { return state!; },
    async ask(cmd, payload) {
      const from = responses.length;
      await sub.publishAsync(topics.request(cmd), JSON.stringify(payload), { qos: 1 });
      let found: Record<string, unknown> | undefined;
      await waitFor(() => (found = responses.slice(from).find((r) => r.cmd === cmd && r.payload.transaction === payload.transaction)?.payload) !== undefined, 10_000, `a response to ${cmd}`);
      return found!;
    },
  };
}

describe('the config\'s score: block reaches the published state', () => {
  it('"the ordinary 5, 7 or 10 point whist" (seed 001): score.gamePoints 10 makes American whist a ten-point game in the state', async () => {
    const evs = americanEvents();
    const [ten, seven] = await Promise.all([
      table('variant: whist\nscore:\n  gamePoints: 10\n', evs),
      table('variant: whist\n', evs),
    ]);
    // The seed's seven-point game (Am. 31) by default: E-W go from 5 to 7 at the fifth deal and win a game worth
    // seven less the losers' 3.
    const s7 = seven.state.score!;
    expect(s7.game).toBe('american-whist');
    expect(s7.gamePoints).toBe(7);
    expect(s7.deals[4].game).toMatchObject({ winner: 'EW', value: 4 });
    expect(s7.totals).toEqual({ NS: 0, EW: 4 });
    // The same deals in the ten-point game the club agreed: nobody has made game; the points run on.
    const s10 = ten.state.score!;
    expect(s10.game).toBe('american-whist');
    expect(s10.gamePoints).toBe(10);
    expect(s10.deals.map((d) => d.after)).toEqual([
      { NS: 2, EW: 0 }, { NS: 2, EW: 1 }, { NS: 3, EW: 1 }, { NS: 3, EW: 5 }, { NS: 3, EW: 7 }, { NS: 6, EW: 7 }, { NS: 6, EW: 8 },
    ]);
    expect(s10.deals.some((d) => d.game !== undefined)).toBe(false);
    expect(s10.points).toEqual({ NS: 6, EW: 8 });
    expect(s10.totals).toEqual({ NS: 0, EW: 0 });
  }, 60_000);

  it('Favourite whist, score.progressive: "tricks being worth 1 point when Spades are trumps; when Clubs 2; when Diamonds 3; and when Hearts 4. Honours do not count, and the game is 10 points"', async () => {
    const run = await table('variant: favourite-whist\nscore: { progressive: true }\n', events('favourite-whist.ndjson'));
    const s = run.state.score!;
    expect(s.game).toBe('favourite-whist');
    expect(s.gamePoints).toBe(10);
    // Board 1, hearts: two tricks over the book at 4 each; the honours called (S called three) are not scored.
    expect(s.deals[0].items).toEqual([{ side: 'NS', what: 'tricks', points: 8, law: 'Favourite: variation', note: '2 × 4' }]);
    expect(s.deals.flatMap((d) => d.items).some((i) => i.what === 'honours')).toBe(false);
    // "the winners of the rubber add 10 points for bonus. The value of the rubber is the difference".
    expect(s.rubbers).toHaveLength(1);
    expect(s.rubbers[0]).toMatchObject({ winner: 'NS', totals: { NS: 40, EW: 7 }, value: 33 });
    // "Honours do not count": the daemon refuses a call under the variation, as in a game without honours.
    const r = await run.ask('honours', { transaction: uid('h-'), seat: 'N', count: 3 });
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/^command: honours do not count in favourite-whist \(the progressive variation\)/) });
  }, 60_000);
});
