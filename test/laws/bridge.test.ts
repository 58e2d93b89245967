// Bridge card play under the WBF Laws of Duplicate Bridge: each test is named by its law and quotes it.
// Every deal is 4♥ by South ("4HS"): North is dummy (declarer places dummy's cards in N's zone), West — declarer's
// left-hand opponent — makes the opening lead, East is his partner. The tray record (`hands`) is derived from the cards
// each seat plays, so a card marked "!" in a trick is a renounce while holding the suit led (played later).
import { describe, expect, it } from 'vitest';
import { Table } from '../../src/laws/engine.js';
import { brief, game, kinds, played } from './helpers.js';

const bridge = () => game({ variant: 'bridge', contract: '4HS', board: 1 });


describe('bridge: the opening lead and following suit', () => {
  it('L41C/L54: "the opening lead is made by the defender on declarer\'s left" — after 4♥ by South, West is to lead', () => {
    const t = new Table();
    t.apply(bridge().dealEvent());
    expect(t.whoseTurn()).toBe('W');
    expect(t.trump()).toBe('H');
  });

  it('hasDeal() and board() answer as result() does, without building the result', () => {
    const t = new Table();
    expect([t.hasDeal(), t.board(), t.result()]).toEqual([false, undefined, null]);
    t.apply(bridge().dealEvent());
    expect([t.hasDeal(), t.board()]).toEqual([true, t.result()!.board]);
    expect(t.board()).toBe(1);
  });

  it('L44C: "in playing to a trick, each player must follow suit if possible" — a deal where everyone follows gives no finding', () => {
    const g = bridge()
      .trick('W: SK S2 SA S3') // dummy's S2 is placed in N's zone by declarer
      .trick('E: D2 DA D3 D4')
      .cash('S');
    const r = g.result();
    expect(r.findings).toEqual([]);
    expect(r.tricks).toHaveLength(13);
    expect(played(r.tricks[0])).toBe('W: SK S2 SA S3 -> E');
    expect(played(r.tricks[1])).toBe('E: D2 DA D3 D4 -> S');
    expect(r.tricks[2].leader).toBe('S');
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('L44D/E: "if unable to follow suit, a player may play any card" — East, void in spades, ruffs lawfully', () => {
    const g = bridge()
      .trick('W: SK S2 H2 S3') // East has no spade in the whole deal
      .trick('E: C2 CA C3 C4')
      .cash('S'); // East discards on every spade declarer leads
    const r = g.result();
    expect(r.findings).toEqual([]);
    expect(played(r.tricks[0])).toBe('W: SK S2 H2 S3 -> E');
    expect(r.tricks.filter((t) => t.cards.S?.[0] === 'S' && t.cards.E?.[0] !== 'S').length).toBeGreaterThan(0);
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('L61A: "failure to follow suit in accordance with Law 44 … constitutes a revoke" — West discards while holding a diamond: renounce in error, found live', () => {
    const g = bridge()
      .trick('W: SK S2 SA S3')
      .mark('trick 2')
      .trick('E: D2 DA C3! D4') // West holds diamonds (he follows to them later) and plays C3
      .cash('S');
    const t = g.tableAt('trick 2');
    expect(t.play('E', 'D2')).toEqual([]);
    expect(t.play('S', 'DA')).toEqual([]);
    const live = t.play('W', 'C3');
    expect(brief(live)).toEqual([{ kind: 'renounce-in-error', seat: 'W', trick: 2, law: 'L61', card: 'C3' }]);
    expect(live[0].remedies.map((x) => x.option)).toEqual(['W', 'NS']);
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'W', trick: 2, law: 'L61', card: 'C3' },
      { kind: 'revoke', seat: 'W', trick: 2, law: 'L63A1', card: 'C3', renounceTrick: 2 },
    ]);
    // E-W won only the first trick, before the revoke: L64B1, nothing is transferred.
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });
});

describe('bridge: leads and plays out of turn (L53-L57)', () => {
  it('L53A: "any lead faced out of turn may be treated as a correct lead … if the player next in rotation plays to the irregular lead"', () => {
    const g = bridge()
      .trick('W: SK S2 SA S3') // East wins; it is his lead
      .trick('W: D2 D3 D4 DA') // West leads instead; dummy (next in rotation) plays to it: accepted
      .mark('accepted')
      .cash('S');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'W', trick: 2, law: 'L56', card: 'D2' }]);
    expect(kinds(r.findings)).not.toContain('play-out-of-turn');
    expect(played(r.tricks[1])).toBe('W: D2 D3 D4 DA -> S');
    expect(r.tricks[2].leader).toBe('S');
    expect(g.tableAt('accepted').pendingPenalties()).toEqual([]);
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('L54: "opening lead out of turn" — East, not declarer\'s left-hand opponent, leads to trick 1; declarer may accept it or require its retraction', () => {
    const g = bridge().trick('E: SA S3 SK S2').cash('E');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'E', trick: 1, law: 'L54', card: 'SA' }]);
    expect(r.findings[0].remedies.map((x) => [x.remedy, x.option])).toEqual([['accept', 'S'], ['retract', 'S']]);
    expect(played(r.tricks[0])).toBe('E: SA S3 SK S2 -> E');
    expect(r.scored).toEqual({ NS: 0, EW: 13 });
  });

  it('L55A: "declarer leads out of turn from his hand or dummy" — dummy won the trick, declarer leads from his own hand; either defender may accept', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK') // dummy's SA wins: the lead is in dummy
      .trick('S: D2 D3 D4 DA') // declarer leads from hand; West plays to it
      .cash('E');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'S', trick: 2, law: 'L55', card: 'D2' }]);
    expect(r.findings[0].message).toMatch(/from the wrong hand/);
    expect(r.findings[0].remedies.map((x) => [x.remedy, x.option])).toEqual([['accept', 'EW'], ['retract', 'EW']]);
    expect(r.tricksWon).toEqual({ NS: 1, EW: 12 });
    expect(r.scored).toEqual({ NS: 1, EW: 12 });
  });

  it('L55B: "declarer must retract the card led in error" — restored to his hand without penalty, he leads from dummy', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('S:D2 -S:D2') // the defenders do not accept; declarer takes the card back
      .trick('N: D3 D4 D2 D5') // the proper lead from dummy; declarer's D2 is an ordinary card again
      .cash('W');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'lead-out-of-turn', seat: 'S', trick: 2, law: 'L55', card: 'D2' }]);
    expect(kinds(r.findings)).not.toContain('card-liable-to-be-called');
    expect(played(r.tricks[1])).toBe('N: D3 D4 D2 D5 -> W');
    expect(r.scored).toEqual({ NS: 1, EW: 12 });
  });

  it('L56: "a defender\'s lead out of turn", not accepted and withdrawn — "the card led becomes a major penalty card"', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK') // dummy wins
      .trick('E:DA -E:DA') // East leads out of turn; declarer does not accept it
      .mark('withdrawn')
      .trick('N: D2 DA D3 D4') // East plays his penalty card at the first legal opportunity
      .cash('E');
    const pending = g.tableAt('withdrawn').pendingPenalties();
    expect(pending).toContainEqual({ kind: 'liable-card', seat: 'E', card: 'DA', law: 'L56' });
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'lead-out-of-turn', seat: 'E', trick: 2, law: 'L56', card: 'DA' },
      { kind: 'card-liable-to-be-called', seat: 'E', trick: 2, law: 'L56', card: 'DA' },
    ]);
    expect(r.findings[1].remedies[0].option).toBe('NS');
    expect(played(r.tricks[1])).toBe('N: D2 DA D3 D4 -> E');
    expect(r.scored).toEqual({ NS: 1, EW: 12 });
  });

  it('L56: once the lead out of turn is withdrawn, declarer\'s option to accept it is spent — only the penalty card remains pending', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('E:DA -E:DA')
      .mark('withdrawn')
      .trick('N: D2 DA D3 D4')
      .cash('E');
    expect(g.tableAt('withdrawn').pendingPenalties()).toEqual([{ kind: 'liable-card', seat: 'E', card: 'DA', law: 'L56' }]);
  });

  it('L57A: "a defender … plays out of turn before his partner has played" — declarer may require the partner\'s highest or lowest card of the suit led', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK') // dummy wins and leads
      .trick('N:D2 W:D5') // West (fourth hand) plays before his partner East
      .mark('premature')
      .remedy({ by: 'S', remedy: 'lowest', seat: 'E' })
      .trick('E:D3 S:DA') // East complies with his lowest diamond
      .cash('S');
    expect(g.tableAt('premature').pendingPenalties()).toEqual([{ kind: 'highest-or-lowest', from: ['E'], by: ['S'], law: 'L57A' }]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'play-out-of-turn', seat: 'W', trick: 2, law: 'L57A', card: 'D5' }]);
    expect(r.findings[0].remedies[0]).toMatchObject({ remedy: 'highest', option: 'S' });
    expect(r.tricks[1].order).toEqual(['N', 'W', 'E', 'S']);
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L57A with L61A: the partner, required to play his lowest, plays a higher card — "failure to … play, when able, a card … specified by an opponent … constitutes a revoke"', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N:D2 W:D5')
      .remedy({ by: 'S', remedy: 'lowest', seat: 'E' })
      .trick('E:DK S:DA') // East holds D3 (he plays it to the next diamond trick)
      .trick('S: D4 D6 D7 D3')
      .cash('N');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'play-out-of-turn', seat: 'W', trick: 2, law: 'L57A', card: 'D5' },
      { kind: 'failure-to-comply', seat: 'E', trick: 2, law: 'L61A', card: 'DK' },
    ]);
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });
});

describe('bridge: the revoke — correction and establishment (L62, L63)', () => {
  it('L62B1: "the offender withdraws the card he played in revoking and follows suit" — a defender\'s withdrawn card "becomes a major penalty card"', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N:D2 E:C5! -E:C5 E:D3 S:DA W:D4') // East renounces, then corrects before the revoke is established
      .trick('S: CA C4 C3 C5') // the penalty card goes at the first legal opportunity
      .cash('S');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'C5' },
      { kind: 'card-liable-to-be-called', seat: 'E', trick: 2, law: 'L62B1', card: 'C5' },
    ]);
    expect(kinds(r.findings)).not.toContain('revoke');
    expect(played(r.tricks[1])).toBe('N: D2 D3 DA D4 -> S');
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L62B2: declarer\'s withdrawn card "may be replaced without further rectification" — no penalty card', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N:D2 E:D3 S:C5! -S:C5 S:DA W:D4')
      .trick('S: C5 C4 C3 C2')
      .cash('S');
    const r = g.result();
    expect(brief(r.findings)).toEqual([{ kind: 'renounce-in-error', seat: 'S', trick: 2, law: 'L61', card: 'C5' }]);
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L62C1: after the revoke is corrected "each member of the non-offending side may, without rectification, withdraw any card he played after the irregularity"', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N:D2 E:C5! S:DA -E:C5 E:D3 -S:DA S:D9 W:D4') // declarer had played DA after the renounce; he takes it back
      .trick('S: DA D5 D6 D7')
      .trick('S: C2 C3 C4 C5') // East's penalty card
      .cash('E');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'C5' },
      { kind: 'card-liable-to-be-called', seat: 'E', trick: 2, law: 'L62B1', card: 'C5' },
    ]);
    expect(played(r.tricks[1])).toBe('N: D2 D3 D9 D4 -> S');
    expect(r.tricksWon).toEqual({ NS: 3, EW: 10 });
  });

  it('L62B1, hands unknown: the renounce becomes known when the offender takes his card back to follow suit', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N:D2 E:C5 -E:C5 E:D3 S:DA W:D4')
      .trick('S: CA C4 C3 C5')
      .cash('S');
    const r = g.result({ hands: false });
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'C5' },
      { kind: 'card-liable-to-be-called', seat: 'E', trick: 2, law: 'L62B1', card: 'C5' },
    ]);
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L63A1: "a revoke becomes established when the offender or his partner leads or plays to the following trick" — not when the trick is turned and quitted, nor when declarer leads', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 C5! DA D4') // East renounces; declarer wins
      .quit()
      .mark('quitted')
      .trick('S:D5')
      .mark('declarer led')
      .trick('W:D6')
      .mark('partner played')
      .trick('N:D7 E:D3')
      .cash('N');
    const renounce = { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'C5' };
    const revoke = { kind: 'revoke', seat: 'E', trick: 2, law: 'L63A1', card: 'C5', renounceTrick: 2 };
    expect(brief(g.findingsAt('quitted'))).toEqual([renounce]);
    expect(brief(g.findingsAt('declarer led'))).toEqual([renounce]);
    expect(brief(g.findingsAt('partner played'))).toEqual([renounce, revoke]);
    const r = g.result();
    expect(brief(r.findings)).toEqual([renounce, revoke]);
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L63A3: a revoke is established "when a member of the offending side makes or agrees to a claim or concession of tricks"', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 C5! DA D4')
      .mark('before the claim')
      .claim('E', 1) // East claims one of the eleven tricks left
      .holdRest('S');
    expect(kinds(g.findingsAt('before the claim'))).toEqual(['renounce-in-error']);
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'C5' },
      { kind: 'revoke', seat: 'E', trick: 2, law: 'L63A3', card: 'C5', renounceTrick: 2 },
    ]);
    expect(r.tricks).toHaveLength(2);
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    // L64A2: East did not win the revoke trick; his side won a later (claimed) trick: one trick is transferred.
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });
});

describe('bridge: rectification of an established revoke (L64)', () => {
  it('L64A1: the offender won the revoke trick — "that trick and one more subsequent trick won by the offending side are transferred"', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 H2! D3 D4') // East ruffs with a diamond in his hand and wins
      .cash('E');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'H2' },
      { kind: 'revoke', seat: 'E', trick: 2, law: 'L63A1', card: 'H2', renounceTrick: 2 },
    ]);
    expect(r.tricks[1].winner).toBe('E');
    expect(r.tricksWon).toEqual({ NS: 1, EW: 12 });
    expect(r.scored).toEqual({ NS: 3, EW: 10 });
  });

  it('L64A1: the offender won the revoke trick but his side won no later trick — only "the trick on which the revoke occurred" is transferred', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 H2! D3 D4')
      .trick('E: C2 CA C3 C4') // declarer wins and takes the rest
      .cash('S');
    const r = g.result();
    expect(brief(r.findings).map((f) => `${f.kind} ${f.seat} ${f.trick} ${f.law}`)).toEqual([
      'renounce-in-error E 2 L61', 'revoke E 2 L63A1',
    ]);
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L64A2: "the trick on which the revoke occurred was not won by the offending player" but his partner won it — one trick is transferred', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 C2! D3 DA') // East renounces; West wins the trick
      .cash('W');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'C2' },
      { kind: 'revoke', seat: 'E', trick: 2, law: 'L63A1', card: 'C2', renounceTrick: 2 },
    ]);
    expect(r.tricks[1].winner).toBe('W');
    expect(r.tricksWon).toEqual({ NS: 1, EW: 12 });
    expect(r.scored).toEqual({ NS: 2, EW: 11 });
  });

  it('L64A2: "if the offending side won that or any subsequent trick" — a later trick won by the offending side costs one trick', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 C2! DA D3') // declarer wins the revoke trick
      .trick('S: C3 CA C4 C5') // West wins a later one
      .cash('W');
    const r = g.result();
    expect(kinds(r.findings)).toEqual(['renounce-in-error', 'revoke']);
    expect(r.tricks[1].winner).toBe('S');
    expect(r.tricks[2].winner).toBe('W');
    expect(r.tricksWon).toEqual({ NS: 2, EW: 11 });
    expect(r.scored).toEqual({ NS: 3, EW: 10 });
  });

  it('L64B1: no rectification "if the offending side did not win either the revoke trick or any subsequent trick" (tricks won before the revoke do not count)', () => {
    const g = bridge()
      .trick('W: SA S2 S3 SK') // West wins the first trick
      .trick('W: D2 DA C2! D3') // East renounces; dummy wins and N-S take everything after
      .cash('N');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'C2' },
      { kind: 'revoke', seat: 'E', trick: 2, law: 'L63A1', card: 'C2', renounceTrick: 2 },
    ]);
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('L64B2: no rectification "if it is a subsequent revoke in the same suit by the same player" — East\'s second diamond revoke costs nothing more', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 H2! D3 D4') // first revoke: East ruffs and wins
      .trick('E: C2 CA C3 C4')
      .trick('S: D5 D6 D7 H3!') // second revoke in diamonds by East, who wins again
      .cash('E');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 2, law: 'L61', card: 'H2' },
      { kind: 'revoke', seat: 'E', trick: 2, law: 'L63A1', card: 'H2', renounceTrick: 2 },
      { kind: 'renounce-in-error', seat: 'E', trick: 4, law: 'L61', card: 'H3' },
      { kind: 'revoke', seat: 'E', trick: 4, law: 'L63A1', card: 'H3', renounceTrick: 4 },
    ]);
    expect(r.tricksWon).toEqual({ NS: 2, EW: 11 });
    // Two tricks for the first revoke (L64A1); none for the second (it would be two more).
    expect(r.scored).toEqual({ NS: 4, EW: 9 });
  });

  it('L64B3: no rectification "if the revoke was made in failing to play … a card from dummy\'s hand" — dummy\'s revoke transfers nothing', () => {
    const g = bridge()
      .trick('W: S2 SK S3 SA') // declarer wins
      .trick('S: D2 D3 H2! D4') // declarer ruffs from dummy although dummy holds diamonds
      .cash('N');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'N', trick: 2, law: 'L61', card: 'H2' },
      { kind: 'revoke', seat: 'N', trick: 2, law: 'L63A1', card: 'H2', renounceTrick: 2 },
    ]);
    expect(r.findings[1].message).toMatch(/L64B3/);
    expect(r.tricks[1].cards.N).toBe('H2');
    expect(r.tricksWon).toEqual({ NS: 13, EW: 0 });
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L64B6: no rectification "if the revoke was made on the twelfth trick"', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .cash('N', 10)
      .trick('N: DK H2! D3 D4') // trick 12: East ruffs while holding D5, and wins
      .trick('E: D5 D6 D7 DQ');
    const r = g.result();
    expect(brief(r.findings)).toEqual([
      { kind: 'renounce-in-error', seat: 'E', trick: 12, law: 'L61', card: 'H2' },
      { kind: 'revoke', seat: 'E', trick: 12, law: 'L63A1', card: 'H2', renounceTrick: 12 },
    ]);
    expect(r.tricks[11].winner).toBe('E');
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });

  it('L64B7: no rectification "if both sides have revoked on the same board"', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 H2! D3 D4') // East ruffs a diamond while holding one
      .trick('E: C2 H3! C3 C4') // declarer ruffs a club while holding one
      .cash('S');
    const r = g.result();
    expect(brief(r.findings).map((f) => `${f.kind} ${f.seat} ${f.trick}`)).toEqual([
      'renounce-in-error E 2', 'revoke E 2', 'renounce-in-error S 3', 'revoke S 3',
    ]);
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 12, EW: 1 });
  });
});

describe('bridge: defective hands and tricks (L67), hands unknown, claims', () => {
  it('L67: a hand with the wrong number of cards — East\'s pocket holds 12 and West\'s 14', () => {
    const g = game({
      variant: 'bridge', contract: '4HS', board: 1,
      hands: 'N:AKQJT98765432... .KQJT98765432.. ..AKQJT98765432. .A..AKQJT98765432',
    });
    const t = new Table();
    const found = t.apply(g.dealEvent());
    expect(brief(found)).toEqual([
      { kind: 'wrong-card-count', seat: 'E', trick: 1, law: 'L67' },
      { kind: 'wrong-card-count', seat: 'W', trick: 1, law: 'L67' },
    ]);
    expect(found[0].remedies[0].option).toBe('director');
  });

  it('L63A1, hands unknown: the revoke is proved when the offender later plays the suit he renounced — the finding names the renounce trick', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 H2 D3 D4') // East ruffs; nobody can know yet that he holds a diamond
      .mark('before the proof')
      .trick('E: D5 DA D6 D7') // East leads a diamond: the renounce at trick 2 was a revoke
      .cash('S');
    expect(g.findingsAt('before the proof', { hands: false })).toEqual([]);
    const r = g.result({ hands: false });
    expect(brief(r.findings)).toEqual([{ kind: 'revoke', seat: 'E', trick: 2, law: 'L63A1', card: 'H2', renounceTrick: 2 }]);
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    // East won the revoke trick and his side no later one: that one trick is transferred (L64A1).
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L68/L69: a claim credits the claimed tricks to the claimer\'s side and the rest to the other, so tricksWon sums to 13 (hands unknown)', () => {
    const g = bridge()
      .trick('W: S2 SA S3 SK')
      .trick('N: D2 D3 DA D4')
      .claim('S', 9) // declarer claims nine of the eleven tricks left
      .holdRest('S');
    const r = g.result({ hands: false });
    expect(r.findings).toEqual([]);
    expect(r.tricks).toHaveLength(2);
    expect(r.tricksWon).toEqual({ NS: 11, EW: 2 });
    expect(r.tricksWon.NS + r.tricksWon.EW).toBe(13);
    expect(r.scored).toEqual({ NS: 11, EW: 2 });
  });
});
