// What the engine records for the score keeper (issue 9): honours calls checked against the cards the table saw
// (English Law 7), calls that belong to the deal before (Eng. 6), the Prussian trump cut, the revoke penalty taken in
// points; and the table-log checks of the new event and fields.
import { describe, expect, it } from 'vitest';
import { parseTableLog, validateTableEvent } from '../../src/formats/table-log.js';
import { Table, replayWithFacts } from '../../src/laws/engine.js';
import { finishedDeal, scoreOf, tableScore } from '../../src/laws/score/index.js';
import { englishRules } from '../../src/laws/score/english.js';
import { keep, startScore } from '../../src/laws/score/keeper.js';
import { game } from './helpers.js';
import { dealEvents } from './score-log.js';

const honours = { A: 'N', K: 'S', Q: 'N', J: 'E' } as const;
const board1 = () => dealEvents({ board: 1, variant: 'english-whist', dealer: 'W', trump: 'H', honours, ns: 8 });

describe('the honours event (English Law 7: "they must be called at the end of the hand")', () => {
  it('validateTableEvent: a seat, and a count of 2 to 4 or the honours themselves', () => {
    expect(validateTableEvent({ type: 'honours', seat: 'N', count: 4 })).toBeNull();
    expect(validateTableEvent({ type: 'honours', seat: 'N', cards: ['HA', 'HK', 'HQ'] })).toBeNull();
    expect(validateTableEvent({ type: 'honours', seat: 'X', count: 4 })).toMatch(/"seat" must be one of N, E, S, W/);
    expect(validateTableEvent({ type: 'honours', seat: 'N' })).toMatch(/needs "count" \(2-4\) or "cards"/);
    expect(validateTableEvent({ type: 'honours', seat: 'N', count: 5 })).toMatch(/"count" must be 2, 3 or 4/);
    expect(validateTableEvent({ type: 'honours', seat: 'N', cards: ['HA', 'H5'] })).toMatch(/"H5" is not an honour/);
    expect(validateTableEvent({ type: 'honours', seat: 'N', cards: ['HA', 'ZZ'] })).toMatch(/"ZZ" is not a card/);
    expect(validateTableEvent({ type: 'honours', seat: 'N', count: 2, cards: ['HA', 'HK', 'HQ'] })).toMatch(/differ/);
  });

  it('a true call: the side held what it called (tray known)', () => {
    const r = replayWithFacts([...board1(), { type: 'honours', seat: 'S', count: 3, seq: 99 }]);
    expect(r.facts[0].honoursHeld).toEqual({ N: ['HA', 'HQ'], E: ['HJ'], S: ['HK'], W: [] });
    expect(r.facts[0].claims).toEqual([{ seat: 'S', side: 'NS', count: 3, seq: 99, law: 'Eng. 7', verdict: 'true', message: 'NS held HA HK HQ' }]);
  });

  it('a false call is a finding with the law: four called, three held; a card called the adversaries held', () => {
    const r = replayWithFacts([...board1(), { type: 'honours', seat: 'N', count: 4 }, { type: 'honours', seat: 'E', cards: ['HJ', 'HA'] }]);
    expect(r.facts[0].claims.map((c) => [c.seat, c.verdict, c.message])).toEqual([
      ['N', 'false', 'N called 4 honours, but NS held 3 (HA HK HQ)'],
      ['E', 'false', 'E called HA, but the adversaries held it'],
    ]);
    const s = scoreOf(r.deals, r.facts)!;
    expect(s.findings.map((f) => [f.kind, f.seat, f.law])).toEqual([['false-honours-claim', 'N', 'Eng. 7'], ['false-honours-claim', 'E', 'Eng. 7']]);
  });

  it('a call of cards not of the trump suit is false', () => {
    const r = replayWithFacts([...board1(), { type: 'honours', seat: 'N', cards: ['SA', 'SK', 'SQ'] }]);
    expect(r.facts[0].claims[0]).toMatchObject({ verdict: 'false', message: 'N called SA, which is not an honour of the trump suit (H)' });
  });

  it('hands unknown and play ended by a claim: the table cannot check the call, and it is scored as called', () => {
    const ev = board1().map((e) => (e.type === 'deal' ? { ...e, hands: undefined } : e));
    const r = replayWithFacts([...ev, { type: 'honours', seat: 'N', count: 3 }]);
    expect(r.facts[0].honoursComplete).toBe(false);
    expect(r.facts[0].claims[0]).toMatchObject({ verdict: 'unchecked' });
    const s = scoreOf(r.deals, r.facts)!;
    expect(s.deals[0].items.map((i) => `${i.side} ${i.what} ${i.points}`)).toEqual(['NS tricks 2', 'NS honours 2']);
    expect(s.deals[0].notes).toContain('honours not seen by the table: scored as called');
  });

  it('Eng. 6: "Honours, unless claimed before the trump card of the following deal is turned up, cannot be scored"', () => {
    const next = dealEvents({ board: 2, variant: 'english-whist', dealer: 'N', trump: 'S', honours: { A: 'E', K: 'E', Q: 'W', J: 'N' }, ns: 7 });
    // In time: after board 2 is dealt, before its trump is turned.
    const inTime = replayWithFacts([...board1(), next[0], { type: 'honours', seat: 'N', count: 3 }, ...next.slice(1)]);
    expect(inTime.facts[0].claims).toHaveLength(1);
    expect(inTime.facts[1].claims).toHaveLength(0);
    // Too late: board 2's trump is turned; the call is board 2's, where N-S hold one honour.
    const late = replayWithFacts([...board1(), ...next.slice(0, 3), { type: 'honours', seat: 'N', count: 3 }, ...next.slice(3)]);
    expect(late.facts[0].claims).toHaveLength(0);
    expect(late.facts[1].claims[0]).toMatchObject({ verdict: 'false' });
    expect(scoreOf(late.deals, late.facts)!.deals[0].items.map((i) => i.what)).toEqual(['tricks']);
  });

  it('a live table: the score of the deals it finished, the deal in progress counted once its thirteen tricks are in', () => {
    const t = new Table();
    for (const e of board1()) t.apply(e);
    t.apply({ type: 'honours', seat: 'N', count: 3 });
    expect(tableScore(t)!.points).toEqual({ NS: 4, EW: 0 });
    t.apply({ type: 'deal', board: 2, variant: 'english-whist', dealer: 'N' });
    expect(tableScore(t)!.deals).toHaveLength(1);
    expect(tableScore(t)!.points).toEqual({ NS: 4, EW: 0 });
  });
});

describe('Prussian whist: the trump cut (seed 001)', () => {
  it('"the player to the left of the dealer cuts a trump from the still pack": trumpCut sets the trump, and no card is turned', () => {
    const t = new Table();
    t.apply({ type: 'deal', board: 1, variant: 'prussian-whist', dealer: 'W', trumpCut: 'C7' });
    // North's first card is the opening lead (no turned card); East ruffs with a club and wins.
    for (const [seat, card] of [['N', 'SA'], ['E', 'C2'], ['S', 'S3'], ['W', 'S4']] as const) expect(t.play(seat, card)).toEqual([]);
    expect(t.trump()).toBe('C');
    const r = t.results();
    expect(r[0].tricks[0].winner).toBe('E');
    expect(t.facts()[0]).toMatchObject({ variant: 'prussian-whist', trump: 'C', trumpCut: 'C7' });
    expect(t.facts()[0].turned).toBeUndefined();
  });

  it('validateTableEvent: "trumpCut" must be a card', () => {
    expect(validateTableEvent({ type: 'deal', variant: 'prussian-whist', trumpCut: 'D9' })).toBeNull();
    expect(validateTableEvent({ type: 'deal', variant: 'prussian-whist', trumpCut: 'Z9' })).toMatch(/"trumpCut"/);
  });

  it('a Prussian log is scored as English whist, with the suit cut', () => {
    const ev = dealEvents({ board: 1, variant: 'prussian-whist', dealer: 'W', trump: 'D', trumpCut: 'D5', honours: { A: 'N', K: 'N', Q: 'S', J: 'S' }, ns: 9, after: [{ type: 'honours', seat: 'S', count: 4 }] });
    const { events, errors } = parseTableLog(ev.map((e) => JSON.stringify(e)).join('\n'));
    expect(errors).toEqual([]);
    const r = replayWithFacts(events);
    const s = scoreOf(r.deals, r.facts)!;
    expect(s.game).toBe('prussian-whist');
    expect(s.deals[0]).toMatchObject({ trump: 'D' });
    expect(s.deals[0].game).toMatchObject({ winner: 'NS', value: 3 });
  });
});

describe('the revoke penalty in points (a remedy of "points", with "add" or "deduct")', () => {
  /** East renounces a diamond at trick 2 while holding one; E-W win that trick and every later one. */
  const eastRevokes = (variant: string) => game({ variant, board: 1 })
    .turn('H2')
    .trick('N: HA H3 H4 H2')
    .trick('N: D2 C2! D3 D4')
    .trick('W: SA S2 S3 S4')
    .cash('W');

  it('validateTableEvent: "points" goes with the remedy "points"', () => {
    expect(validateTableEvent({ type: 'remedy', by: 'N', remedy: 'points', points: 'deduct' })).toBeNull();
    expect(validateTableEvent({ type: 'remedy', by: 'N', remedy: 'tricks', points: 'add' })).toMatch(/"points" must be "add" or "deduct", with "remedy": "points"/);
  });

  it('English penalty: "three points" added to the adversaries; the revoking side "cannot win the game that hand" (stops at four)', () => {
    const t = new Table();
    for (const e of eastRevokes('english-whist').remedy({ by: 'N', remedy: 'points', points: 'add' }).log()) t.apply(e);
    const [r] = t.results();
    const [f] = t.facts();
    expect(f.penalties).toEqual([{ remedy: 'points', by: 'N', points: 'add' }]);
    const d = finishedDeal(r, f);
    expect(d.revokes).toEqual([{ offender: 'EW', form: 'add' }]);
    const s = keep(startScore(englishRules()), d).score;
    expect(s.deals[0].items.map((i) => `${i.side} ${i.what} ${i.points}`)).toEqual(['NS revoke 3', 'EW tricks 4']);
    expect(s.points).toEqual({ NS: 3, EW: 4 });
  });

  it('the penalty in tricks is already in the engine\'s `scored`: the keeper marks no revoke points', () => {
    const t = new Table();
    for (const e of eastRevokes('english-whist').log()) t.apply(e);
    const d = finishedDeal(t.results()[0], t.facts()[0]);
    expect(d.tricks).toEqual({ NS: 4, EW: 9 });
    expect(d.revokes).toEqual([{ offender: 'EW', form: 'tricks' }]);
    expect(keep(startScore(englishRules()), d).score.points).toEqual({ NS: 0, EW: 3 });
  });

  it('Mort: "Mort is not liable to penalty under any circumstances" — a dummy\'s revoke costs nothing', () => {
    // North is Mort; he renounces a diamond while holding one.
    const g = game({ variant: 'mort', board: 1, dummy: 'N' }).turn('H2')
      .trick('N: HA H3 H4 H2').trick('N: S2 S3 S4 S5').trick('W: D2 C3! D3 D4').trick('S: SA S6 S7 S8').cash('S');
    const t = new Table();
    for (const e of g.log()) t.apply(e);
    const d = finishedDeal(t.results()[0], t.facts()[0]);
    expect(t.results()[0].findings.some((x) => x.kind === 'revoke')).toBe(true);
    expect(d.revokes).toEqual([]);
    expect(d.dummyPartner).toBe('S');
  });
});

describe('Humbug through the engine: honours per player, the dead hands count for nobody', () => {
  it('"if one player has only one honour, or none, the other counts 2 points for two honours": N holds two, S one, a dead hand the fourth', () => {
    // North and South play; East's and West's hands lie dead (East's holds the HJ).
    const hands = 'N:98765432.AK.432. .JT9876543.AKQJ. AKQJT.Q2.T98765. ...AKQJT98765432';
    const t = new Table();
    t.apply({ type: 'deal', board: 1, variant: 'humbug', dealer: 'S', seats: ['N', 'S'], hands });
    for (const e of [
      { type: 'place', seat: 'S', card: 'H2' }, { type: 'lift', seat: 'S', card: 'H2' }, // S deals and turns the H2
      { type: 'place', seat: 'N', card: 'S2' }, { type: 'place', seat: 'S', card: 'ST' }, // the dealer's adversary leads
      { type: 'claim', seat: 'S', tricks: 6 },
      { type: 'honours', seat: 'N', count: 2 },
    ] as const) t.apply(e);
    const [r] = t.results();
    const [f] = t.facts();
    expect(r.findings).toEqual([]);
    expect(r.tricksWon).toEqual({ NS: 6, EW: 7 });
    expect(f.honoursHeld).toEqual({ N: ['HA', 'HK'], S: ['HQ'] });
    expect(f.claims[0]).toMatchObject({ seat: 'N', side: 'NS', verdict: 'true', message: 'N held HA HK' });
    const s = scoreOf([r], [f])!;
    expect(s.game).toBe('humbug');
    expect(s.deals[0].items.map((i) => `${i.side} ${i.what} ${i.points}`)).toEqual(['EW tricks 1', 'NS honours 2']);
  });
});

describe('Double Dummy through the engine', () => {
  it('the English penalty "of three tricks": West (a living player) revokes, three of his tricks go to North-South, and he cannot win the game that hand', () => {
    const g = game({ variant: 'double-dummy', board: 1 }).turn('H2')
      .trick('N: HA H3 H4 H2')
      .trick('N: D2 D3 D4 C2!') // West renounces a diamond while holding one
      .trick('S: S2 SA S3 S4') // West's ace wins; his lead would have quitted trick 2 anyway
      .cash('W');
    const r = replayWithFacts(g.log());
    expect(r.deals[0].findings.filter((f) => f.kind === 'revoke').map((f) => f.seat)).toEqual(['W']);
    expect(r.deals[0].tricksWon).toEqual({ NS: 2, EW: 11 });
    expect(r.deals[0].scored).toEqual({ NS: 5, EW: 8 });
    const s = scoreOf(r.deals, r.facts)!;
    expect(s.game).toBe('double-dummy');
    expect(s.deals[0].items.map((i) => `${i.side} ${i.what} ${i.points}`)).toEqual(['EW tricks 2']);
  });
});
