// Travellers from text: NDJSON (whist and bridge lines) and PBN with results (a ScoreTable or the game's own tags),
// with every problem on its line, naming the field and the fix.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreTravellers } from '../../src/club/scoring/index.js';
import { readNdjsonTravellers, readPbnTravellers, readTravellers } from '../../src/club/scoring/travellers.js';

const fixture = (f: string) => readFileSync(resolve(import.meta.dirname, '../fixtures/club', f), 'utf8');

describe('NDJSON travellers', () => {
  it('reads whist and bridge lines, with the line of each; blank and # lines are skipped', () => {
    const r = readNdjsonTravellers([
      '# session 1',
      '{"board":1,"ns":"1NS","ew":"1EW","tricks":{"NS":7,"EW":6},"table":1,"round":1}',
      '',
      '{"board":2,"ns":3,"ew":"4","contract":"4 H E","tricks":10}',
      '{"board":3,"ns":"3","ew":"4","contract":"pass"}',
    ].join('\n'));
    expect(r.errors).toEqual([]);
    expect(r.format).toBe('ndjson');
    expect(r.lines).toEqual([2, 4, 5]);
    expect(r.travellers[0]).toEqual({ board: 1, ns: '1NS', ew: '1EW', tricks: { NS: 7, EW: 6 }, table: 1, round: 1 });
    expect(r.travellers[1]).toEqual({ board: 2, ns: '3', ew: '4', contract: '4HE', tricks: 10 });
    expect(r.travellers[2].contract).toBe('PASS');
  });

  it('the bad lines of a file: each on its line, naming the field and the fix', () => {
    const r = readNdjsonTravellers(fixture('bad.ndjson'));
    expect(r.travellers).toHaveLength(1);
    expect(r.errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7]);
    expect(r.errors[0].message).toBe('tricks: N-S 7 and E-W 5 make 12; a deal has 13 tricks');
    expect(r.errors[1].message).toMatch(/^board: "two" is not a board number: give an integer 1 or more/);
    expect(r.errors[2].message).toBe('"trick" is not a traveller field: did you mean "tricks"?');
    expect(r.errors[3].message).toMatch(/^not JSON \(.*\): each line is one result, e\.g\. \{"board":1/);
    expect(r.errors[4].message).toBe('board 1, a v f is already on line 1: remove one of the two lines');
  });

  it('field by field', () => {
    const one = (line: string) => readNdjsonTravellers(line).errors[0]?.message;
    expect(one('{"board":1,"ew":"2","tricks":{"NS":7,"EW":6}}')).toMatch(/^ns: give the N-S pair as the schedule names it/);
    expect(one('{"board":1,"ns":"1","ew":"2","tricks":7}')).toMatch(/^tricks: a number is a bridge declarer's tricks and needs "contract"/);
    expect(one('{"board":1,"ns":"1","ew":"2","contract":"8HE","tricks":7}')).toMatch(/^contract: /);
    expect(one('{"board":1,"ns":"1","ew":"2","contract":"4H","tricks":7}')).toMatch(/^contract: .*names no declarer/);
    expect(one('{"board":1,"ns":"1","ew":"2","contract":"4HE"}')).toBe('tricks: give the declarer\'s tricks, 0-13, e.g. {"contract":"4HE","tricks":10}');
    expect(one('{"board":1,"ns":"1","ew":"2","tricks":{"NS":7,"EW":6},"marks":{"EW":"-R"}}')).toMatch(/^marks: a revoke needs "made"/);
    expect(one('{"board":1,"ns":"1","ew":"2","tricks":{"NS":7,"EW":6},"marks":{"EW":"R"}}')).toMatch(/^marks: .* is not a revoke mark/);
    expect(one('{"board":1,"ns":"1","ew":"2","adjusted":"avg"}')).toMatch(/^adjusted: give "average", "average-plus", "average-minus", percentages for bridge/);
    expect(one('{"board":1,"ns":"1","ew":"2","adjusted":{"NS":7}}')).toMatch(/^adjusted: give /);
    expect(one('{"board":1,"ns":"1","ew":"2","tricks":{"NS":7,"EW":6},"round":0}')).toMatch(/^round: give the round number/);
    expect(one('[1,2]')).toMatch(/^each line is one result object/);
    // A field nobody knows and nothing like a known one is left alone (an export may carry more).
    expect(one('{"board":1,"ns":"1","ew":"2","tricks":{"NS":7,"EW":6},"at":"2026-12-03T10:00:00Z"}')).toBeUndefined();
  });

  it('a replay\'s revoke (tricks after the penalty, made as played, marks) and an adjusted average read as given', () => {
    const r = readNdjsonTravellers([
      '{"board":5,"ns":"a","ew":"f","tricks":{"NS":9,"EW":4},"made":{"NS":7,"EW":6},"marks":{"NS":"+R","EW":"-R"}}',
      '{"board":5,"ns":"b","ew":"g","adjusted":"average"}',
    ].join('\n'));
    expect(r.errors).toEqual([]);
    expect(r.travellers[0].made).toEqual({ NS: 7, EW: 6 });
    expect(r.travellers[1].adjusted).toBe('average');
  });
});

describe('a bare adjustment (no contract, no tricks) is of the file\'s game', () => {
  it('Law 12C2: average-plus among bridge results is scored as bridge (60%, the others factored up with Neuberg)', () => {
    const r = readNdjsonTravellers([
      '{"board":1,"ns":"1NS","ew":"1EW","contract":"4SN","tricks":10}',
      '{"board":1,"ns":"2NS","ew":"2EW","contract":"4SN","tricks":11}',
      '{"board":1,"ns":"3NS","ew":"3EW","contract":"4SN","tricks":9}',
      '{"board":1,"ns":"4NS","ew":"4EW","adjusted":"average-plus"}',
    ].join('\n'));
    expect(r.errors).toEqual([]);
    const report = scoreTravellers(r.travellers);
    expect(report.method).toBe('matchpoints');
    expect(report.boards[0].results.map((x) => x.mp)).toEqual([{ NS: 3, EW: 3 }, { NS: 5.7, EW: 0.3 }, { NS: 0.3, EW: 5.7 }, { NS: 3.6, EW: 3.6 }]);
  });

  it('Dup. V.1: "average" among whist results is scored as whist; "average-plus" there is refused, naming what whist takes', () => {
    const whist = ['{"board":1,"ns":"1NS","ew":"1EW","tricks":{"NS":8,"EW":5}}', '{"board":1,"ns":"2NS","ew":"2EW","tricks":{"NS":6,"EW":7}}'];
    const ok = readNdjsonTravellers([...whist, '{"board":1,"ns":"3NS","ew":"3EW","adjusted":"average"}'].join('\n'));
    expect(ok.errors).toEqual([]);
    expect(scoreTravellers(ok.travellers).method).toBe('average');
    const bad = readNdjsonTravellers([...whist, '{"board":1,"ns":"3NS","ew":"3EW","adjusted":"average-plus"}'].join('\n'));
    expect(bad.errors).toEqual([]);
    expect(() => scoreTravellers(bad.travellers)).toThrow(/^adjusted: "average-plus" is a bridge matchpoint adjustment; whist scores tricks/);
  });
});

describe('PBN with results', () => {
  it('ScoreTable rows of a bridge session: Contract and Declarer columns become "4HN", Pass becomes PASS', () => {
    const r = readTravellers(fixture('bridge-results.pbn'));
    expect(r.format).toBe('pbn');
    expect(r.errors).toEqual([]);
    expect(r.travellers).toEqual([
      { board: 1, ns: '1', ew: '5', table: 1, round: 1, contract: '4HN', tricks: 10 },
      { board: 1, ns: '2', ew: '6', table: 2, round: 1, contract: '3NTSX', tricks: 8 },
      { board: 1, ns: '3', ew: '7', table: 3, round: 1, contract: 'PASS' },
      // A game without a ScoreTable: its own Contract, Declarer and Result, the pairs from PairId tags.
      { board: 2, ns: '4', ew: '8', contract: '2SE', tricks: 9, table: 4 },
    ]);
    expect(r.lines).toEqual([8, 9, 10, 12]);
  });

  it('whist results in a ScoreTable (Tricks_NS and Tricks_EW columns)', () => {
    const r = readPbnTravellers(fixture('whist-scoretable.pbn'));
    expect(r.errors).toEqual([]);
    expect(r.travellers.map((t) => [t.board, t.ns, t.ew, t.tricks])).toEqual([
      [1, 'a', 'f', { NS: 7, EW: 6 }], [1, 'b', 'g', { NS: 8, EW: 5 }], [1, 'c', 'h', { NS: 6, EW: 7 }],
      [2, 'a', 'g', { NS: 5, EW: 8 }], [2, 'b', 'h', { NS: 7, EW: 6 }], [2, 'c', 'f', { NS: 6, EW: 7 }],
    ]);
  });

  it('a result with no pairs, a Contract without a Result and a ScoreTable without PairId columns are errors with the fix', () => {
    const r = readPbnTravellers([
      '[Board "1"]', '[Declarer "N"]', '[Contract "4H"]', '[Result "10"]', '',
      '[Board "2"]', '[Declarer "N"]', '[Contract "4H"]', '',
      '[Board "3"]', '[ScoreTable "Contract\\5L;Declarer\\1R;Result\\2R"]', '4H N 10',
    ].join('\n'));
    expect(r.travellers).toEqual([]);
    expect(r.errors).toEqual([
      { line: 1, message: 'board 1: the result names no pairs: add [PairId_NS "1"] and [PairId_EW "2"], or a ScoreTable with PairId_NS and PairId_EW columns' },
      { line: 6, message: 'board 2: Contract 4HN has no Result: add [Result "N"], the declarer\'s tricks' },
      { line: 11, message: 'ScoreTable: no PairId_NS column: the pairs of each result are needed to score it' },
      { line: 11, message: 'ScoreTable: no PairId_EW column: the pairs of each result are needed to score it' },
    ].sort((a, b) => a.line - b.line));
  });

  it('a hand-record file (deals only, no results) gives no travellers and no errors', () => {
    const r = readTravellers('[Board "1"]\n[Dealer "N"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432"]\n');
    expect(r).toMatchObject({ format: 'pbn', travellers: [], errors: [] });
  });

  it('a bad ScoreTable row names its line and the column', () => {
    const r = readPbnTravellers('[Board "1"]\n[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\5L;Declarer\\1R;Result\\2R"]\n1 2 4H N 10\n3 4 4H N ten\n5 6 4H Q 10\n');
    expect(r.travellers).toHaveLength(1);
    expect(r.errors).toEqual([
      { line: 4, message: 'ScoreTable: Result "ten" is not a number of tricks: give the declarer\'s tricks, 0-13' },
      { line: 5, message: 'ScoreTable: Declarer "Q" is not a seat: give N, E, S or W' },
    ]);
  });
});
