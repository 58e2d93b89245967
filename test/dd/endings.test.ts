// Double-dummy endings small enough to check by hand (three cards a hand), solved by DDS through DoubleDummy. Each
// test quotes the ending and the play that proves its answer.
import { afterAll, describe, expect, it } from 'vitest';
import { DdError, DoubleDummy } from '../../src/dd/index.js';

const dd = new DoubleDummy();
afterAll(() => dd.close());

// The tenace ending. No trump, North to lead.
//   North ♠A Q ♥2 · East ♠5 4 ♥5 · South ♠3 2 ♥3 · West ♠K 6 ♥4
// ♥2 first: East must win with the ♥5 (his only heart, the highest out) and lead a spade into North's A Q: West's
// king is caught whichever card he plays, N-S 2. ♠A first: West keeps ♠K 6 back with the 6, and the ♠Q later
// falls to the king while East's ♥5 takes the last trick, N-S 1; ♠Q first: West's king wins and the ♥5 again, N-S 1.
const TENACE = 'N:AQ.2.. 54.5.. 32.3.. K6.4..';

describe('double dummy: endings checked by hand', () => {
  it('the tenace: North leads ♥2 and takes 2 tricks; ♠A or ♠Q first takes 1', async () => {
    const r = await dd.solve({ hands: TENACE, strain: 'NT', leader: 'N', trick: [] });
    expect(r.toPlay).toBe('N');
    expect(r.tricks).toEqual({ NS: 2, EW: 1 });
    expect(Object.fromEntries(r.cards.map((c) => [c.card, c.tricks]))).toEqual({ H2: 2, SA: 1, SQ: 1 });
  });

  it('the tenace after ♠A led: East must follow with a spade, and E-W take 2 whichever', async () => {
    const r = await dd.solve({ hands: 'N:Q.2.. 54.5.. 32.3.. K6.4..', strain: 'NT', leader: 'N', trick: ['SA'] });
    expect(r.toPlay).toBe('E');
    expect(r.tricks).toEqual({ NS: 1, EW: 2 });
    // ♥5 is no legal card: East holds spades.
    expect(r.cards.map((c) => c.card).sort()).toEqual(['S4', 'S5']);
    expect(r.cards.every((c) => c.tricks === 2)).toBe(true);
  });

  // The ruff. West to lead, holding only hearts.
  //   North ♥A K Q · East ♠2 ♣4 3 · South ♦4 3 2 · West ♥4 3 2
  // Spades trumps: East ruffs the first heart with the ♠2 and cashes ♣4 3, which no one else can follow: E-W 3.
  // No trump: East can never win a trick or get the lead, North's hearts are the three best: N-S 3.
  const RUFF = 'N:.AKQ.. 2...43 ..432. .432..';

  it('a trump suit is a strain like any other: E-W take 3 with spades trumps, none at no trump', async () => {
    const spades = await dd.solve({ hands: RUFF, strain: 'S', leader: 'W', trick: [] });
    expect(spades.tricks).toEqual({ NS: 0, EW: 3 });
    expect(spades.cards.map((c) => c.card).sort()).toEqual(['H2', 'H3', 'H4']);
    const nt = await dd.solve({ hands: RUFF, strain: 'NT', leader: 'W', trick: [] });
    expect(nt.tricks).toEqual({ NS: 3, EW: 0 });
  });

  it('the ruff after West\'s ♥2 and North\'s ♥A: East\'s ♠2 takes the 3 tricks, a club discard only 2', async () => {
    const r = await dd.solve({ hands: 'N:.KQ.. 2...43 ..432. .43..', strain: 'S', leader: 'W', trick: ['H2', 'HA'] });
    expect(r.toPlay).toBe('E');
    expect(Object.fromEntries(r.cards.map((c) => [c.card, c.tricks]))).toEqual({ S2: 3, C4: 2, C3: 2 });
  });

  it('bad input is one line naming the field and the fix', async () => {
    const err = await dd.solve({ hands: 'N:AQ.2.. 54.5.. 32.3..', strain: 'NT', leader: 'N', trick: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DdError);
    expect((err as DdError).code).toBe('input');
    expect((err as Error).message).toMatch(/^hands: .*every hand must be known/);
    const uneven = await dd.solve({ hands: 'N:AQ.2.. 54.5.. 32.3.. K6.4.2.', strain: 'NT', leader: 'N', trick: [] }).catch((e: unknown) => e);
    expect((uneven as Error).message).toBe('hands: W holds 4 cards where 3 are needed (the trick in progress has 0)');
    expect((uneven as Error).message).not.toContain('\n');
  });
});
