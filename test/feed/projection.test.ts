// The public and director projections on hand-made deals: what appears when, and what never does.
import { describe, expect, it } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import { publicEvent } from '../../src/feed/projection.js';
import { Projector } from '../../src/feed/projector.js';
import { findLeaks } from '../../src/feed/privacy.js';

const HANDS = 'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432';

function fold(p: Projector, events: TableEvent[]) {
  return events.map((e, i) => p.apply({ ...e, seq: i + 1 }));
}

const opening: TableEvent[] = [
  { type: 'tray', code: 'BATH-S1-B1' },
  { type: 'deal', board: 1, variant: 'duplicate-whist', dealer: 'W', hands: HANDS, trumpSlip: 'C2' },
  { type: 'place', seat: 'W', card: 'C2' },
  { type: 'lift', seat: 'W', card: 'C2' },
];

describe('public projection (live)', () => {
  it('shows the turned trump, the trick in progress, completed tricks and whose turn, and nothing of the hands', () => {
    const p = new Projector();
    fold(p, [...opening, { type: 'place', seat: 'N', card: 'SA' }, { type: 'place', seat: 'E', card: 'ST' }]);
    let s = p.publicState();
    expect(s.deal).toMatchObject({
      board: 1, variant: 'duplicate-whist', dealer: 'W', status: 'play', released: true, trump: 'C', trumpCard: 'C2',
      whoseTurn: 'S', current: { leader: 'N', cards: [{ seat: 'N', card: 'SA' }, { seat: 'E', card: 'ST' }] }, tricks: [],
      playedCount: { N: 1, E: 1, S: 0, W: 0 },
    });
    const q = new Projector();
    fold(q, [...opening, { type: 'place', seat: 'N', card: 'SA' }, { type: 'place', seat: 'E', card: 'ST' }, { type: 'place', seat: 'S', card: 'S5' }, { type: 'place', seat: 'W', card: 'S2' }]);
    s = q.publicState();
    expect(s.deal?.tricks).toEqual([{ number: 1, leader: 'N', cards: { N: 'SA', E: 'ST', S: 'S5', W: 'S2' }, winner: 'N' }]);
    expect(s.deal?.tricksWon).toEqual({ NS: 1, EW: 0 });
    expect(s.deal?.whoseTurn).toBe('N');
    expect(findLeaks(s, new Set(['C2', 'SA', 'ST', 'S5', 'S2']))).toEqual([]);
    const d = q.directorState().deal!;
    expect(d.remaining.N).toBe('KQJ.AKQ.AKQ.AKQ');
    expect(d.hands).toBe(HANDS);
    expect(d.trumpSlip).toBe('C2');
    expect(q.directorState().tray).toBe('BATH-S1-B1');
  });

  it('publishes a lead out of turn at once, with its card, in its own words', () => {
    const p = new Projector();
    const out = fold(p, [...opening, { type: 'place', seat: 'S', card: 'S5' }]);
    const last = out[out.length - 1];
    expect(last.public.findings).toHaveLength(1);
    expect(last.public.findings[0]).toMatchObject({ kind: 'lead-out-of-turn', seat: 'S', trick: 1, card: 'S5' });
    expect(last.public.findings[0].message).toMatch(/^Lead out of turn by S at trick 1 \(/);
    expect(last.director?.findings[0].kind).toBe('lead-out-of-turn');
  });

  it('keeps a live renounce alert and its text for the director', () => {
    const p = new Projector();
    // E holds spades (T98) but plays a heart: a renounce in error, seen only because the tray record is known.
    const out = fold(p, [...opening, { type: 'place', seat: 'N', card: 'SA' }, { type: 'place', seat: 'E', card: 'H8' }]);
    const last = out[out.length - 1];
    expect(last.director?.findings.map((f) => f.kind)).toEqual(['renounce-in-error']);
    expect(last.director?.findings[0].message).toMatch(/while holding/);
    expect(last.public.findings).toEqual([]);
    expect(JSON.stringify(p.publicState())).not.toMatch(/renounce|T98|ST|S9|S8/);
  });

  it('strikes out a misread card after an undo', () => {
    const p = new Projector();
    // The reader took W's S2 for N's lead (a misread); the undo names its seq (5) and the real card follows.
    fold(p, [...opening, { type: 'place', seat: 'N', card: 'S2' }, { type: 'undo', target: 5 }, { type: 'place', seat: 'N', card: 'SA' }]);
    const s = p.publicState();
    expect(s.deal?.current?.cards).toEqual([{ seat: 'N', card: 'SA' }]);
    expect(JSON.stringify(s)).not.toContain('S2');
    expect(p.directorState().deal?.seen).toEqual(['C2', 'SA']);
    expect(p.directorState().deal?.findings).toEqual([]);
  });

  it('redacts events by whitelist: no hands, no trump slip, no barcode, no tag', () => {
    const visible = new Set<string>(['SA']);
    expect(publicEvent({ type: 'deal', board: 3, dealer: 'S', hands: HANDS, trumpSlip: 'H5', contract: '4HE', seq: 2 }, { released: true, visible }))
      .toEqual({ type: 'deal', board: 3, dealer: 'S', contract: '4HE', seq: 2 });
    expect(publicEvent({ type: 'deal', board: 3, contract: '4HE' }, { released: false, visible })).toEqual({ type: 'deal', board: 3 });
    expect(publicEvent({ type: 'tray', code: 'B-3', seq: 1 }, { released: true, visible })).toEqual({ type: 'tray', seq: 1 });
    expect(publicEvent({ type: 'place', seat: 'N', tag: '04A1B2' }, { released: true, visible })).toEqual({ type: 'place', seat: 'N' });
    expect(publicEvent({ type: 'place', seat: 'N', card: 's10' }, { released: true, visible: new Set(['ST']) })).toEqual({ type: 'place', seat: 'N', card: 'ST' });
    expect(publicEvent({ type: 'place', seat: 'N', card: 'SA' }, { released: false, visible })).toEqual({ type: 'place', seat: 'N' });
    expect(publicEvent({ type: 'remedy', by: 'E', remedy: 'call-card', seat: 'N', card: 'HK' }, { released: true, visible }))
      .toEqual({ type: 'remedy', by: 'E', remedy: 'call-card', seat: 'N' });
  });

  it('publishes an engine-refused event redacted and keeps going', () => {
    const incidents: string[] = [];
    const p = new Projector({ onIncident: (i) => incidents.push(i.what) });
    const out = fold(p, [{ type: 'deal', board: 1, variant: 'no-such-game' }, ...opening.slice(1)]);
    expect(out[0].error).toMatch(/unknown variant/);
    expect(incidents).toEqual(['engine-error']);
    expect(p.publicState().deal?.trumpCard).toBe('C2');
    expect(p.publicState().rev).toBe(4);
  });
});
