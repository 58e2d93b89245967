// Another instance's results read back (cluster.ts, issue 18): the store is read off the serial chain, so the tables'
// events go on being folded while it answers, and what it found is taken in at the chain's next step. A read-back
// can then cross a notification that carried a later state of the same play: an instance keeps the later one ("a
// table's seqs only grow"), in either order.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DirectorState } from '../../src/club/director/state.js';
import type { ChangeNote, DirectorStore, StoredResult } from '../../src/club/director/store.js';
import { requestSync, syncFromStore } from '../../src/club/director/cluster.js';
import { enqueue } from '../../src/club/director/commit.js';
import { stateOnly } from '../club/director-rig.js';

/** Table 2's result on board 2 as its play stood at `toSeq` (a later event, an undo, changed the tricks). */
const played = (fromSeq: number, toSeq: number, tricks: number): StoredResult => ({
  table: '2', fromSeq, toSeq,
  traveller: { board: 2, table: 2, round: 1, ns: '2NS', ew: '2EW', tricks: { NS: tricks, EW: 13 - tricks } },
});
const note = (carried: StoredResult[], kinds: Partial<ChangeNote> = {}): ChangeNote => ({ results: new Set(), trays: false, assignments: false, alerts: false, decisions: false, carried, ...kinds });

describe('another instance\'s results, read back', () => {
  let store: DirectorStore;
  let st: DirectorState;
  let close: () => Promise<void>;
  afterEach(() => close());

  const open = async () => {
    ({ st, store, close } = await stateOnly('read-back', { cluster: { partitions: 2, leaseSeconds: 3, heartbeatSeconds: 1, instance: 'a' } }));
  };
  const held = () => [...st.results.values()].map((r) => [r.fromSeq, r.toSeq, (r.traveller.tricks as { NS: number }).NS]);

  it('a later state of a play replaces the one held; an earlier one heard after it does not', async () => {
    await open();
    await syncFromStore(st, note([played(10, 112, 7)]));
    expect(held()).toEqual([[10, 112, 7]]);
    await syncFromStore(st, note([played(10, 118, 8)]));
    expect(held(), 'the later state').toEqual([[10, 118, 8]]);
    await syncFromStore(st, note([played(10, 112, 7)]));
    expect(held(), 'an earlier state of the same play never over a later one').toEqual([[10, 118, 8]]);
    await syncFromStore(st, note([played(4, 60, 6)]));
    expect(held(), 'nor a play that began before it').toEqual([[10, 118, 8]]);
    await syncFromStore(st, note([played(130, 240, 5)]));
    expect(held(), 'a play that began after it (the board played again in the round)').toEqual([[130, 240, 5]]);
  });

  it('a read-back the store refuses is said once, and the next one takes what the store holds', async () => {
    await open();
    await store.putResult('s1', played(10, 112, 7));
    const warn = vi.spyOn(st.log, 'warn');
    const heads = store.resultHeads.bind(store);
    store.resultHeads = async () => { throw new Error('connection terminated'); };
    const settled = async () => { for (let i = 0; i < 100 && st.syncQueued; i++) await new Promise((r) => setTimeout(r, 10)); };
    for (let i = 0; i < 3; i++) {
      requestSync(st, 'all');
      await settled();
    }
    const said = warn.mock.calls.filter(([, msg]) => String(msg).includes('cannot read back'));
    expect(said, 'one line for three failures').toHaveLength(1);
    expect(said[0][0]).toMatchObject({ err: 'connection terminated' });
    expect(held()).toEqual([]);
    store.resultHeads = heads;
    requestSync(st, 'all');
    await settled();
    for (let i = 0; i < 100 && held().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(held()).toEqual([[10, 112, 7]]);
  });

  it('the serial chain goes on while the store is read; what was read is taken in at its next step', async () => {
    await open();
    // The store holds table 2's result; the read-back's first query answers only when the test lets it.
    await store.putResult('s1', played(10, 112, 7));
    let answer!: () => void;
    const answered = new Promise<void>((r) => { answer = r; });
    const heads = store.resultHeads.bind(store);
    store.resultHeads = async (session) => { await answered; return heads(session); };
    requestSync(st, 'all');
    // A message's step, queued after the read-back began, runs while the store has not answered (on the chain, the
    // read-back would hold it until then).
    const ran = await Promise.race([enqueue(st, async () => undefined).then(() => true), new Promise((r) => setTimeout(() => r(false), 1000))]);
    expect(ran, 'a step of the chain ran while the read-back waited for the store').toBe(true);
    expect(held(), 'nothing taken before the store answered').toEqual([]);
    answer();
    // Taken in at the chain's next step once read.
    for (let i = 0; i < 100 && st.syncQueued; i++) await new Promise((r) => setTimeout(r, 10));
    expect(st.syncQueued, 'the read-back is over').toBe(false);
    expect(held()).toEqual([[10, 112, 7]]);
  });

  /** Hold the store's answers to `method` until the returned function is called. */
  const holdAnswers = (method: 'trayRevs' | 'alertIds'): (() => void) => {
    let answer!: () => void;
    const answered = new Promise<void>((r) => { answer = r; });
    const real = (store[method] as (session: string) => Promise<unknown>).bind(store);
    (store as unknown as Record<string, unknown>)[method] = async (session: string) => { await answered; return real(session); };
    return answer;
  };
  const step = () => enqueue(st, async () => undefined);
  const readBackOver = async () => { for (let i = 0; i < 100 && st.syncQueued; i++) await new Promise((r) => setTimeout(r, 10)); };

  it('results carried with tray records and assignments are taken at the next step, not after those are read back', async () => {
    await open();
    const answer = holdAnswers('trayRevs');
    requestSync(st, note([played(10, 112, 7)], { trays: true, assignments: true }));
    await step();
    expect(st.syncQueued, 'the tray records are still being read').toBe(true);
    expect(held(), 'the result is in before them').toEqual([[10, 112, 7]]);
    answer();
    await readBackOver();
    expect(held()).toEqual([[10, 112, 7]]);
  });

  it('results carried with an alert wait for the alert: it may change how they score (an average, a group)', async () => {
    await open();
    const answer = holdAnswers('alertIds');
    requestSync(st, note([played(10, 112, 7)], { alerts: true }));
    await step();
    expect(held(), 'not before the alert is read').toEqual([]);
    answer();
    await readBackOver();
    await step();
    expect(held()).toEqual([[10, 112, 7]]);
  });

  it('results carried alone wait too while an alert is being read back: none is shown without what changes its score', async () => {
    await open();
    const answer = holdAnswers('alertIds');
    requestSync(st, note([], { alerts: true }));
    requestSync(st, note([played(10, 112, 7)]));
    await step();
    expect(held(), 'not while the alert is read').toEqual([]);
    answer();
    for (let i = 0; i < 100 && held().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(held()).toEqual([[10, 112, 7]]);
  });
});
