// Issue 19, item 4: the director page's rough edges, each asserted in Chromium on a real session (three tables of a
// Compass on the real Mosquitto, a fouled tray found at an overplay):
// - the fouled tray's chip is marked only where the fault was found, not in every round the tray appears;
// - the tray doctor names the table that takes the average;
// - the fouled-tray alert writes its cards as the rest of the page does (♦10, not DT);
// - bridge standings under matchpoints are headed %, not "vs average" (whist keeps "vs average");
// - /favicon.ico answers;
// - a Howell's pairs, who change direction, are numbered on the grid ("3 v 1"), not named 1NS, 1EW.
import { describe, expect, it } from 'vitest';
import { movementByName } from '../../src/club/movements/index.js';
import { planSession } from '../../src/club/session/plan.js';
import { runSession } from '../../src/club/session/runner.js';
import { createLogger } from '../../src/config/logger.js';
import { useChromium } from './helpers.js';

const chromium = useChromium();
const DESKTOP = { viewport: { width: 1280, height: 900 } };
/** A card as the tables send it ("DT", "C5"): the page must show none of these. */
const CARD_TOKEN = /\b[SHDC][2-9TJQKA]\b/;

describe('the director page', () => {
  it('marks a fouled tray where it was found, names the table that takes the average, writes cards one way, heads matchpoints %, has a favicon', async () => {
    const schedule = movementByName('compass')!.generate({ tables: 3, boardsPerRound: 1 });
    const plan = planSession({ session: `dp${process.pid}`, variant: 'duplicate-whist', schedule, seed: 5, faults: { fouled: 1, wrongTray: 0, revokes: 0 }, claims: 0 });
    const fouled = [...plan.plays.values()].flat().find((p) => p.fouled)!;
    const other = [...plan.plays.values()].flat().filter((p) => p.board === fouled.board && p !== fouled);
    expect(other.length).toBeGreaterThan(0);
    await runSession({
      plan, club: `dp${process.pid}`, broker: 'mqtt://127.0.0.1:1883', speed: 'max', httpPort: 0, serial: 'loopback', waitMs: 60_000,
      log: createLogger({ log: { level: 'error' } }),
      keepOpen: async (url) => {
        const page = await chromium.open(url, DESKTOP);
        await expect.poll(() => page.locator('#alerts li[data-kind="fouled-tray"]').count(), { timeout: 10_000 }).toBe(1);

        // The chip: red in the fouled play's cell only, not in the other rounds the tray is played.
        const chips = page.locator('#grid .tray-btn.fouled');
        expect(await chips.count()).toBe(1);
        const cell = page.locator(`#grid tr[data-table="${fouled.table}"] td[data-round="${fouled.round}"] .tray-btn[data-board="${fouled.board}"]`);
        expect(await cell.getAttribute('class')).toContain('fouled');
        for (const p of other) {
          const at = page.locator(`#grid tr[data-table="${p.table}"] td[data-round="${p.round}"] .tray-btn[data-board="${p.board}"]`);
          expect(await at.getAttribute('class'), `table ${p.table} round ${p.round}`).not.toContain('fouled');
        }

        // The alert: its cards as symbols, like the differences listed under it.
        const message = await page.locator('#alerts li[data-kind="fouled-tray"] .message').textContent();
        expect(message).toMatch(/[♠♥♦♣]/);
        expect(message).not.toMatch(CARD_TOKEN);
        const cards = await page.locator('#alerts li[data-kind="fouled-tray"] .differences .card').allTextContents();
        expect(cards.length).toBeGreaterThan(0);
        for (const c of cards) expect(message).toContain(c);

        // The tray doctor: the remedy names the table that takes the average (three tables: Dup. V.1).
        await cell.click();
        await expect.poll(() => page.locator('#doctor').isVisible()).toBe(true);
        expect(await page.locator('#outcome .remedy').textContent()).toBe(`Rectify, and table ${fouled.table} takes the average`);

        // Whist standings: plus and minus against the averages.
        expect(await page.locator('#extra-head').textContent()).toBe('vs average');

        // The favicon the browser asks for on its own.
        const icon = await page.request.get(new URL('favicon.ico', url).href);
        expect(icon.status()).toBe(200);
        expect(icon.headers()['content-type']).toBe('image/svg+xml');

        // Bridge under matchpoints: the same page fed a matchpoint report (percent and vsAverage both present).
        const snap = await (await fetch(new URL('snapshot.json', url))).json() as { standings: { method: string; pairs: { percent?: number; vsAverage?: number; total: number }[] } };
        snap.standings.method = 'matchpoints';
        snap.standings.pairs.forEach((p, i) => { p.percent = 40 + i; p.vsAverage = i - 1; });
        const bridge = await chromium.open('about:blank', DESKTOP);
        await bridge.route('**/events', (r) => r.abort());
        await bridge.route('**/snapshot.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(snap) }));
        await bridge.goto(url);
        await expect.poll(() => bridge.locator('#method').textContent()).toBe('matchpoints');
        expect(await bridge.locator('#extra-head').textContent()).toBe('%');
        const extras = await bridge.locator('#standings tbody .extra').allTextContents();
        expect(extras.length).toBe(snap.standings.pairs.length);
        for (const e of extras) expect(e).toMatch(/^\d+\.\d\d%$/);

        // A Howell on the grid: its pairs change direction, so they are numbered ("3 v 1"), never "2NS v 1NS".
        const howell = { ...snap, schedule: movementByName('howell')!.generate({ tables: 3, boardsPerRound: 1 }), progress: [] };
        const grid = await chromium.open('about:blank', DESKTOP);
        await grid.route('**/events', (r) => r.abort());
        await grid.route('**/snapshot.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(howell) }));
        await grid.goto(url);
        await expect.poll(() => grid.locator('#grid tbody .pairs').count()).toBe(15);
        const seated = await grid.locator('#grid tbody .pairs').allTextContents();
        for (const x of seated) expect(x).toMatch(/^\d+ v \d+$/);
        // Pair 1 sits N-S in one round and E-W in another, under the same name.
        expect(seated.some((x) => x.startsWith('1 v '))).toBe(true);
        expect(seated.some((x) => x.endsWith(' v 1'))).toBe(true);
      },
    });
  }, 180_000);
});
