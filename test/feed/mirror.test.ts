// TableMirror and the JSON Patch chain without a broker: the subscriber's state must equal the publisher's after any
// delivery the feed allows (duplicates, reordering by a redelivery, gaps filled later, stale retained snapshots).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import { type JsonValue, applyPatch, diffJson } from '../../src/feed/patch.js';
import type { PublicEventMessage, PublicState } from '../../src/feed/projection.js';
import { Projector } from '../../src/feed/projector.js';
import { TableMirror } from '../../src/feed/subscriber.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';

function session(seed: number, deals = 2): TableEvent[] {
  const events: TableEvent[] = [];
  for (let d = 0; d < deals; d++) {
    const sim = simulateDeal(createRng(seed * 10 + d), { variant: d % 2 ? 'bridge' : 'duplicate-whist', board: d + 1, withHands: true, renounceAt: { trick: 4 } });
    events.push(...sim.events.map((e) => ({ ...e })));
  }
  events.forEach((e, i) => { e.seq = i + 1; });
  return events;
}

function publish(events: TableEvent[], embargo: 'live' | 'deal-end' = 'live') {
  const p = new Projector({ embargo });
  const initial = structuredClone(p.publicState());
  const messages: PublicEventMessage[] = [];
  const states: PublicState[] = [];
  for (const ev of events) {
    messages.push(JSON.parse(JSON.stringify(p.apply(ev).public)));
    states.push(structuredClone(p.publicState()));
  }
  return { p, initial, messages, states };
}

describe('patch', () => {
  it('diffJson then applyPatch gives the target, for random JSON documents', () => {
    const doc = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }) as fc.Arbitrary<Record<string, JsonValue>>;
    fc.assert(fc.property(doc, doc, (a, b) => {
      const ops = diffJson(a, b);
      expect(applyPatch(a, ops)).toEqual(JSON.parse(JSON.stringify(b)));
    }), { numRuns: 300, seed: 7 });
  });

  it('spells out only the changed values, with ~ and / escaped in their paths (RFC 6901)', () => {
    const shared = { n: 1 };
    const a = { 'a/b': { 'c~d': 1, same: 'x', shared }, u: [1, 2], z: 0 };
    const b = { 'a/b': { 'c~d': 2, same: 'x', shared }, u: [1, 2], z: -0, w: { 'e/~': 3 } };
    expect(diffJson(a, b)).toEqual([
      { op: 'replace', path: '/a~1b/c~0d', value: 2 },
      { op: 'add', path: '/w', value: { 'e/~': 3 } },
    ]);
    expect(diffJson({ 'x/y~': 1 }, {})).toEqual([{ op: 'remove', path: '/x~1y~0' }]);
  });

  it('extends a grown array with add /- and refuses prototype paths', () => {
    expect(diffJson({ t: [1, 2] }, { t: [1, 2, 3] })).toEqual([{ op: 'add', path: '/t/-', value: 3 }]);
    expect(() => applyPatch({ a: {} }, [{ op: 'add', path: '/__proto__/x', value: 1 }])).toThrow(/forbidden/);
    expect(() => applyPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 1 }])).toThrow(/nothing/);
  });
});

describe('TableMirror', () => {
  it('follows the publisher event by event from the first snapshot (events alone)', () => {
    const { p, initial, messages, states } = publish(session(3));
    const m = new TableMirror('c', 't');
    m.handle(m.topics.state, JSON.stringify(initial));
    messages.forEach((msg, i) => {
      m.handle(m.topics.event, JSON.stringify(msg));
      expect(m.state).toEqual(states[i]);
    });
    expect(m.state).toEqual(p.publicState());
    expect(m.stats.applied).toBe(messages.length);
    expect(m.events.map((e) => e.seq)).toEqual(messages.map((x) => x.seq));
  });

  it('ignores duplicates, buffers early events until the gap is filled, and ignores a stale snapshot', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 60 }), (seed, startAt) => {
      const { p, messages, states } = publish(session(seed, 1), seed % 2 ? 'live' : 'deal-end');
      const start = Math.min(startAt, messages.length - 1);
      const m = new TableMirror('c', 't');
      m.applyState(states[start]);
      // Deliver the rest with duplicates and local reordering (as a redelivery after a reconnect would).
      const rest = messages.slice(start + 1);
      const rng = createRng(seed);
      const order: PublicEventMessage[] = [];
      for (let i = 0; i < rest.length; i++) {
        order.push(rest[i]);
        if (rng.int(4) === 0) order.push(rest[rng.int(i + 1)]);
        if (i > 0 && rng.int(5) === 0) [order[order.length - 1], order[order.length - 2]] = [order[order.length - 2], order[order.length - 1]];
      }
      // Events already in the snapshot arrive too.
      for (const old of messages.slice(0, start + 1)) m.applyEvent(old);
      for (const e of order) m.applyEvent(e);
      expect(m.state).toEqual(p.publicState());
      // A stale retained snapshot (a broker restored from its database) must not roll the mirror back.
      expect(m.applyState(states[start])).toBe(false);
      expect(m.state).toEqual(p.publicState());
      expect(new Set(m.events.map((e) => e.seq)).size).toBe(m.events.length);
    }), { numRuns: 10, seed: 11 });
  });

  it('switches to a restarted publisher (new epoch) and chains its events', () => {
    const events = session(5, 1);
    const cut = 40;
    const first = publish(events.slice(0, cut));
    const m = new TableMirror('c', 't');
    m.applyState(first.initial);
    for (const e of first.messages) m.applyEvent(e);
    // The restarted publisher folds the delivered events silently and continues with a new epoch.
    const p2 = new Projector();
    for (const ev of events.slice(0, cut)) p2.apply(ev);
    expect(m.applyState(structuredClone(p2.publicState()))).toBe(true);
    for (const ev of events.slice(cut)) m.applyEvent(JSON.parse(JSON.stringify(p2.apply(ev).public)));
    expect(m.state).toEqual(p2.publicState());
    expect(m.events).toHaveLength(events.length);
  });

  it('ignores malformed and foreign messages', () => {
    const m = new TableMirror('c', 't');
    expect(m.handle(m.topics.state, 'not json')).toBe(false);
    expect(m.handle(m.topics.event, JSON.stringify({ type: 'tenace.event', schema: 99 }))).toBe(false);
    expect(m.handle('tenace/c/other/state', '{}')).toBe(false);
    expect(m.handle(m.topics.status, 'online')).toBe(true);
    expect(m.status).toBe('online');
    expect(m.stats.ignored).toBe(2);
  });
});
