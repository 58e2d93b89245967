// The standings' pace (issue 18): scored on the next turn of the event loop after a change, the changes of that turn
// coalesced into one scoring,
// and pushed out after a costly scoring so that it takes at most a share of the event loop. Fake timers and a fake
// clock: this checks when the director scores, not how fast.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScoreReport, Traveller } from '../../src/club/types.js';
import { DirectorState, STANDINGS_COST_FACTOR } from '../../src/club/director/state.js';
import { scheduleFlush } from '../../src/club/director/standings.js';
import { SCHEDULE, STUBS, quietLog, testConfig } from './director-rig.js';

describe('the standings are scored soon after a result, and paced by their cost', () => {
  let cost = 0;
  let extra = 0;
  let preempted = 0;
  let stolen = 0;
  let scored: Traveller[][] = [];
  let st: DirectorState;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
    const epoch = Date.now();
    // performance.now: the fake clock, plus the time the stubbed scoring "took".
    vi.spyOn(performance, 'now').mockImplementation(() => Date.now() - epoch + extra);
    // The CPU the process used: the stubbed scoring's, less what `preempted` says others ran meanwhile.
    vi.spyOn(process, 'cpuUsage').mockImplementation((prev?: NodeJS.CpuUsage) => {
      const user = (Date.now() - epoch + extra - stolen) * 1000;
      return { user: user - (prev?.user ?? 0), system: 0 };
    });
    cost = 0;
    extra = 0;
    preempted = 0;
    stolen = 0;
    scored = [];
    const scoreTravellers = (ts: readonly Traveller[]): ScoreReport => {
      scored.push([...ts]);
      extra += cost;
      stolen += preempted;
      return { method: 'average', pairs: [], boards: [] };
    };
    st = new DirectorState({ config: testConfig('pace', 'sqlite::memory:'), log: quietLog, schedule: SCHEDULE, club: { ...STUBS, scoreTravellers }, web: false });
  });

  afterEach(() => {
    st.stopped = true;
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  const result = (board: number, table: string) => {
    st.results.set(`${board}:${table}:1`, { table, fromSeq: 1, toSeq: 60, traveller: { board, table: Number(table), round: 1, ns: `${table}NS`, ew: `${table}EW`, tricks: 7 } });
    st.standingsDirty = true;
    scheduleFlush(st);
  };

  it('a result is scored on the next turn after it settles (setImmediate, no timer), and the results settled together are scored once', () => {
    result(1, '1');
    result(2, '2');
    expect(scored).toHaveLength(0);
    vi.advanceTimersByTime(0);
    expect(scored).toHaveLength(1);
    expect(scored[0].map((t) => t.board)).toEqual([1, 2]);
    // Nothing changed since: no scoring for nothing.
    scheduleFlush(st);
    vi.advanceTimersByTime(10);
    expect(scored).toHaveLength(1);
  });

  it(`after two scorings that took c ms or more the next waits ${STANDINGS_COST_FACTOR} × c; after one alone it does not`, () => {
    cost = 40;
    // One costly scoring (a cold start): the next is not held back.
    result(1, '1');
    vi.advanceTimersByTime(0);
    expect(scored).toHaveLength(1);
    result(2, '1');
    vi.advanceTimersByTime(0);
    expect(scored).toHaveLength(2);
    result(2, '2');
    // This one is cheap: the one after it waits for the next turn only.
    cost = 0;
    vi.advanceTimersByTime(STANDINGS_COST_FACTOR * 40 - 1);
    expect(scored).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(scored).toHaveLength(3);
    result(1, '2');
    vi.advanceTimersByTime(0);
    expect(scored).toHaveLength(4);
  });

  it('a scoring that took long because others ran meanwhile (preempted) is paced by the CPU it took, not the time', () => {
    // 40 ms from start to end, of which 38 ms the machine ran other processes: 2 ms of CPU.
    cost = 40;
    preempted = 38;
    result(1, '1');
    vi.advanceTimersByTime(0);
    result(2, '1');
    vi.advanceTimersByTime(0);
    expect(scored).toHaveLength(2);
    result(2, '2');
    vi.advanceTimersByTime(STANDINGS_COST_FACTOR * 2 - 1);
    expect(scored).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(scored, `paced by ${STANDINGS_COST_FACTOR} × 2 ms of CPU, not ${STANDINGS_COST_FACTOR} × 40 ms`).toHaveLength(3);
  });
});
