// `tenace replay` on a multi-deal social-game log: the score per deal in the text and in --json (issue 9).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/replay.js';

const root = resolve(import.meta.dirname, '../..');
const fixture = (f: string) => resolve(root, 'test/fixtures/score', f);

function run(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = replayCommand(argv, { out: (s) => { out += s; }, err: (s) => { err += s; } });
  return { code, out, err };
}

describe('tenace replay: the score of the social games', () => {
  it('--json keeps the DESIGN §5 keys and adds a "score" per deal and the running score', () => {
    const { code, out } = run([fixture('english-whist.ndjson'), '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(Object.keys(r)).toEqual(['deals', 'score']);
    expect(Object.keys(r.deals[0])).toEqual(['board', 'variant', 'tricks', 'tricksWon', 'findings', 'scored', 'score']);
    expect(r.deals.map((d: { score: { after: unknown } }) => d.score.after)).toEqual([
      { NS: 4, EW: 0 }, { NS: 4, EW: 1 }, { NS: 0, EW: 0 }, { NS: 0, EW: 4 }, { NS: 0, EW: 0 }, { NS: 0, EW: 0 }, { NS: 2, EW: 1 },
    ]);
    expect(r.deals[2].score.game).toMatchObject({ winner: 'NS', value: 2 });
    expect(r.deals[5].score.rubber).toMatchObject({ winner: 'NS', value: 4, rubberPoints: 2, deducted: 3 });
    expect(r.deals[4].score.running).toMatchObject({ gamesWon: { NS: 1, EW: 1 }, rubbers: 0 });
    expect(r.score).toMatchObject({ game: 'english-whist', points: { NS: 2, EW: 1 }, totals: { NS: 4, EW: 0 } });
    expect(r.score.rubbers).toHaveLength(1);
    expect(r.score.findings[0]).toMatchObject({ kind: 'false-honours-claim', board: 7, law: 'Eng. 7' });
    expect(r.score.deals).toBeUndefined();
  });

  it('the text shows each deal\'s marks with their laws, the game and the rubber', () => {
    const { code, out } = run([fixture('favourite-whist.ndjson')]);
    expect(code).toBe(0);
    expect(out).toMatch(/score: N-S \+2 tricks \[Eng\. 2\], N-S \+2 honours \[Eng\. 3\] · favourite H · N-S 4, E-W 0/);
    expect(out).toMatch(/score: E-W \+2 tricks \(1 × 2\) \[Eng\. 2\] · favourite H, doubled · N-S 4, E-W 2/);
    expect(out).toMatch(/rubber: N-S win a rubber of 5 \(games 3 \+ 1, rubber points 2, less 1 for the losers' game\)/);
    expect(out).toMatch(/favourite-whist: N-S 1, E-W 0 in the game; games N-S 0, E-W 0; 1 rubber won, worth N-S 5, E-W 0/);
  });

  it('--progressive scores the same Favourite log by suit values, ten to game', () => {
    const r = JSON.parse(run([fixture('favourite-whist.ndjson'), '--json', '--progressive']).out);
    // Board 1: hearts, 2 tricks over the book at 4 each.
    expect(r.deals[0].score.items).toEqual([{ side: 'NS', what: 'tricks', points: 8, law: 'Favourite: variation', note: '2 × 4' }]);
    expect(r.score.gamePoints).toBe(10);
  });

  it('--game-points must be 5, 7 or 10', () => {
    const { code, err } = run([fixture('english-whist.ndjson'), '--game-points', '6']);
    expect(code).toBe(64);
    expect(err).toMatch(/--game-points "6" must be 5, 7 or 10/);
  });

  it('a duplicate whist log has no social score: the JSON is unchanged', () => {
    const r = JSON.parse(run([resolve(root, 'test/fixtures/seed-hands/hand1.ndjson'), '--json']).out);
    expect(Object.keys(r)).toEqual(['deals']);
    expect(r.deals[0].score).toBeUndefined();
  });
});
