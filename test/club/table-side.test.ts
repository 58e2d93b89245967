// The table's part of a club session, pure (src/club/table-side.ts): what a tray scan becomes, and how the table
// reads the club's retained messages. The laws quoted are Foster 1914, "The Laws of Duplicate Whist"
// (/work/shared/seeds/001_ba1e1e65635c4784.txt).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ClubMemory, DEAL_IN_PLAY_LAW, WRONG_TRAY_LAW, boardDealer, dealEventFromRecord, decideScan, originalDealEvent,
  parseAssignment, parseReleased, parseTrayRecord, type ScanContext,
} from '../../src/club/table-side.js';
import type { RoundAssignment, TrayRecord } from '../../src/club/types.js';
import { checkEventsQuery } from '../../src/feed/commands.js';
import { findLeaks } from '../../src/feed/privacy.js';
import { validateTableEvent } from '../../src/formats/table-log.js';
import { formatTrayCode } from '../../src/hardware/tray-code.js';
import { Table } from '../../src/laws/engine.js';

// Foster's first seed hand (test/fixtures/seed-hands/hand1.ndjson): W deals and turns the H5.
const HANDS = 'N:J4.T72.J.AKQ9864 9.KJ43.QT9763.J5 AK732.AQ96.42.72 QT865.85.AK85.T3';
const AT = '2026-12-03T09:00:00.000Z';

function record(board: number, over: Partial<TrayRecord> = {}): TrayRecord {
  return {
    schema: 1, type: 'tenace.tray', session: 'eve', board, hands: HANDS, dealer: 'W', trumpCard: 'H5',
    source: { kind: 'hand-record', file: 'eve.pbn', at: AT }, rev: 1, ...over,
  };
}

function assignment(trays: number[], over: Partial<RoundAssignment> = {}): RoundAssignment {
  return { schema: 1, type: 'tenace.assignment', session: 'eve', movement: 'mitchell', round: 2, table: 't3', trays, tables: 4, variant: 'duplicate-whist', at: AT, ...over };
}

function ctx(board: number, over: Partial<ScanContext> = {}): ScanContext {
  return {
    code: formatTrayCode({ session: 'eve', board }), seq: 10, at: AT, session: 'eve', table: 't3', variant: 'duplicate-whist',
    records: new Map([[7, record(7)]]), assignment: assignment([7, 8, 9]), inPlay: null, ...over,
  };
}

describe('a scan with the tray record becomes the overplay deal', () => {
  it('dealEventFromRecord: board, dealer, hands, trump slip, overplay and tables, a valid deal event', () => {
    const ev = dealEventFromRecord(record(7, { vulnerable: 'None' }), { tables: 4, variant: 'duplicate-whist' });
    expect(ev).toEqual({ type: 'deal', board: 7, dealer: 'W', hands: HANDS, variant: 'duplicate-whist', trumpSlip: 'H5', vulnerable: 'None', overplay: true, tables: 4 });
    expect(validateTableEvent(ev)).toBeNull();
    // A trump declared for the sitting has no slip (Dup. IV.11: "a trump suit may be declared and no trump turned").
    const declared = dealEventFromRecord(record(7, { trumpCard: undefined, trump: 'S' }), { tables: 4 });
    expect(declared.trumpSlip).toBeUndefined();
    expect(declared.trump).toBe('S');
  });

  it('Dup. def. (g) "renounces in error when, although holding one or more cards of the suit led, he plays a card of a different suit": found at that card', () => {
    const t = new Table({ variant: 'duplicate-whist' });
    t.apply({ ...dealEventFromRecord(record(7), { tables: 4 }), seq: 1 });
    t.apply({ type: 'place', seat: 'W', card: 'H5', seq: 2 }); // the turned trump (Dup. III.1)
    t.apply({ type: 'place', seat: 'N', card: 'CK', seq: 3 });
    const f = t.apply({ type: 'place', seat: 'E', card: 'D3', seq: 4 }); // E holds CJ and C5
    expect(f.map((x) => x.kind)).toContain('renounce-in-error');
  });

  it('Dup. V.1 (irregularities in the hand on the overplay): a card that is not in the hand of the tray is found at the first card', () => {
    const t = new Table({ variant: 'duplicate-whist' });
    t.apply({ ...dealEventFromRecord(record(7), { tables: 4 }), seq: 1 });
    t.apply({ type: 'place', seat: 'W', card: 'H5', seq: 2 });
    const f = t.apply({ type: 'place', seat: 'N', card: 'S2', seq: 3 }); // the S2 is in S's pocket of the tray
    expect(f.map((x) => x.kind)).toContain('card-not-in-hand');
  });

  it('decideScan: this table\'s tray with a record → the deal from the record, tables from the assignment', () => {
    const d = decideScan(ctx(7));
    expect(d.kind).toBe('deal');
    if (d.kind !== 'deal') return;
    expect(d.deal).toMatchObject({ board: 7, hands: HANDS, trumpSlip: 'H5', overplay: true, tables: 4, dealer: 'W', round: 2, trayRev: 1 });
    expect(d.status).toMatchObject({ status: 'overplay', board: 7, round: 2 });
  });
});

describe('Dup. def. (f) "each deal is played only once by each player": a tray dealt in this round is not dealt again', () => {
  const fold = (events: { type: string; board?: number; round?: number; trayRev?: number }[]) => {
    const m = new ClubMemory('eve', 't3');
    for (const e of events) m.noteEvent(e);
    return m.played;
  };

  it('a second scan of tray 7 after its deal in round 2 is a wrong tray, no deal, telling the players to wait for the next round', () => {
    const played = fold([{ type: 'deal', board: 7, round: 2, trayRev: 1 }]);
    const d = decideScan(ctx(7, { played }));
    expect(d.kind).toBe('alert');
    if (d.kind !== 'alert') return;
    expect(d.alert).toMatchObject({ kind: 'wrong-tray', law: WRONG_TRAY_LAW, board: 7, round: 2, expected: [7, 8, 9] });
    expect(d.alert.message).toMatch(/scanned tray 7 again in round 2, after dealing it in round 2; no deal was started \(def\. \(f\)/);
    expect(d.status.message).toMatch(/^Tray 7 has already been played at this table in round 2\. If the next round has begun, wait until the table shows it/);
    // In the next round (its assignment arrived), the same tray is this table's again.
    expect(decideScan(ctx(7, { played, assignment: assignment([7], { round: 3 }) })).kind).toBe('deal');
  });

  it('a table that has not yet heard its assignment (just restarted) does not deal a tray it dealt in any round: it waits for the director', () => {
    const played = fold([{ type: 'deal', board: 7, round: 1, trayRev: 1 }, { type: 'deal', board: 9, round: 2 }]);
    const d = decideScan(ctx(7, { played, assignment: null }));
    expect(d.kind).toBe('alert');
    if (d.kind !== 'alert') return;
    expect(d.alert.message).toMatch(/scanned tray 7 again with no assignment, after dealing it in round 1/);
    expect(d.status.message).toMatch(/^Tray 7 has already been played at this table \(round 1\), and the table has not heard this round from the director yet/);
    // A tray it has not dealt is played as before; a table without a director journals no rounds, so nothing is held back.
    expect(decideScan(ctx(8, { played, assignment: null })).kind).toBe('deal');
    expect(decideScan(ctx(7, { played: fold([{ type: 'deal', board: 7 }]), assignment: null })).kind).toBe('deal');
  });

  it('an abandoned deal does not count; a director\'s correction of the record (a new deal) lets the tray be played again; an original play\'s record does not', () => {
    expect(decideScan(ctx(7, { played: fold([{ type: 'deal', board: 7, round: 2, trayRev: 1 }, { type: 'abandon' }]) })).kind).toBe('deal');
    const corrected = record(7, { rev: 2, source: { kind: 'correction', by: 'director', reason: 'new deal', at: AT } });
    expect(decideScan(ctx(7, { played: fold([{ type: 'deal', board: 7, round: 2, trayRev: 1 }]), records: new Map([[7, corrected]]) })).kind).toBe('deal');
    // Memory Duplicate with a stale assignment: tray 8 was dealt in round 2 with no record; the record its play made
    // must not let it be dealt again as if the overplay had begun.
    const made = record(8, { rev: 1 });
    expect(decideScan(ctx(8, { played: fold([{ type: 'deal', board: 8, round: 2 }]), records: new Map([[8, made]]) })).kind).toBe('alert');
  });
});

describe('a scan without a record is the original play', () => {
  it('the deal has the board and the dealer only (N deals 1, 5, 9; E 2; S 3; W 4), no hands', () => {
    const d = decideScan(ctx(8));
    expect(d.kind).toBe('deal');
    if (d.kind !== 'deal') return;
    // The assignment's round is journaled with the deal (def. (f) below).
    expect(d.deal).toEqual({ type: 'deal', board: 8, variant: 'duplicate-whist', dealer: 'W', tables: 4, round: 2 });
    expect(d.status.status).toBe('original');
    expect([1, 2, 3, 4, 5].map((b) => boardDealer(b, 'duplicate-whist'))).toEqual(['N', 'E', 'S', 'W', 'N']);
    // Bridge: the board number gives the vulnerability too (Law 2).
    expect(originalDealEvent(2, { variant: 'bridge' })).toEqual({ type: 'deal', board: 2, variant: 'bridge', dealer: 'E', vulnerable: 'NS' });
    // A game of two seats keeps the engine's default dealer.
    expect(originalDealEvent(2, { variant: 'humbug' }).dealer).toBeUndefined();
  });

  it('Dup. IV.11 "a trump suit may be declared and no trump turned": the assignment\'s trump for the sitting goes on the original play\'s deal, and into its record', () => {
    const c = ctx(8);
    const d = decideScan({ ...c, assignment: { ...c.assignment!, trump: 'H' } });
    expect(d.kind === 'deal' && d.deal).toEqual({ type: 'deal', board: 8, variant: 'duplicate-whist', dealer: 'W', tables: 4, trump: 'H', round: 2 });
    // Bridge has its trump from the auction: a declared suit is not put on its deal.
    expect(originalDealEvent(2, { variant: 'bridge', trump: 'H' }).trump).toBeUndefined();
    expect(parseAssignment(JSON.stringify({ ...c.assignment!, trump: 'hearts' }), { session: c.session, table: c.table })).toMatchObject({ ok: false, problem: { field: 'trump' } });
  });

  it('without an assignment every tray of the session is played (a table without a director)', () => {
    const d = decideScan(ctx(12, { assignment: null }));
    expect(d.kind).toBe('deal');
    if (d.kind === 'deal') expect(d.deal).toEqual({ type: 'deal', board: 12, variant: 'duplicate-whist', dealer: 'W' });
  });
});

describe('a wrong tray is an alert and no deal', () => {
  it(`Dup. def. (c) "a tray is a device for retaining the hands of a deal and indicating the order of playing them": a tray not this table's this round → wrong-tray (${WRONG_TRAY_LAW})`, () => {
    const d = decideScan(ctx(5));
    expect(d.kind).toBe('alert');
    if (d.kind !== 'alert') return;
    expect(d.alert).toMatchObject({ schema: 1, type: 'tenace.alert', kind: 'wrong-tray', session: 'eve', table: 't3', board: 5, round: 2, law: WRONG_TRAY_LAW, expected: [7, 8, 9], seq: 10, at: AT });
    expect(d.alert.message).toMatch(/tray 5 in round 2; its trays this round are 7, 8, 9/);
    expect(d.status).toMatchObject({ status: 'wrong-tray', board: 5, expected: [7, 8, 9], round: 2 });
    // The status goes on the public state: no card, no hand.
    expect(findLeaks(d.status, new Set())).toEqual([]);
  });

  it('a tray of another session is a wrong tray even with no assignment', () => {
    const d = decideScan(ctx(7, { code: formatTrayCode({ session: 'monday', board: 7 }), assignment: null }));
    expect(d.kind).toBe('alert');
    if (d.kind === 'alert') expect(d.alert.message).toMatch(/session "monday"/);
    // The session of the code is compared without case (codes are lower case, a config may not be).
    expect(decideScan(ctx(7, { session: 'Eve' })).kind).toBe('deal');
  });

  it(`Dup. IV.7 "When a deal has been played the cards ... must be placed in the tray": another tray while a deal is in play → alert, no deal (${DEAL_IN_PLAY_LAW})`, () => {
    const d = decideScan(ctx(8, { inPlay: { board: 7, trick: 5 } }));
    expect(d.kind).toBe('alert');
    if (d.kind !== 'alert') return;
    expect(d.alert.law).toBe(DEAL_IN_PLAY_LAW);
    expect(d.status.status).toBe('deal-in-progress');
    expect(d.alert.message).toMatch(/abandon-deal/);
    // The tray in play scanned again changes nothing.
    expect(decideScan(ctx(7, { inPlay: { board: 7, trick: 5 } })).kind).toBe('none');
  });

  it('property: a scan starts a deal exactly when its board is one of the assignment\'s trays and no other deal is in play; the same inputs decide the same', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 40 }), fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }), fc.option(fc.integer({ min: 1, max: 40 })), fc.boolean(),
      (board, trays, playing, withRecord) => {
        const c = ctx(board, { assignment: assignment(trays), inPlay: playing === null ? null : { board: playing, trick: 2 }, records: withRecord ? new Map([[board, record(board)]]) : new Map() });
        const d = decideScan(c);
        expect(decideScan(c)).toEqual(d);
        if (playing === board) expect(d.kind).toBe('none');
        else expect(d.kind === 'deal').toBe(trays.includes(board) && playing === null);
        if (d.kind === 'deal') expect(d.deal.hands !== undefined).toBe(withRecord);
        if (d.kind === 'alert') expect(findLeaks(d.status, new Set())).toEqual([]);
      },
    ));
  });
});

describe('the club messages: a malformed one names the field and the fix and is ignored', () => {
  it('tray records', () => {
    const ok = parseTrayRecord(JSON.stringify(record(7)), { session: 'eve', board: 7 });
    expect(ok.ok).toBe(true);
    const cases: [unknown, string, RegExp][] = [
      ['{', 'payload', /not JSON/],
      [{ ...record(7), session: 'other' }, 'session', /plays session "eve"/],
      [{ ...record(8) }, 'board', /topic of board 7/],
      [{ ...record(7), hands: 'N:AKQ' }, 'hands', /PBN/],
      [{ ...record(7), dealer: 'X' }, 'dealer', /N, E, S or W/],
      [{ ...record(7), trumpCard: 'Z9' }, 'trumpCard', /trump slip/],
      [{ ...record(7), rev: 0 }, 'rev', /from 1/],
      [{ ...record(7), type: 'tenace.assignment' }, 'type', /tenace\.tray/],
    ];
    for (const [payload, field, fix] of cases) {
      const r = parseTrayRecord(typeof payload === 'string' ? payload : JSON.stringify(payload), { session: 'eve', board: 7 });
      expect(r.ok, field).toBe(false);
      if (r.ok) continue;
      expect(r.problem.field).toBe(field);
      expect(r.problem.error.startsWith(`${field}: `)).toBe(true);
      expect(r.problem.error).toMatch(fix);
    }
  });

  it('assignments and the released list', () => {
    expect(parseAssignment(JSON.stringify(assignment([1])), { session: 'eve', table: 't3' }).ok).toBe(true);
    const wrongTable = parseAssignment(JSON.stringify(assignment([1], { table: 't4' })), { session: 'eve', table: 't3' });
    expect(wrongTable.ok ? '' : wrongTable.problem.error).toMatch(/^table: .*this is table "t3"/);
    const trays = parseAssignment(JSON.stringify({ ...assignment([1]), trays: ['a'] }), { session: 'eve', table: 't3' });
    expect(trays.ok ? '' : trays.problem.error).toMatch(/^trays: must list the board numbers/);
    expect(parseReleased(JSON.stringify({ schema: 1, type: 'tenace.released', session: 'eve', boards: [1, 2] }), { session: 'eve' })).toEqual({ ok: true, value: [1, 2] });
    const rel = parseReleased(JSON.stringify({ schema: 1, type: 'tenace.released', session: 'eve', boards: 3 }), { session: 'eve' });
    expect(rel.ok ? '' : rel.problem.field).toBe('boards');
  });

  it('ClubMemory keeps the latest valid record, counts the malformed ones, never goes back a revision, and clears on an empty retained message', () => {
    const m = new ClubMemory('eve', 't3');
    expect(m.takeRecord(7, JSON.stringify(record(7, { rev: 2 })))).toBeNull();
    expect(m.takeRecord(7, JSON.stringify(record(7, { rev: 1, dealer: 'N' })))).toBeNull();
    expect(m.records.get(7)?.rev).toBe(2);
    expect(m.takeRecord(7, '{"schema":1}')?.field).toBe('type');
    expect(m.malformed).toBe(1);
    expect(m.records.get(7)?.rev).toBe(2);
    expect(m.takeRecord(7, '')).toBeNull();
    expect(m.records.has(7)).toBe(false);
    expect(m.takeAssignment(JSON.stringify(assignment([7])))).toBeNull();
    expect(m.assignment?.trays).toEqual([7]);
    expect(m.takeReleased(JSON.stringify({ schema: 1, type: 'tenace.released', session: 'eve', boards: [7] }))).toEqual({ added: [7] });
    expect(m.takeReleased(JSON.stringify({ schema: 1, type: 'tenace.released', session: 'eve', boards: [7, 8] }))).toEqual({ added: [8] });
  });
});

describe('request/events is checked like the commands', () => {
  it('defaults the page to 500 and names the field and the fix of a bad query', () => {
    expect(checkEventsQuery('{"transaction":"q1","after":4}')).toEqual({ ok: true, query: { transaction: 'q1', after: 4, limit: 500 } });
    const cases: [string, RegExp][] = [
      ['{"transaction":"q1"}', /^after: is missing; give the last seq you hold/],
      ['{"transaction":"q1","after":-1}', /^after: .*give the last seq you hold/],
      ['{"transaction":"q1","after":0,"limit":0}', /^limit: .*page size/],
      ['{"after":0}', /^transaction: is missing/],
      ['{"transaction":"q1","after":0,"since":3}', /^since: is not a field of events/],
      ['[1]', /^payload: must be a JSON object/],
    ];
    for (const [payload, error] of cases) {
      const r = checkEventsQuery(payload);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(error);
    }
  });
});

describe('a bridge session at a table configured for another game (issue 17: bridge sessions never finished)', () => {
  it('the original play\'s deal names the session\'s game from the assignment, so the director\'s record-from-play reads it as bridge (Law 2: dealer and vulnerability by board)', () => {
    const d = decideScan(ctx(9, { variant: 'duplicate-whist', records: new Map(), assignment: assignment([9], { variant: 'bridge' }) }));
    expect(d.kind).toBe('deal');
    if (d.kind !== 'deal') return;
    expect(d.deal.variant).toBe('bridge');
    // Board 9: N deals, E-W vulnerable (Law 2's rotation of sixteen).
    expect(d.deal.dealer).toBe('N');
    expect(d.deal.vulnerable).toBe('EW');
    expect(d.deal.trump).toBeUndefined();
  });

  it('the overplay\'s deal carries the session\'s game too', () => {
    const rec = record(7, { variant: 'bridge', trumpCard: undefined, vulnerable: 'All' });
    const d = decideScan(ctx(7, { variant: 'duplicate-whist', records: new Map([[7, rec]]), assignment: assignment([7], { variant: 'bridge' }) }));
    expect(d.kind === 'deal' && d.deal.variant).toBe('bridge');
  });

  it('without an assignment the table\'s own game stands', () => {
    const ev = originalDealEvent(3, { variant: 'duplicate-whist' });
    expect(ev.variant).toBe('duplicate-whist');
  });
});

describe('the laws a wrong tray rests on follow the session\'s game', () => {
  it('bridge: a board that is not the table\'s, or played already, is Law 15 (Wrong Board or Hand), not the whist definitions', () => {
    const bridge = assignment([7, 8], { variant: 'bridge' });
    const d = decideScan(ctx(9, { records: new Map(), assignment: bridge }));
    expect(d.kind === 'alert' && d.alert.law).toBe('L15');
    const again = decideScan(ctx(7, { records: new Map(), assignment: bridge, played: new Map([['2:7', 0]]) }));
    expect(again.kind === 'alert' && again.alert.law).toBe('L15');
    expect(again.kind === 'alert' && again.alert.message).toMatch(/Law 15: a board is played once at each table/);
    const whist = decideScan(ctx(5, { records: new Map() }));
    expect(whist.kind === 'alert' && whist.alert.law).toBe(WRONG_TRAY_LAW);
  });
});
