// English whist (seed 002, English Whist Laws 1-39, with the English revoke penalty quoted in the Dummy chapter of
// seed 001) against American whist (seed 002, laws 19-39) on the same deal. West deals and turns the H2; North leads.
import { describe, expect, it } from 'vitest';
import { brief, game } from './helpers.js';

const ENGLISH_REVOKE = 'Eng. 5; English revoke penalty (Dummy, The Revoke)';

/** East renounces a diamond at trick 2 while holding one; E-W win that trick and every later one. */
const eastRevokes = (variant: string) => game({ variant, board: 1 })
  .turn('H2')
  .trick('N: HA H3 H4 H2') // North wins
  .trick('N: D2 C2! D3 D4') // East's C2 while he holds diamonds; West wins
  .trick('W: SA S2 S3 S4') // West's lead quits trick 2: the revoke is established
  .cash('W');

describe('English whist: the revoke', () => {
  it('"the English penalty of three tricks or three points" — the adversaries take three tricks from the revoking side', () => {
    const r = eastRevokes('english-whist').result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'Am. 28', card: 'C2' },
      { kind: 'revoke', seat: 'E', trick: 2, law: ENGLISH_REVOKE, card: 'C2', renounceTrick: 2 },
    ]);
    expect(r.findings[1].remedies.map((x) => [x.remedy, x.option])).toEqual([['tricks', 'NS'], ['points', 'NS']]);
    expect(r.tricksWon).toEqual({ NS: 1, EW: 12 });
    expect(r.scored).toEqual({ NS: 4, EW: 9 });
  });

  it('Am. 30: "the penalty for revoking is the transfer of two tricks" — the same deal under the American laws costs two', () => {
    const r = eastRevokes('whist').result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'Am. 28', card: 'C2' },
      { kind: 'revoke', seat: 'E', trick: 2, law: 'Am. 28', card: 'C2', renounceTrick: 2 },
    ]);
    expect(r.tricksWon).toEqual({ NS: 1, EW: 12 });
    expect(r.scored).toEqual({ NS: 3, EW: 10 });
  });

  it('"or three points": the adversaries choosing points ({"type":"remedy","remedy":"points"}) leave the tricks as played', () => {
    const r = eastRevokes('english-whist').remedy({ by: 'N', remedy: 'points' }).result();
    expect(brief(r.findings).map((f) => f.kind)).toEqual(['renounce-in-error', 'revoke']);
    expect(r.tricksWon).toEqual({ NS: 1, EW: 12 });
    expect(r.scored).toEqual({ NS: 1, EW: 12 });
  });

  it('Eng. 5: "the penalty for a revoke takes precedence of all other scores" — the revoking side cannot win the game that hand', () => {
    const r = eastRevokes('english-whist').result();
    expect(r.marks).toEqual({ EW: '-R (cannot win the game this hand, Eng. 5)' });
  });

  it('a deal with no revoke under the English laws: no finding and no mark', () => {
    const r = game({ variant: 'english-whist', board: 1 }).turn('H2').trick('N: HA H3 H4 H2').cash('N').result();
    expect(r.findings).toEqual([]);
    expect(r.marks).toBeUndefined();
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });
});

describe('English whist: the pack', () => {
  it('Eng. 37: "a new deal" when the pack is proved imperfect — a second copy of a card played (two packs at the table)', () => {
    const g = game({ variant: 'english-whist', board: 1 }).turn('H2').trick('N: HA H3 H4 H2').mark('trick 1 played').cash('N');
    const t = g.tableAt('trick 1 played');
    expect(t.findings()).toEqual([]);
    const found = t.play('N', 'HA'); // the ace of hearts again, from the other pack
    expect(brief(found)).toEqual([{ kind: 'duplicate-card', seat: 'N', trick: 2, law: 'Eng. 37.I', card: 'HA' }]);
    expect(found[0].remedies.map((x) => x.remedy)).toEqual(['new-deal']);
  });
});
