// The score of the social games on the feed (issue 9): the public `state` carries points, games, rubbers and the
// honours called and counted, never a card not yet public; the director's state has the whole score and each call's
// verdict; a false call goes to the director topic; `honours` and `remedy.points` are commands like the others.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLog } from '../../src/cli/load-log.js';
import { commandEvent, honoursCallProblem } from '../../src/daemon/controller.js';
import { TransactionIndex, checkCommand } from '../../src/feed/commands.js';
import { type JsonValue, applyPatch } from '../../src/feed/patch.js';
import { findLeaks } from '../../src/feed/privacy.js';
import type { EmbargoPolicy, PublicState } from '../../src/feed/projection.js';
import { Projector } from '../../src/feed/projector.js';
import { type TableEvent, validateTableEvent } from '../../src/formats/table-log.js';
import { Table } from '../../src/laws/engine.js';

const ENGLISH = join(import.meta.dirname, '..', 'fixtures', 'score', 'english-whist.ndjson');

function fixture(): TableEvent[] {
  const log = loadLog(readFileSync(ENGLISH, 'utf8'), ENGLISH);
  expect(log.errors).toEqual([]);
  return log.events.map((e, i) => ({ ...e, seq: i + 1 }));
}

/** Card tokens in a JSON text (written apart from src/feed/privacy.ts). */
function cardsIn(json: string): string[] {
  return [...json.matchAll(/(?<![A-Za-z0-9])([SHDC])(10|[2-9TJQKA])(?![A-Za-z0-9])/g)].map((m) => m[1] + (m[2] === '10' ? 'T' : m[2]));
}

function fold(events: TableEvent[], embargo: EmbargoPolicy = 'live') {
  const p = new Projector({ epoch: 'test', embargo });
  const alerts = [];
  const states: PublicState[] = [];
  for (const ev of events) {
    const out = p.apply(ev);
    if (out.director) alerts.push(out.director);
    // No public payload names a card that has not lain face up (DESIGN §6), the score included.
    const visible = p.visibleCards();
    for (const c of cardsIn(JSON.stringify(p.publicState()))) expect(visible.has(c), `seq ${ev.seq}: state names ${c}`).toBe(true);
    for (const c of cardsIn(JSON.stringify(out.public))) expect(visible.has(c), `seq ${ev.seq}: event names ${c}`).toBe(true);
    states.push(p.publicState());
  }
  return { p, alerts, states };
}

describe('the score on the public state and the director state', () => {
  it('English whist: the public score is what markers show (Eng. 8: "treble, double or single"; Eng. 10: the losers\' game deducted)', () => {
    const { p, states } = fold(fixture());
    const s = p.publicState().score!;
    expect(s.game).toBe('english-whist');
    expect(s.points).toEqual({ NS: 2, EW: 1 });
    expect(s.gamesWon).toEqual({ NS: 0, EW: 0 });
    expect(s.rubbers).toHaveLength(1);
    expect(s.rubbers[0]).toMatchObject({ winner: 'NS', rubberPoints: 2, deducted: 3, value: 4 });
    expect(s.rubbers[0].games.map((g) => [g.winner, g.value])).toEqual([['NS', 2], ['EW', 3], ['NS', 3]]);
    expect(s.totals).toEqual({ NS: 4, EW: 0 });
    expect(s.deals.map((d) => d.board)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Deal 1: two by tricks and two by honours, called (Eng. 3, 7); deal 2: N-S at four cannot score honours (Eng. 4).
    expect(s.deals[0].items.map((i) => [i.side, i.what, i.points])).toEqual([['NS', 'tricks', 2], ['NS', 'honours', 2]]);
    expect(s.deals[1].notes.join(' ')).toMatch(/at the score of 4/);
    expect(s.deals[6].honours).toEqual({ held: { NS: 3, EW: 1 }, called: ['NS'], counted: 'NS' });
    // Before the first deal is played out the score is there at love all; it moves only when a deal ends.
    expect(states[1].score?.points).toEqual({ NS: 0, EW: 0 });
    expect(states[1].score?.deals).toEqual([]);
  });

  it('Eng. 7 ("they must be called"): a false call is on the director topic with the cards, and public only as counted, without them', () => {
    const { p, alerts } = fold(fixture());
    const flagged = alerts.filter((a) => a.honours?.length);
    expect(flagged).toHaveLength(1);
    const call = flagged[0].honours![0];
    expect(call).toMatchObject({ seat: 'N', side: 'NS', count: 4, verdict: 'false', board: 7 });
    expect(call.message).toBe('N called 4 honours, but NS held 3 (HA HK HQ)');
    expect(flagged[0].event.type).toBe('honours');
    // The director state lists every call with its verdict; the score's finding keeps the engine's sentence.
    const d = p.directorState();
    expect(d.honours?.map((c) => [c.board, c.seat, c.verdict])).toEqual([[1, 'N', 'true'], [2, 'S', 'true'], [3, 'E', 'true'], [5, 'W', 'true'], [6, 'N', 'true'], [7, 'N', 'false']]);
    expect(d.score?.findings[0].message).toContain('HA HK HQ');
    // The public finding names the caller and the law, not the honours (HK and HQ were never played).
    const f = p.publicState().score!.findings;
    expect(f).toEqual([{ kind: 'false-honours-claim', seat: 'N', side: 'NS', board: 7, law: 'Eng. 7',
      message: "N's honours call is not borne out by the cards (Eng. 7); the honours held are counted" }]);
    expect(findLeaks(p.publicState(), p.visibleCards())).toEqual([]);
  });

  it('a call naming its honours mid-deal is counted, not listed, on the public topics until the cards are seen', () => {
    const hands = 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765';
    const events: TableEvent[] = [
      { type: 'deal', board: 1, variant: 'english-whist', dealer: 'W', hands },
      { type: 'place', seat: 'W', card: 'C5' }, { type: 'lift', seat: 'W', card: 'C5' },
      { type: 'place', seat: 'N', card: 'SA' },
      { type: 'honours', seat: 'E', cards: ['CA', 'CK', 'CQ', 'CJ'] },
    ].map((e, i) => ({ ...e, seq: i + 1 }) as TableEvent);
    const p = new Projector({ epoch: 't' });
    let last;
    for (const ev of events) last = p.apply(ev);
    expect(last!.public.event).toEqual({ type: 'honours', seq: 5, seat: 'E', count: 4 });
    const s = p.publicState().score!;
    expect(s.calls).toEqual([{ seat: 'E', side: 'EW', count: 4, board: 1 }]);
    expect(s.deals).toEqual([]);
    expect(JSON.stringify(p.publicState())).not.toMatch(/"C[AKQJ]"/);
    // The director has the cards and the verdict (the tray record shows E-W held all four).
    expect(p.directorState().honours).toEqual([expect.objectContaining({ seat: 'E', cards: ['CA', 'CK', 'CQ', 'CJ'], verdict: 'true', board: 1 })]);
    // Once all four have been played face up, the call may name them.
    const q = new Projector({ epoch: 't' });
    for (const ev of events.slice(0, 4)) q.apply(ev);
    for (const [i, c] of (['CA', 'CK', 'CQ', 'CJ'] as const).entries()) q.apply({ type: 'place', seat: 'E', card: c, seq: 10 + i });
    // (E's plays are out of turn; what matters here is that the cards have lain face up.)
    expect(q.apply({ type: 'honours', seat: 'E', cards: ['CA', 'CK', 'CQ', 'CJ'], seq: 20 }).public.event.cards).toEqual(['CA', 'CK', 'CQ', 'CJ']);
  });

  it('the score reaches a subscriber through the event patches alone (the snapshot after each event is rebuilt exactly)', () => {
    const p = new Projector({ epoch: 't' });
    let doc = structuredClone(p.publicState()) as unknown as JsonValue;
    for (const ev of fixture()) {
      const out = p.apply(ev);
      doc = applyPatch(doc, out.public.patch);
      expect(doc, `seq ${ev.seq}`).toEqual(JSON.parse(JSON.stringify(p.publicState())));
    }
    expect((doc as unknown as PublicState).score?.totals).toEqual({ NS: 4, EW: 0 });
  });

  it('duplicate whist and bridge carry no score: theirs is the club\'s', () => {
    for (const variant of ['duplicate-whist', 'bridge']) {
      const p = new Projector({ epoch: 't' });
      p.apply({ type: 'deal', board: 2, variant, dealer: 'E', seq: 1, ...(variant === 'bridge' ? { contract: '4SS' } : {}) });
      p.apply({ type: 'claim', seat: 'N', tricks: 13, seq: 2 });
      p.apply({ type: 'deal', board: 3, variant, dealer: 'S', seq: 3 });
      expect(p.publicState().score, variant).toBeUndefined();
      expect(p.directorState().score, variant).toBeUndefined();
      expect('score' in p.publicState()).toBe(false);
    }
  });

  it('tray-complete embargo: a deal\'s score is held back until its tray is complete, and later deals with it', () => {
    const events = fixture();
    const p = new Projector({ epoch: 't', embargo: 'tray-complete' });
    for (const ev of events) p.apply(ev);
    let s = p.publicState().score!;
    expect(s.deals).toEqual([]);
    expect(s.points).toEqual({ NS: 0, EW: 0 });
    expect(s.withheld).toBe(7);
    p.setTrayComplete(1);
    p.setTrayComplete(3);
    s = p.publicState().score!;
    // Board 2 is not complete: board 3 cannot be scored before it.
    expect(s.deals.map((d) => d.board)).toEqual([1]);
    expect(s.points).toEqual({ NS: 4, EW: 0 });
    expect(s.withheld).toBe(6);
    for (const b of [2, 4, 5, 6, 7]) p.setTrayComplete(b);
    expect(p.publicState().score!.totals).toEqual({ NS: 4, EW: 0 });
    expect(p.directorState().score!.totals).toEqual({ NS: 4, EW: 0 });
  });
});

describe('the honours and remedy commands', () => {
  it('English Law 7, honours "must be called at the end of the hand": request/honours becomes a journaled honours event with its tx, once', () => {
    expect(checkCommand('honours', '{"transaction":"h1","seat":"n","count":3}').ok).toBe(false);
    // The ten is no honour: "Honours, i.e., Ace, King, Queen, and Knave of trumps" (Eng. 3).
    expect(checkCommand('honours', '{"transaction":"h1","seat":"N","cards":["ha","HK","H10"]}').ok).toBe(false);
    const good = checkCommand('honours', '{"transaction":"h1","seat":"N","cards":["ha","HK","HQ"],"count":3}');
    expect(good.ok).toBe(true);
    if (!good.ok) return;
    expect(good.command).toEqual({ name: 'honours', transaction: 'h1', params: { seat: 'N', cards: ['HA', 'HK', 'HQ'], count: 3 } });
    const ev = commandEvent(good.command);
    expect(ev).toMatchObject({ type: 'honours', seat: 'N', count: 3, cards: ['HA', 'HK', 'HQ'], tx: { id: 'h1' } });
    expect(validateTableEvent(ev)).toBeNull();
    // Exactly once: the journal's tx binds the id; a retry gets the first answer, another body is refused by name.
    const index = TransactionIndex.fromEvents([{ ...ev, seq: 41 } as TableEvent]);
    expect(index.lookup(good.command)).toEqual({ kind: 'repeat', answer: { seq: 41 } });
    const other = checkCommand('honours', '{"transaction":"h1","seat":"N","count":2}');
    expect(other.ok && index.lookup(other.command)).toMatchObject({ kind: 'conflict', error: expect.stringMatching(/^transaction: "h1" was already used for another command \(honours, journaled as seq 41\)/) });
  });

  it.each([
    ['{"transaction":"t","seat":"N"}', /^count: is missing \(or cards\); give the number of trump honours/],
    ['{"transaction":"t","seat":"N","count":5}', /^count: must be <= 4; give the number/],
    ['{"transaction":"t","seat":"N","count":1}', /^count: must be >= 2/],
    ['{"transaction":"t","seat":"X","count":2}', /^seat: is not allowed; use one of N, E, S, W/],
    ['{"transaction":"t","seat":"N","cards":["HA","HT"]}', /^cards\[1\]: HT is not an honour \(A, K, Q or J\); list the 2 to 4 trump honours/],
    ['{"transaction":"t","seat":"N","cards":["HA","SK"]}', /^cards: HA SK are not all of one suit/],
    ['{"transaction":"t","seat":"N","cards":["HA","ZZ"]}', /^cards\[1\]: "ZZ" is not a card; give a card/],
    ['{"transaction":"t","seat":"N","cards":["HA","HK"],"count":3}', /^count: 3 does not match the 2 cards called/],
    ['{"transaction":"t","seat":"N","count":2,"trump":"H"}', /^trump: is not a field of honours; remove it/],
  ])('honours %s is refused naming the field and the fix', (payload, error) => {
    const r = checkCommand('honours', payload);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
  });

  it('remedy accepts points "add" or "deduct" with "remedy": "points" (Mort: "each revoke may be enforced in a different manner")', () => {
    for (const points of ['add', 'deduct'] as const) {
      const r = checkCommand('remedy', JSON.stringify({ transaction: `p-${points}`, by: 'E', remedy: 'points', points }));
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const ev = commandEvent(r.command);
      expect(ev).toMatchObject({ type: 'remedy', by: 'E', remedy: 'points', points });
      expect(validateTableEvent(ev)).toBeNull();
    }
    const wrong = checkCommand('remedy', '{"transaction":"t","by":"E","remedy":"tricks","points":"add"}');
    expect(!wrong.ok && wrong.error).toMatch(/^points: is only for "remedy": "points" \(got "tricks"\); remove it, or use "add"/);
    const bad = checkCommand('remedy', '{"transaction":"t","by":"E","remedy":"points","points":"double"}');
    expect(!bad.ok && bad.error).toMatch(/^points: is not allowed; use "add"/);
  });

  it('the daemon refuses a call with no deal, in a game without honours, or from a seat not in play', () => {
    const t = new Table();
    expect(honoursCallProblem(t, 'N')).toMatch(/^seat: no deal has been played at this table yet/);
    t.apply({ type: 'deal', board: 1, variant: 'bridge', contract: '4SS' });
    expect(honoursCallProblem(t, 'N')).toMatch(/^command: honours do not count in bridge/);
    const e = new Table();
    e.apply({ type: 'deal', board: 1, variant: 'english-whist', dealer: 'W' });
    expect(honoursCallProblem(e, 'N')).toBeNull();
    const h = new Table();
    h.apply({ type: 'deal', board: 1, variant: 'humbug', dealer: 'N' });
    const seats = h.currentFacts()!.seats;
    const out = (['N', 'E', 'S', 'W'] as const).find((s) => !seats.includes(s))!;
    expect(honoursCallProblem(h, out)).toMatch(new RegExp(`^seat: ${out} is not in play in this deal; use one of`));
  });
});
