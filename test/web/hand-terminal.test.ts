// The hand-scoring terminal in Chromium (issue 17): at the phone's 390x844 and the Pi's 800x480 touchscreen, a table
// without readers signs in with its PIN (a wrong one refused), enters a bridge result as taps (contract, declarer,
// lead, tricks), the opponents accept it, and the terminal then shows the next round. Screenshots are committed
// beside the table view's.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startHandScoredDirector } from '../club/hand-rig.js';
import { SCREENSHOTS, saveScreenshot, useChromium } from './helpers.js';

const chromium = useChromium();

async function tap(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('button', { name, exact: typeof name === 'string' }).click();
}

async function typePin(page: Page, pin: string): Promise<void> {
  for (const d of pin) await tap(page, d);
  await tap(page, 'OK');
}

for (const [label, viewport] of [['phone', { width: 390, height: 844 }], ['pi', { width: 800, height: 480 }]] as const) {
  describe(`the hand-scoring terminal on the ${label} (${viewport.width}x${viewport.height})`, () => {
    it('a wrong PIN is refused; the right one opens the round; a bridge result is entered as taps and accepted by the opponents', async () => {
      const { director, url } = await startHandScoredDirector(`ht${label}${process.pid}`, chromium.closeAfter);
      const pin = director.tablePins()['2'];
      const page = await chromium.open(new URL('hand/?table=2', url).href, { viewport });
      await expect.poll(() => page.locator('main h2').first().textContent()).toMatch(/Table 2: type the table's PIN/);
      await saveScreenshot(page, join(SCREENSHOTS, `hand-${label}-pin.png`));
      await typePin(page, pin === '0000' ? '1111' : '0000');
      await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not this table's PIN/);
      await typePin(page, pin);
      await expect.poll(() => page.locator('#title').textContent()).toBe('Table 2 · Round 1');
      await expect.poll(() => page.getByText('North-South: pair 2NS · East-West: pair 2EW').count()).toBe(1);
      await tap(page, /Tray 2/);
      await expect.poll(() => page.locator('main h2').first().textContent()).toBe('Tray 2: the contract level');
      await saveScreenshot(page, join(SCREENSHOTS, `hand-${label}-level.png`));
      await tap(page, '4');
      await page.getByRole('button', { name: 'Hearts' }).click();
      await tap(page, 'No');
      await tap(page, 'East');
      await page.getByRole('button', { name: 'Spades' }).click();
      await tap(page, 'K');
      await expect.poll(() => page.locator('main h2').first().textContent()).toBe('Tray 2: tricks taken by declarer (East)');
      await tap(page, '10');
      // E-W declared, so N-S are asked to accept: 4H by E making 10, N-S vulnerable on board 2 (Law 2), E-W +420.
      await expect.poll(() => page.locator('main h2').first().textContent()).toBe('Tray 2: North-South, do you accept this result?');
      await expect.poll(() => page.locator('.summary').textContent()).toMatch(/4♥ by East.*10 tricks: made exactly.*Score: East-West \+420.*Opening lead ♠K/);
      await saveScreenshot(page, join(SCREENSHOTS, `hand-${label}-accept.png`));
      await tap(page, 'Accept');
      // The round is over at this table: first where everyone goes (the schedule: 2EW to table 1, tray 2 to table 1,
      // 2NS stays), then round 2's tray.
      await expect.poll(() => page.locator('.summary').textContent(), { timeout: 5000 })
        .toBe('Next round (2)North-South stay at this tableEast-West go to table 1Trays go to table 1');
      await saveScreenshot(page, join(SCREENSHOTS, `hand-${label}-moves.png`));
      await tap(page, 'Everyone is in place: start round 2');
      await expect.poll(() => page.locator('#title').textContent(), { timeout: 5000 }).toBe('Table 2 · Round 2');
      await expect.poll(() => page.getByText('North-South: pair 2NS · East-West: pair 1EW').count()).toBe(1);
      await saveScreenshot(page, join(SCREENSHOTS, `hand-${label}-round2.png`));
      await expect.poll(() => director.snapshot().standings?.boards.find((b) => b.board === 2)?.results[0], { timeout: 5000 })
        .toMatchObject({ contract: '4HE', declarerTricks: 10, handScored: true });
      // Nothing on the page is raw JSON.
      expect(await page.locator('body').textContent()).not.toMatch(/[{}"]/);
    }, 60_000);
  });
}
