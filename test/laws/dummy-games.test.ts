// The dummy games of Foster's Complete Hoyle (seeds 001 and 003): English Dummy, Double Dummy and Mort. Each test
// is named by the chapter and quotes it. A dummy's cards are placed in the dummy's zone by the partner who plays them.
// The tray record is derived from the cards each seat plays; "!" marks a renounce while holding the suit led.
import { describe, expect, it } from 'vitest';
import { Table } from '../../src/laws/engine.js';
import { brief, game, kinds, played } from './helpers.js';


// English Dummy: North is the dummy, South his partner plays both hands. East deals and turns the H2; South leads.
const englishDummy = () => game({ variant: 'english-dummy', dealer: 'E', board: 1 }).turn('H2').trick('S: HA H3 H4 H2');
const ED_LEAD = 'Dummy: Leading out of Turn';
const ENGLISH_REVOKE = 'Eng. 5; English revoke penalty (Dummy, The Revoke)';

describe('English Dummy (dummy North, played by South)', () => {
  it('Dummy, Method of Playing: "when it is dummy\'s turn to play, his partner selects the card" — dummy\'s cards count as dummy\'s', () => {
    const r = englishDummy().cash('S').result();
    expect(r.findings).toEqual([]);
    expect(played(r.tricks[0])).toBe('S: HA H3 H4 H2 -> S');
    expect(r.tricksWon).toEqual({ NS: 13, EW: 0 });
  });

  it('The Revoke: "Should dummy\'s hand revoke, it cannot be remedied after the trick in which it occurs has been turned and quitted" — and "for this dummy is not liable to any penalty"', () => {
    const g = englishDummy()
      .trick('S: DA D3 C2! D4') // dummy's C2 while dummy holds diamonds
      .quit()
      .mark('quitted')
      .cash('S');
    const renounce = { kind: 'renounce-in-error', seat: 'N', trick: 2, law: 'Am. 28', card: 'C2' };
    const revoke = { kind: 'revoke', seat: 'N', trick: 2, law: 'Dummy: The Revoke', card: 'C2', renounceTrick: 2 };
    const atQuit = g.findingsAt('quitted');
    expect(brief(atQuit)).toEqual([renounce, revoke]);
    expect(atQuit[1].message).toMatch(/cannot be remedied/);
    expect(atQuit[1].remedies.map((x) => [x.remedy, x.option])).toEqual([['none', 'EW']]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([renounce, revoke]);
    expect(r.tricksWon).toEqual({ NS: 13, EW: 0 });
    expect(r.scored).toEqual({ NS: 13, EW: 0 }); // not 10-3: the game proceeds "as if no revoke had occurred"
    expect(r.marks).toBeUndefined();
  });

  it('The Revoke: the deal\'s "dummy" field names the dummy (West here) — "for this dummy is not liable to any penalty"', () => {
    const g = game({ variant: 'english-dummy', dealer: 'E', dummy: 'W', board: 1 })
      .turn('H2')
      .trick('S: HA H3 H4 H2')
      .trick('S: DA C2! D3 D4') // West, the dummy (played by East), renounces
      .trick('S: S2 SA S3 S4')
      .cash('W');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'W', trick: 2, law: 'Am. 28', card: 'C2' },
      { kind: 'revoke', seat: 'W', trick: 2, law: 'Dummy: The Revoke', card: 'C2', renounceTrick: 2 },
    ]);
    expect(r.tricksWon).toEqual({ NS: 2, EW: 11 });
    expect(r.scored).toEqual({ NS: 2, EW: 11 });
  });

  it('The Revoke: before the trick is turned and quitted the dummy\'s renounce is corrected — no revoke, and no card liable for a hand already exposed', () => {
    const g = englishDummy()
      .trick('S:DA W:D3 N:C2! -N:C2 N:D5 E:D4')
      .trick('S: C5 C3 C2 C4')
      .cash('S');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'renounce-in-error', seat: 'N', trick: 2, law: 'Am. 28', card: 'C2' }]);
    expect(played(r.tricks[1])).toBe('S: DA D3 D5 D4 -> S');
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('The Revoke: "all the penalties for a revoke may be enforced against dummy\'s partner … the English penalty of three tricks", and "the revoking player cannot win the game that hand"', () => {
    const g = englishDummy()
      .trick('S: C2 CA C3 C4') // West wins
      .trick('W: D2 D3 D4 C5!') // South, dummy's partner, renounces while holding a diamond
      .trick('E: S2 SA S3 S4') // the next lead quits the trick: the revoke is established
      .cash('S');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'S', trick: 3, law: 'Am. 28', card: 'C5' },
      { kind: 'revoke', seat: 'S', trick: 3, law: ENGLISH_REVOKE, card: 'C5', renounceTrick: 3 },
    ]);
    expect(r.tricksWon).toEqual({ NS: 11, EW: 2 });
    expect(r.scored).toEqual({ NS: 8, EW: 5 });
    expect(r.marks?.NS).toMatch(/cannot win the game/);
  });

  it('The Revoke: "three tricks or three points" — the adversaries taking three points leave the tricks as played', () => {
    const g = englishDummy()
      .trick('S: C2 CA C3 C4')
      .trick('W: D2 D3 D4 C5!')
      .trick('E: S2 SA S3 S4')
      .cash('S')
      .remedy({ by: 'E', remedy: 'points' });
    const r = g.result();
    expect(kinds(r.findings)).toEqual(['renounce-in-error', 'revoke']);
    expect(r.findings[1].remedies.map((x) => [x.remedy, x.option])).toEqual([['tricks', 'EW'], ['points', 'EW']]);
    expect(r.scored).toEqual({ NS: 11, EW: 2 });
  });

  it('Leading out of Turn: "if it was not the turn of either to lead, there is no penalty" — dummy leads when it was West\'s lead', () => {
    const g = englishDummy()
      .trick('S: C2 CA C3 C4') // West wins: his lead
      .trick('N:D2 -N:D2') // South leads from dummy instead, and takes it back
      .mark('taken back')
      .trick('W: D4 D2 D3 DA')
      .cash('S');
    expect(g.tableAt('taken back').pendingPenalties()).toEqual([]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'N', trick: 3, law: ED_LEAD, card: 'D2' }]);
    expect(r.findings[0].remedies).toEqual([]);
    expect(r.findings[0].message).toMatch(/no penalty/);
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('Leading out of Turn: "should either dummy or his partner lead out of turn, the adversaries may call a suit from the one that should have led"', () => {
    const g = englishDummy() // South won the first trick: his lead
      .trick('N:D2 -N:D2') // dummy's hand leads instead
      .mark('taken back')
      .remedy({ by: 'W', remedy: 'call-suit', seat: 'S', suit: 'C' })
      .trick('S: C2 CA C3 C4') // South leads the called suit
      .mark('complied')
      .trick('W: D3 D2 D4 DA')
      .cash('S');
    const pending = g.tableAt('taken back').pendingPenalties();
    expect(pending).toEqual([{ kind: 'call-suit', from: ['S'], by: ['E', 'W'], law: ED_LEAD }]);
    expect(g.tableAt('complied').pendingPenalties()).toEqual([]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'N', trick: 2, law: ED_LEAD, card: 'D2' }]);
    expect(r.findings[0].remedies.map((x) => [x.remedy, x.option])).toEqual([['call-suit', 'EW']]);
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('Leading out of Turn: the called suit not led although held — "liable to the same penalty as if he had revoked" (Am. 38): three tricks', () => {
    const g = englishDummy()
      .trick('N:D2 -N:D2')
      .remedy({ by: 'W', remedy: 'call-suit', seat: 'S', suit: 'C' })
      .trick('S: DA D3 D2 D4') // South leads a diamond; he holds clubs (he follows to them later)
      .cash('S');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'lead-out-of-turn', seat: 'N', trick: 2, law: ED_LEAD, card: 'D2' },
      { kind: 'failure-to-comply', seat: 'S', trick: 2, law: 'Am. 38', card: 'DA' },
    ]);
    expect(r.tricksWon).toEqual({ NS: 13, EW: 0 });
    expect(r.scored).toEqual({ NS: 10, EW: 3 });
  });

  it('Leading out of Turn: "should all have played to the erroneous lead, the error cannot be corrected, and no penalty remains"', () => {
    const g = englishDummy()
      .trick('N: D2 D3 DA D4') // dummy leads when it was South's lead; all four play to it
      .mark('all played')
      .cash('S');
    expect(g.tableAt('all played').pendingPenalties()).toEqual([]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'N', trick: 2, law: ED_LEAD, card: 'D2' }]);
    expect(played(r.tricks[1])).toBe('N: D2 D3 DA D4 -> S');
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('Cards Played in Error: "dummy\'s partner is not liable to any penalty for cards dropped face upwards on the table, or two or more played at once"', () => {
    const g = englishDummy()
      .trick('S:CA S:C5 -S:C5 W:C3 N:C4 E:C6') // South lets C5 fall with his CA, and takes it up
      .trick('S: C5 C7 C8 C9')
      .cash('E');
    const r = g.result();
    expect(r.findings).toEqual([]);
    expect(played(r.tricks[1])).toBe('S: CA C3 C4 C6 -> S');
    expect(r.tricksWon).toEqual({ NS: 2, EW: 11 });
  });

  it('Cards Played in Error: an adversary is not so excused — his second card to a trick is liable to be called (Am. 20)', () => {
    const g = englishDummy()
      .trick('S:CA W:C3 W:C7 -W:C7 N:C4 E:C6')
      .trick('S: C5 C7 C8 C9')
      .cash('E');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'card-liable-to-be-called', seat: 'W', trick: 2, law: 'Am. 20.II', card: 'C7' }]);
  });
});

// Double Dummy: North and East are dummies, played by South and West. West deals and turns the H2; North leads.
const doubleDummy = () => game({ variant: 'double-dummy', board: 1 }).turn('H2');
const DD_LEAD = 'Double Dummy: Leading out of Turn';

describe('Double Dummy (dummies North and East, played by South and West)', () => {
  it('Method of Playing: "Neither dummy can revoke" — East\'s renounce while holding the suit is no revoke: the deal says so in the law\'s words, with no revoke finding and no penalty', () => {
    const g = doubleDummy()
      .trick('N: HA H3 H4 H2')
      .trick('N: DA C2! D3 D4') // East, West's dummy, plays C2 while holding diamonds
      .trick('N: S2 SA S3 S4')
      .cash('E');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'Am. 28', card: 'C2' },
    ]);
    expect(r.notes).toEqual(['Double Dummy, Method of Playing: "Neither dummy can revoke": E\'s renounce at trick 2 (C2) is no revoke and carries no penalty']);
    expect(r.tricksWon).toEqual({ NS: 2, EW: 11 });
    expect(r.scored).toEqual({ NS: 2, EW: 11 });
  });

  it('Method of Playing: "Neither dummy can revoke" — also when the tray is unknown and the renounce is proved by a later diamond', () => {
    const r = doubleDummy()
      .trick('N: HA H3 H4 H2')
      .trick('N: DA C2! D3 D4')
      .trick('N: S2 SA S3 S4')
      .trick('E: D2 D5 D6 D7') // East, the dummy that renounced diamonds, now leads one
      .result({ hands: false });
    expect(r.findings.filter((f) => f.kind === 'revoke')).toEqual([]);
    expect(r.notes).toEqual(['Double Dummy, Method of Playing: "Neither dummy can revoke": E\'s renounce at trick 2 (C2) is no revoke and carries no penalty']);
    expect(r.scored).toEqual(r.tricksWon);
  });

  it('Method of Playing: a living player\'s revoke is "the same as in whist … and dummy" — the English three tricks', () => {
    const g = doubleDummy()
      .trick('N: HA H3 H4 H2')
      .trick('N: D2 D3 D4 C2!') // West, a living player, renounces
      .trick('S: S2 SA S3 S4')
      .cash('W');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'W', trick: 2, law: 'Am. 28', card: 'C2' },
      { kind: 'revoke', seat: 'W', trick: 2, law: ENGLISH_REVOKE, card: 'C2', renounceTrick: 2 },
    ]);
    expect(r.tricksWon).toEqual({ NS: 2, EW: 11 });
    expect(r.scored).toEqual({ NS: 5, EW: 8 });
  });

  it('Method of Playing: "there are no such things as exposed cards, or cards played in error" — a second card dropped on a trick is not liable', () => {
    const g = doubleDummy()
      .trick('N: HA H3 H4 H2')
      .trick('N:DA E:D2 S:D3 S:D6 -S:D6 W:D4')
      .trick('N: DK D5 D6 D7')
      .cash('N');
    const r = g.result();
    expect(r.findings).toEqual([]);
    expect(g.tableAt().pendingPenalties()).toEqual([]);
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('Leading out of Turn: "the adversary may call a suit from the one that ought to have led" — South leads from his own hand when his dummy should', () => {
    const g = doubleDummy()
      .trick('N: HA H3 H4 H2') // North, South's dummy, wins: North's lead
      .trick('S:D2 -S:D2')
      .mark('taken back')
      .remedy({ by: 'W', remedy: 'call-suit', seat: 'N', suit: 'C' })
      .trick('N: CA C3 C4 C5')
      .trick('N: D3 D4 D2 D5')
      .cash('W');
    const pending = g.tableAt('taken back').pendingPenalties();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ kind: 'call-suit', from: ['N'], law: DD_LEAD });
    expect((pending[0] as { by: string[] }).by).toContain('W');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'S', trick: 2, law: DD_LEAD, card: 'D2' }]);
    expect(r.findings[0].remedies.map((x) => [x.remedy, x.option])).toEqual([['call-suit', 'EW']]);
    expect(r.scored).toEqual({ NS: 2, EW: 11 });
  });

  it('Leading out of Turn: "but if it was the turn of neither, there is no penalty"', () => {
    const g = doubleDummy()
      .trick('N: H3 HA H4 H2') // East wins: it is the lead of West's dummy
      .trick('S:D2 -S:D2')
      .mark('taken back')
      .trick('E: D3 D2 D4 D5')
      .cash('N');
    expect(g.tableAt('taken back').pendingPenalties()).toEqual([]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'S', trick: 2, law: DD_LEAD, card: 'D2' }]);
    expect(r.findings[0].remedies).toEqual([]);
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });
});

// Mort: North is Mort, South (Vivant) plays both; "Vivant dealt, and the adversary on the Right of Mort had the
// original lead": South deals, West leads.
const mort = (turned = 'H2') => game({ variant: 'mort', dealer: 'S', board: 1 }).turn(turned);
const MORT_LEAD = 'Mort: Leading Out of Turn';

describe('Mort (French dummy: Mort North, Vivant South)', () => {
  it('Position of the Players: "Vivant dealt, and the adversary on the Right of Mort had the original lead"', () => {
    const t = new Table();
    t.apply(game({ variant: 'mort', dealer: 'S' }).dealEvent(false));
    expect(t.whoseTurn()).toBe('W');
  });

  it('The Revoke: "Mort is not liable to penalty under any circumstances"', () => {
    const g = mort()
      .trick('W: HA H3 H4 H2')
      .trick('W: D2 C2! D3 D4') // Mort's C2 while Mort holds diamonds
      .cash('S');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'N', trick: 2, law: 'Am. 28', card: 'C2' },
      { kind: 'revoke', seat: 'N', trick: 2, law: 'Mort: The Revoke', card: 'C2', renounceTrick: 2 },
    ]);
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  // East revokes; E-W win three tricks after it and no others: three would leave them none.
  const eastRevokes = () => mort('HA')
    .trick('W: H2 H3 H4 HA') // Vivant wins with the turned ace
    .trick('S: D2 DA D3 C2!') // East renounces while holding a diamond; West wins
    .trick('W: SA S2 S3 S4')
    .trick('W: CA C3 C4 C5')
    .trick('W: S5 SK S6 S7') // Mort wins and N-S take the rest
    .cash('N');

  it('The Revoke: "his opponents may … take three of his tricks", but "it is not permissible to reduce the revoking player\'s tricks to nothing. At least one must be left"', () => {
    const r = eastRevokes().result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'Am. 28', card: 'C2' },
      { kind: 'revoke', seat: 'E', trick: 2, law: 'Mort: The Revoke', card: 'C2', renounceTrick: 2 },
    ]);
    expect(r.findings[1].remedies.map((x) => [x.remedy, x.option])).toEqual([['points', 'NS'], ['tricks', 'NS']]);
    expect(r.tricksWon).toEqual({ NS: 10, EW: 3 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('The Revoke: "his opponents may take three points from the score of his side; or add three points to their score" — choosing points leaves the tricks unchanged', () => {
    const r = eastRevokes().remedy({ by: 'S', remedy: 'points' }).result();
    expect(kinds(r.findings)).toEqual(['renounce-in-error', 'revoke']);
    expect(r.tricksWon).toEqual({ NS: 10, EW: 3 });
    expect(r.scored).toEqual({ NS: 10, EW: 3 });
  });

  it('Leading Out of Turn: "if it was the turn of neither, no penalty can be enforced" — Vivant leads from Mort when it was West\'s lead', () => {
    const g = mort()
      .trick('W: HA H3 H4 H2') // West wins: his lead
      .trick('N:D2 -N:D2')
      .mark('taken back')
      .trick('W: D3 D2 D4 D5')
      .cash('S');
    expect(g.tableAt('taken back').pendingPenalties()).toEqual([]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'N', trick: 2, law: MORT_LEAD, card: 'D2' }]);
    expect(r.findings[0].remedies).toEqual([]);
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('Leading Out of Turn: "if Vivant or Mort lead out of turn, the adversaries may let the lead stand, or demand it be taken back … if all have played to the trick, the error cannot be corrected"', () => {
    const g = mort('HA')
      .trick('W: H2 H3 H4 HA') // Vivant wins: his lead
      .trick('N: D2 D3 DA D4') // Mort's hand leads instead, and all four play to it
      .mark('all played')
      .cash('S');
    expect(g.tableAt('all played').pendingPenalties()).toEqual([]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'N', trick: 2, law: MORT_LEAD, card: 'D2' }]);
    expect(r.findings[0].remedies.map((x) => [x.remedy, x.option])).toEqual([['accept', 'EW'], ['retract', 'EW']]);
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('Cards Played in Error: "if he or Mort plays two cards at once to a trick, the adversaries may select which they will allow to be played"', () => {
    const g = mort('HA')
      .trick('W: H2 H3 H4 HA')
      .trick('S:D5 S:D6 W:D2 N:D3 E:D4') // Vivant leads D5 with D6 stuck to it
      .trick('S: D6 D7 D8 D9')
      .cash('E');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'card-liable-to-be-called', seat: 'S', trick: 2, law: 'Mort: Cards Played in Error', card: 'D6' }]);
    expect(r.findings[0].remedies.map((x) => [x.remedy, x.option])).toEqual([['call-card', 'EW']]);
    expect(played(r.tricks[1])).toBe('S: D5 D2 D3 D4 -> S');
  });
});
