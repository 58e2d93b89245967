// The two-handed games of Foster's Complete Hoyle (seed 001): Humbug Whist and Thirteen and the Odd. Two players sit
// opposite (North and South), tricks are of two cards, "the dealer's adversary has the first lead". Each player
// counts as a side: the result's `sides` says which player stands under NS and which under EW.
import { describe, expect, it } from 'vitest';
import { formatDeal, parseDeal } from '../../src/cards/deal.js';
import { addCard, removeCard } from '../../src/cards/hand.js';
import { parseCard } from '../../src/cards/card.js';
import { Table } from '../../src/laws/engine.js';
import { brief, game, kinds } from './helpers.js';

const RANKS_DOWN = 'AKQJT98765432';

// A tray with one whole suit in each pocket: N spades, E hearts, S diamonds, W clubs.
const SUIT_POCKETS = 'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432';

describe('Humbug Whist', () => {
  const humbug = (o: { exchanged?: ('N' | 'S')[]; hands?: string } = {}) =>
    game({ variant: 'humbug', seats: ['N', 'S'], dealer: 'S', board: 1, ...o });

  it('Method of Playing: "the dealer\'s adversary has the first lead" — South deals, North leads', () => {
    const t = new Table();
    t.apply(humbug({ hands: SUIT_POCKETS }).dealEvent());
    expect(t.whoseTurn()).toBe('N');
  });

  it('"If not, he may exchange it for the one on his right" — a first card from the hand on his right shows the exchange: no card-not-in-hand', () => {
    // South deals and turns his D2 (diamonds are trumps); North has exchanged his spades for West's clubs.
    const g = humbug({ hands: SUIT_POCKETS }).turn('D2').trick('N: CA D2');
    for (let r = 0; r < 12; r++) g.trick(`S: D${RANKS_DOWN[r]} C${RANKS_DOWN[r + 1]}`); // South draws trumps, North discards clubs
    const r = g.result();
    expect(r.findings).toEqual([]);
    expect(r.tricks).toHaveLength(13);
    expect(r.tricks[0]).toMatchObject({ leader: 'N', cards: { N: 'CA', S: 'D2' }, winner: 'S' });
    expect(r.tricksWon).toEqual({ NS: 0, EW: 13 });
    expect(r.sides).toEqual({ NS: 'N', EW: 'S' });
    const t = humbug({ hands: SUIT_POCKETS }).turn('D2').trick('N: CA').tableAt();
    expect(t.remaining('N')).toBe('...KQJT98765432');
  });

  it('the exchange is with the hand on his right only: a first card from the hand on his left is not in his hand', () => {
    const t = humbug({ hands: SUIT_POCKETS }).turn('D2').tableAt();
    const found = t.play('N', 'HA'); // East's card: East sits on North's left
    expect(brief(found)).toEqual([{ kind: 'card-not-in-hand', seat: 'N', trick: 1, law: 'Am. 19', card: 'HA' }]);
  });

  it('the explicit {"type":"exchange"} event: North "takes up" the hand on his right before the first lead', () => {
    const g = humbug({ hands: SUIT_POCKETS }).turn('D2').exchange('N').mark('exchanged').trick('N: CA D2');
    for (let r = 0; r < 12; r++) g.trick(`S: D${RANKS_DOWN[r]} C${RANKS_DOWN[r + 1]}`);
    expect(g.tableAt('exchanged').remaining('N')).toBe('...AKQJT98765432');
    const r = g.result();
    expect(r.findings).toEqual([]);
    expect(r.tricksWon).toEqual({ NS: 0, EW: 13 });
  });

  it('"if the dealer exchanges, he loses the turn-up card, but the trump suit remains the same"', () => {
    const t = humbug({ hands: SUIT_POCKETS }).turn('D2').exchange('S').tableAt();
    expect(t.trump()).toBe('D');
    expect(t.remaining('S')).toBe('.AKQJT98765432..'); // East's hearts; the D2 went with the diamonds
    expect(t.play('N', 'SA')).toEqual([]);
    expect(t.play('S', 'HA')).toEqual([]); // no spade: a lawful discard
    expect(t.currentTrick().number).toBe(2);
  });

  it('Scoring: "the penalty for a revoke is three tricks, and it takes precedence of other scores"', () => {
    const g = humbug()
      .turn('C2') // clubs are trumps
      .trick('N: CA C2')
      .trick('N: D2 C3!') // South ruffs while holding a diamond
      .trick('S: DA D3') // the lead quits the trick: the revoke is established
      .cash('S');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'S', trick: 2, law: 'Am. 28', card: 'C3' },
      { kind: 'revoke', seat: 'S', trick: 2, law: 'Humbug: Scoring', card: 'C3', renounceTrick: 2 },
    ]);
    expect(r.tricks.every((t) => Object.keys(t.cards).length === 2)).toBe(true);
    expect(r.sides).toEqual({ NS: 'N', EW: 'S' });
    expect(r.tricksWon).toEqual({ NS: 1, EW: 12 });
    expect(r.scored).toEqual({ NS: 4, EW: 9 });
  });
});

describe('Thirteen and the Odd', () => {
  // South deals thirteen cards to North and to himself and turns up the next (the C2): the tray holds two hands.
  const thirteen = () => game({ variant: 'thirteen-and-the-odd', seats: ['N', 'S'], dealer: 'S', board: 1 })
    .turn('C2')
    .cash('N', 7)
    .trick('N: H2 HA') // South takes the lead and the rest
    .cash('S');

  it('"The trump card belongs to neither player" — it is in neither hand of the tray, and that is no finding', () => {
    const g = thirteen();
    expect(g.pbn()).toMatch(/^N:\S+ - \S+ -$/);
    expect(parseDeal(g.pbn()).some((h) => h !== null && (h[3] & 1) !== 0)).toBe(false); // nobody holds the C2
    const r = g.result();
    expect(r.findings).toEqual([]);
    expect(r.tricks).toHaveLength(13);
  });

  it('"The winner of the odd trick scores a point" — North, with seven tricks to six, wins the odd trick', () => {
    const r = thirteen().result();
    expect(r.sides).toEqual({ NS: 'N', EW: 'S' });
    expect(r.tricksWon).toEqual({ NS: 7, EW: 6 });
    expect(r.scored).toEqual({ NS: 7, EW: 6 });
    expect(r.tricksWon.NS - 6).toBe(1);
  });

  it('"The trump card belongs to neither player" — a tray that puts the turned card in a hand is fouled: card-not-in-hand', () => {
    const g = thirteen();
    const deal = parseDeal(g.pbn());
    const south = deal[2]!;
    removeCard(south, parseCard('HA'));
    addCard(south, parseCard('C2')); // the tray gives South the trump card instead of his HA
    const t = new Table();
    t.apply({ ...g.dealEvent(), hands: formatDeal(deal) });
    const found = t.place('S', 'C2'); // South turns the trump card
    expect(brief(found)).toEqual([{ kind: 'card-not-in-hand', seat: 'S', trick: 1, law: 'Am. 19', card: 'C2' }]);
    expect(t.trump()).toBe('C');
  });

  it('a tray record of the two hands dealt (the others "-") is a known tray: the renounce in error is found live', () => {
    const g = game({ variant: 'thirteen-and-the-odd', seats: ['N', 'S'], dealer: 'S', board: 1 })
      .turn('C2')
      .mark('turned')
      .trick('N: DA S2!') // South holds a diamond, which he plays to the next trick
      .trick('N: D3 D2')
      .cash('N');
    const t = g.tableAt('turned');
    expect(t.remaining('N')).not.toBeNull();
    t.play('N', 'DA');
    expect(brief(t.play('S', 'S2'))).toEqual([{ kind: 'renounce-in-error', seat: 'S', trick: 1, law: 'Am. 28', card: 'S2' }]);
    const r = g.result();
    expect(kinds(r.findings)).toEqual(['renounce-in-error', 'revoke']);
    expect(r.findings[1]).toMatchObject({ seat: 'S', trick: 1, law: 'Thirteen and the Odd; Humbug: Scoring' });
    expect(r.tricksWon).toEqual({ NS: 13, EW: 0 });
    expect(r.scored).toEqual({ NS: 13, EW: 0 }); // South won no trick: there is nothing to take
  });
});
