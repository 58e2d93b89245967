// The fixtures test/fixtures/score/*.ndjson replayed through the engine and the score keeper: each deal's running
// score is what a person keeping markers would write (the reckoning is spelled out beside each deal).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTableLog } from '../../src/formats/table-log.js';
import { replayWithFacts } from '../../src/laws/engine.js';
import { scoreStates } from '../../src/laws/score/index.js';
import type { Score } from '../../src/laws/score/types.js';

function replayed(name: string): Score[] {
  const { events, errors } = parseTableLog(readFileSync(new URL(`../fixtures/score/${name}`, import.meta.url), 'utf8'));
  expect(errors).toEqual([]);
  const r = replayWithFacts(events);
  return scoreStates(r.deals, r.facts)!.map((s) => s.score);
}

/** Per deal: the trick and honour points marked, the score after it, games won and the rubber. */
const sheet = (s: Score, i: number) => ({
  items: s.deals[i].items.map((x) => `${x.side} ${x.what} ${x.points}`),
  after: s.deals[i].after,
  game: s.deals[i].game ? `${s.deals[i].game!.winner} ${s.deals[i].game!.value}` : null,
  rubber: s.deals[i].rubber ? `${s.deals[i].rubber!.winner} ${s.deals[i].rubber!.value}` : null,
});

describe('a replayed English whist log, deal by deal (English Laws 1-12)', () => {
  const st = replayed('english-whist.ndjson');

  it('board 1: hearts; N-S 8 tricks (2) and three honours called after board 2 was dealt, before its trump was turned (Eng. 6): 2 more', () => {
    expect(sheet(st[0], 0)).toEqual({ items: ['NS tricks 2', 'NS honours 2'], after: { NS: 4, EW: 0 }, game: null, rubber: null });
  });

  it('board 2: spades; E-W the odd trick (1); N-S called three honours but were at four when the deal began (Eng. 4)', () => {
    expect(sheet(st[1], 1)).toEqual({ items: ['EW tricks 1'], after: { NS: 4, EW: 1 }, game: null, rubber: null });
    expect(st[1].deals[1].notes.join(' ')).toMatch(/Eng\. 4/);
  });

  it('board 3: diamonds; N-S the odd trick: game, a double (E-W had one); E-W\'s four honours come last and do not score (Eng. 5, 8)', () => {
    expect(sheet(st[2], 2)).toEqual({ items: ['NS tricks 1'], after: { NS: 0, EW: 0 }, game: 'NS 2', rubber: null });
  });

  it('board 4: clubs; honours divided two and two; E-W 10 tricks (4)', () => {
    expect(sheet(st[3], 3)).toEqual({ items: ['EW tricks 4'], after: { NS: 0, EW: 4 }, game: null, rubber: null });
  });

  it('board 5: hearts; E-W 8 tricks: game, a treble (N-S had not scored)', () => {
    expect(sheet(st[4], 4)).toEqual({ items: ['EW tricks 2'], after: { NS: 0, EW: 0 }, game: 'EW 3', rubber: null });
  });

  it('board 6: spades; N-S 9 tricks (3) and four honours (4): game, a treble, and the rubber: 2 + 3 + 2 rubber points - 3 for the losers\' game = 4 (Eng. 9, 10)', () => {
    expect(sheet(st[5], 5)).toEqual({ items: ['NS tricks 3', 'NS honours 4'], after: { NS: 0, EW: 0 }, game: 'NS 3', rubber: 'NS 4' });
    expect(st[5].totals).toEqual({ NS: 4, EW: 0 });
  });

  it('board 7: a new rubber; N calls four honours, N-S hold three: a finding (Eng. 7), and the three are counted', () => {
    expect(sheet(st[6], 6)).toEqual({ items: ['EW tricks 1', 'NS honours 2'], after: { NS: 2, EW: 1 }, game: null, rubber: null });
    expect(st[6].findings).toEqual([expect.objectContaining({ kind: 'false-honours-claim', seat: 'N', side: 'NS', board: 7, law: 'Eng. 7' })]);
    expect(st[6].findings[0].message).toMatch(/called 4 honours, but NS held 3 \(HA HK HQ\)/);
    expect(st[6].rubbers).toHaveLength(1);
    expect(st[6].gamesWon).toEqual({ NS: 0, EW: 0 });
  });
});

describe('a replayed Favourite whist log, deal by deal', () => {
  const st = replayed('favourite-whist.ndjson');

  it('board 1: hearts, the favourite; the first deal is not doubled: N-S 2 for tricks and 2 for three honours', () => {
    expect(st[0].favourite).toBe('H');
    expect(sheet(st[0], 0)).toEqual({ items: ['NS tricks 2', 'NS honours 2'], after: { NS: 4, EW: 0 }, game: null, rubber: null });
  });

  it('board 2: hearts again, doubled: E-W\'s odd trick is 2; N-S at four cannot score honours', () => {
    expect(sheet(st[1], 1)).toEqual({ items: ['EW tricks 2'], after: { NS: 4, EW: 2 }, game: null, rubber: null });
  });

  it('board 3: spades, single: E-W 9 tricks (3): game, a single (N-S at four)', () => {
    expect(sheet(st[2], 2)).toEqual({ items: ['EW tricks 3'], after: { NS: 0, EW: 0 }, game: 'EW 1', rubber: null });
  });

  it('board 4: hearts, doubled: N-S 9 tricks, 6 points: game, a treble', () => {
    expect(sheet(st[3], 3)).toEqual({ items: ['NS tricks 6'], after: { NS: 0, EW: 0 }, game: 'NS 3', rubber: null });
  });

  it('board 5: diamonds: N-S 2 for tricks, E-W 4 for four honours', () => {
    expect(sheet(st[4], 4)).toEqual({ items: ['NS tricks 2', 'EW honours 4'], after: { NS: 2, EW: 4 }, game: null, rubber: null });
  });

  it('board 6: hearts, doubled: N-S 2 for the odd trick and 4 for three honours: game, a single; rubber 3 + 1 + 2 - 1 = 5', () => {
    expect(sheet(st[5], 5)).toEqual({ items: ['NS tricks 2', 'NS honours 4'], after: { NS: 0, EW: 0 }, game: 'NS 1', rubber: 'NS 5' });
  });

  it('board 7: a new rubber, a new favourite: clubs', () => {
    expect(st[6].favourite).toBe('C');
    expect(sheet(st[6], 6)).toEqual({ items: ['NS tricks 1'], after: { NS: 1, EW: 0 }, game: null, rubber: null });
  });
});
