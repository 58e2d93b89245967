// The American whist laws 19-39 (seed 002), section by section, from the laws' own words.
import { describe, expect, it } from 'vitest';
import { brief, run, table } from './table-script.js';

const D1 = 'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432';
const D2 = 'N:5432.AKQJ.AKQ.AK AKQJ.5432.5432.2 T98.T98.JT9.QJT9 76.76.876.876543';
// The D2 opening: E-W take two spade tricks, N the third (hearts); W renounces hearts at trick 4.
const REVOKE_AT_4 = 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit E:SK S:S9 W:S7 N:S3 quit E:H2 S:H8 W:H6 N:HA quit N:HK E:H3 S:H9 W:D8 quit';

const whist = (hands?: string) => table({ board: 1, variant: 'whist', dealer: 'W', ...(hands ? { hands } : {}) });

describe('American whist laws', () => {
  it('19: "a player is found to have either more or less than his correct number of cards": the adversaries choose a new deal or play on', () => {
    const t = whist('N:AKQJ.AKQ.AKQ.AK T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432');
    const f = t.findings();
    expect(brief(t)).toEqual(['wrong-card-count N t1 Am. 19']);
    expect(f[0].remedies.map((r) => `${r.remedy}:${r.option}`)).toEqual(['new-deal:EW', 'none:EW']);
  });

  it('20.II and 21: "every card thrown with the one led or played" is liable to be called, "by either adversary"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 E:HJ');
    const f = t.findings()[0];
    expect(f).toMatchObject({ kind: 'card-liable-to-be-called', seat: 'E', card: 'HJ', law: 'Am. 20.II' });
    expect(f.remedies[0]).toMatchObject({ remedy: 'call-card', option: 'NS' });
    expect(t.pendingPenalties().filter((p) => p.kind === 'liable-card')).toHaveLength(1);
  });

  it('21: "a player must lead or play them when called, provided he can do so without revoking" — a called card of another suit need not be played while he can follow', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 E:HJ S:S5 W:S2 quit');
    expect(t.remedy({ by: 'S', remedy: 'call-card', seat: 'E', card: 'HJ' })).toBeNull(); // either adversary may call (Am. 20)
    run(t, 'N:SK E:S9'); // spades led: playing the HJ would be a revoke, so the S9 complies
    expect(brief(t)).toEqual(['card-liable-to-be-called E t1 Am. 20.II']);
  });

  it('22: a player "leads a card better than any his adversaries hold of the suit, and then leads one or more other cards without waiting for his partner to play"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA N:SK');
    expect(brief(t)).toEqual(['card-liable-to-be-called N t1 Am. 22']);
    expect(t.pendingPenalties()[0]).toMatchObject({ kind: 'win', from: ['S'], by: ['E', 'W'] });
  });

  it('24: "if any player leads out of turn, a suit may be called from him or his partner ... only by the adversary on the right"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 S:D5');
    expect(brief(t)).toEqual(['lead-out-of-turn S t1 Am. 24']);
    run(t, '-S:D5');
    expect(t.pendingPenalties()[0]).toMatchObject({ kind: 'call-suit', from: ['S', 'N'], by: ['E', 'W'], law: 'Am. 24' });
    expect(t.findings().filter((f) => f.kind === 'card-liable-to-be-called')).toEqual([]); // "not liable to be called and must be taken back"
  });

  it('24: "if all have played to the false lead, no penalty can be enforced"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 S:D5 W:D2 N:DA E:D9');
    expect(t.pendingPenalties()).toEqual([]);
    expect(t.result()!.tricks[0]).toMatchObject({ leader: 'S', winner: 'N' });
  });

  it('25: "if the third hand plays before the second, the fourth hand also may play before the second"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA S:S5 W:S2 E:S8');
    expect(brief(t)).toEqual(['play-out-of-turn S t1 Am. 25']);
  });

  it('26: fourth hand before the second, third not played: the second "may be called upon by the third hand to play his highest or lowest card of the suit led"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA W:S2');
    expect(brief(t)).toEqual(['play-out-of-turn W t1 Am. 26']);
    expect(t.remedy({ by: 'S', remedy: 'lowest', seat: 'E' })).toBeNull();
    run(t, 'E:S8 S:S5'); // E's lowest spade: complied
    expect(brief(t)).toEqual(['play-out-of-turn W t1 Am. 26']);
  });

  it('28: "a revoke is a renounce in error, not corrected in time"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA E:H8 S:S5 W:S2 quit');
    expect(brief(t)).toEqual(['renounce-in-error E t1 Am. 28', 'revoke E t1 Am. 28']);
  });

  it('29: corrected in time, "the card improperly played by him is liable to be called"; those who played after him may withdraw theirs', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA E:H8 S:S5 -E:H8 E:S8 -S:S5 S:S6 W:S2');
    expect(brief(t)).toEqual(['renounce-in-error E t1 Am. 28', 'card-liable-to-be-called E t1 Am. 29']);
    expect(t.result()!.tricks[0].cards).toMatchObject({ E: 'S8', S: 'S6' });
  });

  it('30: "the transfer of two tricks from the revoking side to their adversaries; it can be enforced for as many revokes as occur"', () => {
    const t = whist(D2);
    run(t, `${REVOKE_AT_4} N:HQ E:H4 S:HT W:D7 quit claim:E:4`);
    const r = t.results()[0];
    expect(r.tricksWon).toEqual({ NS: 7, EW: 6 });
    expect(r.scored).toEqual({ NS: 11, EW: 2 }); // 2 + 2, where duplicate whist takes 2 + 1
    expect(r.marks?.EW).toMatch(/cannot win the game/);
  });

  it('31: the revoking side "may require the hand ... to be played out" — tricks won before the revoke are never taken', () => {
    const t = whist(D2);
    run(t, `${REVOKE_AT_4} claim:E:1`);
    expect(t.results()[0].scored).toEqual({ NS: 11, EW: 2 });
  });

  it('32-33: "at the end of a hand, the claimants of a revoke may search all the tricks" — with the hands unknown, the renounce is proved when the offender plays the suit', () => {
    const t = whist();
    run(t, `${REVOKE_AT_4} N:HQ E:H4 S:HT W:H7`);
    const f = t.findings();
    expect(f.map((x) => `${x.kind} ${x.seat} t${x.trick} ${x.law}`)).toEqual(['revoke W t4 Am. 28']);
  });

  it('36: a player says "I can win the rest" and play goes on: "his partner\'s cards must be laid upon the table and are liable to be called"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 S:S5 W:S2 quit claim:N:12 N:SK');
    expect(brief(t).at(-1)).toBe('card-liable-to-be-called S t2 Am. 36');
  });

  it('38: "lawfully called upon ... to lead a suit, and unnecessarily fails to comply, he is liable to the same penalty as if he had revoked"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 E:HJ -E:HJ');
    expect(t.remedy({ by: 'N', remedy: 'call-suit', seat: 'E', suit: 'D' })).toBeNull();
    run(t, 'N:SA E:S8 S:S5 W:S2 quit N:HA E:H8 S:H5 W:H2 quit');
    // N won both tricks; E has not led yet, so the call is still pending on him.
    expect(t.pendingPenalties()[0]).toMatchObject({ kind: 'call-suit', from: ['E'] });
  });

  it('38: failing to comply with a call is scored as a revoke (two tricks)', () => {
    const t = whist(D2);
    // W leads out of turn at trick 2 (E's lead) and takes it back; N calls hearts from E, who leads a spade.
    run(t, 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit W:H6 -W:H6');
    expect(t.remedy({ by: 'N', remedy: 'call-suit', seat: 'E', suit: 'H' })).toBeNull();
    run(t, 'E:SK');
    expect(brief(t).at(-1)).toBe('failure-to-comply E t2 Am. 38');
    run(t, 'S:S9 W:S7 N:S3 quit claim:E:5');
    const r = t.results()[0];
    expect(r.tricksWon).toEqual({ NS: 6, EW: 7 });
    expect(r.scored).toEqual({ NS: 8, EW: 5 });
  });

  it('39: "if the wrong adversary demands a penalty, or a wrong penalty is demanded, none can be enforced"', () => {
    const t = whist(D1);
    run(t, 'W:C2 -W:C2 N:SA W:S2');
    expect(t.remedy({ by: 'N', remedy: 'highest', seat: 'E' })).toMatch(/is lost/); // only the third hand (S) may
    expect(t.pendingPenalties()).toEqual([]);
    run(t, 'E:S8 S:S5');
    expect(brief(t)).toEqual(['play-out-of-turn W t1 Am. 26']);
  });
});
