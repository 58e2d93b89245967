// The table view shows the club line (docs/club.md, "Wrong tray": "a clear status at the table ... before any card
// is played"): a simulated table (embedded broker, emulated scanner and bridge) in a club session, real Chromium.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulation, launchChromium, simulate } from '../web/helpers.js';

describe('the table view in a club session', () => {
  let run: RunningSimulation;
  let browser: Browser;

  beforeAll(async () => {
    run = await simulate({ events: [], speed: 'max', session: 'eve', autoplay: false });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await run?.close();
  });

  it('shows a wrong tray (another session\'s) as a clear line, with no deal, then the original-play line once this session\'s tray is scanned', async () => {
    const page = await browser.newPage();
    await page.goto(run.sim.url!);
    await page.waitForFunction(() => document.getElementById('status')?.dataset.status === 'online', undefined, { timeout: 15_000 });
    expect(await page.locator('#club-line').isHidden()).toBe(true);

    await run.sim.playEvents([{ type: 'tray', code: 'monday:5' }]);
    await page.waitForFunction(() => document.body.dataset.clubStatus === 'wrong-tray', undefined, { timeout: 10_000 });
    expect(await page.locator('#club-line').textContent()).toMatch(/^Tray 5 belongs to session "monday"/);
    expect(await page.locator('#board').textContent()).toBe('–');
    expect(run.sim.controller.journal.events().map((e) => e.type)).toEqual(['tray']);

    await run.sim.playEvents([{ type: 'tray', code: 'eve:5' }]);
    // The line and the deal come in the same snapshot or in two in a row: wait for both.
    await page.waitForFunction(() => document.body.dataset.clubStatus === 'original' && document.getElementById('board')?.textContent === '5', undefined, { timeout: 10_000 });
    expect(await page.locator('#club-line').textContent()).toMatch(/^Tray 5: original play/);
    expect(await page.locator('#board').textContent()).toBe('5');
  }, 60_000);
});
