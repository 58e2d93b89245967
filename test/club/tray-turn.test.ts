// Memory Duplicate's overplay at the table (Foster 1914, Duplicate Whist, "Two Pairs"): "Instead of the players
// changing positions for the overplay, the trays are reversed. If the indicators pointed N & S on the original deals,
// they must lie E & W for the overplay." The players keep their seats, so the player sitting East holds the hand
// dealt North. The table must check each card against the hand whose pocket lies at its seat (else every card of the
// overplay would be "not in the hand": a false accusation), and the director must score and record by the tray's seats.
import { describe, expect, it } from 'vitest';
import { SEATS, type Seat } from '../../src/cards/seat.js';
import { dealAtTable, tableSeat, traySeat, turnedSide } from '../../src/cards/tray-turn.js';
import { TableFold, indexSchedule, travellerOf, type Completion } from '../../src/club/director/fold.js';
import { movementByName } from '../../src/club/movements/index.js';
import { decideScan, dealEventFromRecord, parseAssignment } from '../../src/club/table-side.js';
import { recordFromPlay } from '../../src/club/trays/index.js';
import type { RoundAssignment, TrayRecord } from '../../src/club/types.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { validateTableEvent } from '../../src/formats/table-log.js';
import { EXPECTED, seedHand } from './director-rig.js';

/** Fold events (seq stamped from 1) and return the last completion. */
function play(events: TableEvent[]): Completion {
  const fold = new TableFold('duplicate-whist');
  let done: Completion | null = null;
  events.forEach((e, i) => { done = fold.apply({ ...e, seq: i + 1 } as TableEvent) ?? done; });
  if (!done) throw new Error('the deal did not complete');
  return done;
}

/** The original play's events with every seat moved to where the turned tray lays that hand. */
function atTurnedTable(events: TableEvent[]): TableEvent[] {
  return events.map((e) => ('seat' in e && typeof e.seat === 'string' ? { ...e, seat: tableSeat(e.seat as Seat, 1) } as TableEvent : e));
}

const original = seedHand(1, false);
const record: TrayRecord = recordFromPlay({ session: 's1', table: '1', events: play(original).events, result: play(original).result, at: '2026-12-04T10:00:00Z' })!;
const schedule = movementByName('memory-duplicate')!.generate({ tables: 1, boardsPerRound: 4 });

describe('a tray turned a quarter (Memory Duplicate: "they must lie E & W for the overplay")', () => {
  it('the pocket dealt North lies at East, East\'s at South, and so on; N & S become E & W', () => {
    expect(SEATS.map((s) => tableSeat(s, 1))).toEqual(['E', 'S', 'W', 'N']);
    expect(SEATS.map((s) => traySeat(tableSeat(s, 1), 1))).toEqual(SEATS);
    expect(turnedSide('NS', 1)).toBe('EW');
    expect(turnedSide('All', 1)).toBe('All');
    const [n, e, s, w] = record.hands.slice(2).split(' ');
    expect(dealAtTable(record.hands, 1)).toBe(`N:${w} ${n} ${e} ${s}`);
  });

  it('the schedule turns the trays for the overplay: round 2 for two pairs, the last three sets for four individuals', () => {
    expect(schedule.rounds.map((r) => r.tables[0].turn)).toEqual([undefined, 1]);
    const ind = movementByName('memory-duplicate')!.generate({ tables: 1, options: { form: 'individuals' } });
    expect(ind.rounds.map((r) => r.tables[0].turn ?? 0)).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it('Dup. def. (c): the scan of a turned tray starts the overplay with each hand where its pocket lies, and says so to the players', () => {
    const assignment: RoundAssignment = {
      schema: 1, type: 'tenace.assignment', session: 's1', movement: 'memory-duplicate', round: 2, table: '1', ns: '1EW', ew: '1NS',
      trays: [1, 2, 3, 4], tables: 1, turn: 1, variant: 'duplicate-whist', at: '2026-12-04T10:00:00Z',
    };
    const d = decideScan({ code: '1', at: assignment.at, session: 's1', table: '1', variant: 'duplicate-whist', records: new Map([[1, record]]), assignment, inPlay: null });
    expect(d.kind).toBe('deal');
    if (d.kind !== 'deal') return;
    expect(d.deal).toMatchObject({ hands: dealAtTable(record.hands, 1), dealer: tableSeat(record.dealer, 1), turn: 1, overplay: true, trumpSlip: record.trumpCard });
    expect(validateTableEvent(d.deal)).toBeNull();
    expect(d.status.message).toMatch(/Turn the tray a quarter clockwise: the pocket dealt North lies at E\./);
  });

  it('the overplay of a turned tray, each hand played where its pocket lies, has no finding; laid unturned, the table would accuse a player at the first card', () => {
    const turned = play([dealEventFromRecord(record, { tables: 1, turn: 1 }), ...atTurnedTable(original.slice(1))]);
    expect(turned.result.findings).toEqual([]);
    // The same cards checked against the tray as dealt: the first card played is "not in the hand" of its seat.
    const flat = play([dealEventFromRecord(record, { tables: 1 }), ...atTurnedTable(original.slice(1))]);
    expect(flat.result.findings.length).toBeGreaterThan(0);
  });

  it('the director scores the overplay by the tray\'s seats: the pair holding the hands dealt N & S gets their tricks', () => {
    const c = play([dealEventFromRecord(record, { tables: 1, turn: 1 }), ...atTurnedTable(original.slice(1))]);
    const index = indexSchedule(schedule);
    const t = travellerOf(c, { tableNo: 1, index, round: 2, variant: 'duplicate-whist' });
    // The same cards played the same way: the hands dealt N & S take the tricks they took at the original play.
    const won = EXPECTED.hands[0].tricksWon;
    expect(won.NS).not.toBe(won.EW);
    expect(t).toMatchObject({ board: 1, ns: '1EW', ew: '1NS', round: 2, tricks: { NS: won.NS, EW: won.EW } });
    // At the table it was the other way round: the table's N-S seats held the hands dealt E & W.
    expect(c.result.scored).toMatchObject({ NS: won.EW, EW: won.NS });
  });

  it('an original play on a turned tray records the hands by the pockets they were dealt to, so a later flat overplay checks out', () => {
    const turnedOriginal = atTurnedTable(original).map((e, i) => (i === 0 ? { ...e, dealer: tableSeat(EXPECTED.hands[0].dealer, 1), turn: 1 } as TableEvent : e));
    const c = play(turnedOriginal);
    const again = recordFromPlay({ session: 's1', table: '1', events: c.events, result: c.result, at: '2026-12-04T10:00:00Z' })!;
    expect([again.hands, again.dealer, again.trumpCard]).toEqual([record.hands, record.dealer, record.trumpCard]);
  });

  it('an assignment whose turn is not 0-3 is refused, naming the field', () => {
    const a = { schema: 1, type: 'tenace.assignment', session: 's1', movement: 'memory-duplicate', round: 2, table: '1', trays: [1], tables: 1, turn: 5, variant: 'duplicate-whist', at: 'x' };
    const r = parseAssignment(JSON.stringify(a), { session: 's1', table: '1' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.error).toMatch(/^turn: must be the quarter turns of the trays this round, 0-3/);
    expect(validateTableEvent({ type: 'deal', board: 1, turn: 4 } as unknown as TableEvent)).toMatch(/"turn" must be the quarter turns/);
  });
});
