// The double-dummy table and par of each board of a club session, for the results and the exports (issue 21, 4).
// The exports are computed on demand and synchronously, so a board is solved in the background once its tray record
// is known and an export carries it from then on; a board not yet solved is exported without it.
import type { Seat } from '../cards/seat.js';
import type { DoubleDummy } from './solver.js';
import type { DdTable, Par, Vulnerability } from './types.js';

/** What a board's analysis needs of its tray record. */
export interface BoardDeal { board: number; hands: string; dealer?: Seat; vulnerable?: string; bridge: boolean }

/** A board's table, and its par when it is bridge. */
export interface BoardDd { table: DdTable; par?: Par }

const VULNERABLE: Record<string, Vulnerability> = { None: 'None', NS: 'NS', EW: 'EW', All: 'All', Both: 'All' };

/** Each board's analysis, solved once per deal in the background. */
export class BoardAnalyses {
  private readonly done = new Map<string, BoardDd>();
  private readonly asked = new Set<string>();
  private readonly waiting = new Set<Promise<void>>();

  /** `dd` null: analysis off, every board is exported without it. */
  constructor(private readonly dd: DoubleDummy | null) {}

  /** The board's analysis when solved; otherwise it is asked for (once) and undefined is returned. */
  get(b: BoardDeal): BoardDd | undefined {
    const key = keyOf(b);
    const got = this.done.get(key);
    if (got || !this.dd || this.asked.has(key)) return got;
    this.asked.add(key);
    const p = this.solve(b, key).finally(() => this.waiting.delete(p));
    this.waiting.add(p);
    return undefined;
  }

  /** Resolves when every board asked for so far is solved (or failed): tests and a final export wait on it. */
  async settled(): Promise<void> {
    while (this.waiting.size > 0) await Promise.all([...this.waiting]);
  }

  private async solve(b: BoardDeal, key: string): Promise<void> {
    try {
      const table = await this.dd!.table(b.hands);
      const out: BoardDd = { table };
      if (b.bridge) out.par = await this.dd!.par(table, VULNERABLE[b.vulnerable ?? 'None'] ?? 'None', b.dealer);
      this.done.set(key, out);
    } catch {
      // Off, busy or a bad record: the board goes out without analysis; a corrected record (new hands) is asked anew.
    }
  }
}

function keyOf(b: BoardDeal): string {
  return `${b.hands} ${b.bridge ? `${b.vulnerable ?? 'None'} ${b.dealer ?? '-'}` : 'whist'}`;
}
