// The standings scored board by board (src/club/scoring/board-cache.ts, issue 18) against the same travellers scored
// from scratch: after every result of a session, in the order the tables play, the two reports are the same to the
// last digit, for every scoring method; a changed result (an adjustment, a withdrawn result) is scored again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScoreCache, scoreTravellers, type ScoreOptions } from '../../src/club/scoring/index.js';
import type { Traveller } from '../../src/club/types.js';
import { randomSession } from './random-session.js';

/** The director's order: board, table, round. */
const directorOrder = (ts: Traveller[]) => [...ts].sort((a, b) => a.board - b.board || Number(a.table) - Number(b.table) || (a.round ?? 0) - (b.round ?? 0));

/** Score each prefix of the play, with one cache throughout and from scratch, and compare. */
function growing(played: Traveller[], opts: ScoreOptions, edit?: (ts: Traveller[], step: number) => Traveller[]): number {
  const cache = new ScoreCache();
  let compared = 0;
  for (let n = 1; n <= played.length; n++) {
    let now = directorOrder(played.slice(0, n));
    if (edit) now = edit(now, n);
    let fresh: unknown;
    try {
      fresh = scoreTravellers(now, opts);
    } catch (err) {
      // What cannot be scored from scratch cannot be scored from the cache either, and says the same.
      expect(() => scoreTravellers(now, { ...opts, cache })).toThrow((err as Error).message);
      continue;
    }
    expect(JSON.stringify(scoreTravellers(now, { ...opts, cache }))).toBe(JSON.stringify(fresh));
    compared++;
  }
  return compared;
}

const sessions = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  movement: fc.constantFrom('compass' as const, 'mitchell' as const, 'howell' as const),
  tables: fc.integer({ min: 3, max: 6 }),
  boardsPerRound: fc.integer({ min: 1, max: 2 }),
  method: fc.constantFrom('average', 'matches', 'matchpoints', 'cross-imps', 'butler'),
});

describe('standings scored board by board (issue 18)', () => {
  it('after every result of a session, the report is the one scored from scratch (every method)', () => {
    fc.assert(fc.property(sessions, (o) => {
      const bridge = !['average', 'matches'].includes(o.method);
      const s = randomSession({ seed: o.seed, movement: o.movement, tables: o.tables, boardsPerRound: o.boardsPerRound, bridge });
      // In the order of play: round by round.
      const played = [...s.travellers].sort((a, b) => (a.round ?? 0) - (b.round ?? 0) || Number(a.table) - Number(b.table));
      expect(growing(played, { method: o.method as ScoreOptions['method'] })).toBeGreaterThan(0);
    }), { numRuns: 40, seed: 18 });
  });

  it('a result changed or withdrawn after it was scored is scored again, not taken from the cache', () => {
    fc.assert(fc.property(sessions, fc.integer({ min: 0, max: 1000 }), (o, pick) => {
      const bridge = !['average', 'matches'].includes(o.method);
      const s = randomSession({ seed: o.seed, movement: o.movement, tables: o.tables, boardsPerRound: o.boardsPerRound, bridge });
      const played = [...s.travellers].sort((a, b) => (a.round ?? 0) - (b.round ?? 0) || Number(a.table) - Number(b.table));
      // At every third step the director adjusts one earlier result (a new object, as scoredTravellers makes), and at
      // every fifth one is withdrawn.
      const edit = (ts: Traveller[], step: number): Traveller[] => {
        const i = (pick + step) % ts.length;
        if (step % 5 === 0 && ts.length > 1) return ts.filter((_, k) => k !== i);
        if (step % 3 === 0) return ts.map((t, k) => (k === i ? { ...t, adjusted: bridge ? 'average-plus' : { NS: 7, EW: 6 } } : t));
        return ts;
      };
      expect(growing(played, { method: o.method as ScoreOptions['method'] }, edit)).toBeGreaterThan(0);
    }), { numRuns: 30, seed: 19 });
  });

  it('a board whose travellers are the same objects is not scored again; a new object for one of them is', () => {
    const s = randomSession({ seed: 7, movement: 'mitchell', tables: 5, boardsPerRound: 1, bridge: true });
    const ts = directorOrder(s.travellers);
    const cache = new ScoreCache();
    const first = scoreTravellers(ts, { method: 'matchpoints', cache });
    const again = scoreTravellers([...ts], { method: 'matchpoints', cache });
    // The entries are the very objects kept: nothing was scored again.
    expect(again.boards.every((b, i) => b === first.boards[i])).toBe(true);
    const changed = ts.map((t, i) => (i === 0 ? { ...t } : t));
    const third = scoreTravellers(changed, { method: 'matchpoints', cache });
    expect(third.boards[0]).not.toBe(first.boards[0]);
    expect(third.boards[0]).toEqual(first.boards[0]);
    expect(third.boards.slice(1).every((b, i) => b === first.boards[i + 1])).toBe(true);
  });
});
