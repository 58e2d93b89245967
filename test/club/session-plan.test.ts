// The session plan: every tray holds one deal for the whole session, each table's play is legal for the hands it
// holds, and each injected fault is one the engine finds (folded here with the deal event a table would journal).
import { describe, expect, it } from 'vitest';
import { planSession, type PlannedPlay, type PlannedTray } from '../../src/club/session/plan.js';
import type { Schedule } from '../../src/club/types.js';
import { Table } from '../../src/laws/engine.js';
import type { TableEvent } from '../../src/formats/table-log.js';

/** Three tables, three rounds of two trays: N-S sit, E-W move down, trays move up (a hand-built compass). */
function smallSchedule(): Schedule {
  const rounds = [1, 2, 3].map((round) => ({
    round,
    tables: [1, 2, 3].map((table) => {
      const set = ((table - 1 + (round - 1)) % 3);
      const ew = ((table - 1 + (round - 1)) % 3) + 1;
      return { table, ns: `${table}NS`, ew: `${ew}EW`, trays: [set * 2 + 1, set * 2 + 2] };
    }),
  }));
  return { movement: 'hand-built', tables: 3, kind: 'pairs', boardsPerRound: 2, trays: 6, rounds, participants: [] };
}

function fold(tray: PlannedTray, play: PlannedPlay, withRecord: boolean): Table {
  const t = new Table({ variant: 'duplicate-whist' });
  const deal: TableEvent = { type: 'deal', board: tray.board, dealer: tray.dealer, variant: 'duplicate-whist' };
  if (withRecord) Object.assign(deal, { hands: tray.pbn, trumpSlip: tray.trumpCard, overplay: true });
  t.apply(deal);
  play.events.forEach((e, i) => t.apply({ ...e, seq: i + 2 }));
  return t;
}

describe('session plan', () => {
  it('gives every tray one deal and plays each tray at three tables, the first being the original', () => {
    const plan = planSession({ session: 's1', variant: 'duplicate-whist', schedule: smallSchedule(), seed: 7 });
    expect(plan.trays.size).toBe(6);
    const byBoard = new Map<number, PlannedPlay[]>();
    for (const list of plan.plays.values()) for (const p of list) byBoard.set(p.board, [...(byBoard.get(p.board) ?? []), p]);
    for (const [board, plays] of byBoard) {
      expect(plays.map((p) => p.playIndex).sort()).toEqual([0, 1, 2]);
      for (const p of plays) {
        const r = fold(plan.trays.get(board)!, p, true).result()!;
        expect(r.tricks).toHaveLength(13);
        expect(r.findings).toEqual([]);
      }
    }
  });

  it('is the same plan for the same seed, and another for another seed', () => {
    const a = planSession({ session: 's', variant: 'duplicate-whist', schedule: smallSchedule(), seed: 1 });
    const b = planSession({ session: 's', variant: 'duplicate-whist', schedule: smallSchedule(), seed: 1 });
    const c = planSession({ session: 's', variant: 'duplicate-whist', schedule: smallSchedule(), seed: 2 });
    expect(a.trays.get(1)!.pbn).toBe(b.trays.get(1)!.pbn);
    expect(a.trays.get(1)!.pbn).not.toBe(c.trays.get(1)!.pbn);
  });

  it('a fouled tray is found at its first misplaced card (card-not-in-hand), on an overplay', () => {
    const plan = planSession({ session: 's', variant: 'duplicate-whist', schedule: smallSchedule(), seed: 3, faults: { fouled: 2, wrongTray: 0, revokes: 0 } });
    const fouled = [...plan.plays.values()].flat().filter((p) => p.fouled);
    expect(fouled).toHaveLength(2);
    for (const p of fouled) {
      expect(p.playIndex).toBeGreaterThan(0);
      const t = fold(plan.trays.get(p.board)!, p, true);
      const first = t.findings().find((f) => f.kind === 'card-not-in-hand');
      expect(first, JSON.stringify(p.fouled)).toBeDefined();
      // The first misplaced card to be played is one of the two swapped cards.
      expect(p.fouled!.cards).toContain(first!.card);
    }
  });

  it('a revoke is a renounce in error the engine finds from the record (Dup. definition (g))', () => {
    const plan = planSession({ session: 's', variant: 'duplicate-whist', schedule: smallSchedule(), seed: 4, faults: { fouled: 0, wrongTray: 0, revokes: 3 } });
    const revoked = [...plan.plays.values()].flat().filter((p) => p.renounce);
    expect(revoked.length).toBeGreaterThan(0);
    for (const p of revoked) {
      const kinds = fold(plan.trays.get(p.board)!, p, true).findings().map((f) => `${f.kind} ${f.seat}`);
      expect(kinds).toContain(`renounce-in-error ${p.renounce!.seat}`);
    }
  });

  it('a wrong-tray scan names a board that is not the table\'s this round', () => {
    const s = smallSchedule();
    const plan = planSession({ session: 's', variant: 'duplicate-whist', schedule: s, seed: 5, faults: { fouled: 0, wrongTray: 3, revokes: 0 } });
    const wrong = [...plan.plays.values()].flat().filter((p) => p.wrongScan !== undefined);
    expect(wrong).toHaveLength(3);
    for (const p of wrong) {
      const mine = s.rounds[p.round - 1].tables.find((t) => t.table === p.table)!.trays;
      expect(mine).not.toContain(p.wrongScan);
    }
  });

  it('refuses more faults than the session has overplays, naming the fix', () => {
    expect(() => planSession({ session: 's', variant: 'duplicate-whist', schedule: smallSchedule(), seed: 1, faults: { fouled: 99, wrongTray: 0, revokes: 0 } }))
      .toThrow(/faults: 99 fouled trays asked for, but the session has only 12 overplays/);
  });

  it('plays bridge with a contract after the deal', () => {
    const plan = planSession({ session: 's', variant: 'bridge', schedule: smallSchedule(), seed: 9 });
    const p = plan.plays.get(1)![0];
    expect(p.events[0]).toEqual({ type: 'contract', contract: p.contract });
    expect(plan.trays.get(p.board)!.trumpCard).toBeUndefined();
  });
});
