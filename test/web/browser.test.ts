// The browser table view in real Chromium (Debian's `chromium`, driven by playwright-core): a whole table is simulated
// in-process (firmware emulator → serial line → the real daemon → the embedded broker → MQTT over WebSocket → the
// page), and the DOM is checked while the deal is being played, on a 1280×900 desktop and on a phone-sized screen.
// The demo is run as `npm start` runs it, and its director view must show the demo's irregularities. Director mode is
// also checked mid-deal with a small hand-made log holding a renounce in error, which only the director may see.
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { DEMO_DEALS } from '../../src/cli/simulate.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { DEMO, type RunningSimulation, SCREENSHOTS, readLog, saveScreenshot, simulate, startDemo, useChromium } from './helpers.js';

// demo/1-bridge-4S.ndjson: 4♠ by South, N-S vulnerable, made with an overtrick (`npx tenace replay` gives the winners).
const BRIDGE = {
  file: join(DEMO, '1-bridge-4S.ndjson'), board: 2, dealer: 'E', lastWinnerCard: 'CJ',
  winners: ['S', 'S', 'S', 'S', 'N', 'N', 'W', 'S', 'S', 'S', 'N', 'S', 'E'], tricksWon: { NS: 11, EW: 2 },
};
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };

/** What the page showed after drawing one snapshot (recorded in the page, see `recorder`). */
interface Render {
  rev: number; seq: string; centre: number; turn: string[]; tricks: number; ns: string; ew: string;
  /** The trick number in the header, and the centre's label under the cards. */
  headerTrick: string; centreLabel: string;
}

// Runs in the page before its own scripts: records the DOM each time app.js finishes drawing a snapshot (it sets
// body[data-rev] last), so the test can check what was shown between its own polls too.
function recorder(): void {
  const w = window as unknown as { __renders: unknown[] };
  w.__renders = [];
  const snap = (): void => {
    const q = (s: string) => [...document.querySelectorAll(s)];
    w.__renders.push({
      rev: Number(document.body.dataset.rev), seq: document.body.dataset.seq ?? '',
      centre: q('#centre .card:not(.last)').length, turn: q('.seat.turn').map((e) => (e as HTMLElement).dataset.seat),
      tricks: q('#tricks li').length, ns: document.getElementById('won-NS')?.textContent ?? '', ew: document.getElementById('won-EW')?.textContent ?? '',
      headerTrick: document.getElementById('trick-no')?.textContent ?? '', centreLabel: document.getElementById('trick-label')?.textContent ?? '',
    });
  };
  const watch = (): void => {
    new MutationObserver(snap).observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ['data-rev'] });
  };
  if (document.documentElement) watch();
  else document.addEventListener('readystatechange', watch, { once: true });
}

const text = (page: Page, sel: string): Promise<string> => page.locator(sel).first().innerText();
const count = (page: Page, sel: string): Promise<number> => page.locator(sel).count();

/** Wait for a condition in the page, with a message naming what was awaited. */
async function until(page: Page, what: string, fn: string, timeout = 10_000): Promise<void> {
  try {
    await page.waitForFunction(fn, undefined, { timeout, polling: 'raf' });
  } catch (e) {
    throw new Error(`${what}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Width facts: the page must not scroll sideways, and every seat must lie inside the screen. */
function layoutFacts(page: Page) {
  return page.evaluate(() => {
    const seats = [...document.querySelectorAll('.seat, #centre')].map((e) => {
      const r = e.getBoundingClientRect();
      return { id: e.id, left: r.left, right: r.right, width: r.width };
    });
    return {
      innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth, bodyScrollWidth: document.body.scrollWidth,
      scale: window.visualViewport?.scale ?? 1, seats,
    };
  });
}

/** The header and the centre name the same trick in every snapshot drawn, mid-deal between tricks included. */
function expectTrickNumbersAgree(renders: Render[]): void {
  const drawn = renders.filter((r) => r.headerTrick !== '–');
  expect(drawn.length).toBeGreaterThan(0);
  for (const r of drawn) {
    expect(/^trick (\d+)\b/.exec(r.centreLabel)?.[1], `rev ${r.rev}: header "Trick ${r.headerTrick}", centre "${r.centreLabel}"`).toBe(r.headerTrick);
  }
  // The case that used to disagree: a trick just won still lies in the centre while the next one is to be led.
  expect(drawn.some((r) => / won by /.test(r.centreLabel) && r.turn.length === 1 && r.tricks < 13)).toBe(true);
}

/** The four cards of the trick, measured against the viewport they are drawn in. */
function centreCards(page: Page) {
  return page.evaluate(() => ({
    vw: window.innerWidth, vh: window.innerHeight,
    cards: [...document.querySelectorAll('#centre .card')].map((e) => {
      const r = e.getBoundingClientRect();
      return { card: (e as HTMLElement).dataset.card, width: r.width, height: r.height, top: r.top, bottom: r.bottom };
    }),
  }));
}

/** The centre cards are big enough to read across the room: each at least 12% of the viewport's height and 6% of its width. */
async function expectBigCentreCards(page: Page): Promise<void> {
  const { vw, vh, cards } = await centreCards(page);
  expect(cards).toHaveLength(4);
  for (const c of cards) {
    expect(c.height / vh, `${c.card} is ${Math.round(c.height)}px tall in a ${vw}×${vh} viewport`).toBeGreaterThanOrEqual(0.12);
    expect(c.width / vw, `${c.card} is ${Math.round(c.width)}px wide in a ${vw}×${vh} viewport`).toBeGreaterThanOrEqual(0.06);
    expect(c.bottom, `${c.card} ends below the screen`).toBeLessThanOrEqual(vh);
  }
}

/** On a desktop the table and the side panel fill the window: no empty half. */
async function expectUsesScreen(page: Page): Promise<void> {
  const f = await page.evaluate(() => {
    const box = (id: string) => document.getElementById(id)!.getBoundingClientRect();
    return { vw: window.innerWidth, vh: window.innerHeight, table: box('table-view'), side: box('side'), scrollHeight: document.documentElement.scrollHeight };
  });
  expect(f.table.width / f.vw, 'the table is narrow').toBeGreaterThanOrEqual(0.6);
  expect(f.table.bottom / f.vh, 'the table stops short of the bottom of the window').toBeGreaterThanOrEqual(0.95);
  expect(f.side.right / f.vw, 'the right of the window is empty').toBeGreaterThanOrEqual(0.97);
  expect(f.scrollHeight, 'the page scrolls').toBeLessThanOrEqual(f.vh);
}

async function expectFitsWidth(page: Page, width: number): Promise<void> {
  const f = await layoutFacts(page);
  expect(f.innerWidth).toBe(width);
  expect(f.scale).toBe(1);
  expect(f.scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(width);
  expect(f.bodyScrollWidth).toBeLessThanOrEqual(width);
  expect(f.seats).toHaveLength(5);
  for (const s of f.seats) {
    expect(s.left, `${s.id} starts off screen`).toBeGreaterThanOrEqual(0);
    expect(s.right, `${s.id} ends off screen`).toBeLessThanOrEqual(width + 0.5);
    expect(s.width, `${s.id} is squeezed`).toBeGreaterThan(60);
  }
}

describe('browser table view in Chromium', () => {
  const chromium = useChromium();
  const open = (url: string, options: BrowserContextOptions) => chromium.open(url, options, recorder);

  function start(run: RunningSimulation): RunningSimulation {
    chromium.closeAfter(() => run.close());
    onTestFailed(() => console.error(`daemon log:\n${run.lines.join('\n')}`));
    return run;
  }

  it('follows the demo\'s bridge deal live on a desktop and on a phone: "4♠ by S", N-S vulnerable, one trick number, big centre cards', async () => {
    // 30 RFID events a second: the 105 events of the deal take about 4 s, long enough to watch the play.
    const run = start(await simulate({ events: readLog(BRIDGE.file), speed: 30, autoplay: false }));
    expect(run.sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await open(run.sim.url!, { viewport: DESKTOP });
    const phone = await open(run.sim.url!, PHONE);

    for (const p of [page, phone]) await until(p, 'status online', `document.getElementById('status').dataset.status === 'online'`);
    expect(await text(page, '#status')).toBe('online');
    expect(await text(page, '#club')).toBe('demo');
    expect(await text(page, '#board')).toBe('–');

    run.sim.begin();
    await until(page, 'the board number', `document.getElementById('board').textContent === '${BRIDGE.board}'`);
    expect(await text(page, '#variant')).toBe('bridge');
    expect(await text(page, '#dealer')).toBe(BRIDGE.dealer);
    for (const p of [page, phone]) {
      // The contract as players write it (the log says "4SS"), and the board's vulnerability, on the board and at the seats.
      await until(p, 'the contract', `!document.getElementById('contract-wrap').hidden`);
      expect(await text(p, '#contract')).toBe('4♠ by S');
      expect(await p.locator('#vul-wrap').isVisible()).toBe(true);
      expect(await text(p, '#vul')).toBe('N-S');
      expect(await p.locator('.seat.vul').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.seat))).toEqual(['N', 'S']);
      expect(await p.locator('#seat-N .vul-badge').isVisible()).toBe(true);
      expect(await p.locator('#seat-E .vul-badge').isVisible()).toBe(false);
    }
    expect(await text(page, '#trump')).toBe('♠');

    // The current trick in the centre, and the seat to play highlighted, while the deal is still being played.
    await until(page, 'a card in the centre', `document.querySelectorAll('#centre .card:not(.last)').length > 0`);
    await until(page, 'a seat to play', `document.querySelectorAll('.seat.turn').length === 1`);
    expect(run.finished(), 'the deal ended before the view showed the play').toBe(false);
    const turnSeat = await page.locator('.seat.turn').getAttribute('data-seat');
    expect(['N', 'E', 'S', 'W']).toContain(turnSeat);
    // The turn moves on while the deal plays: read the badge's own text (CSS upper-cases it only while it shows).
    expect(await page.locator(`#seat-${turnSeat} .turn-badge`).first().textContent()).toMatch(/^to play$/i);

    // The tricks list grows as tricks are won.
    await until(page, 'a first trick', `document.querySelectorAll('#tricks li').length >= 1`);
    const early = await count(page, '#tricks li');
    await until(page, 'more tricks', `document.querySelectorAll('#tricks li').length >= ${early + 3}`);
    expect(run.finished(), 'the deal ended before the tricks list was seen growing').toBe(false);
    expect(Number(await text(page, '#won-NS')) + Number(await text(page, '#won-EW'))).toBeGreaterThanOrEqual(early + 3);
    await expectFitsWidth(phone, 390);

    await run.sim.done;
    for (const p of [page, phone]) {
      await until(p, 'thirteen tricks', `document.querySelectorAll('#tricks li').length === 13 && document.body.dataset.dealStatus === 'ended'`);
      expect(await text(p, '#won-NS')).toBe(String(BRIDGE.tricksWon.NS));
      expect(await text(p, '#won-EW')).toBe(String(BRIDGE.tricksWon.EW));
      expect(await count(p, '.seat.turn')).toBe(0);
      expect(await text(p, '#turn')).toBe('deal over');
      expect(await p.locator('#tricks li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.winner))).toEqual(BRIDGE.winners);
      // Every card was played: 13 per seat, and the last trick stays in the centre with its winner marked.
      for (const s of ['N', 'E', 'S', 'W']) expect(await count(p, `#seat-${s} .played .card`)).toBe(13);
      expect(await count(p, '#centre .card.last')).toBe(4);
      expect(await p.locator('#centre .card.win').getAttribute('data-card')).toBe(BRIDGE.lastWinnerCard);
      expect(await text(p, '#trick-no')).toBe('13');
      expect(await text(p, '#trick-label')).toBe('trick 13 won by East');
      // The public view never shows a hand: no held cards, no director findings.
      expect(await count(p, '.hand .card')).toBe(0);
      expect(await text(p, '#mode')).toBe('public');
    }
    await expectFitsWidth(phone, 390);
    await expectUsesScreen(page);
    await expectBigCentreCards(page);
    // The cards follow the screen: on a larger one they grow, and they stay in proportion.
    const before = (await centreCards(page)).cards[0].height;
    await page.setViewportSize({ width: 1920, height: 1080 });
    expect((await centreCards(page)).cards[0].height).toBeGreaterThan(before * 1.1);
    await expectBigCentreCards(page);
    await expectUsesScreen(page);
    await page.setViewportSize(DESKTOP);

    // What was drawn along the way: snapshot after snapshot, the play advanced one step at a time.
    const renders = await page.evaluate(() => (window as unknown as { __renders: Render[] }).__renders);
    const during = renders.filter((r) => r.tricks < 13);
    expect(during.some((r) => r.centre > 0 && r.turn.length === 1)).toBe(true);
    const trickCounts = [...new Set(renders.map((r) => r.tricks))];
    expect(trickCounts.length, `tricks seen: ${trickCounts.join(',')}`).toBeGreaterThanOrEqual(8);
    for (let i = 1; i < renders.length; i++) expect(renders[i].tricks).toBeGreaterThanOrEqual(renders[i - 1].tricks);
    expect(renders.at(-1)).toMatchObject({ tricks: 13, ns: '11', ew: '2', centre: 0, turn: [] });
    expectTrickNumbersAgree(renders);
    expectTrickNumbersAgree(await phone.evaluate(() => (window as unknown as { __renders: Render[] }).__renders));

    await saveScreenshot(page, join(SCREENSHOTS, 'table-view.png'));
    await saveScreenshot(phone, join(SCREENSHOTS, 'table-view-phone.png'));
  }, 45_000);

  it('npm start: the console links both views, and the director sees the demo\'s renounce, revoke, lead out of turn and fouled tray', async () => {
    const demo = await startDemo(['--speed', 'max', '--serial', 'loopback']);
    onTestFailed(() => console.error(demo.output()));
    let stopped = false;
    try {
      expect(demo.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(demo.directorUrl).toBe(`${demo.publicUrl}?director=1`);
      expect(demo.output()).toContain('playing 212 events from the demo deals in demo/');
      expect(DEMO_DEALS.map((f) => f.slice(DEMO.length + 1))).toEqual(['1-bridge-4S.ndjson', '2-whist-irregularities.ndjson']);
      await demo.waitFor('tenace: all played; last deal: board 3, N-S 9, E-W 4 (after penalties N-S 11, E-W 2)');

      const dir = await open(demo.directorUrl, { viewport: DESKTOP });
      const pub = await open(demo.publicUrl, { viewport: DESKTOP });
      const ended = `document.body.dataset.dealStatus === 'ended' && document.getElementById('board').textContent === '3'`;
      for (const p of [dir, pub]) await until(p, 'the demo\'s last deal, played out', ended);
      const findings = (p: Page) => p.locator('#findings li.finding').evaluateAll((lis) => lis.map((li) => {
        const q = (s: string) => (li.querySelector(s) as HTMLElement | null)?.innerText.trim() ?? '';
        return `${(li as HTMLElement).dataset.kind} ${q('.where').replace(/^· /, '')} ${q('.law')}`;
      }));
      // Dup. X.1: E renounces spades holding SQ SJ; the trick is quitted, so the revoke is established (X.1(a));
      // VIII.1: S leads when it is E's lead; V.1: W's D4 and S's D3 traded places in the tray, found as each is played.
      const all = [
        'renounce-in-error East · trick 2 Dup. X.1',
        'revoke East · trick 2 Dup. X.1(a)',
        'lead-out-of-turn South · trick 5 Dup. VIII.1',
        'card-not-in-hand West · trick 9 Dup. V.1',
        'card-not-in-hand South · trick 9 Dup. V.1',
      ];
      expect(await findings(dir)).toEqual(all);
      expect(await dir.locator('#findings .renounce-in-error .msg').innerText()).toContain('E renounced S with H5 while holding SQ SJ');
      expect(await dir.locator('#findings .card-not-in-hand .msg').first().innerText()).toContain('the tray puts it in S\'s hand');
      // The revoke costs E-W two tricks (Dup. X.4).
      for (const p of [dir, pub]) expect(await text(p, '#scored-wrap')).toBe('after penalties: N-S 11 · E-W 2');
      // The public never sees the renounce alert or a hand; the rest is public once the play has ended.
      expect(await findings(pub)).toEqual(all.slice(1));
      expect(await count(pub, '.hand .card')).toBe(0);
      expect(await pub.locator('body').innerText()).not.toMatch(/renounce|SQ SJ/i);
      await expectUsesScreen(dir);
      await saveScreenshot(dir, join(SCREENSHOTS, 'table-view-director.png'));

      stopped = true;
      expect(await demo.stop(), demo.output()).toBe(0);
    } finally {
      if (!stopped) await demo.stop();
    }
  }, 60_000);

  it('shows a renounce in error to the director only', async () => {
    // Dup. X.1: E renounces spades (he holds ST S9 S8) at trick 1; the renounce becomes a revoke once the trick is
    // quitted; then S leads out of turn, a finding the public may see.
    const hands = 'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432';
    const log = [
      { type: 'deal', board: 7, variant: 'duplicate-whist', dealer: 'W', hands },
      { type: 'place', seat: 'W', card: 'C2' }, { type: 'lift', seat: 'W', card: 'C2' },
      { type: 'place', seat: 'N', card: 'SA' }, { type: 'place', seat: 'E', card: 'H8' },
      { type: 'place', seat: 'S', card: 'S7' }, { type: 'place', seat: 'W', card: 'S4' },
      { type: 'lift', seat: 'N', card: 'SA' }, { type: 'lift', seat: 'E', card: 'H8' },
      { type: 'lift', seat: 'S', card: 'S7' }, { type: 'lift', seat: 'W', card: 'S4' },
      { type: 'place', seat: 'S', card: 'D5' },
    ] as TableEvent[];
    const run = start(await simulate({ events: log, speed: 'max', autoplay: false }));
    const pub = await open(run.sim.url!, { viewport: DESKTOP });
    // The director's view on a phone: the hands still held make it the widest content, and it must still fit.
    const dir = await open(`${run.sim.url}?director=1`, PHONE);
    for (const p of [pub, dir]) await until(p, 'status online', `document.getElementById('status').dataset.status === 'online'`);
    run.sim.begin();
    await run.sim.done;

    await until(dir, 'the director findings', `document.querySelectorAll('#findings li.finding').length === 3`);
    await until(pub, 'the public findings', `document.querySelectorAll('#findings li.finding').length === 1`);
    expect(await text(dir, '#mode')).toMatch(/^director/);
    expect(await dir.locator('#mode-badge').isVisible()).toBe(true);
    expect(await dir.locator('#findings li.finding').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.kind)))
      .toEqual(['renounce-in-error', 'revoke', 'lead-out-of-turn']);
    const renounce = dir.locator('#findings li.finding.renounce-in-error');
    expect(await renounce.locator('.title').innerText()).toBe('Renounce in error');
    expect(await renounce.locator('.where').innerText()).toContain('East · trick 1');
    expect(await renounce.locator('.law').innerText()).toMatch(/^Dup\. X/);
    expect(await renounce.locator('.msg').innerText()).toContain('while holding ST S9 S8');
    // The director sees the hands still held: E has 12 cards left (he played H8).
    expect(await count(dir, '#seat-E .hand .card')).toBe(12);
    expect(await count(dir, '#seat-S .hand .card')).toBe(11);
    await expectFitsWidth(dir, 390);

    // The public sees the lead out of turn, and nothing of the renounce or of any unplayed card.
    expect(await pub.locator('#findings li.finding').getAttribute('data-kind')).toBe('lead-out-of-turn');
    expect(await text(pub, '#mode')).toBe('public');
    expect(await pub.locator('#mode-badge').isVisible()).toBe(false);
    const body = await pub.locator('body').innerText();
    expect(body).not.toMatch(/renounce|revoke/i);
    expect(body).not.toContain('ST S9 S8');
    expect(await count(pub, '.hand .card')).toBe(0);
    // Both follow the same play.
    for (const p of [pub, dir]) {
      expect(await text(p, '#won-NS')).toBe('1');
      expect(await text(p, '#board')).toBe('7');
      expect(await p.locator('#spot-S .card').getAttribute('data-card')).toBe('D5');
    }
    // Whist has no vulnerability: nothing is shown for it.
    expect(await pub.locator('#vul-wrap').isVisible()).toBe(false);
    expect(await count(pub, '.seat.vul')).toBe(0);
  }, 45_000);
});
