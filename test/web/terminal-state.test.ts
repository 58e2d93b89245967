// What the table terminal shows, built from the engine, the deal's events and the club's messages: the round with
// its pairs and names, the findings in plain words (and only those the table may see), the result with the revoke
// adjustment, and where everyone goes after the last tray.
import { describe, expect, it } from 'vitest';
import type { RoundAssignment, Schedule } from '../../src/club/types.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { Table } from '../../src/laws/engine.js';
import { contractWords, terminalView } from '../../src/web/terminal-state.js';
import { game } from '../laws/helpers.js';

const assignment = {
  schema: 1, type: 'tenace.assignment', session: 's1', movement: 'mitchell', round: 1, table: '1', ns: '1NS', ew: '1EW',
  trays: [1, 2], tables: 3, variant: 'duplicate-whist', at: '2026-12-04T19:00:00Z', names: { N: 'Ann Lee', S: 'Bob Lee' },
} as RoundAssignment;

// A three-table Mitchell: E-W move up a table, the trays down.
const schedule = {
  movement: 'mitchell', tables: 3, kind: 'pairs', boardsPerRound: 2, trays: 6, participants: [],
  rounds: [
    { round: 1, tables: [{ table: 1, ns: '1NS', ew: '1EW', trays: [1, 2] }, { table: 2, ns: '2NS', ew: '2EW', trays: [3, 4] }, { table: 3, ns: '3NS', ew: '3EW', trays: [5, 6] }] },
    { round: 2, tables: [{ table: 1, ns: '1NS', ew: '3EW', trays: [3, 4] }, { table: 2, ns: '2NS', ew: '1EW', trays: [5, 6] }, { table: 3, ns: '3NS', ew: '2EW', trays: [1, 2] }] },
  ],
} as unknown as Schedule;

function fold(events: TableEvent[]): { engine: Table; events: TableEvent[] } {
  const engine = new Table({ variant: 'duplicate-whist' });
  const stamped = events.map((e, i) => ({ ...e, seq: i + 1 }) as TableEvent);
  for (const e of stamped) engine.apply(e);
  return { engine, events: stamped };
}

describe('the terminal view', () => {
  it('the round: pair numbers, the names the director gave, the trays; no deal yet', () => {
    const v = terminalView({ table: '1', variant: 'duplicate-whist', engine: new Table(), events: [], assignment, schedule, released: [] });
    expect(v.round).toEqual({ round: 1, ns: '1NS', ew: '1EW', names: { N: 'Ann Lee', S: 'Bob Lee' }, trays: [1, 2] });
    expect(v.deal).toBeNull();
    expect(v.nextRound).toBeNull();
  });

  it('after the last tray of the round: "N-S stay, E-W to table 2, trays to table 3", and the traveller not yet shown', () => {
    const f = fold([
      { type: 'deal', board: 2, variant: 'duplicate-whist', dealer: 'W' },
      { type: 'claim', seat: 'N', tricks: 13 },
      { type: 'claim-accepted', seat: 'E' },
    ]);
    const v = terminalView({ table: '1', variant: 'duplicate-whist', ...f, assignment, schedule, released: [1] });
    expect(v.nextRound).toBe('Next round (2): N-S stay, E-W to table 2, trays to table 3');
    expect(v.deal?.result).toMatchObject({ tricks: { NS: 13, EW: 0 }, score: null, summary: 'North-South 13 tricks, East-West 0', acceptBy: ['E', 'W'], acceptedBy: null });
    expect(v.deal?.traveller).toBe('The traveller of board 2 is not shown yet: other tables have still to play it.');
    const released = terminalView({ table: '1', variant: 'duplicate-whist', ...f, assignment, schedule, released: [1, 2] });
    expect(released.deal?.traveller).toMatch(/^Board 2 has been played at every table/);
  });

  it('before the last tray is over there is no next-round line; on the last round it says so', () => {
    const f = fold([{ type: 'deal', board: 1, variant: 'duplicate-whist', dealer: 'W' }, { type: 'claim', seat: 'N', tricks: 7 }, { type: 'claim-accepted', seat: 'W' }]);
    expect(terminalView({ table: '1', variant: 'duplicate-whist', ...f, assignment, schedule, released: [] }).nextRound).toBeNull();
    const last = fold([{ type: 'deal', board: 2, variant: 'duplicate-whist', dealer: 'W' }, { type: 'claim', seat: 'N', tricks: 7 }, { type: 'claim-accepted', seat: 'W' }]);
    const v = terminalView({ table: '1', variant: 'duplicate-whist', ...last, assignment: { ...assignment, round: 2, ew: '3EW', trays: [3, 2] }, schedule, released: [] });
    expect(v.nextRound).toMatch(/^That was the last round/);
  });

  it('L9/L61: a renounce not yet established is not shown at the table; once the claim is agreed, the revoke is, in plain words, with its trick transferred', () => {
    const g = game({ variant: 'bridge', contract: '4HS', board: 1 }).trick('W: S2 SA S3 SK').trick('N: D2 C5! DA D4').holdRest('S');
    const during = fold(g.log());
    const live = terminalView({ table: '1', variant: 'bridge', ...during, assignment: null, schedule: null, released: [] });
    expect(during.engine.findings().map((x) => x.kind)).toEqual(['renounce-in-error']);
    expect(live.deal?.findings).toEqual([]);
    expect(live.deal?.whoseTurn).toBe('S');

    const done = fold([...g.log(), { type: 'claim', seat: 'E', tricks: 1 }, { type: 'claim-accepted', seat: 'S' }]);
    const v = terminalView({ table: '1', variant: 'bridge', ...done, assignment: null, schedule: null, released: [] });
    expect(v.deal?.findings).toEqual([{ text: 'East revoked in trick 2: did not follow suit while holding it', law: 'L63A3' }]);
    expect(v.deal?.result).toMatchObject({
      tricks: { NS: 12, EW: 1 }, scored: { NS: 13, EW: 0 }, adjustment: '1 trick transferred to North-South for the revoke',
      // Board 1: nobody vulnerable; 4♥ making 13 tricks is 510.
      score: 510, acceptBy: ['E', 'W'],
    });
  });

  it('the card reads that can be undone, latest first, without those already undone', () => {
    const f = fold([
      { type: 'deal', board: 3, variant: 'duplicate-whist', dealer: 'W' },
      { type: 'place', seat: 'N', card: 'S2' },
      { type: 'place', seat: 'E', card: 'S9' },
      { type: 'undo', target: 3 },
      { type: 'place', seat: 'E', card: 'S3' },
    ]);
    const v = terminalView({ table: '1', variant: 'duplicate-whist', ...f, assignment: null, schedule: null, released: [] });
    expect(v.deal?.reads.map((r) => `${r.seq} ${r.seat} ${r.card}`)).toEqual(['5 E S3', '2 N S2']);
  });

  it('Am. 27, a claim accepted at the tray\'s first play: the terminal asks each player to pass the cards still held over the reader, and counts them down', () => {
    const g = game({ variant: 'bridge', contract: '4HS', board: 1 }).trick('W: S2 SA S3 SK');
    const claim: TableEvent[] = [{ type: 'claim', seat: 'S', tricks: 12 }, { type: 'claim-accepted', seat: 'W' }];
    const log = g.log().map((e) => (e.type === 'deal' ? { ...e, hands: undefined } : e)) as TableEvent[];
    const v = terminalView({ table: '1', variant: 'bridge', ...fold([...log, ...claim]), assignment: null, schedule: null, released: [] });
    expect(v.deal?.showCards).toEqual([{ seat: 'N', left: 12 }, { seat: 'E', left: 12 }, { seat: 'S', left: 12 }, { seat: 'W', left: 12 }]);
    // North passes two cards (a card passed twice counts once); the claimed result is unchanged.
    const passed = fold([...log, ...claim, { type: 'place', seat: 'N', card: 'H2' }, { type: 'lift', seat: 'N', card: 'H2' }, { type: 'place', seat: 'N', card: 'H2' }, { type: 'place', seat: 'N', card: 'H3' }]);
    const after = terminalView({ table: '1', variant: 'bridge', ...passed, assignment: null, schedule: null, released: [] });
    expect(after.deal?.showCards?.[0]).toEqual({ seat: 'N', left: 10 });
    expect(after.deal?.result?.tricks).toEqual(v.deal?.result?.tricks);
    // An overplay holds the record already: nothing to show.
    const over = fold([...g.log(), ...claim]);
    expect(terminalView({ table: '1', variant: 'bridge', ...over, assignment: null, schedule: null, released: [] }).deal?.showCards).toBeNull();
  });

  it('contracts in words', () => {
    expect(contractWords('4HSX')).toBe('4♥ doubled by South');
    expect(contractWords('3NTEXX')).toBe('3NT redoubled by East');
  });
});
