// What the director keeps in flight (issue 18), with stand-ins for the broker connection and the store, so that the
// order in which PUBACKs and fdatasyncs come back is the test's to choose:
// - a latest-only retained topic (standings, snapshot, released trays) has at most LATEST_IN_FLIGHT messages awaiting
//   their PUBACK; a newer one waits and replaces any other waiting, and the last one sent is the latest body;
// - on SQLite in WAL mode a group committed while a WAL sync runs starts its own sync at once (up to SYNCS_IN_FLIGHT),
//   and a sync that returns settles its groups and every earlier group still waiting, in order: it began after they
//   were committed, so it covers them.
import { afterEach, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { DirectorState, SYNCS_IN_FLIGHT } from '../../src/club/director/state.js';
import { LATEST_IN_FLIGHT, pubLatest } from '../../src/club/director/mqtt.js';
import { commit } from '../../src/club/director/commit.js';
import type { DirectorStore } from '../../src/club/director/store.js';
import { SCHEDULE, STUBS, quietLog, testConfig } from './director-rig.js';

const newState = () => new DirectorState({ config: testConfig('flight', 'sqlite::memory:'), log: quietLog, schedule: SCHEDULE, club: STUBS, web: false });
const turn = () => new Promise<void>((r) => setImmediate(r));

describe('a latest-only topic keeps at most LATEST_IN_FLIGHT messages awaiting their PUBACK', () => {
  let st: DirectorState;
  afterEach(() => { st.stopped = true; });

  it(`sends ${LATEST_IN_FLIGHT} at once, holds only the newest after them, and sends it when a PUBACK comes`, () => {
    st = newState();
    const sent: { topic: string; body: string; ack: (err?: Error) => void }[] = [];
    st.client = {
      publish: (topic: string, body: string, _o: unknown, ack: (err?: Error) => void) => { sent.push({ topic, body, ack }); },
    } as unknown as MqttClient;
    const topic = st.topics.standings;
    for (const body of ['s1', 's2', 's3', 's4', 's5']) pubLatest(st, topic, body);
    expect(sent.map((m) => m.body), 'two in flight; s3 and s4 were replaced by s5 while waiting').toEqual(['s1', 's2']);
    sent[1].ack();
    expect(sent.map((m) => m.body)).toEqual(['s1', 's2', 's5']);
    sent[0].ack();
    sent[2].ack();
    expect(sent.map((m) => m.body), 'nothing waits: nothing more is sent').toEqual(['s1', 's2', 's5']);
    expect(st.latest.has(topic), 'a topic with nothing in flight holds nothing').toBe(false);
    // Other topics have windows of their own.
    pubLatest(st, topic, 's6');
    pubLatest(st, st.topics.released, 'r1');
    expect(sent.slice(3).map((m) => m.body)).toEqual(['s6', 'r1']);
  });
});

describe('WAL syncs overlap, and each settles every group committed before it began', () => {
  it(`a group committed during a sync starts its own (up to ${SYNCS_IN_FLIGHT}); the later sync returning first settles both, in order`, async () => {
    const st = newState();
    const syncs: { resolve: () => void }[] = [];
    st.store = {
      durableOnCommit: false, engine: 'sqlite', where: 'test.db',
      insertEventsUnsynced: async () => undefined,
      sync: () => new Promise<void>((resolve) => { syncs.push({ resolve }); }),
    } as unknown as DirectorStore;
    const settled: string[] = [];
    const group = (name: string) => {
      const done = commit(st, null, [{ table: '1', seq: settled.length + syncs.length + 1, event: { type: 'undo' } } as never], false);
      void done.then(() => settled.push(name));
      return done;
    };
    const a = group('a');
    await turn();
    await turn();
    expect(syncs, 'group a committed: its sync began').toHaveLength(1);
    const b = group('b');
    await turn();
    await turn();
    expect(syncs, 'group b committed while a\'s sync runs: its own sync began at once').toHaveLength(2);
    const c = group('c');
    await turn();
    await turn();
    expect(syncs, `${SYNCS_IN_FLIGHT} syncs run: group c waits for one to return`).toHaveLength(SYNCS_IN_FLIGHT);
    syncs[1].resolve();
    await b;
    expect(settled, 'b\'s sync covers a, committed before it began').toEqual(['a', 'b']);
    await turn();
    expect(syncs, 'a sync returned: c\'s begins').toHaveLength(3);
    syncs[0].resolve();
    await turn();
    expect(settled, 'a\'s own sync settles nothing more').toEqual(['a', 'b']);
    syncs[2].resolve();
    await c;
    await a;
    expect(settled).toEqual(['a', 'b', 'c']);
    st.stopped = true;
  });
});
