// Issue 21 item 4: at a claim, the director sees what the claimer's side can take from the cards left (WBF Laws
// 70-71: the director judges a disputed claim; whist, Am. 27 "the result of the hand, as then claimed or admitted").
// The director's fold keeps the position of each claim; DDS solves it; the director page shows it beside the table.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableFold } from '../../src/club/director/fold.js';
import { startDirectorWeb } from '../../src/club/director/web.js';
import type { DirectorSnapshot } from '../../src/club/types.js';
import { ClaimAnalyses } from '../../src/dd/claim.js';
import { DoubleDummy } from '../../src/dd/index.js';
import { parsePbn } from '../../src/formats/pbn.js';
import { recordToTableLog } from '../../src/formats/record.js';
import { SCREENSHOTS, saveScreenshot, useChromium } from '../web/helpers.js';
import { dataFile } from '../formats/data.js';

const dd = new DoubleDummy();
afterAll(() => dd.close());

// bridge-bots board 1: 3♦ by East, play stops after 7 tricks (N-S 3, E-W 4) and the file's result is 9: East's side
// claims 5 of the 6 tricks left. tenace analyse says E-W can take 5 of them with best play (test/dd/analyse.test.ts).
const board1 = parsePbn(dataFile('bridgebots-sample.pbn')).records.find((r) => r.board === 1)!;

describe('a claim, for the director', () => {
  it('the fold keeps the claim\'s position; solved, it shows E-W can take the 5 tricks they claimed of 6', async () => {
    const fold = new TableFold('bridge');
    for (const ev of recordToTableLog(board1)) fold.apply(ev);
    const c = fold.lastClaim();
    expect(c).not.toBeNull();
    expect(c!.board).toBe(1);
    expect(['E', 'W']).toContain(c!.seat);
    expect(c!.claimed).toBe(5);
    expect(c!.left).toBe(6);
    expect(c!.position.strain).toBe('D');
    let solved!: () => void;
    const done = new Promise<void>((r) => { solved = r; });
    const claims = new ClaimAnalyses(dd, () => solved());
    expect(claims.view(c!).canTake).toBeUndefined();
    await done;
    expect(claims.view(c!)).toEqual({ board: 1, seat: c!.seat, claimed: 5, left: 6, canTake: 5 });
    // The same answer as solving the position directly.
    expect((await dd.solve(c!.position)).tricks.EW).toBe(5);
  });

  it('a new deal clears the claim; analysis off leaves the claim without best play', () => {
    const fold = new TableFold('bridge');
    for (const ev of recordToTableLog(board1)) fold.apply(ev);
    const off = new ClaimAnalyses(null);
    expect(off.view(fold.lastClaim()!).canTake).toBeUndefined();
    fold.apply({ type: 'deal', board: 2, variant: 'bridge' });
    expect(fold.lastClaim()).toBeNull();
  });

  const chromium = useChromium();

  it('the director page shows the claim beside its table, in red when best play gives less than claimed', async () => {
    const snap: DirectorSnapshot = {
      schema: 1, type: 'tenace.director', club: 'Ely', session: 'tue-1', variant: 'bridge', round: 1,
      schedule: {
        movement: 'mitchell', tables: 2, kind: 'pairs', boardsPerRound: 2, trays: 4, participants: ['1NS', '2NS', '1EW', '2EW'],
        rounds: [{ round: 1, tables: [{ table: 1, ns: '1NS', ew: '1EW', trays: [1, 2] }, { table: 2, ns: '2NS', ew: '2EW', trays: [3, 4] }] }],
      },
      tables: [
        { table: '1', status: 'online', round: 1, done: [1], lastSeq: 80, claim: { board: 1, seat: 'E', claimed: 5, left: 6, canTake: 5 } },
        { table: '2', status: 'online', round: 1, board: 3, trick: 9, done: [], lastSeq: 60, claim: { board: 3, seat: 'S', claimed: 5, left: 5, canTake: 3 } },
      ],
      progress: [{ table: 1, round: 1, played: 1, of: 2 }, { table: 2, round: 1, played: 0, of: 2 }],
      trays: [], alerts: [], standings: null, at: '2026-12-04T19:40:00.000Z',
    };
    const web = await startDirectorWeb({ host: '127.0.0.1', port: 0, snapshot: () => snap, subscribe: () => () => undefined });
    chromium.closeAfter(() => web.close());
    const page = await chromium.open(web.url, { viewport: { width: 1280, height: 800 } });
    await page.waitForFunction((at) => document.body.dataset.at === at, snap.at, { timeout: 10_000 });
    const lines = page.locator('#grid .claim');
    expect(await lines.allInnerTexts()).toEqual([
      'board 1: East claims 5 of 6 for E-W · best play: 5',
      'board 3: South claims 5 of 5 for N-S · best play: 3',
    ]);
    expect(await page.locator('#grid tr[data-table="2"] .claim.short').count()).toBe(1);
    expect(await page.locator('#grid tr[data-table="1"] .claim.short').count()).toBe(0);
    await saveScreenshot(page, join(SCREENSHOTS, 'director-claim.png'));
  });
});
