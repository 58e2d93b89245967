// A hand-scored result's revisions as another director instance takes them (issues 17 and 18): a correction is
// stored with its revision counted down in to_seq (-2, -3, ...), and an instance that hears of two revisions in
// either order (a NOTIFY that carried the older crossing a read-back of the newer) holds the newer: "never an older
// revision over a newer one" (cluster.ts takeResult). Driven through syncFromStore with the results a note carries.
import { afterEach, describe, expect, it } from 'vitest';
import type { DirectorState } from '../../src/club/director/state.js';
import type { ChangeNote, StoredResult } from '../../src/club/director/store.js';
import { syncFromStore } from '../../src/club/director/cluster.js';
import { HAND_SCORED_SEQ } from '../../src/club/director/hand-scored.js';
import { stateOnly } from '../club/director-rig.js';

/** Revision `rev` (1 the first entry, 2 its first correction) of table 2's hand-scored result on board 2. */
const revision = (rev: number, tricks: number): StoredResult => ({
  table: '2', fromSeq: HAND_SCORED_SEQ, toSeq: -rev,
  traveller: { board: 2, table: 2, round: 1, ns: '2NS', ew: '2EW', tricks: { NS: tricks, EW: 13 - tricks }, handScored: true },
});
const note = (carried: StoredResult[]): ChangeNote => ({ results: new Set(), trays: false, assignments: false, alerts: false, decisions: false, carried });

describe('another instance\'s hand-scored revisions', () => {
  let st: DirectorState;
  let close: () => Promise<void>;
  afterEach(() => close());

  const open = async () => {
    ({ st, close } = await stateOnly('revisions', { handScored: ['2'], cluster: { partitions: 2, leaseSeconds: 3, heartbeatSeconds: 1, instance: 'b' } }));
    // This instance follows table 2's partition: a hand-scored result is taken all the same (the leader decided it).
    st.owned!.add('2');
  };
  const held = () => [...st.results.values()].map((r) => [r.toSeq, (r.traveller.tricks as { NS: number }).NS]);

  it('the correction after the first entry replaces it', async () => {
    await open();
    await syncFromStore(st, note([revision(1, 9)]));
    expect(held()).toEqual([[-1, 9]]);
    await syncFromStore(st, note([revision(2, 10)]));
    expect(held()).toEqual([[-2, 10]]);
  });

  it('the first entry heard after its correction does not replace it', async () => {
    await open();
    await syncFromStore(st, note([revision(2, 10)]));
    await syncFromStore(st, note([revision(1, 9)]));
    expect(held(), 'an older revision never over a newer one').toEqual([[-2, 10]]);
    await syncFromStore(st, note([revision(3, 8)]));
    expect(held()).toEqual([[-3, 8]]);
  });
});
