// Issue 21, item 3, in the browser: the table view's double-dummy panel (config feed.analysis) in real Chromium, on a
// phone (390×844) and on the Pi's 800×480 screen. An emulated table plays the demo's bridge deal; mid-trick the panel
// must show what src/dd gives for the position on the table (each side's tricks still to take, each legal card and
// its cost), and what the card just played cost. Under an embargo it says the analysis is held back; without libdds
// it says analysis is off and how to install it, and the table view goes on.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import type { PositionResult } from '../../src/dd/types.js';
import { type RunningSimulation, SCREENSHOTS, saveScreenshot, simulate, useChromium } from './helpers.js';
import { DEAL, LOG, PLAYS, demoPositions } from '../dd/demo-play.js';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
const PI = { viewport: { width: 800, height: 480 }, deviceScaleFactor: 1 };

let expected: PositionResult[];
beforeAll(async () => { expected = await demoPositions(); }, 120_000);

/** The events up to and including the n-th card placed (its lifts not yet). */
function upToCard(n: number): TableEvent[] {
  let placed = 0;
  const i = LOG.findIndex((e) => e.type === 'place' && ++placed === n);
  return LOG.slice(0, i + 1);
}

async function until(page: Page, what: string, fn: string, timeout = 20_000): Promise<void> {
  try {
    await page.waitForFunction(fn, undefined, { timeout, polling: 'raf' });
  } catch (e) {
    throw new Error(`${what}: ${(e as Error).message.split('\n')[0]}`);
  }
}

async function fitsWidth(page: Page, width: number): Promise<void> {
  const f = await page.evaluate(() => ({ inner: window.innerWidth, scroll: document.documentElement.scrollWidth }));
  expect(f.inner).toBe(width);
  expect(f.scroll, 'the page scrolls sideways').toBeLessThanOrEqual(width);
}

describe('table view: the double-dummy panel in Chromium', () => {
  const chromium = useChromium();
  function start(run: RunningSimulation): RunningSimulation {
    chromium.closeAfter(() => run.close());
    onTestFailed(() => console.error(`daemon log:\n${run.lines.join('\n')}`));
    return run;
  }

  it('shows, mid-trick, each side\'s tricks still to take and each legal card\'s cost as src/dd gives them (390×844, 800×480)', async () => {
    // A position mid-trick where a legal card would cost a trick, after the opening tricks.
    const k = expected.findIndex((r, i) => i >= 9 && i % 4 !== 0 && r.cards.some((c) => c.tricks < r.cards[0].tricks));
    expect(k, 'a position where a legal card costs a trick').toBeGreaterThan(0);
    const run = start(await simulate({ events: LOG, speed: 'max', autoplay: false, analysis: true, embargo: 'live' }));
    const phone = await chromium.open(run.sim.url!, PHONE);
    const pi = await chromium.open(run.sim.url!, PI);
    for (const p of [phone, pi]) {
      await until(p, 'status online', `document.getElementById('status').dataset.status === 'online'`);
      expect(await p.locator('#analysis').isVisible()).toBe(true);
    }
    await run.sim.playEvents(upToCard(k));
    const r = expected[k];
    const best = r.cards[0].tricks;
    for (const p of [phone, pi]) {
      await until(p, `the analysis after card ${k}`, `document.getElementById('analysis').dataset.dd === 'on' && document.getElementById('analysis').dataset.played === '${k}' && !document.getElementById('dd-last').hidden`);
      expect(await p.locator('#dd-NS').innerText()).toBe(String(r.tricks.NS));
      expect(await p.locator('#dd-EW').innerText()).toBe(String(r.tricks.EW));
      const shown = await p.locator('#dd-cards li').evaluateAll((lis) => lis.map((li) => ({ card: (li as HTMLElement).dataset.card, cost: Number((li as HTMLElement).dataset.cost) })));
      expect(shown).toEqual(r.cards.map((c) => ({ card: c.card, cost: best - c.tricks })));
      expect(await p.locator('#dd-cards li.costs').count()).toBeGreaterThan(0);
      const seat = { N: 'North', E: 'East', S: 'South', W: 'West' }[r.toPlay];
      expect(await p.locator('#dd-to-play').innerText()).toContain(`${seat} to play`);
      // The card just played, and what it cost, from the position before it.
      const before = expected[k - 1];
      const lastCost = before.cards[0].tricks - before.cards.find((c) => c.card === PLAYS[k - 1].card)!.tricks;
      expect(await p.locator('#dd-last').getAttribute('data-cost')).toBe(String(lastCost));
      expect(await p.locator('#dd-msg').innerText()).toBe('');
    }
    await fitsWidth(phone, 390);
    await fitsWidth(pi, 800);
    await pi.locator('#analysis').scrollIntoViewIfNeeded();
    await saveScreenshot(phone, join(SCREENSHOTS, 'table-analysis-390x844.png'));
    await saveScreenshot(pi, join(SCREENSHOTS, 'table-analysis-800x480.png'), { fullPage: false });
  }, 180_000);

  it('says the analysis is held back while the embargo holds, and sums up a board released after the table moved on', async () => {
    const run = start(await simulate({ events: LOG, speed: 'max', autoplay: false, analysis: true, embargo: 'tray-complete' }));
    const phone = await chromium.open(run.sim.url!, PHONE);
    await until(phone, 'status online', `document.getElementById('status').dataset.status === 'online'`);
    await run.sim.playEvents(upToCard(6));
    await until(phone, 'the embargo line', `document.getElementById('analysis').dataset.dd === 'embargo'`);
    expect(await phone.locator('#dd-msg').innerText()).toBe('The analysis of this deal is held back until the embargo lets its cards out.');
    expect(await phone.locator('#dd-cards li').count()).toBe(0);
    expect(await phone.locator('#dd-left').isVisible()).toBe(false);
    // Board 2 played out, board 3 begun, then board 2 released: its summary, and board 3 still held back.
    await run.sim.playEvents([...LOG.slice(upToCard(6).length), { ...DEAL, board: 3 }, ...LOG.slice(1, 4)]);
    const c = run.sim.controller;
    await c.feed!.whenDelivered(c.journal.lastSeq, 20_000);
    await until(phone, 'board 3 on the page', `document.getElementById('board').textContent === '3'`);
    c.feed!.setTrayComplete(2);
    await until(phone, 'board 2\'s summary', `document.getElementById('dd-msg').textContent.startsWith('Board 2, released')`);
    expect(await phone.locator('#dd-msg').innerText()).toBe(`Board 2, released: from the opening lead N-S could take ${expected[0].tricks.NS} and E-W ${expected[0].tricks.EW}; the table took 11–2. The analysis of this deal is held back until the embargo lets its cards out.`);
    expect(await phone.locator('#dd-cards li').count()).toBe(0);
  }, 120_000);

  it('says analysis is off and how to install libdds0 when DDS is missing, and the table view goes on', async () => {
    const saved = process.env.LIBDDS_PATH;
    process.env.LIBDDS_PATH = '/nonexistent/libdds.so.0';
    let run: RunningSimulation;
    try {
      run = start(await simulate({ events: LOG, speed: 'max', autoplay: false, analysis: true, embargo: 'live' }));
      // The daemon's solver starts with the daemon: the environment it was given is the one above.
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      if (saved === undefined) delete process.env.LIBDDS_PATH;
      else process.env.LIBDDS_PATH = saved;
    }
    const pi = await chromium.open(run.sim.url!, PI);
    await until(pi, 'status online', `document.getElementById('status').dataset.status === 'online'`);
    await run.sim.playEvents(upToCard(5));
    await until(pi, 'the off line', `document.getElementById('analysis').dataset.dd === 'off'`);
    expect(await pi.locator('#dd-msg').innerText()).toMatch(/analysis is off: install libdds0/);
    // The table view itself carries on: the first trick is there.
    await until(pi, 'the first trick', `document.querySelectorAll('#tricks li').length === 1`);
  }, 120_000);
});
