// PBN import of real files written by other programs (../shared/data).
import { describe, expect, it } from 'vitest';
import { parsePbn, formatPbn } from '../../src/formats/pbn.js';
import { sideTricks, contractTrump, recordToTableLog } from '../../src/formats/record.js';
import { validateTableEvent } from '../../src/formats/table-log.js';
import { dataFile, playProblems, essentials, PBN_FILES } from './data.js';

describe('camrose2024-ben.pbn (BridgeComposer export, ## inheritance, auctions with notes)', () => {
  const { records, errors } = parsePbn(dataFile('camrose2024-ben.pbn'));

  it('reads all 160 games without errors', () => {
    expect(errors).toEqual([]);
    expect(records).toHaveLength(160);
  });

  it('reads the first board: deal, dealer, contract, result, first tricks', () => {
    const r = records[0];
    expect(r.board).toBe(1);
    expect(r.dealer).toBe('N');
    expect(r.vulnerable).toBe('None');
    expect(r.hands).toBe('N:T5.982.874.AQ632 K43.73.KQ5.KJT54 AJ9.AQT6.JT62.98 Q8762.KJ54.A93.7');
    expect(r.contract).toBe('3SW');
    expect(r.declarer).toBe('W');
    expect(r.result).toBe(9);
    expect(r.plays).toHaveLength(52);
    expect(r.plays.slice(0, 4)).toEqual([
      { seat: 'N', card: 'ST' }, { seat: 'E', card: 'SK' }, { seat: 'S', card: 'SA' }, { seat: 'W', card: 'S6' },
    ]);
    // South won with the ace, so South leads trick 2 although the line reads "S5 S3 S9 SQ" from North.
    expect(r.plays.slice(4, 8)).toEqual([
      { seat: 'S', card: 'S9' }, { seat: 'W', card: 'SQ' }, { seat: 'N', card: 'S5' }, { seat: 'E', card: 'S3' },
    ]);
    expect(r.claim).toBeUndefined();
  });

  it('applies "##" tags of the first game to the later ones (PBN 4.8)', () => {
    expect(records[0].tags.Event).toBe('camrose24_1');
    expect(records[1].tags.Event).toBe('camrose24_1');
    expect(records[159].tags.Site).toBe('BEN');
    expect(records[1].hands).toBe('N:T4.K62.KQ985.T54 J2.T9875.J4.AQ82 A73.AQJ43.T32.96 KQ9865..A76.KJ73');
    expect(records[1].dealer).toBe('E');
  });

  it('reads passed-out boards as records without contract or play', () => {
    const passed = records.filter((r) => r.contract === undefined);
    expect(passed.map((r) => r.board)).toEqual([99, 109, 144]);
    for (const r of passed) {
      expect(r.plays).toEqual([]);
      expect(r.claim).toBeUndefined();
    }
  });

  it('orders every play legally and the tricks agree with [Result]', () => {
    for (const r of records) {
      expect(playProblems(r), `board ${r.board}`).toEqual([]);
      if (r.plays.length === 52) expect(sideTricks(r.plays, contractTrump(r.contract), r.declarer!), `board ${r.board}`).toBe(r.result);
    }
  });
});

describe('tablemonitor-training.pbn (PBN 2.0 import style)', () => {
  const { records, errors } = parsePbn(dataFile('tablemonitor-training.pbn'));

  it('reads 379 games, including the unquoted [Event Random Deal #] tag', () => {
    expect(errors).toEqual([]);
    expect(records).toHaveLength(379);
    expect(records[0].tags.Event).toBe('Random Deal #');
  });

  it('reads cards in either case and puts them in play order', () => {
    const r = records[0];
    expect(r.contract).toBe('3DS');
    expect(r.result).toBe(6);
    expect(r.players).toEqual({ N: 'thor4480e', E: 'WBridge5', S: 'thor4480e', W: 'WBridge5' });
    // [Play "W"]: "cq C7 c8 CK", then "d8 D4 d5 DK" led by South, who won the first trick.
    expect(r.plays.slice(0, 8)).toEqual([
      { seat: 'W', card: 'CQ' }, { seat: 'N', card: 'C7' }, { seat: 'E', card: 'C8' }, { seat: 'S', card: 'CK' },
      { seat: 'S', card: 'DK' }, { seat: 'W', card: 'D8' }, { seat: 'N', card: 'D4' }, { seat: 'E', card: 'D5' },
    ]);
  });

  it('orders every play legally and the tricks agree with [Result]', () => {
    for (const r of records) {
      expect(playProblems(r)).toEqual([]);
      expect(sideTricks(r.plays, contractTrump(r.contract), r.declarer!)).toBe(r.result);
    }
  });
});

describe('bridgebots-sample.pbn (plays that stop early, "*", comments, notes)', () => {
  const { records, errors } = parsePbn(dataFile('bridgebots-sample.pbn'));

  it('reads three games', () => {
    expect(errors).toEqual([]);
    expect(records.map((r) => r.board)).toEqual([10, 1, 14]);
    expect(records.map((r) => r.contract)).toEqual(['3NTW', '3DE', '5CE']);
  });

  it('derives the claim from [Result] when the play stops: 7 tricks, West holds 5 and claims 4 more for 9', () => {
    const r = records[0];
    expect(r.plays).toHaveLength(29);
    expect(r.plays[28]).toEqual({ seat: 'W', card: 'S6' });
    expect(r.claim).toEqual({ seat: 'W', tricks: 4 });
  });

  it('keeps a partial trick up to its first missing card ("- S9 S3 ST" led by West)', () => {
    const r = records[1];
    expect(r.plays.slice(28)).toEqual([{ seat: 'W', card: 'S9' }, { seat: 'N', card: 'S3' }, { seat: 'E', card: 'ST' }]);
    expect(r.claim).toEqual({ seat: 'E', tricks: 5 });
    expect(r.players?.W).toBe('Franky Karwur');
  });

  it('reads "--" as a missing card and inherits [Scoring "#"] from the nearest earlier game', () => {
    const r = records[2];
    expect(r.plays.slice(20)).toEqual([{ seat: 'W', card: 'HQ' }, { seat: 'N', card: 'H7' }]);
    expect(r.claim).toEqual({ seat: 'E', tricks: 7 });
    expect(r.tags.Scoring).toBe('IMP;Cross');
  });

  it('turns a record into a valid table log that ends with the claim', () => {
    const events = recordToTableLog(records[0]);
    expect(events[0]).toEqual({
      type: 'deal', board: 10, variant: 'bridge', dealer: 'E', contract: '3NTW', vulnerable: 'All',
      hands: 'N:T82.62.T764.KQ42 KQJ7.QJ754.AJ.AT A954.AT98.Q8.875 63.K3.K9532.J963',
    });
    expect(events.map(validateTableEvent).filter((x) => x !== null)).toEqual([]);
    expect(events.filter((e) => e.type === 'place')).toHaveLength(29);
    expect(events.filter((e) => e.type === 'lift')).toHaveLength(28);
    expect(events[events.length - 1]).toEqual({ type: 'claim', seat: 'W', tricks: 4 });
  });
});

describe('PBN round trip on the real files', () => {
  for (const name of PBN_FILES) {
    it(`${name}: parse(format(parse(x))) keeps deals, contracts, plays and claims`, () => {
      const first = parsePbn(dataFile(name));
      const text = formatPbn(first.records);
      const second = parsePbn(text);
      expect(second.errors).toEqual([]);
      expect(second.records.map(essentials)).toEqual(first.records.map(essentials));
      // Export format: CRLF line ends, no tabs.
      expect(text).not.toMatch(/[^\r]\n/);
      expect(text).not.toContain('\t');
    });
  }
});
