// Issue 12 item 2: the engine judges only what it knows. A seed hand's log is cut where the serial link lost events
// and mended as the driver's snapshot reconciliation journals it: the cards gone since are lifted first, then the
// cards now on the table are placed in seat order, and a card both placed and lifted in the gap is never seen. With
// the `orderUnknown` marks no out-of-turn, renounce or revoke finding may rest on those cards and the director is
// told once; without them the same log accuses innocent players.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/replay.js';
import { type DealEvent, type TableEvent, formatTableLog, parseTableLog } from '../../src/formats/table-log.js';
import { Table, replay } from '../../src/laws/engine.js';
import type { DealResult, Finding } from '../../src/laws/types.js';
import { fixturePath, loadExpected } from '../fixtures/seed-hands/verify.js';

type CardEvent = Extract<TableEvent, { type: 'place' | 'lift' }>;

const ORDER_BASED = new Set(['lead-out-of-turn', 'play-out-of-turn', 'renounce-in-error', 'revoke', 'failure-to-comply', 'wrong-card-count']);
const SEAT_RANK: Record<string, number> = { N: 0, E: 1, S: 2, W: 3 };
const MODES = [['hands known', 'hands'], ['hands unknown', 'nohands']] as const;
// Hand 1 (Long Suits), as the book plays it from trick 6: N leads CA, E trumps with H4, S overtrumps with H6, W D5;
// S leads SA to trick 7, W S6, N S4, E trumps with HK. N-S win 11 tricks, E-W 2.
const HAND = 1;
const book = loadExpected().hands.find((h) => h.board === HAND)!;

/** A seed hand's table log (hand 1 unless told), numbered 1, 2, 3 … as the journal numbers it. */
function seedLog(kind: 'hands' | 'nohands', board = HAND): TableEvent[] {
  const { events, errors } = parseTableLog(readFileSync(fixturePath(board, kind), 'utf8'));
  expect(errors).toEqual([]);
  return renumber(events);
}

function renumber(events: readonly TableEvent[]): TableEvent[] {
  return events.map((e, i) => ({ ...e, seq: i + 1 }));
}

/** Index of the event placing (or lifting) a card. */
function at(events: readonly TableEvent[], type: 'place' | 'lift', card: string): number {
  const i = events.findIndex((e) => e.type === type && (e as CardEvent).card === card);
  expect(i, `${type} ${card} is in the log`).toBeGreaterThan(0);
  return i;
}

/** Cards lying on the table (seat and card) after the first `n` events. */
function presence(events: readonly TableEvent[], n: number): Map<string, CardEvent> {
  const on = new Map<string, CardEvent>();
  for (const e of events.slice(0, n)) {
    if (e.type === 'place') on.set(`${e.seat} ${e.card}`, e);
    else if (e.type === 'lift') on.delete(`${e.seat} ${e.card}`);
  }
  return on;
}

/**
 * Events [from, to) lost on the link and mended by a presence snapshot, as the driver journals it: lifts of the cards
 * gone, then places of the cards come, in seat order; marked `orderUnknown` when `mark`; then renumbered.
 */
function snapshot(events: readonly TableEvent[], from: number, to: number, mark: boolean): TableEvent[] {
  const before = presence(events, from);
  const after = presence(events, to);
  const flag = mark ? { orderUnknown: true as const } : {};
  const lifts = [...before].filter(([k]) => !after.has(k)).map(([, e]) => ({ ...e, type: 'lift' as const, ...flag }));
  const places = [...after].filter(([k]) => !before.has(k)).map(([, e]) => ({ ...e, ...flag }))
    .sort((a, b) => SEAT_RANK[a.seat] - SEAT_RANK[b.seat]);
  return renumber([...events.slice(0, from), ...lifts, ...places, ...events.slice(to)]);
}

/** A short gap: trick 6 quitted and S, W, N playing to trick 7 unseen; every card is still seen, out of order. */
function shortGap(events: readonly TableEvent[]): [number, number] {
  return [at(events, 'lift', 'CA'), at(events, 'place', 'S4') + 1];
}

/** A long gap: from E's H4 to W's S6: trick 6's last three cards are placed and lifted unseen. */
function longGap(events: readonly TableEvent[]): [number, number] {
  return [at(events, 'place', 'H4'), at(events, 'place', 'S6') + 1];
}

function only(events: readonly TableEvent[]): DealResult {
  const deals = replay(events).deals;
  expect(deals).toHaveLength(1);
  return deals[0];
}

const orderBased = (fs: readonly Finding[]) => fs.filter((f) => ORDER_BASED.has(f.kind));
const lostFindings = (fs: readonly Finding[]) => fs.filter((f) => f.kind === 'play-order-lost');
const marked = (e: TableEvent) => (e as CardEvent).orderUnknown === true;

/** seq of the first marked event and of the first event in known order after it. */
function stretchSeqs(log: readonly TableEvent[]): { fromSeq: number; toSeq: number } {
  const first = log.findIndex(marked);
  const after = log.findIndex((e, i) => i > first && !marked(e));
  return { fromSeq: log[first].seq!, toSeq: log[after].seq! };
}

/** Swap two cards of one seat throughout the log (its places and lifts), leaving the tray record as it was. */
function swapPlayed(events: readonly TableEvent[], seat: string, a: string, b: string): TableEvent[] {
  return events.map((e) => {
    if ((e.type !== 'place' && e.type !== 'lift') || e.seat !== seat || (e.card !== a && e.card !== b)) return e;
    return { ...e, card: e.card === a ? b : a };
  });
}

describe('play order lost: no finding rests on the cards of the stretch', () => {
  for (const [mode, kind] of MODES) {
    const clean = seedLog(kind);

    describe(`${mode}, short gap (all cards seen, places in seat order)`, () => {
      const [from, to] = shortGap(clean);

      it('without the marks the mended log reads N\'s S4 as a lead out of turn (Dup. VIII.1): the test can fail', () => {
        const d = only(snapshot(clean, from, to, false));
        expect(orderBased(d.findings).map((f) => [f.kind, f.seat, f.trick])).toContainEqual(['lead-out-of-turn', 'N', 7]);
        expect(lostFindings(d.findings)).toEqual([]);
      });

      it('with the marks: one play-order-lost finding with its from/to seqs, nothing else; tricks as the book', () => {
        const log = snapshot(clean, from, to, true);
        const d = only(log);
        const { fromSeq, toSeq } = stretchSeqs(log);
        expect(d.findings).toHaveLength(1);
        expect(d.findings[0]).toMatchObject({
          kind: 'play-order-lost', seat: 'N', trick: 7, law: 'Dup. VI.2, X.6', fromSeq, toSeq, seq: toSeq,
          remedies: [{ remedy: 'director-ruling', option: 'director' }],
        });
        expect(d.findings[0].message.startsWith(`play order lost between event ${fromSeq} and event ${toSeq} (trick 7): no out-of-turn, renounce or revoke ruling rests on these cards`)).toBe(true);
        expect(d.findings[0].message).toContain('The Laws of Duplicate Whist name no umpire or referee for a disputed fact');
        // Every card was seen: the trick is rebuilt clockwise from the last winner, and the count is the book's.
        expect(d.tricks.map((t) => t.winner)).toEqual(book.winners);
        expect(d.tricks.map((t) => t.leader)).toEqual(['N', ...book.winners.slice(0, 12)]);
        expect(d.tricks.flatMap((t, k) => (t.orderUnknown ? [k + 1] : []))).toEqual([7]);
        expect(d.tricksWon).toEqual(book.tricksWon);
        expect(d.scored).toEqual(book.tricksWon);
      });
    });

    describe(`${mode}, long gap (trick 6's last three cards never seen)`, () => {
      const [from, to] = longGap(clean);

      it('without the marks the mended log accuses innocent players', () => {
        const d = only(snapshot(clean, from, to, false));
        expect(orderBased(d.findings).length + d.findings.filter((f) => f.kind === 'card-liable-to-be-called').length).toBeGreaterThan(0);
      });

      it('with the marks: only play-order-lost (tricks 6–7); 13 tricks, N-S 11 as in the book, the unseen cards noted', () => {
        const log = snapshot(clean, from, to, true);
        const d = only(log);
        const { fromSeq, toSeq } = stretchSeqs(log);
        expect(d.findings.map((f) => f.kind)).toEqual(['play-order-lost']);
        expect(d.findings[0]).toMatchObject({ seat: 'N', trick: 6, fromSeq, toSeq });
        expect(d.findings[0].message).toContain(`between event ${fromSeq} and event ${toSeq} (tricks 6–7)`);
        expect(d.tricks).toHaveLength(13);
        expect(d.tricks.flatMap((t, k) => (t.orderUnknown ? [k + 1] : []))).toEqual([6, 7]);
        expect(d.tricks[5].cards).toEqual({ N: 'CA' }); // E's H4, S's H6 and W's D5 were never seen
        expect(d.tricks[6].winner).toBe('E'); // HK trumps the spades, whoever led
        expect(d.tricksWon).toEqual(book.tricksWon);
        expect(d.notes).toEqual(['3 cards were never seen while the play order was lost; the tricks count the cards seen']);
      });
    });
  }
});

describe('every gap in the four seed hands', () => {
  // Each start, gaps of 2, 5 and 13 events: the turned trump, leads, renounces and quitting all fall inside some of
  // them. A gap whose snapshot shows no change leaves no mark in the log and is not a stretch.
  it('Dup. X.1, VIII.1, IX: with the marks no out-of-turn, renounce, revoke or card-count finding, one play-order-lost each', () => {
    const wrong: string[] = [];
    let stretches = 0;
    for (const board of [1, 2, 3, 4]) {
      for (const [mode, kind] of MODES) {
        const clean = seedLog(kind, board);
        for (let from = 1; from < clean.length - 1; from++) {
          for (const len of [2, 5, 13]) {
            const log = snapshot(clean, from, Math.min(clean.length, from + len), true);
            if (!log.some(marked)) continue;
            stretches++;
            const d = only(log);
            const kinds = d.findings.map((f) => f.kind);
            if (kinds.length !== 1 || kinds[0] !== 'play-order-lost') wrong.push(`board ${board} ${mode}, events ${from + 1}+${len}: ${kinds.join(', ')}`);
          }
        }
      }
    }
    expect(stretches).toBeGreaterThan(2000);
    expect(wrong).toEqual([]);
  });
});

describe('what does not depend on order is still judged inside the stretch', () => {
  it('card-not-in-hand (Dup. III.2(b)): S\'s SA placed inside the stretch is checked against the tray record', () => {
    const clean = seedLog('hands');
    const [from, to] = shortGap(clean);
    // The tray gives S's SA to W and W's S6 to S: both cards, placed inside the stretch, are not in the player's hand.
    const deal = clean[0] as DealEvent;
    const [n, e, s, w] = deal.hands!.slice(2).split(' ');
    const tray = `N:${n} ${e} ${s.replace('AK732', 'K7632')} ${w.replace('QT865', 'AQT85')}`;
    const log = snapshot([{ ...deal, hands: tray }, ...clean.slice(1)], from, to, true);
    const d = only(log);
    const { fromSeq, toSeq } = stretchSeqs(log);
    const fouled = d.findings.filter((f) => f.kind === 'card-not-in-hand');
    expect(fouled.map((f) => [f.seat, f.card, f.trick, f.law])).toEqual([['S', 'SA', 7, 'Dup. III.2(b)'], ['W', 'S6', 7, 'Dup. III.2(b)']]);
    for (const f of fouled) expect(f.seq! >= fromSeq && f.seq! < toSeq).toBe(true);
    expect(orderBased(d.findings)).toEqual([]);
    expect(lostFindings(d.findings)).toHaveLength(1);
  });

  it('duplicate-card (Dup. III.2(b)): a second copy of a card placed inside the stretch is found', () => {
    const clean = seedLog('hands');
    const [from, to] = shortGap(clean);
    const log = snapshot(clean, from, to, true);
    log.splice(log.findIndex(marked), 0, { type: 'place', seat: 'E', card: 'CK', orderUnknown: true });
    const d = only(renumber(log));
    expect(d.findings.filter((f) => f.kind === 'duplicate-card').map((f) => [f.seat, f.card, f.law])).toEqual([['E', 'CK', 'Dup. III.2(b)']]);
    expect(orderBased(d.findings)).toEqual([]);
  });
});

describe('judging resumes when the order is known again', () => {
  // S renounces at trick 9 holding D4: he plays S3 to W's DA lead, and D4 to trick 10 (the book has D4, then S3).
  for (const [mode, kind] of MODES) {
    const clean = seedLog(kind);

    it(`${mode}: a revoke after the stretch is still found and transfers two tricks (Dup. X.1, X.4)`, () => {
      const revoked = swapPlayed(clean, 'S', 'D4', 'S3');
      const [from, to] = shortGap(revoked);
      const d = only(snapshot(revoked, from, to, true));
      expect(d.findings.filter((f) => f.kind === 'revoke').map((f) => [f.seat, f.card, f.renounceTrick])).toEqual([['S', 'S3', 9]]);
      expect(lostFindings(d.findings)).toHaveLength(1);
      expect(d.findings.filter((f) => f.kind !== 'revoke' && f.kind !== 'renounce-in-error' && f.kind !== 'play-order-lost')).toEqual([]);
      expect(d.tricksWon).toEqual(book.tricksWon);
      expect(d.scored).toEqual({ NS: book.tricksWon.NS - 2, EW: book.tricksWon.EW + 2 });
    });

    it(`${mode}: a renounce inside the stretch is never established or proved later as a revoke (Dup. X.1)`, () => {
      const revoked = swapPlayed(clean, 'S', 'D4', 'S3');
      // The link is lost over the whole of trick 9: S's renounce (S3) is among the cards mended, in seat order.
      const from = at(revoked, 'place', 'DA');
      const to = at(revoked, 'place', 'S3') + 1;
      const log = snapshot(revoked, from, to, true);
      expect(log.slice(from, from + 4).map((e) => [(e as CardEvent).seat, (e as CardEvent).card])).toEqual([['N', 'H2'], ['E', 'D3'], ['S', 'S3'], ['W', 'DA']]);
      const d = only(log);
      expect(d.findings.map((f) => f.kind)).toEqual(['play-order-lost']);
      expect(d.scored).toEqual(book.tricksWon);
      // Without the marks the very same log rules the revoke.
      expect(only(snapshot(revoked, from, to, false)).findings.map((f) => f.kind)).toContain('revoke');
    });
  }

  it('Dup. X.1: a renounce in error still open when the order is lost is set aside, and the director is told', () => {
    const revoked = swapPlayed(seedLog('hands'), 'S', 'D4', 'S3');
    // Lost from the lift of trick 9's first card: S's renounce was seen (live alert) but its correction could not be.
    const from = at(revoked, 'lift', 'DA');
    const to = at(revoked, 'place', 'D6');
    const d = only(snapshot(revoked, from, to, true));
    expect(d.findings.map((f) => f.kind)).toEqual(['renounce-in-error', 'play-order-lost']);
    expect(d.findings[1].message).toContain("S's renounce in error at trick 9 (S3) may have been corrected unseen and is not established");
    expect(d.scored).toEqual(book.tricksWon);
  });

  it('L85: bridge cites the Director\'s ruling on disputed facts; the first lead after the stretch is accepted', () => {
    const t = new Table({ variant: 'bridge' });
    t.apply({ type: 'deal', seq: 1, variant: 'bridge', dealer: 'N', contract: '1NTN' });
    // E leads; the link loses S's, W's and N's cards to trick 1; the snapshot places them in seat order.
    const play: [string, string, boolean?][] = [['E', 'S2'], ['N', 'S3', true], ['S', 'S4', true], ['W', 'SA', true]];
    let seq = 1;
    for (const [seat, card, unk] of play) t.apply({ type: 'place', seq: ++seq, seat: seat as 'N', card, ...(unk ? { orderUnknown: true as const } : {}) });
    // W won trick 1 with SA, but N leads trick 2 (no-one saw who won): accepted, as is E following.
    const out = t.apply({ type: 'place', seq: ++seq, seat: 'N', card: 'H2' });
    expect(out.map((f) => [f.kind, f.law, f.fromSeq, f.toSeq])).toEqual([['play-order-lost', 'L85', 3, 6]]);
    expect(t.apply({ type: 'place', seq: ++seq, seat: 'E', card: 'H3' })).toEqual([]);
    // From then on play is judged: W plays before S.
    expect(t.apply({ type: 'place', seq: ++seq, seat: 'W', card: 'H4' }).map((f) => f.kind)).toEqual(['play-out-of-turn']);
  });
});

describe('the authority each code cites for a disputed fact', () => {
  for (const variant of ['whist', 'english-whist']) {
    it(`${variant}: Am. 32 and Whist Etiquette 8 (the whist laws of the seeds name no umpire or referee)`, () => {
      const log = seedLog('nohands').map((e) => (e.type === 'deal' ? { ...e, variant } : e));
      const [from, to] = shortGap(log);
      const f = lostFindings(only(snapshot(log, from, to, true)).findings);
      expect(f.map((x) => [x.law, x.remedies.map((r) => [r.remedy, r.option])])).toEqual([['Am. 32; Whist Etiquette 8', [['director-ruling', 'director']]]]);
      expect(f[0].message).toContain('The whist laws name no umpire or referee for a disputed fact');
    });
  }
});

describe('tenace replay --json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenace-order-unknown-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the play-order-lost finding with its seqs, and marks the tricks the stretch touched', () => {
    const clean = seedLog('hands');
    const [from, to] = longGap(clean);
    const log = snapshot(clean, from, to, true);
    const file = join(dir, 'mended.ndjson');
    writeFileSync(file, formatTableLog(log));
    let out = '';
    let err = '';
    const code = replayCommand([file, '--json'], { out: (s) => { out += s; }, err: (s) => { err += s; } });
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const deal = (JSON.parse(out) as { deals: { findings: Finding[]; tricks: { orderUnknown?: true }[]; tricksWon: unknown }[] }).deals[0];
    expect(deal.tricks.flatMap((t, k) => (t.orderUnknown ? [k + 1] : []))).toEqual([6, 7]);
    expect(deal.findings.map((f) => f.kind)).toEqual(['play-order-lost']);
    expect(deal.findings[0]).toMatchObject({ trick: 6, law: 'Dup. VI.2, X.6', ...stretchSeqs(log) });
    expect(deal.tricksWon).toEqual(book.tricksWon);
  });
});
