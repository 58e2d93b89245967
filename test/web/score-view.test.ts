// The score line of the table view in real Chromium (issue 9): a short English whist log (seven deals, honours called
// after each) is played through the simulator (emulated bridge → daemon → embedded broker → MQTT over WebSocket → the
// page), and the page must show what a person keeping markers would write. A duplicate whist deal shows no score.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import { replayWithFacts } from '../../src/laws/engine.js';
import { scoreOf } from '../../src/laws/score/index.js';
import { ROOT, SCREENSHOTS, readLog, saveScreenshot, simulate, useChromium } from './helpers.js';

const ENGLISH = join(ROOT, 'test', 'fixtures', 'score', 'english-whist.ndjson');

/**
 * The log as a real table plays it: before each new deal the players gather the cards left face up on their readers
 * (the fixture, written for replay, never lifts them, and a tag still lying on a reader cannot be placed again).
 */
function gathered(events: readonly TableEvent[]): TableEvent[] {
  const out: TableEvent[] = [];
  const lying = new Map<string, string>();
  for (const ev of events) {
    if (ev.type === 'deal' && lying.size > 0) {
      for (const [card, seat] of lying) out.push({ type: 'lift', seat, card } as TableEvent);
      lying.clear();
    }
    if (ev.type === 'place' && ev.card) lying.set(ev.card, ev.seat);
    if (ev.type === 'lift' && ev.card) lying.delete(ev.card);
    out.push(ev);
  }
  return out;
}

const text = (page: Page, sel: string): Promise<string> => page.locator(sel).first().innerText();

async function until(page: Page, what: string, fn: string, timeout = 20_000): Promise<void> {
  try {
    await page.waitForFunction(fn, undefined, { timeout, polling: 'raf' });
  } catch (e) {
    throw new Error(`${what}: ${(e as Error).message.split('\n')[0]}`);
  }
}

describe('table view: the score of English whist', () => {
  const chromium = useChromium();

  async function open(url: string): Promise<Page> {
    const page = await chromium.open(url, { viewport: { width: 1280, height: 900 } });
    await until(page, 'status online', `document.getElementById('status').dataset.status === 'online'`);
    return page;
  }

  it('shows points, games, the rubber and the honours called, as markers would (Eng. 1, 4, 5, 7, 8, 9, 10)', async () => {
    const events = gathered(readLog(ENGLISH));
    // Gathering the cards after a deal changes nothing in its score.
    const replayed = (evs: readonly TableEvent[]) => { const r = replayWithFacts(evs); return scoreOf(r.deals, r.facts); };
    expect(replayed(events)).toEqual(replayed(readLog(ENGLISH)));
    const run = await simulate({ events, speed: 'max', autoplay: false });
    chromium.closeAfter(() => run.close());
    onTestFailed(() => console.error(`daemon log:\n${run.lines.join('\n')}`));
    const pub = await open(run.sim.url!);
    const dir = await open(`${run.sim.url}?director=1`);
    run.sim.begin();
    await until(pub, 'the first deal', `document.getElementById('board').textContent === '1'`);
    // English whist is a social game: the score box is there from the first deal, at love all.
    await until(pub, 'the score box', `!document.getElementById('game-score').hidden`);
    await run.sim.done;
    await until(pub, 'the last deal scored', `/board 7/.test(document.getElementById('gs-honours').textContent)`);

    expect(await text(pub, '#game-name')).toBe('English whist, game of 5');
    // Deal 7 (after the rubber): E-W one by tricks; N-S hold three honours and called: 2 (Eng. 3, 7). Points 2-1.
    expect(await text(pub, '#gs-points-NS')).toBe('2');
    expect(await text(pub, '#gs-points-EW')).toBe('1');
    // The rubber in play has no game yet: the first rubber ended on board 6.
    expect(await text(pub, '#gs-games-NS')).toBe('0');
    expect(await text(pub, '#gs-games-EW')).toBe('0');
    // Rubber 1: N-S won games of 2 (board 3, E-W at 1: a double, Eng. 8) and 3 (board 6, E-W at love: a treble),
    // E-W one of 3 (board 5): 2 + 3 + 2 rubber points (Eng. 9) − 3 for the losers' game (Eng. 10) = 4.
    expect(await text(pub, '#gs-totals-NS')).toBe('4');
    expect(await text(pub, '#gs-totals-EW')).toBe('0');
    expect(await text(pub, '#gs-rubber')).toBe("Rubber 1 to N-S, worth 4 (less 3 for the losers' game)");
    expect(await text(pub, '#gs-honours')).toBe('Honours, board 7: called by N-S; counted N-S 2 (held 3–1)');
    // North called four honours on board 7 where N-S held three: the public hears the call was false, never the cards.
    const publicFinding = await text(pub, '#gs-findings li');
    expect(publicFinding).toMatch(/^Board 7: N's honours call is not borne out by the cards \(Eng\. 7\)/);
    expect(publicFinding).not.toMatch(/\bH[AKQJ]\b/);
    // The director sees the verdict and the cards that prove it.
    await until(dir, 'the director score', `/board 7/.test(document.getElementById('gs-honours').textContent)`);
    expect(await text(dir, '#gs-findings li.false')).toBe('Board 7: North called 4 — false: N called 4 honours, but NS held 3 (HA HK HQ)');
    expect(await text(dir, '#gs-totals-NS')).toBe('4');
    await saveScreenshot(pub, join(SCREENSHOTS, 'table-score.png'));
  }, 120_000);

  it('shows no score for duplicate whist, whose score is the club\'s', async () => {
    const hands = 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765';
    const log = [
      { type: 'deal', board: 3, variant: 'duplicate-whist', dealer: 'W', hands },
      { type: 'place', seat: 'W', card: 'C5' }, { type: 'lift', seat: 'W', card: 'C5' },
      { type: 'place', seat: 'N', card: 'SA' },
    ] as TableEvent[];
    const run = await simulate({ events: log, speed: 'max', autoplay: false });
    chromium.closeAfter(() => run.close());
    const pub = await open(run.sim.url!);
    run.sim.begin();
    await run.sim.done;
    await until(pub, 'the board number', `document.getElementById('board').textContent === '3'`);
    await until(pub, 'the card played', `document.querySelectorAll('#centre .card').length === 1`);
    expect(await pub.locator('#game-score').isVisible()).toBe(false);
    expect(await pub.locator('#game-score').getAttribute('data-game')).toBe('none');
  }, 60_000);
});
