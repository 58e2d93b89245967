// Setting up a session without YAML (`tenace director --setup`, src/club/director/setup.ts, web/director/setup.js)
// in real Chromium: the director signs in, names the session and its game, chooses a Howell on three tables with a
// phantom pair (seven pairs: one sits out each round) and sees its schedule, marks table 3 hand-scored, names pairs
// from the club's players list and a new player, and starts: the session's config is written beside the club's,
// reads back as a valid director config, and the names are in the store's players list. Screenshots:
// test/web/screenshots/console-setup-*.png.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSetup, type SetupRun } from '../../src/cli/director-setup.js';
import { parseDirectorConfig } from '../../src/club/director/config.js';
import { Players } from '../../src/club/director/players.js';
import { DirectorStore } from '../../src/club/director/store.js';
import { previewSchedule, sessionConfig } from '../../src/club/director/setup.js';
import { ConsoleClient } from '../club/console-rig.js';
import { SCREENSHOTS, saveScreenshot, useChromium } from './helpers.js';

/** Wait for the page: 10 s, for a machine busy with other tests. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const PASSWORD = 'set up the club night';

describe('setting up a session on the director page', () => {
  const chromium = useChromium();
  let dir: string;
  let run: SetupRun;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tenace-setup-'));
    writeFileSync(join(dir, 'club.yaml'), 'club: { id: ely }\nstore: { url: "sqlite:club.db" }\nhttp: { port: 0 }\n');
    // Last week's names: Ann Lee is on the club's list.
    const store = await DirectorStore.open(`sqlite:${join(dir, 'club.db')}`);
    await new Players(store.db, 'last-week').setPair('1NS', [{ name: 'Ann Lee', member: 'EBU-1234' }, { name: 'Bo Kim' }]);
    await store.close();
    const r = await startSetup(join(dir, 'club.yaml'));
    if ('error' in r) throw new Error(r.error);
    run = r;
  }, 30_000);
  afterAll(async () => {
    await run?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  const next = (page: Page) => page.locator('#setup-buttons').getByRole('button', { name: 'Next' }).click();
  const title = (page: Page) => page.locator('#setup-title').textContent();

  it('the schedule preview and the session config follow the choices; a movement that does not fit is refused naming the fix', () => {
    const p = previewSchedule({ name: 'howell', tables: 3, options: { pairs: 8 } });
    expect(p).toEqual({ ok: false, error: 'option pairs: 8 does not fit 3 tables; give pairs=6 or pairs=7 (a phantom pair: one pair sits out each round), or --tables 4 for 8 pairs' });
    const bad = sessionConfig('club: { id: ely }\n', { session: 's', variant: 'duplicate-whist', movement: { name: 'mitchell', tables: 3 }, manual: ['9'] }, dir);
    expect(bad).toEqual({ ok: false, error: 'manual: "9" is not a table of this movement; choose among tables 1 to 3' });
  });

  it('the director sets up a Howell with a phantom pair, a hand-scored table and names, and starts it', async () => {
    const api = new ConsoleClient(run.url);
    expect((await api.call('api/setup/start', { session: 'x' })).status).toBe(401);
    const page = await chromium.open(run.url, { viewport: { width: 1280, height: 900 } });
    await poll(() => title(page)).toBe('Set up a session');
    await page.locator('#signin').click();
    await page.locator('#sheet [name=password]').fill(PASSWORD);
    await page.locator('#sheet [name=again]').fill(PASSWORD);
    await page.locator('#sheet').getByRole('button', { name: 'Set the password' }).click();
    await poll(() => title(page)).toBe('The session');
    await page.locator('#setup [name=session]').fill('2026-12-04-evening');
    await page.locator('#setup [name=variant]').selectOption('duplicate-whist');
    await next(page);

    await poll(() => title(page)).toBe('The movement');
    await page.locator('#setup [name=movement]').selectOption('howell');
    await page.locator('#setup [name=tables]').fill('3');
    await page.locator('#setup [name=tables]').dispatchEvent('change');
    await page.locator('#setup [name=extra]').selectOption('yes');
    await poll(() => page.locator('#setup .preview-wrap .hint').textContent()).toBe('7 rounds, 14 boards, 7 pairs');
    expect(await page.locator('#setup table.preview tr').count()).toBe(8);
    await saveScreenshot(page, join(SCREENSHOTS, 'console-setup-movement.png'));
    await next(page);

    await poll(() => title(page)).toBe('The tables');
    await page.locator('#setup [name=kind-3]').selectOption('manual');
    await next(page);

    await poll(() => title(page)).toBe('The players');
    expect(await page.locator('#club-players option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['Ann Lee (EBU-1234)', 'Bo Kim']);
    // A Howell's pairs are numbered (they change direction): 1 starts N-S at table 1, 7 sits out the first round.
    expect(await page.locator('#setup legend').allTextContents()).toEqual(['1', '2', '3', '4', '5', '6', '7'].map((n) => `Pair ${n}`));
    await page.locator('#setup [name="1-0"]').fill('Ann Lee (EBU-1234)');
    await page.locator('#setup [name="1-1"]').fill('Dee Fox (EBU-777)');
    await page.locator('#setup [name="7-0"]').fill('Bo Kim');
    await next(page);

    await poll(() => title(page)).toBe('Start the session');
    expect(await page.locator('#setup .summary').allTextContents()).toEqual([
      'Session 2026-12-04-evening, duplicate whist.', 'howell on 3 tables, 2 boards a round: 7 rounds.',
      'Hand-scored: table 3; the others are smart tables.', 'Players named for 2 of 7 pairs.',
    ]);
    await saveScreenshot(page, join(SCREENSHOTS, 'console-setup-start.png'));
    await page.locator('#setup-buttons').getByRole('button', { name: 'Start' }).click();
    const file = await run.started;
    expect(file).toBe(join(dir, '2026-12-04-evening.yaml'));
    const parsed = parseDirectorConfig(readFileSync(file, 'utf8'), dir);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config).toMatchObject({
      club: { id: 'ely' }, session: '2026-12-04-evening', variant: 'duplicate-whist', movement: { name: 'howell', tables: 3, boardsPerRound: 2, options: { pairs: 7 } },
      tables: ['1', '2', '3'], tableOptions: { 3: { manual: true } },
      pairs: { 1: { players: [{ name: 'Ann Lee', member: 'EBU-1234' }, { name: 'Dee Fox', member: 'EBU-777' }] }, 7: { players: [{ name: 'Bo Kim' }] } },
    });
    const store = await DirectorStore.open(`sqlite:${join(dir, 'club.db')}`);
    try {
      expect((await new Players(store.db, 'x').list()).map((p) => p.name)).toEqual(['Ann Lee', 'Bo Kim', 'Dee Fox']);
    } finally {
      await store.close();
    }
  });
});
