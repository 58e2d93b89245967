// A tray record published by another source (a dealing machine's file, `tenace trays import`, another director
// instance) at the director's intake (issue 18): adopted at once and stored in the next group commit, without holding
// the intake for that commit. Awaited, it held every championship instance's intake for a commit per record of the
// others' (5-110 ms each at a round's end). Its PUBACK still waits for the commit (durable): persist before ack.
import { afterEach, describe, expect, it } from 'vitest';
import { handle } from '../../src/club/director/messages.js';
import { durable } from '../../src/club/director/commit.js';
import type { TrayRecord } from '../../src/club/types.js';
import { stateOnly } from './director-rig.js';

const RECORD: TrayRecord = {
  schema: 1, type: 'tenace.tray', session: 's1', board: 3, rev: 1, dealer: 'S',
  hands: 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765',
  source: { kind: 'hand-record', file: 'dealer-machine.pbn', at: '2026-12-06T20:00:00.000Z' },
};

describe('a tray record from elsewhere at the director\'s intake', () => {
  let close: () => Promise<void>;
  afterEach(() => close());

  it('is taken without waiting for its commit, and is stored before its PUBACK may go', async () => {
    const { st, store, ...rest } = await stateOnly('tray-intake');
    close = rest.close;
    // The store's transactions wait until the test lets them through.
    let open!: () => void;
    const opened = new Promise<void>((r) => { open = r; });
    const tx = store.transactionUnsynced.bind(store);
    store.transactionUnsynced = async (fn, grouped) => { await opened; return tx(fn, grouped); };

    const taken = handle(st, `${st.prefix}trays/s1/3`, Buffer.from(JSON.stringify(RECORD)));
    const inTime = await Promise.race([taken.then(() => true), new Promise((r) => setTimeout(() => r(false), 1000))]);
    expect(inTime, 'the message was taken while its commit waited for the store').toBe(true);
    expect(st.records.get(3)?.rev, 'adopted in memory at once').toBe(1);
    expect(await store.tray('s1', 3), 'not stored yet').toBeUndefined();

    // What the PUBACK waits for (held-acks.ts): the commit that stores it.
    const ack = durable(st);
    let acked = false;
    void ack.then(() => { acked = true; });
    await new Promise((r) => setTimeout(r, 50));
    expect(acked, 'no PUBACK before the record is stored').toBe(false);
    open();
    await ack;
    expect((await store.tray('s1', 3))?.hands).toBe(RECORD.hands);
  });
});
