// The public results must not reveal an unplayed card, or a result, of a tray another table has still to play
// (developers' guide: "No leaks of hidden cards"). A hand-built snapshot in the middle of a session: tray 1 released,
// tray 2 played at one table of two.
import { describe, expect, it } from 'vitest';
import { publicResults } from '../../src/club/director/public-results.js';
import { renderResultsHtml } from '../../src/club/director/results-html.js';
import type { DirectorSnapshot, TrayRecord } from '../../src/club/types.js';
import { SCHEDULE } from './director-rig.js';

const HANDS = 'N:AKQJ.T98.765.432 T987.AKQ.432.J65 6543.J76.AKQ.T98 2.5432.JT98.AKQ7';
const rec = (board: number): TrayRecord => ({ schema: 1, type: 'tenace.tray', session: 's1', board, hands: HANDS, dealer: 'N', variant: 'bridge', vulnerable: 'None', source: { kind: 'original-play', table: '1', fromSeq: 1, toSeq: 60, at: 'x' }, rev: 1 });

const SNAP: DirectorSnapshot = {
  schema: 1, type: 'tenace.director', club: 'ely', session: 's1', variant: 'bridge', schedule: SCHEDULE, round: 2,
  tables: [{ table: '1', status: 'online', round: 2, board: 2, trick: 4, done: [1], lastSeq: 80 }, { table: '2', status: 'online', round: 2, done: [2, 1], lastSeq: 90 }],
  progress: [{ table: 1, round: 1, played: 1, of: 1 }, { table: 1, round: 2, played: 0, of: 1 }, { table: 2, round: 1, played: 1, of: 1 }, { table: 2, round: 2, played: 1, of: 1 }],
  trays: [{ board: 1, record: rec(1), playedAt: ['1', '2'], released: true }, { board: 2, record: rec(2), playedAt: ['2'], released: false }],
  alerts: [
    { schema: 1, type: 'tenace.alert', kind: 'fouled-tray', session: 's1', table: '2', board: 2, law: 'L87B', message: 'Tray 2 at table 2 held other hands than its record: SA (E here, N in the record)', at: 'x' },
  ],
  standings: {
    method: 'matchpoints',
    pairs: [{ pair: '1NS', direction: 'NS', total: 2, rank: 1, percent: 100 }, { pair: '2NS', direction: 'NS', total: 0, rank: 2, percent: 0 }],
    boards: [
      { board: 1, top: 2, results: [{ table: 1, ns: '1NS', ew: '1EW', contract: '4SN', declarerTricks: 10, score: 420, mp: { NS: 2, EW: 0 } }, { table: 2, ns: '2NS', ew: '2EW', contract: '3NTS', declarerTricks: 9, score: 400, mp: { NS: 0, EW: 2 } }] },
      { board: 2, top: 0, results: [{ table: 2, ns: '2NS', ew: '1EW', contract: '6DE', declarerTricks: 12, score: -920, mp: { NS: 0, EW: 0 } }] },
    ],
  },
  at: '2026-12-04T20:00:00.000Z',
};

describe('the public results while the session runs', () => {
  it('a tray not yet played at every table shows neither its hands, nor its results, nor what was found on it', () => {
    const pub = publicResults(SNAP, (p) => (p === '1NS' ? 'A. Reader & B. Player' : undefined));
    expect(pub.complete).toBe(false);
    expect(pub.boards.map((b) => b.board)).toEqual([1]);
    const text = JSON.stringify(pub);
    expect(text).not.toMatch(/6DE|-920|SA \(E here/);
    expect(pub.boards[0].hands).toBe(HANDS);
    // The tray in play is public (it lies on the table); its trick, not its cards.
    expect(pub.tables[0]).toMatchObject({ table: '1', round: 2, board: 2, trick: 4, played: 0, of: 1 });
    expect(pub.pairs[0]).toMatchObject({ pair: '1NS', rank: '1', names: 'A. Reader & B. Player' });
    const html = renderResultsHtml(pub, { live: true });
    expect(html).toMatch(/<meta http-equiv="refresh"/);
    expect(html).toMatch(/Round 2 of 2: results so far/);
    expect(html).not.toMatch(/6DE|920/);
    expect(html).toMatch(/A\. Reader &amp; B\. Player/);
  });

  it('names and messages are shown as text, never as markup', () => {
    const evil = { ...SNAP, alerts: [{ ...SNAP.alerts[0], board: 1, message: '<img src=x onerror=alert(1)>' }] };
    const html = renderResultsHtml(publicResults(evil, () => '<script>x</script>'), { live: false });
    expect(html).not.toMatch(/<img|<script>/);
    expect(html).toMatch(/&lt;img src=x onerror=alert\(1\)&gt;/);
  });
});
