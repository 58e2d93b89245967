// The demo's bridge deal (4♠ by South, data/demo) and what src/dd gives before each of its cards, for the tests of the
// live analysis: worked out here from the deal's hands and the cards played, not from the daemon's table.
import { join } from 'node:path';
import { analysePlay } from '../../src/dd/play.js';
import { DoubleDummy } from '../../src/dd/solver.js';
import type { PositionResult } from '../../src/dd/types.js';
import type { Seat } from '../../src/cards/seat.js';
import type { DealEvent, TableEvent } from '../../src/formats/table-log.js';
import { DEMO, readLog } from '../web/helpers.js';

export const LOG = readLog(join(DEMO, '1-bridge-4S.ndjson'));
export const DEAL = LOG[0] as DealEvent & { hands: string; board: number };
export const PLAYS = LOG.filter((e): e is TableEvent & { type: 'place'; seat: Seat; card: string } => e.type === 'place');

/** The positions analysePlay solves for the demo's play, one before each card (52), on a solver of its own. */
export async function demoPositions(): Promise<PositionResult[]> {
  const dd = new DoubleDummy();
  try {
    const out: PositionResult[] = [];
    await analysePlay({ solve: async (p) => { const r = await dd.solve(p); out.push(r); return r; } }, DEAL.hands, 'S', PLAYS.map((p) => ({ seat: p.seat, card: p.card })));
    return out;
  } finally {
    dd.close();
  }
}
