// The neutral record: column order, tricks, claims, and its table log.
import { describe, expect, it } from 'vitest';
import {
  playOrderFromColumns, recordToTableLog, claimFromResult, parseCompactContract, contractTrump, tricksOf,
  type DealRecord, type Play,
} from '../../src/formats/record.js';
import { parseTableLog, formatTableLog } from '../../src/formats/table-log.js';

const plays = (s: string): Play[] => s.split(' ').map((x) => ({ seat: x[0] as Play['seat'], card: x.slice(1) }));

describe('playOrderFromColumns', () => {
  const rows = [
    { cards: ['H2', 'HA', 'H3', 'H4'] }, // columns from East: E S W N
    { cards: ['C2', 'C3', 'C4', 'C5'] },
  ];

  it('starts at the given seat and lets the winner lead the next trick', () => {
    const r = playOrderFromColumns(rows, 'E', -1);
    expect(r.plays.map((p) => p.seat + p.card).join(' ')).toBe('EH2 SHA WH3 NH4 SC3 WC4 NC5 EC2');
    expect(r.leaders).toEqual(['E', 'S']);
    expect(r.stoppedAt).toBeUndefined();
  });

  it('follows a lead out of turn', () => {
    const r = playOrderFromColumns([rows[0], { cards: rows[1].cards, ledOutOfTurn: 3 }], 'E', -1);
    expect(r.plays.slice(4).map((p) => p.seat + p.card).join(' ')).toBe('NC5 EC2 SC3 WC4');
  });

  it('stops at the first missing card and counts what it cannot order', () => {
    const r = playOrderFromColumns([rows[0], { cards: ['C2', null, 'C4', 'C5'] }, { cards: ['D2', null, null, null] }], 'E', -1);
    expect(r.plays).toHaveLength(4);
    expect(r.stoppedAt).toBe(1);
    expect(r.unordered).toBe(4);
  });
});

describe('tricks and claims', () => {
  const p = plays('WHK NHA EH2 SH3 NCA EC3 SC4 WC2 NDA ED3 SS5 WD2');

  it('finds winners with trumps', () => {
    expect(tricksOf(p, 0).map((t) => t.winner)).toEqual(['N', 'N', 'S']);
    expect(tricksOf(p, -1).map((t) => t.winner)).toEqual(['N', 'N', 'N']);
  });

  it('derives a claim from declarer\'s total', () => {
    expect(claimFromResult(p, 0, 'S', 10)).toEqual({ seat: 'S', tricks: 7 });
    expect(claimFromResult(p, 0, 'E', 3)).toEqual({ seat: 'E', tricks: 3 });
    expect(claimFromResult(p, 0, 'S', 2)).toMatch(/cannot follow/);
    expect(claimFromResult(p, 0, 'E', 11)).toMatch(/cannot follow/);
  });

  it('reads compact contracts', () => {
    expect(parseCompactContract('3NTSX')).toEqual({ level: 3, strain: 'NT', declarer: 'S', risk: 'X' });
    expect(parseCompactContract('4HE')).toEqual({ level: 4, strain: 'H', declarer: 'E', risk: '' });
    expect(parseCompactContract('8HE')).toBeNull();
    expect(contractTrump('4HE')).toBe(1);
    expect(contractTrump('3NTSX')).toBe(-1);
    expect(contractTrump(undefined)).toBe(-1);
  });
});

describe('recordToTableLog', () => {
  const rec: DealRecord = {
    board: 3, dealer: 'S', contract: '4SS', plays: plays('WHK NHA EH2 SH3 NCA EC3'), claim: { seat: 'S', tricks: 11 }, tags: {},
  };

  it('places every card, lifts each complete trick, and ends with the claim', () => {
    const events = recordToTableLog(rec);
    expect(events.map((e) => e.type + ('seat' in e ? ` ${e.seat}` : ''))).toEqual([
      'deal',
      'place W', 'place N', 'place E', 'place S', 'lift W', 'lift N', 'lift E', 'lift S',
      'place N', 'place E',
      'claim S',
    ]);
    expect(events[0]).toEqual({ type: 'deal', board: 3, variant: 'bridge', dealer: 'S', contract: '4SS' });
  });

  it('writes a log that the table-log parser accepts', () => {
    const back = parseTableLog(formatTableLog(recordToTableLog({ ...rec, variant: 'duplicate-whist' })));
    expect(back.errors).toEqual([]);
    expect(back.events).toHaveLength(12);
    expect(back.events[0]).toMatchObject({ variant: 'duplicate-whist' });
  });
});
