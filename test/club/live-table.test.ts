// Issue 17, "Results people follow": from the public results, a tap into any table's live view, "cards shown only as
// the embargo allows". The view is public, so a board's cards appear only once every other table scheduled for it
// has played it (developers' guide: "Nothing public may reveal an unplayed card of a tray another table has still to
// play"). A real director with its page, fake tables on the real Mosquitto.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { type ConsoleRig, startConsoleRig } from './console-rig.js';

const CARD = /\b[SHDC](?:10|[2-9TJQKA])\b|[♠♥♦♣]/;
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describe('a table\'s live view on the public results', () => {
  let rig: ConsoleRig;
  const get = async (path: string) => {
    const r = await fetch(new URL(path, rig.url));
    return { status: r.status, text: await r.text() };
  };
  const live = async (t: string) => JSON.parse((await get(`results/table/${t}.json`)).text) as { deal: { board: number; over: boolean; trick: number; shown: boolean; tricks?: unknown[]; current?: unknown[]; won?: { NS: number; EW: number } } | null };
  beforeAll(async () => { rig = await startConsoleRig(); }, 30_000);
  afterAll(async () => { await rig?.close(); }, 30_000);

  it('shows the board and trick of a tray another table has still to play, never its cards; the cards once every other table has played it', async () => {
    // Table 1 plays tray 1 first; table 2 plays it in round 2.
    const original = simulateDeal(createRng(7), { variant: 'duplicate-whist', board: 1, withHands: false });
    await rig.tables[0].play([{ type: 'tray', code: 'T1' }, ...original.events]);
    await poll(async () => (await live('1')).deal?.over).toBe(true);
    const first = await get('results/table/1.json');
    expect(JSON.parse(first.text).deal).toMatchObject({ board: 1, over: true, shown: false });
    expect(first.text).not.toMatch(CARD);
    const page = await get('results/table/1');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/shown here once every other table has played it/);
    expect(page.text.replace(/<[^>]*>/g, ' ')).not.toMatch(CARD);

    // Table 2 overplays tray 1, half way: every other table (table 1) has played it, so its cards may be shown.
    const over = simulateDeal(createRng(7), { variant: 'duplicate-whist', board: 1, withHands: true });
    (over.events[0] as { overplay?: boolean }).overplay = true;
    const half = over.events.slice(0, Math.floor(over.events.length / 2)) as TableEvent[];
    await rig.tables[1].play([{ type: 'tray', code: 'T1' }, ...half]);
    await poll(async () => (await live('2')).deal?.tricks?.length ?? 0).toBeGreaterThan(2);
    const two = await live('2');
    expect(two.deal).toMatchObject({ board: 1, over: false, shown: true });
    expect(two.deal!.won!.NS + two.deal!.won!.EW).toBe(two.deal!.tricks!.length);
    expect((await get('results/table/2')).text).toMatch(/Trick<\/th>/);
    // Table 1's view still hides them: table 2 has not finished the tray, so not every other table has played it.
    expect((await live('1')).deal?.shown).toBe(false);

    // The room's page links each table to its view; a table not in the session is a clear 404.
    expect((await get('results/')).text).toMatch(/<a href="table\/1">Table 1<\/a>/);
    const none = await get('results/table/9');
    expect(none.status).toBe(404);
    expect(none.text).toMatch(/no such table/);
    const garbled = await get('results/table/%E0%A4%A');
    expect(garbled.status).toBe(400);
    expect(garbled.text).toMatch(/pick a table on \/results\//);
  });
});
