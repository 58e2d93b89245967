// LiveAnalysis (src/dd/live.ts) following an engine Table, with a stand-in solver: which positions it keeps (a misread
// undone takes its position away), and that it hands nothing on while the deal is held back.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveAnalysis, type SpectatorAnalysis } from '../../src/dd/live.js';
import type { Position, PositionResult } from '../../src/dd/types.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { Table } from '../../src/laws/engine.js';
import { DEMO, readLog } from '../web/helpers.js';

const LOG = readLog(join(DEMO, '1-bridge-4S.ndjson')).map((e, i) => ({ ...e, seq: i + 1 }) as TableEvent);

/** A solver that answers at once: the seat to play leads nothing, and the trick's length is N-S's tricks. */
function fakeDd() {
  const asked: Position[] = [];
  return {
    asked,
    status: async () => ({ on: true as const, version: 'test' }),
    solve: async (p: Position): Promise<PositionResult> => {
      asked.push(p);
      return { toPlay: 'N', tricks: { NS: p.trick.length, EW: 0 }, cards: [{ card: 'SA', tricks: p.trick.length }] };
    },
  };
}

function follow(released: () => boolean) {
  const dd = fakeDd();
  const out: SpectatorAnalysis[] = [];
  const live = new LiveAnalysis({ dd, publish: (a) => out.push(a) });
  const table = new Table({ variant: 'bridge' });
  const apply = (ev: TableEvent) => {
    table.apply(ev);
    live.observe(table, { seq: ev.seq ?? null, newDeal: ev.type === 'deal', released: released() });
  };
  return { dd, out, live, table, apply };
}

describe('LiveAnalysis following a table', () => {
  it('keeps one position per card played; a misread undone takes its position away', async () => {
    const f = follow(() => true);
    for (const ev of LOG.slice(0, 4)) f.apply(ev); // deal, W ♥Q, N ♥4, E ♥6
    await f.live.settled();
    expect(f.out.at(-1)!.positions.map((p) => p.played)).toEqual([0, 1, 2, 3]);
    f.apply({ type: 'undo', target: 4, seq: 100 } as TableEvent); // East's ♥6 was a misread
    await f.live.settled();
    const last = f.out.at(-1)!;
    expect(last.positions.map((p) => p.played)).toEqual([0, 1, 2]);
    expect(last.seq).toBe(100);
    // The position on the table has West's and North's cards in the trick, led by West.
    expect(f.dd.asked.at(-1)).toMatchObject({ leader: 'W', trick: ['HQ', 'H4'], strain: 'S' });
  });

  it('hands nothing on while held back; once released, every position noted meanwhile', async () => {
    let open = false;
    const f = follow(() => open);
    for (const ev of LOG.slice(0, 10)) f.apply(ev);
    await f.live.settled();
    expect(f.out).toEqual([]);
    expect(f.dd.asked).toEqual([]);
    open = true;
    f.apply(LOG[10]);
    await f.live.settled();
    expect(f.out).toHaveLength(1);
    expect(f.out[0].positions.map((p) => p.played)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(f.live.published).toBe(1);
  });

  it('a card lifted changes no position: nothing is published again', async () => {
    const f = follow(() => true);
    for (const ev of LOG.slice(0, 5)) f.apply(ev); // the deal and the first trick's four cards
    await f.live.settled();
    const n = f.live.published;
    for (const ev of LOG.slice(5, 9)) f.apply(ev); // the four lifts
    await f.live.settled();
    expect(f.live.published).toBe(n);
    f.apply(LOG[9]); // South leads to trick 2
    await f.live.settled();
    expect(f.live.published).toBe(n + 1);
    expect(f.out.at(-1)!.positions.map((p) => p.played)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
