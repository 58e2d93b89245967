// Issue 21 item 4: the session's PBN export carries each board's double-dummy table and par once solved. The boards
// are the first two Camrose 2024 deals (../shared/data), whose par BridgeComposer wrote in the file.
import { afterAll, describe, expect, it } from 'vitest';
import { exportPbn, readPbnTables, sessionExports } from '../../src/club/exports/index.js';
import { scoreTravellers } from '../../src/club/scoring/index.js';
import type { SessionExport, TrayRecord, Traveller } from '../../src/club/types.js';
import { BoardAnalyses } from '../../src/dd/boards.js';
import { DoubleDummy } from '../../src/dd/index.js';
import { parsePbn } from '../../src/formats/pbn.js';
import { dataFile } from '../formats/data.js';

const dd = new DoubleDummy();
afterAll(() => dd.close());

const camrose = parsePbn(dataFile('camrose2024-ben.pbn')).records.slice(0, 2);

function session(): SessionExport {
  const records: TrayRecord[] = camrose.map((r) => ({
    schema: 1, type: 'tenace.tray', session: 'tue', board: r.board!, hands: r.hands!, dealer: r.dealer!, vulnerable: r.vulnerable,
    source: { kind: 'original-play', table: '1', fromSeq: 1, toSeq: 60, at: '2026-12-01T19:00:00Z' }, rev: 1,
  }));
  const travellers: Traveller[] = camrose.map((r) => ({ board: r.board!, ns: '1NS', ew: '1EW', table: 1, round: 1, contract: r.contract!, tricks: r.result! }));
  return {
    club: 'ely', session: 'tue', date: '2026-12-01', variant: 'bridge', records, travellers,
    report: scoreTravellers(travellers, { method: 'matchpoints' }),
    schedule: {
      movement: 'mitchell', tables: 1, kind: 'pairs', boardsPerRound: 2, trays: 2, participants: ['1NS', '1EW'],
      rounds: [{ round: 1, tables: [{ table: 1, ns: '1NS', ew: '1EW', trays: [1, 2] }] }],
    },
  };
}

describe('session PBN export with double dummy', () => {
  it('a board is exported without analysis until solved, then with OptimumScore, ParContract and the table', async () => {
    const analyses = new BoardAnalyses(dd);
    const s = session();
    const exports = sessionExports(() => s, (rec, bridge) => analyses.get({ board: rec.board, hands: rec.hands, dealer: rec.dealer, vulnerable: rec.vulnerable, bridge }));
    const before = exports.pbn();
    expect(before).not.toContain('OptimumResultTable');
    await analyses.settled();
    const after = exports.pbn();
    const games = parsePbn(after).records;
    // Camrose boards 1 and 2: ParScore -140 and -420 in the file.
    expect(games.map((g) => g.tags.OptimumScore)).toEqual(['EW 140', 'EW 420']);
    expect(games[0].tags.ParContract).toBe('EW 3S');
    const tables = readPbnTables(after, 'OptimumResultTable');
    expect(tables.map((t) => t.board)).toEqual([1, 2]);
    expect(tables[0].columns).toEqual(['Declarer', 'Denomination', 'Result']);
    expect(tables[0].rows).toHaveLength(20);
    // Board 1: West makes 9 tricks in spades double dummy (3S by W made 9 at the table).
    expect(tables[0].rows).toContainEqual(['W', 'S', '9']);
    // The ScoreTable is still there, after the OptimumResultTable (sections sorted by name).
    expect(after.indexOf('[OptimumResultTable')).toBeLessThan(after.indexOf('[ScoreTable'));
    expect(readPbnTables(after, 'ScoreTable').map((t) => t.rows.length)).toEqual([1, 1]);
  });

  it('without analysis (off, or not asked) the export is as before', () => {
    const s = session();
    expect(exportPbn(s, () => undefined)).toBe(exportPbn(s));
    const off = new BoardAnalyses(null);
    expect(exportPbn(s, (rec, bridge) => off.get({ board: rec.board, hands: rec.hands, bridge }))).toBe(exportPbn(s));
  });
});
