// What the table terminal enters beside the cards: a bridge contract typed in after the opening lead was read, and a
// claim the adversaries accept or dispute. Each test quotes the law it rests on.
import { describe, expect, it } from 'vitest';
import { Table } from '../../src/laws/engine.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { brief, game } from './helpers.js';

/** The log of a 4♥ by South deal with the contract left off the deal event, and the contract event to insert. */
function withoutContract(spec: ReturnType<typeof game>): { deal: TableEvent; cards: TableEvent[]; contract: TableEvent } {
  const [deal, ...cards] = spec.log();
  const { contract: _c, ...bare } = deal as TableEvent & { contract?: string };
  return { deal: bare as TableEvent, cards, contract: { type: 'contract', contract: '4HS' } };
}

describe('bridge: the contract entered after the opening lead was read', () => {
  it('L41A: the opening lead is made by "the defender on presumed declarer\'s left" — West\'s lead, read before 4♥ by South was entered, is judged proper once it is', () => {
    const { deal, cards, contract } = withoutContract(game({ variant: 'bridge', contract: '4HS', board: 1, dealer: 'E' }).trick('W: S2 SA S3 SK').holdRest('N'));
    const t = new Table();
    t.apply(deal);
    // Dealer East: before the contract the table would expect South; the lead is not judged yet.
    expect(cards.slice(0, 1).flatMap((e) => t.apply(e))).toEqual([]);
    expect(t.apply(contract)).toEqual([]);
    for (const e of cards.slice(1)) t.apply(e);
    const r = t.result()!;
    expect(r.findings).toEqual([]);
    expect(r.tricks[0].winner).toBe('N');
    expect(t.trump()).toBe('H');
    expect(r.notes ?? []).not.toContainEqual(expect.stringMatching(/after the opening lead/));
  });

  it('L54: "opening lead out of turn" — East led before the contract was entered; once 4♥ by South is known the lead is judged out of turn', () => {
    const { deal } = withoutContract(game({ variant: 'bridge', contract: '4HS', board: 1, dealer: 'N' }).trick('E: D2 D3 D4 D5').holdRest('E'));
    const t = new Table();
    t.apply(deal);
    // Dealer North: before the contract the table would expect East, so nothing is found yet.
    expect(t.apply({ type: 'place', seat: 'E', card: 'D2', seq: 5 })).toEqual([]);
    const found = t.apply({ type: 'contract', contract: '4HS' });
    expect(brief(found)).toEqual([{ kind: 'lead-out-of-turn', seat: 'E', trick: 1, law: 'L54', card: 'D2' }]);
    expect(t.whoseTurn()).toBe('S');
  });

  it('a contract already known when the lead was made is not replaced by a later one', () => {
    const { deal, cards } = withoutContract(game({ variant: 'bridge', contract: '4HS', board: 1 }).trick('W: S2 SA S3 SK').holdRest('N'));
    const t = new Table();
    t.apply(deal);
    t.apply({ type: 'contract', contract: '4HS' });
    t.apply(cards[0]);
    t.apply({ type: 'contract', contract: '3NTN' });
    expect(t.trump()).toBe('H');
    expect(t.result()!.notes?.[0]).toMatch(/after the opening lead/);
  });
});

/** 4♥ by South: East renounces in diamonds at trick 2 (a revoke once his side plays on or agrees to a claim). */
function eastRevoked(): Table {
  const g = game({ variant: 'bridge', contract: '4HS', board: 1 }).trick('W: S2 SA S3 SK').trick('N: D2 C5! DA D4').holdRest('S');
  const t = new Table();
  for (const e of g.log()) t.apply(e);
  return t;
}

describe('claims answered at the table', () => {
  it('Am. 27: "the result of the hand, as then claimed or admitted, is established, provided that, if a revoke is discovered, the revoke penalty attaches" — bridge, East\'s revoke, North\'s claim accepted by West', () => {
    // L63A3: the revoke is established "when a member of the offending side makes or agrees to a claim": West agrees.
    const t = eastRevoked();
    t.apply({ type: 'claim', seat: 'N', tricks: 11 });
    t.apply({ type: 'claim-accepted', seat: 'W' });
    // A card shown after acceptance changes nothing.
    t.apply({ type: 'place', seat: 'S', card: 'HA' });
    const r = t.result()!;
    expect(r.claim).toEqual({ seat: 'N', tricks: 11, accepted: true });
    expect(r.tricksWon).toEqual({ NS: 13, EW: 0 });
    expect(brief(r.findings).map((f) => f.kind)).toEqual(['renounce-in-error', 'revoke']);
    expect(t.whoseTurn()).toBeNull();
  });

  it('Am. 27 with L64A: East revoked and his side claimed; accepted, the claimed result stands and the revoke trick is transferred', () => {
    const t = eastRevoked();
    t.apply({ type: 'claim', seat: 'E', tricks: 1 });
    t.apply({ type: 'claim-accepted', seat: 'S' });
    const r = t.result()!;
    expect(r.tricksWon).toEqual({ NS: 12, EW: 1 });
    expect(r.scored).toEqual({ NS: 13, EW: 0 });
  });

  it('L68D: a claim disputed — "play ceases" and the director is called; the claim is withdrawn and the play is open again', () => {
    const g = game({ variant: 'bridge', contract: '4HS', board: 1 }).trick('W: S2 SA S3 SK').holdRest('N');
    const t = new Table();
    for (const e of g.log()) t.apply(e);
    t.apply({ type: 'claim', seat: 'S', tricks: 12 });
    expect(t.whoseTurn()).toBeNull();
    t.apply({ type: 'claim-disputed', seat: 'E', reason: 'East holds the trump ace' });
    const r = t.result()!;
    expect(r.claim).toBeUndefined();
    expect(r.tricksWon).toEqual({ NS: 1, EW: 0 });
    expect(r.notes).toContainEqual(expect.stringMatching(/E disputed S's claim of 12 tricks/));
    expect(t.whoseTurn()).toBe('N');
  });

  it('only an adversary of the claimant may answer: a partner\'s acceptance is noted and changes nothing', () => {
    const g = game({ variant: 'bridge', contract: '4HS', board: 1 }).trick('W: S2 SA S3 SK').holdRest('N');
    const t = new Table();
    for (const e of g.log()) t.apply(e);
    t.apply({ type: 'claim', seat: 'E', tricks: 8 });
    t.apply({ type: 'claim-accepted', seat: 'W' });
    const r = t.result()!;
    expect(r.claim).toEqual({ seat: 'E', tricks: 8, accepted: false });
    expect(r.notes).toContainEqual(expect.stringMatching(/W is not an adversary of the claimant E/));
  });

  it('the result acceptance and the director call are journaled but fold to nothing', () => {
    const t = new Table();
    t.apply({ type: 'deal', board: 3, variant: 'duplicate-whist' });
    expect(t.apply({ type: 'director-call', reason: 'a revoke' })).toEqual([]);
    expect(t.apply({ type: 'result-accepted', seat: 'E', board: 3 })).toEqual([]);
    expect(t.result()!.tricks).toEqual([]);
  });
});
