// The director's console in real Chromium (playwright-core, Debian's chromium) on a real director with fake tables:
// the director chooses the password at first run on this computer, signs out, is refused a wrong password, signs
// in; gives a pair its players from the club's players list; makes an adjusted-score decision (Dup. IV.9, V.1 for
// whist), confirmed on a screen of its own, which then shows in the standings; a renounce in error at an overplay
// (Dup. X.1) is listed open with its law. A spectator (no sign-in) sees the page but no action, and the director's
// API refuses it. Screenshots at desktop size and 390×844 go to test/web/screenshots/console-*.png.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { ConsoleClient, type ConsoleRig, startConsoleRig } from '../club/console-rig.js';
import { SCREENSHOTS, saveScreenshot, useChromium } from './helpers.js';

/** Wait for the page: 10 s, for a machine busy with other tests. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const PASSWORD = 'whist at the club tonight';
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe('the director\'s console in Chromium', () => {
  const chromium = useChromium();
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
    // Table 1 deals tray 1; table 2 overplays the same hands with a renounce in error by East at trick 3.
    const original = simulateDeal(createRng(7), { variant: 'duplicate-whist', board: 1, withHands: false });
    await rig.tables[0].play([{ type: 'tray', code: 'T1' }, ...original.events]);
    const deal = simulateDeal(createRng(7), { variant: 'duplicate-whist', board: 1, withHands: true, renounceAt: { trick: 3 } });
    (deal.events[0] as { overplay?: boolean }).overplay = true;
    await rig.tables[1].play([{ type: 'tray', code: 'T1' }, ...deal.events]);
  }, 30_000);
  afterAll(async () => { await rig?.close(); }, 30_000);

  /** A screenshot with no button left under the pointer (a hover would colour it). */
  const shot = async (page: Page, name: string) => {
    await page.mouse.move(0, 0);
    return saveScreenshot(page, join(SCREENSHOTS, `console-${name}.png`));
  };
  const sheet = (page: Page) => page.locator('#sheet');

  it('the director chooses the password at first run, a wrong one is refused, the right one signs in', async () => {
    const page = await chromium.open(rig.url, DESKTOP);
    await page.locator('#signin').click();
    await poll(() => sheet(page).locator('#sheet-title').textContent()).toBe('Choose the director\'s password');
    await sheet(page).locator('[name=password]').fill(PASSWORD);
    await sheet(page).locator('[name=again]').fill(PASSWORD);
    await sheet(page).getByRole('button', { name: 'Set the password' }).click();
    await page.waitForSelector('body[data-director="signed-in"]');
    await page.locator('#signout').click();
    await page.waitForSelector('body[data-director="signed-out"]');

    await page.locator('#signin').click();
    await sheet(page).locator('[name=password]').fill('not the password');
    await sheet(page).getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.locator('#sheet-error').textContent()).toBe('password: is not the director\'s password; type it again');
    expect(await page.locator('body').getAttribute('data-director')).toBe('signed-out');
    await shot(page, 'wrong-password');
    await sheet(page).locator('[name=password]').fill(PASSWORD);
    await sheet(page).getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('body[data-director="signed-in"]');
    expect(await page.locator('#console').isVisible()).toBe(true);
  });

  it('names are picked from the players list, and an adjusted score is confirmed and shows in the standings', async () => {
    // The club's list already holds Ann Lee (she played in pair 2EW last week).
    const api = new ConsoleClient(rig.url);
    expect((await api.call('api/login', { password: PASSWORD })).status).toBe(200);
    expect((await api.call('api/pairs/2EW', { players: [{ name: 'Cy Day' }, { name: 'Ann Lee', member: 'EBU-1234' }] })).status).toBe(200);

    const page = await chromium.open(rig.url, DESKTOP);
    await page.locator('#signin').click();
    await sheet(page).locator('[name=password]').fill(PASSWORD);
    await sheet(page).getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('body[data-director="signed-in"]');

    await page.getByRole('button', { name: 'Player names' }).click();
    await sheet(page).locator('[name=pair]').selectOption('1NS');
    const ann = await sheet(page).locator('[name=pick-0] option', { hasText: 'Ann Lee (EBU-1234)' }).getAttribute('value');
    await sheet(page).locator('[name=pick-0]').selectOption(ann!);
    expect(await sheet(page).locator('[name=member-0]').inputValue()).toBe('EBU-1234');
    await sheet(page).locator('[name=name-1]').fill('Bo Kim');
    await shot(page, 'names');
    await sheet(page).getByRole('button', { name: 'Save' }).click();
    await poll(() => page.locator('#sheet .summary').textContent()).toBe('Pair 1NS: Ann Lee & Bo Kim — saved; the tables get the names.');
    await sheet(page).getByRole('button', { name: 'Close' }).click();
    await poll(() => page.locator('#standings tr[data-pair="1NS"] .names').textContent()).toBe('Ann Lee & Bo Kim');

    await page.getByRole('button', { name: 'Adjust a score' }).click();
    expect(await page.locator('#sheet-law').textContent()).toBe('Dup. IV.9, V.1');
    await sheet(page).locator('[name=table]').selectOption('1');
    await sheet(page).locator('[name=board]').selectOption('1');
    await sheet(page).locator('[name=kind]').selectOption('assigned');
    await sheet(page).locator('[name=ns]').fill('10');
    await sheet(page).locator('[name=ew]').fill('4');
    await sheet(page).getByRole('button', { name: 'Next' }).click();
    await poll(() => page.locator('#sheet-error').textContent()).toBe('Tricks: give whole numbers that make 13 in all, e.g. 7 and 6.');
    await sheet(page).locator('[name=ew]').fill('3');
    await sheet(page).getByRole('button', { name: 'Next' }).click();
    await poll(() => page.locator('#sheet .summary').textContent()).toBe('Table 1, board 1: N-S 10 tricks, E-W 3 tricks.');
    await shot(page, 'confirm-desktop');
    await sheet(page).getByRole('button', { name: 'Confirm' }).click();
    await poll(() => page.locator('#sheet .summary').textContent()).toBe('Table 1, board 1: N-S 10 tricks, E-W 3 tricks. — recorded.');
    await sheet(page).getByRole('button', { name: 'Close' }).click();
    await poll(() => page.locator('#standings tr[data-pair="1NS"] .total').textContent()).toBe('10');
    expect((await rig.store.decisions('s1')).filter((d) => d.cmd === 'adjust-score')).toHaveLength(1);
    expect(await page.locator('#alerts .alert').count()).toBe(0);
    expect(await page.locator('#grid tr[data-table="2"] .dot.manual').textContent()).toBe('hand-scored');
    // Table 2's renounce in error (Dup. X.1) and the revoke it became (X.1(a)) are open, with a way to rule.
    await poll(() => page.locator('#findings .finding[data-state="open"]').count()).toBe(2);
    expect(await page.locator('#findings .finding[data-kind="renounce-in-error"] .law').textContent()).toBe('Dup. X.1');
    expect(await page.locator('#findings .finding[data-kind="renounce-in-error"]').getByRole('button', { name: 'The result stands' }).count()).toBe(1);
    // Tray 1 in table 2's row (round 2) is marked, and its panel lists the board's findings.
    const tray1 = page.locator('#grid tr[data-table="2"] td[data-round="2"] .tray-btn[data-board="1"]');
    expect(await tray1.getAttribute('class')).toContain('finding');
    await tray1.click();
    await poll(() => page.locator('#tray-findings-list .finding').count()).toBe(2);
    await page.locator('#tray-close').click();
    await poll(() => page.locator('#tray-findings').isVisible()).toBe(false);
    await shot(page, 'desktop');
    // The director lets the result stand: the screen names the finding's law, and both findings turn ruled.
    await page.locator('#findings .finding[data-kind="renounce-in-error"]').getByRole('button', { name: 'The result stands' }).click();
    expect(await page.locator('#sheet-law').textContent()).toBe('Dup. X.1');
    await sheet(page).getByRole('button', { name: 'Next' }).click();
    await sheet(page).getByRole('button', { name: 'Confirm' }).click();
    await poll(() => page.locator('#sheet .summary').textContent()).toBe('Table 2, board 1: the result stands as the table scored it. — recorded.');
    await sheet(page).getByRole('button', { name: 'Close' }).click();
    await poll(() => page.locator('#findings .finding[data-state="ruled"]').count()).toBe(2);
    expect(await page.locator('#findings .finding .state').allTextContents()).toEqual(['ruled: result stands', 'ruled: result stands']);
  });

  it('at 390×844 the decisions are large buttons and a decision screen fits', async () => {
    const page = await chromium.open(rig.url, PHONE);
    await page.locator('#signin').click();
    await sheet(page).locator('[name=password]').fill(PASSWORD);
    await sheet(page).getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('body[data-director="signed-in"]');
    const box = await page.getByRole('button', { name: 'Adjust a score' }).boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'phone');
    // Issue 17: the table PINs are on the console, for the director to give each table; table 2 is hand-scored.
    await page.getByRole('button', { name: 'Table PINs' }).click();
    const pins = rig.s.tablePins();
    await poll(() => sheet(page).locator('table.pins tr[data-table]').count()).toBe(2);
    for (const t of ['1', '2']) expect(await sheet(page).locator(`tr[data-table="${t}"] .pin`).textContent()).toBe(pins[t]);
    expect(await sheet(page).locator('tr[data-table="2"]').textContent()).toContain('/hand/?table=2');
    expect(await sheet(page).locator('tr[data-table="1"]').textContent()).toContain('the table\'s own screen');
    expect(await page.evaluate(() => document.querySelector('#sheet')!.scrollWidth)).toBeLessThanOrEqual(390);
    await saveScreenshot(page, join(SCREENSHOTS, 'console-pins-phone.png'), { fullPage: false });
    await sheet(page).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Late play' }).click();
    expect(await page.locator('#sheet-law').textContent()).toBe('the movement');
    await saveScreenshot(page, join(SCREENSHOTS, 'console-decision-phone.png'), { fullPage: false });
  });

  it('a spectator sees the findings and standings but no action, and the director\'s API refuses it', async () => {
    const page = await chromium.open(rig.url, PHONE);
    await page.waitForSelector('body[data-director="signed-out"]');
    await poll(() => page.locator('#findings .finding').count()).toBe(2);
    expect(await page.locator('#console').isVisible()).toBe(false);
    expect(await page.locator('#findings button').count()).toBe(0);
    const status = await page.evaluate(async () => (await fetch('api/decisions/advance-round', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ transaction: 'spectator-1' }),
    })).status);
    expect(status).toBe(401);
    // Nor may a spectator read the tables' PINs.
    expect(await page.evaluate(async () => (await fetch('api/pins')).status)).toBe(401);
    expect((await rig.store.decisions('s1')).some((d) => d.transaction === 's:spectator-1')).toBe(false);
    await shot(page, 'spectator-phone');
  });
});
