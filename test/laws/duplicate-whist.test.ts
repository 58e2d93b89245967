// The Laws of Duplicate Whist (seeds 000/001), section by section, from the laws' own words.
import { describe, expect, it } from 'vitest';
import { brief, run, table } from './table-script.js';

// N holds the top cards; W turns the C2 (clubs trumps); N leads.
const D1 = 'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432';
// E-W win the first two tricks in spades; clubs trumps (W turns C3).
const D2 = 'N:5432.AKQJ.AKQ.AK AKQJ.5432.5432.2 T98.T98.JT9.QJT9 76.76.876.876543';
// As D2 but East holds no club.
const D3 = 'N:5432.AKQJ.AKQ.AK AKQJ7.5432.5432. T98.T98.JT9.QJT9 6.76.876.8765432';

const dup = (hands: string | undefined, extra: object = {}) => table({ board: 1, variant: 'duplicate-whist', dealer: 'W', ...(hands ? { hands } : {}), ...extra });

describe('Laws of Duplicate Whist', () => {
  it('Def. (h): "a card is played whenever it is placed face upwards on the table" — the first trick is won by the highest card', () => {
    const t = dup(D1);
    run(t, 'W:C2 N:SA E:S8 S:S5 -W:C2 W:S2');
    expect(t.result()!.tricks[0]).toMatchObject({ leader: 'N', winner: 'N', cards: { N: 'SA', E: 'S8', S: 'S5', W: 'S2' } });
    expect(t.trump()).toBe('C');
    expect(t.whoseTurn()).toBe('N');
    expect(brief(t)).toEqual([]);
  });

  it('VI.1: a card lawfully played "must remain in this position until all have played" — lifting it does not withdraw it', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 -E:S8 S:S5 W:S2');
    expect(t.result()!.tricks[0].cards.E).toBe('S8');
    expect(brief(t)).toEqual([]);
  });

  it('Def. (g) / X.1: "he renounces in error when, although holding one or more cards of the suit led, he plays a card of a different suit" — found the moment the card lands', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA');
    const found = t.play('E', 'H8');
    expect(found.map((f) => [f.kind, f.seat, f.trick, f.law])).toEqual([['renounce-in-error', 'E', 1, 'Dup. X.1']]);
    expect(found[0].remedies.map((r) => r.option)).toEqual(['E', 'NS']);
  });

  it('X.1(a): the revoke is established "when the trick in which it occurs has been turned and quitted"', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA E:H8 S:S5 W:S2');
    expect(brief(t)).toEqual(['renounce-in-error E t1 Dup. X.1']);
    run(t, '-N:SA -E:H8 -S:S5');
    expect(brief(t)).toHaveLength(1); // not yet: W has not quitted his card
    run(t, '-W:S2');
    expect(brief(t)).toEqual(['renounce-in-error E t1 Dup. X.1', 'revoke E t1 Dup. X.1(a)']);
  });

  it('X.1(b): established "when the renouncing player or his partner ... has led or played to the following trick"', () => {
    const t = dup(D2, { dealer: 'W' });
    // E wins trick 1 with SA; at trick 2 W renounces; then W's partner E leads to trick 3 before the trick is quitted.
    run(t, 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit E:SK S:S9 W:D6 N:S3');
    expect(brief(t)).toEqual(['renounce-in-error W t2 Dup. X.1']);
    run(t, 'E:H2');
    expect(brief(t)[1]).toBe('revoke W t2 Dup. X.1(b)');
  });

  it('X.2/X.3: "if a player who has renounced in error lawfully corrects his mistake, the card improperly played by him is liable to be called"; later players "may withdraw" theirs without penalty', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA E:H8 S:S5 -E:H8 E:S8');
    const f = t.findings();
    expect(f.map((x) => `${x.kind} ${x.seat} ${x.card} ${x.law}`)).toEqual([
      'renounce-in-error E H8 Dup. X.1',
      'card-liable-to-be-called E H8 Dup. X.3',
    ]);
    // E was second hand and his left-hand adversary S had played: S may require his highest or lowest.
    expect(f[1].remedies.map((r) => `${r.remedy}:${r.option}`)).toContain('highest:S');
    expect(f[1].remedies.map((r) => `${r.remedy}:${r.option}`)).toContain('call-card:N');
    // S withdraws the S5 (lawfully) and plays S7 instead: no new finding, not liable.
    run(t, '-S:S5 S:S7 W:S2');
    expect(t.findings()).toHaveLength(2);
    expect(t.result()!.tricks[0].cards).toMatchObject({ E: 'S8', S: 'S7' });
    expect(t.pendingPenalties().filter((p) => p.kind === 'liable-card').map((p) => (p as { card: string }).card)).toEqual(['H8']);
  });

  it('X.4: "the transfer of two tricks from the revoking side to their adversaries"; -R/+R marked', () => {
    const t = dup(D2);
    // EW win tricks 1-2; N wins 3; W renounces hearts at trick 4; E then claims 3 of the last 9.
    run(t, 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit E:SK S:S9 W:S7 N:S3 quit E:H2 S:H8 W:H6 N:HA quit N:HK E:H3 S:H9 W:D8 quit claim:E:3');
    const r = t.results()[0];
    expect(r.findings.filter((f) => f.kind === 'revoke').map((f) => `${f.seat} t${f.trick}`)).toEqual(['W t4']);
    expect(r.tricksWon).toEqual({ NS: 8, EW: 5 });
    expect(r.scored).toEqual({ NS: 10, EW: 3 });
    expect(r.marks).toEqual({ EW: '-R', NS: '+R' });
  });

  it('X.4: "the penalty for each revoke, after the first, is the transfer of one trick only"', () => {
    const t = dup(D2);
    run(t, 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit E:SK S:S9 W:S7 N:S3 quit E:H2 S:H8 W:H6 N:HA quit N:HK E:H3 S:H9 W:D8 quit');
    run(t, 'N:HQ E:H4 S:HT W:D7 quit claim:E:4');
    const r = t.results()[0];
    expect(r.findings.filter((f) => f.kind === 'revoke').map((f) => `${f.seat} t${f.trick}`)).toEqual(['W t4', 'W t5']);
    expect(r.tricksWon).toEqual({ NS: 7, EW: 6 });
    expect(r.scored).toEqual({ NS: 10, EW: 3 }); // 2 + 1
  });

  it('X.4: "in no case shall the infliction of the revoke penalty deprive the revoking players of any tricks won by them before their first revoke"', () => {
    const t = dup(D2);
    run(t, 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit E:SK S:S9 W:S7 N:S3 quit E:H2 S:H8 W:H6 N:HA quit N:HK E:H3 S:H9 W:D8 quit claim:E:1');
    const r = t.results()[0];
    expect(r.tricksWon).toEqual({ NS: 10, EW: 3 });
    expect(r.scored).toEqual({ NS: 11, EW: 2 }); // only one trick won after the revoke can go
  });

  it('X.5: "if the revoke is discovered in season, the penalty must be enforced and cannot be waived"', () => {
    const t = dup(D2);
    run(t, 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit E:SK S:S9 W:S7 N:S3 quit E:H2 S:H8 W:H6 N:HA quit N:HK E:H3 S:H9 W:D8 quit');
    expect(t.remedy({ by: 'N', remedy: 'waive', seat: 'W' })).toMatch(/no such penalty/);
    run(t, 'claim:E:3');
    expect(t.results()[0].scored).toEqual({ NS: 10, EW: 3 });
  });

  it('X.1 with the hands unknown: the renounce is proved a revoke when the offender later plays the suit, naming the original trick', () => {
    const t = dup(undefined);
    run(t, 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit E:SK S:S9 W:S7 N:S3 quit E:H2 S:H8 W:H6 N:HA quit N:HK E:H3 S:H9 W:D8 quit');
    expect(brief(t)).toEqual([]); // nothing can be known yet
    run(t, 'N:HQ E:H4 S:HT W:H7');
    const f = t.findings();
    expect(f.map((x) => `${x.kind} ${x.seat} t${x.trick} ${x.law} ${x.card}`)).toEqual(['revoke W t4 Dup. X.1 D8']);
    expect(f[0].renounceTrick).toBe(4);
  });

  it('VIII.1: a lead "when it is the turn of an adversary": taken back before all have played, a suit may be called from him or his partner by the adversary on the right', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 E:HJ');
    expect(brief(t)).toEqual(['lead-out-of-turn E t1 Dup. VIII.1']);
    expect(t.pendingPenalties()).toEqual([]); // not discovered yet: if all play to it, it stands
    run(t, 'S:H5 -S:H5 -E:HJ');
    const p = t.pendingPenalties();
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ kind: 'call-suit', from: ['E', 'W'], by: ['N', 'S'], law: 'Dup. VIII.1' });
    expect(t.findings().filter((f) => f.kind === 'card-liable-to-be-called')).toEqual([]); // VIII.4: not liable
    expect(t.whoseTurn()).toBe('N');
  });

  it('VIII.2: a lead "when it is his partner\'s turn": a suit may at once be called from the proper leader by his right-hand adversary; XI.5 on failing to comply', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 S:D5');
    expect(brief(t)).toEqual(['lead-out-of-turn S t1 Dup. VIII.2']);
    run(t, '-S:D5');
    expect(t.pendingPenalties()[0]).toMatchObject({ kind: 'call-suit', from: ['N'], by: ['W'] });
    expect(t.remedy({ by: 'W', remedy: 'call-suit', seat: 'N', suit: 'H' })).toBeNull();
    run(t, 'N:SA');
    expect(brief(t)).toEqual(['lead-out-of-turn S t1 Dup. VIII.2', 'failure-to-comply N t1 Dup. XI.5']);
  });

  it('VIII.3: "if a player when called on to lead a suit has none of it, he may lead as he pleases"', () => {
    const t = dup(D3);
    run(t, 'W:C3 -W:C3 N:S2 E:SA S:S8 W:S6 quit W:H6 -W:H6');
    expect(t.pendingPenalties()[0]).toMatchObject({ kind: 'call-suit', from: ['E'], by: ['N'] });
    expect(t.remedy({ by: 'N', remedy: 'call-suit', seat: 'E', suit: 'C' })).toBeNull();
    run(t, 'E:SK');
    expect(brief(t)).toEqual(['lead-out-of-turn W t2 Dup. VIII.2']);
    expect(t.pendingPenalties()).toEqual([]);
  });

  it('VIII.4: "if all have played to a lead out of turn" it stands and no penalty remains', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 E:HJ S:H5 W:H2 N:HA');
    expect(brief(t)).toEqual(['lead-out-of-turn E t1 Dup. VIII.1']);
    expect(t.result()!.tricks[0]).toMatchObject({ leader: 'E', winner: 'N' });
    expect(t.pendingPenalties()).toEqual([]);
    expect(t.whoseTurn()).toBe('N');
  });

  it('IX.1: "if the third hand plays before the second, the fourth hand may also play before the second"', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA S:S5 W:S2 E:S8');
    expect(brief(t)).toEqual(['play-out-of-turn S t1 Dup. IX.1']);
    expect(t.findings()[0].remedies).toEqual([]);
    expect(t.result()!.tricks).toHaveLength(1);
  });

  it('IX.2: fourth hand before the second, third not played: the third hand may call for the second hand\'s "highest or lowest card of the suit led"', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA W:S2');
    expect(brief(t)).toEqual(['play-out-of-turn W t1 Dup. IX.2']);
    expect(t.pendingPenalties()[0]).toMatchObject({ kind: 'highest-or-lowest', from: ['E'], by: ['S'] });
    expect(t.remedy({ by: 'S', remedy: 'highest', seat: 'E' })).toBeNull();
    run(t, 'E:S9');
    expect(brief(t).at(-1)).toBe('failure-to-comply E t1 Dup. XI.5');
    expect(t.result()!.tricks).toHaveLength(0);
  });

  it('VII.1(a) and VII.4: an exposed card is liable to be called, "only by the adversary on his right"', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 E:HJ');
    const f = t.findings();
    expect(f.map((x) => `${x.kind} ${x.seat} ${x.card} ${x.law}`)).toEqual(['card-liable-to-be-called E HJ Dup. VII.1(a)']);
    expect(f[0].remedies[0]).toMatchObject({ remedy: 'call-card', option: 'N' });
  });

  it('XI.4: "if the wrong adversary demands a penalty ... none can be enforced"', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 E:HJ S:S5 W:S2 quit');
    expect(t.remedy({ by: 'S', remedy: 'call-card', seat: 'E', card: 'HJ' })).toMatch(/is lost/);
    expect(t.pendingPenalties().filter((p) => p.kind === 'call-card')).toEqual([]);
  });

  it('VII.3 and XI.5: a card lawfully called must be played "provided he can do so without revoking"; failing is a revoke', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 E:HJ S:S5 W:S2 quit');
    expect(t.remedy({ by: 'N', remedy: 'call-card', seat: 'E', card: 'HJ' })).toBeNull();
    run(t, 'N:HA E:HT');
    const f = brief(t);
    expect(f.at(-1)).toBe('failure-to-comply E t2 Dup. XI.5');
  });

  it('VII.2: "if he says I can win the rest" and play goes on, "his partner\'s cards must be laid face up on the table and are liable to be called"', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 S:S5 W:S2 quit claim:N:12 N:SK');
    const f = t.findings().at(-1)!;
    expect(f).toMatchObject({ kind: 'card-liable-to-be-called', seat: 'S', law: 'Dup. VII.2' });
    expect(t.pendingPenalties().filter((p) => p.kind === 'liable-card')).toHaveLength(12);
  });

  it('XI.6: leading further cards before the partner plays, all better than the adversaries hold: the partner "may be called upon ... to win"', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA N:SK');
    expect(brief(t)).toEqual(['card-liable-to-be-called N t1 Dup. XI.6']);
    expect(t.pendingPenalties()[0]).toMatchObject({ kind: 'win', from: ['S'], by: ['E', 'W'] });
  });

  it('III.2(b): "if the pack is proved incorrect" — a second copy of a card played — there must be a new deal', () => {
    const t = dup(D1);
    run(t, 'W:C2 -W:C2 N:SA E:S8 S:S5 W:S2 quit N:SK E:S9 S:S8');
    expect(brief(t)).toEqual(['duplicate-card S t2 Dup. III.2(b)']);
    expect(t.findings()[0].remedies[0].remedy).toBe('new-deal');
  });

  it('III.2(c): "if either more or less than thirteen cards are dealt to any player" there must be a new deal', () => {
    const t = dup('N:AKQJ.AKQ.AKQ.AK T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432');
    expect(brief(t)).toEqual(['wrong-card-count N t1 Dup. III.2(c)']);
  });

  it('IV.2: the dealer "must take the trump card into his hand" — played later from the hand it is an ordinary card', () => {
    const t = dup(D2);
    run(t, 'W:C3 N:S2 E:SA S:S8 -W:C3 W:S6 quit E:SK S:S9 W:S7 N:S3 quit E:C2 S:C9 W:C3 N:CA');
    expect(brief(t)).toEqual([]);
    expect(t.result()!.tricks[2].cards.W).toBe('C3');
  });

  it('IV.2: the trump card may be played straight to the first trick', () => {
    const u = dup('N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432');
    run(u, 'W:S2 N:SA E:S8 S:S5 -W:S2 W:S2');
    expect(brief(u)).toEqual([]);
    expect(u.trump()).toBe('S');
  });

  it('IV.8: on the overplay the dealer "turns a trump card other than the one recorded on the trump slip" and corrects it: the card turned in error is liable to be called', () => {
    const t = dup(D2, { trumpSlip: 'C3', tables: 4 });
    run(t, 'W:C4');
    expect(brief(t)).toEqual(['wrong-trump-card W t1 Dup. IV.8']);
    run(t, '-W:C4 W:C3');
    expect(brief(t)).toEqual(['wrong-trump-card W t1 Dup. IV.8', 'wrong-trump-card W t1 Dup. IV.8']);
    expect(t.pendingPenalties().filter((p) => p.kind === 'liable-card').map((p) => (p as { card: string }).card)).toEqual(['C4']);
    expect(t.trump()).toBe('C');
  });

  it('IV.9: not corrected until the overplay has begun — "more than two tables ... the average score"; "less than three tables ... a new deal"', () => {
    for (const [tables, rem] of [[4, 'average'], [2, 'new-deal']] as const) {
      const t = dup(D2, { trumpSlip: 'C3', tables });
      run(t, 'W:C4 N:S2');
      const f = t.findings().at(-1)!;
      expect(f).toMatchObject({ kind: 'wrong-trump-card', law: 'Dup. IV.9' });
      expect(f.remedies[0].remedy).toBe(rem);
    }
  });

  it('IV.10: the trump slip records "a different trump from one turned in dealing" — a card the dealer never held', () => {
    const t = dup(D2, { trumpSlip: 'CA', tables: 4 });
    run(t, 'W:C3');
    expect(brief(t)).toEqual(['wrong-trump-card W t1 Dup. IV.10']);
  });

  it('IV.11: "a trump suit may be declared and no trump turned" — the dealer\'s first card is then no trump card', () => {
    const t = dup(D1, { trump: 'H' });
    run(t, 'W:C2');
    expect(brief(t)).toEqual(['lead-out-of-turn W t1 Dup. VIII.1']);
    expect(t.trump()).toBe('H');
  });

  it('V.1: on the overplay "the trump card is not in the dealer\'s hand": fewer than three tables — a new deal; more than two — the average', () => {
    for (const [tables, rem] of [[2, 'new-deal'], [3, 'average']] as const) {
      const t = dup(D2, { overplay: true, tables });
      run(t, 'W:CA');
      const f = t.findings()[0];
      expect(f).toMatchObject({ kind: 'card-not-in-hand', seat: 'W', law: 'Dup. V.1', card: 'CA' });
      expect(f.remedies[0].remedy).toBe(rem);
    }
  });

  it('V.1: a card played that the tray puts in another hand is a fouled tray, found the moment it is played', () => {
    const t = dup(D1, { overplay: true, tables: 2 });
    run(t, 'W:C2 -W:C2 N:SA');
    const f = t.play('E', 'S5');
    expect(f.map((x) => `${x.kind} ${x.seat} ${x.card} ${x.law}`)).toEqual(['card-not-in-hand E S5 Dup. V.1']);
    expect(f[0].message).toMatch(/S's hand/);
  });

  it('V.2: "a player is found to have less than his correct number of cards" after the first trick: he is answerable for them', () => {
    const t = dup('N:AKQJ.AKQ.AKQ.AK T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432', { overplay: true, tables: 3 });
    const f = t.findings()[0];
    expect(f).toMatchObject({ kind: 'wrong-card-count', seat: 'N', law: 'Dup. V.1' });
    expect(f.remedies.map((r) => r.text).join(' ')).toMatch(/\(V\.2\)/);
  });
});

describe('table-log extensions', () => {
  it('undo: a misread is journaled and folded away — the deal is judged as if the card had never been seen', async () => {
    const { Table } = await import('../../src/laws/engine.js');
    const t = new Table();
    t.apply({ type: 'deal', board: 1, variant: 'duplicate-whist', dealer: 'W', hands: D1, seq: 1 });
    t.apply({ type: 'place', seat: 'W', card: 'C2', seq: 2 });
    t.apply({ type: 'lift', seat: 'W', card: 'C2', seq: 3 });
    t.apply({ type: 'place', seat: 'N', card: 'SA', seq: 4 });
    t.apply({ type: 'place', seat: 'E', card: 'H8', seq: 5 }); // a misread: E's S8 was read as H8
    expect(t.findings().map((f) => f.kind)).toEqual(['renounce-in-error']);
    t.apply({ type: 'undo', target: 5, seq: 6 });
    expect(t.findings()).toEqual([]);
    expect(t.whoseTurn()).toBe('E');
    t.apply({ type: 'place', seat: 'E', card: 'S8', seq: 7 });
    expect(t.currentTrick().cards.map((c) => c.card)).toEqual(['SA', 'S8']);
    expect(t.undo(99)).toMatch(/no event with seq 99/);
  });

  it('a tag from no known deck is an unknown-card finding, never silently dropped', async () => {
    const { parseTableLog } = await import('../../src/formats/table-log.js');
    const { replay } = await import('../../src/laws/engine.js');
    const { events, errors } = parseTableLog('{"type":"deal","variant":"whist"}\n{"type":"place","seat":"N","tag":"04A1B2C3D4E5F6"}\n');
    expect(errors).toEqual([]);
    const f = replay(events).deals[0].findings;
    expect(f.map((x) => `${x.kind} ${x.seat}`)).toEqual(['unknown-card N']);
    expect(f[0].message).toMatch(/04A1B2C3D4E5F6/);
  });

  it('contract: set after the deal event, it fixes declarer, dummy, trump and the opening leader (bridge)', async () => {
    const { Table } = await import('../../src/laws/engine.js');
    const t = new Table();
    t.apply({ type: 'deal', board: 2, variant: 'bridge', dealer: 'E', hands: D1 });
    expect(t.whoseTurn()).toBe('S'); // no contract yet: dealer's left
    t.apply({ type: 'contract', contract: '4HE' });
    expect(t.whoseTurn()).toBe('S');
    t.apply({ type: 'contract', contract: '3NTS' });
    expect(t.whoseTurn()).toBe('W');
    expect(t.trump()).toBeNull();
    t.play('W', 'S2');
    t.apply({ type: 'contract', contract: '4SN' });
    expect(t.result()!.notes?.[0]).toMatch(/after the opening lead/);
  });

  it('abandon: the deal in progress is closed and marked, and the next deal starts clean', async () => {
    const { replay } = await import('../../src/laws/engine.js');
    const r = replay([
      { type: 'deal', board: 1, variant: 'duplicate-whist', dealer: 'W', hands: D1 },
      { type: 'place', seat: 'W', card: 'C2' },
      { type: 'abandon', reason: 'Dup. III.2(a): a card exposed in dealing' },
      { type: 'deal', board: 2, variant: 'duplicate-whist', dealer: 'N' },
    ]);
    expect(r.deals.map((d) => d.abandoned)).toEqual(['Dup. III.2(a): a card exposed in dealing', undefined]);
  });
});
