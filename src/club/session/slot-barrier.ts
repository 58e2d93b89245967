// The session's pacing: plays of a round start slot by slot across all tables, as trays pass between them. Apart
// because it is pure bookkeeping over the plan, with no tables or broker in it.
import type { PlannedPlay, SessionPlan } from './plan.js';

/**
 * Slot k of a round starts at a table only when every table has finished slot k-1 of that round: the schedule's
 * promise that a tray is at one table at a time holds in time, not only on paper.
 */
export class SlotBarrier {
  private readonly pending = new Map<string, number>();
  private readonly waiters = new Map<string, (() => void)[]>();

  constructor(plan: SessionPlan) {
    for (const p of [...plan.plays.values()].flat()) {
      const k = key(p.round, p.slot);
      this.pending.set(k, (this.pending.get(k) ?? 0) + 1);
    }
  }

  /** Resolves when every earlier slot of this round (and every earlier round) is done. */
  async enter(p: PlannedPlay, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const open = [...this.pending].find(([k, n]) => n > 0 && before(k, p.round, p.slot));
      if (!open) return;
      if (signal?.aborted) throw new Error('session stopped');
      await new Promise<void>((r) => this.waiters.set(open[0], [...(this.waiters.get(open[0]) ?? []), r]));
    }
  }

  /** Marks the play's slot done at its table; the last table to finish it wakes the plays waiting on it. */
  leave(p: PlannedPlay): void {
    const k = key(p.round, p.slot);
    const n = (this.pending.get(k) ?? 1) - 1;
    this.pending.set(k, n);
    if (n === 0) for (const w of this.waiters.get(k) ?? []) w();
  }
}

function key(round: number, slot: number): string {
  return `${round}:${slot}`;
}

function before(k: string, round: number, slot: number): boolean {
  const [r, s] = k.split(':').map(Number);
  return r < round || (r === round && s < slot);
}
