// The snapshot (the director's grid, 1-3 ms to build for 30 tables) yields to results on their way to the standings
// (issue 18): a snapshot that falls due while a result is committing or the standings are about to be scored waits,
// looking again every few ms, and goes out once they are through, or once it is FLUSH_MS late whatever is pending.
// Fake timers and clock: this checks when the snapshot goes out, not how fast.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MqttClient } from 'mqtt';
import { DirectorState, FLUSH_MS } from '../../src/club/director/state.js';
import { flushSnapshot } from '../../src/club/director/snapshot.js';
import { SCHEDULE, STUBS, quietLog, testConfig } from './director-rig.js';

describe('a snapshot due yields to results on their way to the standings', () => {
  let st: DirectorState;
  let sent: string[];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const epoch = Date.now();
    vi.spyOn(performance, 'now').mockImplementation(() => Date.now() - epoch);
    st = new DirectorState({ config: testConfig('yield', 'sqlite::memory:'), log: quietLog, schedule: SCHEDULE, club: STUBS, web: false });
    sent = [];
    st.client = { publish: (topic: string, _b: string, _o: unknown, ack: () => void) => { sent.push(topic); ack(); } } as unknown as MqttClient;
    st.snapUnsent = true;
    st.snapDue = 0;
  });

  afterEach(() => {
    st.stopped = true;
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  const snapshots = () => sent.filter((t) => t === st.topics.director).length;

  it('waits while a result commits, and goes out within a few ms of it settling', () => {
    st.uncommitted.set('1:1:1', { before: null, pending: 1 });
    flushSnapshot(st);
    expect(snapshots()).toBe(0);
    vi.advanceTimersByTime(20);
    expect(snapshots(), 'still committing').toBe(0);
    st.uncommitted.clear();
    vi.advanceTimersByTime(5);
    expect(snapshots()).toBe(1);
  });

  it(`goes out once it is ${FLUSH_MS} ms late, even while results keep coming`, () => {
    st.uncommitted.set('1:1:1', { before: null, pending: 1 });
    flushSnapshot(st);
    vi.advanceTimersByTime(FLUSH_MS - 5);
    expect(snapshots()).toBe(0);
    vi.advanceTimersByTime(10);
    expect(snapshots()).toBe(1);
  });

  it('goes out at once when nothing is on its way', () => {
    flushSnapshot(st);
    expect(snapshots()).toBe(1);
  });
});
