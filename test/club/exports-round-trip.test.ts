// The session exports read back by `tenace score` (issue 19): random sessions (src: a real movement, random deals,
// random results with revokes under Dup. X.4, averages and awards) through the CSV travellers and the PBN export,
// read by readTravellers and scored again, give the standings and every board's scores the director published.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportCsv, exportPbn } from '../../src/club/exports/index.js';
import { scoreTravellers } from '../../src/club/scoring/index.js';
import { readTravellers } from '../../src/club/scoring/travellers.js';
import { scoreCommand } from '../../src/cli/score.js';
import { replayCommand } from '../../src/cli/replay.js';
import { parsePbn } from '../../src/formats/pbn.js';
import { recordsByBoard } from '../../src/club/exports/common.js';
import type { ScoreReport, SessionExport } from '../../src/club/types.js';
import { randomSession, randomSessions as sessions } from './random-session.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A report in an order that does not depend on the order of the file's lines. */
function canonical(r: ScoreReport): unknown {
  const key = (x: { ns: string; ew: string; table?: number | string }) => `${x.ns} ${x.ew} ${x.table ?? ''}`;
  return {
    ...r,
    pairs: [...r.pairs].sort((a, b) => a.pair.localeCompare(b.pair)),
    boards: [...r.boards].sort((a, b) => a.board - b.board).map((b) => ({ ...b, results: [...b.results].sort((x, y) => key(x).localeCompare(key(y))) })),
  };
}


/**
 * The published report as scoring gives it for the lines in the order every export writes them (board, round,
 * table): whist scoring adds rounded values, so another order may move a total in its second decimal.
 */
function published(s: SessionExport): ScoreReport {
  const order = [...s.travellers].sort((a, b) => a.board - b.board || (a.round ?? 0) - (b.round ?? 0) || Number(a.table) - Number(b.table));
  return scoreTravellers(order, { method: s.report.method as 'average' });
}

/** Read an export back and score it by the session's method. */
function rescored(s: SessionExport, text: string): ScoreReport {
  const read = readTravellers(text);
  expect(read.errors).toEqual([]);
  expect(read.travellers).toHaveLength(s.travellers.length);
  return scoreTravellers(read.travellers, { method: s.report.method as 'average' });
}

describe('export -> read -> score gives the published standings (property)', () => {
  it('the CSV travellers the director page exports', () => {
    fc.assert(fc.property(sessions, (s) => {
      expect(canonical(rescored(s, exportCsv(s)))).toEqual(canonical(published(s)));
    }), { numRuns: 40 });
  });

  it('the PBN export', () => {
    fc.assert(fc.property(sessions, (s) => {
      expect(canonical(rescored(s, exportPbn(s)))).toEqual(canonical(published(s)));
    }), { numRuns: 40 });
  });
});

describe('the PBN export replays under its own tags (property)', () => {
  it('every board reads back with its deal, dealer, game and trump card, and `tenace replay` judges it as that game', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), (seed, bridge) => {
      const s = randomSession({ seed, movement: 'compass', tables: 3, boardsPerRound: 1, bridge });
      const text = exportPbn(s);
      const read = parsePbn(text);
      expect(read.errors).toEqual([]);
      const want = recordsByBoard(s).map((r) => ({ board: r.board, hands: r.hands, dealer: r.dealer, trumpCard: r.trumpCard, variant: s.variant }));
      expect(read.records.map((r) => ({ board: r.board, hands: r.hands, dealer: r.dealer, trumpCard: r.trumpCard, variant: r.variant }))).toEqual(want);
      const file = join(mkdtempSync(join(tmpdir(), 'tenace-pbn-')), 'session.pbn');
      writeFileSync(file, text);
      let out = '';
      let err = '';
      expect(replayCommand([file, '--json'], { out: (x) => { out += x; }, err: (x) => { err += x; } })).toBe(0);
      expect(err).toBe('');
      expect((JSON.parse(out) as { deals: { variant: string }[] }).deals.map((d) => d.variant)).toEqual(want.map(() => s.variant));
    }), { numRuns: 20 });
  });
});

describe('tenace score travellers.csv', () => {
  it('scores the page\'s "CSV travellers" (not 19 lines of "not JSON")', async () => {
    const s = randomSession({ seed: 19, movement: 'compass', tables: 3, boardsPerRound: 2, bridge: false });
    const file = join(mkdtempSync(join(tmpdir(), 'tenace-csv-')), 'travellers.csv');
    writeFileSync(file, exportCsv(s));
    let out = '';
    let err = '';
    const code = await scoreCommand([file, '--json'], { out: (x) => { out += x; }, err: (x) => { err += x; } });
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(canonical(JSON.parse(out) as ScoreReport)).toEqual(canonical(published(s)));
  });

  it('a CSV row that is not a result names its line and the field to fix', () => {
    const read = readTravellers('board,round,table,ns,ew,contract,declarer,declarer_tricks,ns_tricks,ew_tricks\r\n1,1,1,1NS,1EW,,,,7,5\r\n');
    expect(read.errors).toEqual([{ line: 2, message: 'tricks: N-S 7 and E-W 5 make 12; a deal has 13 tricks' }]);
  });
});
