// The order of the director's travellers (standings.ts scoredTravellers): by board, then table as a player reads it
// (2 before 10), then round. Tables that are numbers are compared as numbers (issue 18: the collator's cost at every
// scoring); ids that are not are compared by the collator, digits by their value.
import { describe, expect, it } from 'vitest';
import { DirectorState } from '../../src/club/director/state.js';
import { scoredTravellers } from '../../src/club/director/standings.js';
import type { Traveller } from '../../src/club/types.js';
import { SCHEDULE, STUBS, quietLog, testConfig } from './director-rig.js';

const order = (tables: (number | string)[]): (number | string | undefined)[] => {
  const st = new DirectorState({ config: testConfig('order', 'sqlite::memory:'), log: quietLog, schedule: SCHEDULE, club: STUBS, web: false });
  tables.forEach((table, i) => {
    const traveller: Traveller = { board: i % 2 === 0 ? 2 : 1, table, round: 1, ns: `${table}NS`, ew: `${table}EW`, tricks: { NS: 7, EW: 6 } };
    st.results.set(`${traveller.board}:${table}:1`, { table: String(table), fromSeq: 1, toSeq: 60, traveller });
  });
  return scoredTravellers(st).map((t) => `${t.board}@${t.table}`);
};

describe('the travellers, board by board, tables as a player reads them', () => {
  it('numbered tables: 2 before 10', () => {
    expect(order([10, 2, 1, 11, 3, 20])).toEqual(['1@2', '1@11', '1@20', '2@1', '2@3', '2@10']);
  });

  it('named tables: digits by their value, then letters', () => {
    expect(order(['T10', 'T2', 'b', 'T1', 'a', 'T3'])).toEqual(['1@T1', '1@T2', '1@T3', '2@a', '2@b', '2@T10']);
  });
});
