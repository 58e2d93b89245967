// The table terminal in Chromium, on a phone (390x844) and on the Pi's touchscreen (800x480), against a simulated
// bridge table (emulated readers, embedded broker): a wrong PIN refused, the contract entered by taps after the opening
// lead was read, cards played, a claim disputed and the director called, a claim accepted, the result accepted; and
// the read-only table view unable to act. Screenshots: test/web/screenshots/terminal-*.png.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import type { TableEvent } from '../../src/formats/table-log.js';
import { sessionTopics, tableTopics } from '../../src/feed/topics.js';
import { client } from '../feed/broker.js';
import { game } from '../laws/helpers.js';
import { SCREENSHOTS, saveScreenshot, simulate, useChromium } from './helpers.js';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
const PI = { viewport: { width: 800, height: 480 }, hasTouch: true, deviceScaleFactor: 1 };
const PIN = '1357';

// Board 5, dealer North, 4♥ by South: West leads; three tricks, the last won by South.
const log = game({ variant: 'bridge', contract: '4HS', board: 5, dealer: 'N' })
  .trick('W: S2 SA S3 SK').trick('N: D2 D3 DA D4').trick('S: HA H2 H3 H4').holdRest('S').log();
const { contract: _c, ...dealWithoutContract } = log[0] as TableEvent & { contract?: string };
const cards = log.slice(1);

async function until(page: Page, what: string, fn: string, timeout = 10_000): Promise<void> {
  try {
    await page.waitForFunction(fn, undefined, { timeout });
  } catch (e) {
    throw new Error(`${what}: ${(e as Error).message.split('\n')[0]}; the screen says: ${await page.locator('main').innerText().catch(() => '?')}`);
  }
}

const heading = (p: Page) => p.locator('main h2').innerText();
const tap = (p: Page, label: string | RegExp) => p.getByRole('button', { name: label, exact: typeof label === 'string' }).first().click();

async function shot(pages: { phone: Page; pi: Page }, name: string): Promise<void> {
  for (const [p, size] of [[pages.phone, '390x844'], [pages.pi, '800x480']] as const) {
    await saveScreenshot(p, join(SCREENSHOTS, `terminal-${name}-${size}.png`), { fullPage: false });
    // Nothing runs off the screen sideways, and every button is a large target.
    expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name} ${size}: wider than the screen`).toBe(true);
    const small = await p.locator('button:visible').evaluateAll((bs) => bs.filter((b) => b.getBoundingClientRect().height < 48).map((b) => b.textContent));
    expect(small, `${name} ${size}: buttons under 48 px`).toEqual([]);
  }
}

/** Tap through a claim: who claims, how many, yes. */
async function claim(p: Page, seat: string, tricks: number): Promise<void> {
  await tap(p, 'Claim or concede tricks');
  await tap(p, seat);
  await tap(p, String(tricks));
  await tap(p, 'Yes, make the claim');
}

async function enterPin(p: Page, pin: string): Promise<void> {
  for (const d of pin) await tap(p, d);
  await tap(p, 'OK');
}

describe('the table terminal in Chromium', () => {
  const chromium = useChromium();

  it('a bridge deal from the terminal: PIN, contract, play, a claim disputed, a claim accepted, the result accepted', async () => {
    const run = await simulate({ events: [dealWithoutContract as TableEvent, ...cards.slice(0, 1)], speed: 'max', extraConfig: [`terminal: { pin: "${PIN}" }`] });
    chromium.closeAfter(() => run.close());
    onTestFailed(() => console.error(`daemon log:\n${run.lines.join('\n')}`));
    await run.sim.done;
    const url = `${run.sim.url!}terminal/`;
    const phone = await chromium.open(url, PHONE);
    const pi = await chromium.open(url, PI);
    const pages = { phone, pi };

    // A wrong PIN is refused, saying how many tries are left; the right one opens the terminal.
    await until(phone, 'the PIN screen', `document.querySelector('main h2')?.textContent === "Enter this table's PIN"`);
    await enterPin(phone, '2468');
    await until(phone, 'the refusal', `!document.getElementById('message').hidden`);
    expect(await phone.locator('#message').innerText()).toBe('That PIN is wrong. 4 tries left. The PIN is on the director\'s list for this table.');
    await enterPin(pi, '0000');
    await until(pi, 'the refusal', `!document.getElementById('message').hidden`);
    await shot(pages, 'wrong-pin');
    for (const p of [phone, pi]) {
      await enterPin(p, PIN);
      await until(p, 'the contract screen', `document.querySelector('main h2')?.textContent === 'Contract: the level'`);
    }

    // The opening lead was read before the contract: the terminal asks for it, one decision per screen.
    expect(await phone.locator('#facts').innerText()).toBe('Board 5 · N-S vulnerable');
    await tap(phone, '4');
    expect(await heading(phone)).toBe('Contract: 4 of which suit?');
    await tap(phone, 'Back');
    for (const p of [phone, pi]) for (const t of ['4', '♥', 'Not doubled', 'South']) await tap(p, t);
    expect(await heading(phone)).toBe('Is this the contract?');
    expect(await phone.locator('main .big').innerText()).toBe('4♥ by South');
    await shot(pages, 'contract');
    await tap(phone, 'Yes, enter it');
    await until(pi, 'the play screen', `document.querySelector('main h2')?.textContent?.startsWith('Trick 1: North to play')`);
    expect(await pi.locator('#facts').innerText()).toBe('Board 5 · 4♥ by South · N-S vulnerable');
    // West's lead, made before the contract was known, was judged proper once it was: no finding.
    expect(await pi.locator('ul.findings li').count()).toBe(0);
    await pi.getByRole('button', { name: 'Yes, enter it' }).count().then((n) => expect(n).toBe(0));

    // Cards played through the emulated readers: the tricks per side and whose turn.
    await run.sim.playEvents(cards.slice(1, 9));
    for (const p of [phone, pi]) await until(p, 'trick 3', `document.querySelector('main h2')?.textContent === 'Trick 3: West to play'`);
    expect(await phone.locator('.score').innerText()).toMatch(/North-South\s*2\s*East-West\s*0/);
    expect(await phone.locator('.trick').innerText()).toBe('S ♥A');
    await shot(pages, 'play');

    // A misread: South's ♥A is undone at the terminal (the latest read is offered first), then read again.
    await tap(phone, 'Undo a misread card');
    expect(await heading(phone)).toBe('Which card was read wrongly?');
    await tap(phone, /^South: ♥A/);
    expect(await heading(phone)).toBe('Undo this card?');
    await tap(phone, 'Yes, undo it');
    for (const p of [phone, pi]) await until(p, 'trick 3 back to South', `document.querySelector('main h2')?.textContent === 'Trick 3: South to play'`);
    const ace = run.sim.controller.journal.events().find((e) => e.type === 'place' && e.card === 'HA');
    expect(run.sim.controller.journal.events().filter((e) => e.type === 'undo')).toMatchObject([{ target: ace!.seq }]);
    await run.sim.playEvents([{ type: 'lift', seat: 'S', card: 'HA' }, { type: 'place', seat: 'S', card: 'HA' }]);
    for (const p of [phone, pi]) await until(p, 'trick 3 again', `document.querySelector('main h2')?.textContent === 'Trick 3: West to play'`);

    // South claims ten of the eleven left; East-West dispute it and the director is called.
    await tap(phone, 'Claim or concede tricks');
    await tap(phone, 'South');
    expect(await heading(phone)).toBe('South claims how many of the 11 tricks left?');
    await tap(phone, 'Back');
    await claim(phone, 'South', 10);
    for (const p of [phone, pi]) await until(p, 'the claim to answer', `document.querySelector('main h2')?.textContent === 'South claims 10 of the 11 tricks left'`);
    expect(await pi.locator('main .lead').innerText()).toBe('East-West: do you accept the claim?');
    await shot(pages, 'claim');
    await tap(pi, 'Dispute: call the director');
    await until(pi, 'the director called', `document.querySelector('main h2')?.textContent === 'The director has been called'`);
    await until(phone, 'play open again', `document.querySelector('main .note')?.textContent?.includes("West disputed South's claim")`);
    const journal = run.sim.controller.journal.events();
    expect(journal.filter((e) => e.type === 'claim-disputed')).toHaveLength(1);
    await shot(pages, 'claim-disputed');
    await tap(pi, 'Back to the table');

    // The director let the claim be made again; this time East-West accept it: the deal ends with the claimed result.
    await claim(phone, 'South', 10);
    await until(pi, 'the claim to answer', `document.querySelector('main h2')?.textContent === 'South claims 10 of the 11 tricks left'`);
    await tap(pi, 'Accept');
    for (const p of [phone, pi]) await until(p, 'the result', `document.querySelector('main h2')?.textContent === 'Board 5: result'`);
    expect(await phone.locator('main .big').first().innerText()).toBe('4♥ by South: 12 tricks, made with 2 overtricks. N-S +680');
    expect(await phone.locator('.score').innerText()).toMatch(/North-South\s*12\s*East-West\s*1/);
    await shot(pages, 'result');

    // The defenders accept the result; the traveller is not shown until every table has played the board.
    await tap(pi, 'Yes, accept the result');
    for (const p of [phone, pi]) await until(p, 'the result accepted', `document.querySelector('main .note')?.textContent?.startsWith('Accepted by East.')`);
    expect(await phone.locator('main .note').innerText()).toMatch(/The traveller of board 5 is not shown yet/);
    await shot(pages, 'result-accepted');
    const accepted = run.sim.controller.journal.events().filter((e) => e.type === 'result-accepted');
    expect(accepted).toMatchObject([{ seat: 'E', board: 5 }]);

    // Calling the director is always reachable, with a reason picked from a short list.
    await tap(pi, 'Call the director');
    expect(await heading(pi)).toBe('Call the director: why?');
    await tap(pi, 'A card shown by mistake');
    await shot(pages, 'director');
    await tap(pi, 'Yes, call the director');
    await until(pi, 'the director called', `document.querySelector('main h2')?.textContent === 'The director has been called'`);
    expect(run.sim.controller.journal.events().filter((e) => e.type === 'director-call')).toMatchObject([{ reason: 'A card shown by mistake' }]);
  }, 90_000);

  it('the read-only table view cannot act: without the PIN the terminal\'s calls are refused, and the view has no action', async () => {
    const run = await simulate({ events: [dealWithoutContract as TableEvent, ...cards.slice(0, 4)], speed: 'max' });
    chromium.closeAfter(() => run.close());
    await run.sim.done;
    const view = await chromium.open(run.sim.url!, PHONE);
    await until(view, 'the table view', `document.getElementById('status')?.dataset.status === 'online'`);
    expect(await view.locator('button:visible').count()).toBe(0);
    const answers = await view.evaluate(async () => {
      const post = (path: string, body: unknown) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        .then(async (r) => [r.status, ((await r.json()) as { error: string }).error] as const);
      return [
        await post('/terminal/api/command/claim', { transaction: 'v1', seat: 'S', tricks: 9 }),
        await post('/terminal/api/command/set-contract', { transaction: 'v2', contract: '4HS' }),
        await fetch('/', { method: 'POST' }).then((r) => [r.status, ''] as const),
      ];
    });
    expect(answers).toEqual([
      [403, 'Enter the table\'s PIN first: only the players at this table may use its terminal.'],
      [403, 'Enter the table\'s PIN first: only the players at this table may use its terminal.'],
      [405, ''],
    ]);
    expect(run.sim.controller.journal.events().some((e) => e.type === 'claim' || e.type === 'contract')).toBe(false);
  }, 60_000);

  it('a club round: the pairs and names from the director\'s assignment to confirm, and after the last tray where everyone goes', async () => {
    const run = await simulate({ events: [], speed: 'max', session: 's1', extraConfig: [`terminal: { pin: "${PIN}" }`] });
    chromium.closeAfter(() => run.close());
    onTestFailed(() => console.error(`daemon log:\n${run.lines.join('\n')}`));
    await run.sim.done;
    // What the director publishes: the round's assignment (with the players' names) and the session's schedule.
    const director = await client(run.sim.controller.broker!.url, { protocolVersion: 4 });
    const assignment = {
      schema: 1, type: 'tenace.assignment', session: 's1', movement: 'mitchell', round: 1, table: '1', ns: '1NS', ew: '1EW',
      trays: [1, 2], tables: 3, variant: 'duplicate-whist', at: new Date().toISOString(), names: { N: 'Ann Lee', S: 'Bob Lee' },
    };
    const schedule = {
      movement: 'mitchell', tables: 3, kind: 'pairs', boardsPerRound: 2, trays: 6, participants: [],
      rounds: [
        { round: 1, tables: [{ table: 1, ns: '1NS', ew: '1EW', trays: [1, 2] }, { table: 2, ns: '2NS', ew: '2EW', trays: [3, 4] }, { table: 3, ns: '3NS', ew: '3EW', trays: [5, 6] }] },
        { round: 2, tables: [{ table: 1, ns: '1NS', ew: '3EW', trays: [3, 4] }, { table: 2, ns: '2NS', ew: '1EW', trays: [5, 6] }, { table: 3, ns: '3NS', ew: '2EW', trays: [1, 2] }] },
      ],
    };
    await director.publishAsync(tableTopics('demo', '1').assignment, JSON.stringify(assignment), { qos: 1, retain: true });
    await director.publishAsync(sessionTopics('demo', 's1').schedule, JSON.stringify(schedule), { qos: 1, retain: true });
    await director.endAsync();

    const url = `${run.sim.url!}terminal/`;
    const pages = { phone: await chromium.open(url, PHONE), pi: await chromium.open(url, PI) };
    for (const p of [pages.phone, pages.pi]) {
      await until(p, 'the PIN screen', `document.querySelector('main h2')?.textContent === "Enter this table's PIN"`);
      await enterPin(p, PIN);
      await until(p, 'the round screen', `document.querySelector('main h2')?.textContent === 'Round 1 at table 1'`);
    }
    // The director gave only N-S's names: E-W's are left as an optional field.
    expect(await pages.phone.locator('main').innerText()).toMatch(/N-S: pair 1NS\s*North: Ann Lee, South: Bob Lee\s*E-W: pair 1EW\s*names not entered \(optional/);
    await shot(pages, 'round');
    for (const p of [pages.phone, pages.pi]) await tap(p, 'Add or change names (optional)');
    await pages.phone.locator('input[name="E"]').fill('Cy Fox');
    await pages.phone.locator('input[name="W"]').fill('Di Fox');
    await pages.pi.locator('input[name="E"]').fill('Cy Fox');
    await shot(pages, 'names');
    await tap(pages.phone, 'Save the names');
    await tap(pages.pi, 'Back');
    for (const p of [pages.phone, pages.pi]) await until(p, 'the names', `document.querySelector('main')?.innerText.includes('East: Cy Fox, West: Di Fox')`);
    expect(run.sim.controller.journal.events().filter((e) => e.type === 'players')).toMatchObject([{ round: 1, names: { N: 'Ann Lee', E: 'Cy Fox', S: 'Bob Lee', W: 'Di Fox' } }]);
    for (const p of [pages.phone, pages.pi]) {
      await tap(p, 'Yes, we are these pairs');
      await until(p, 'the waiting screen', `document.querySelector('main h2')?.textContent === 'Scan the tray to begin'`);
    }

    // The last tray of the round, claimed in full and accepted: the result says where everyone goes next.
    await run.sim.playEvents([{ type: 'deal', board: 2, variant: 'duplicate-whist', dealer: 'W' }, ...game({ variant: 'duplicate-whist', board: 2 }).turn('H5').trick('N: S2 SA S3 SK').log().slice(1, 3)]);
    await until(pages.phone, 'the play', `document.querySelector('main h2')?.textContent?.startsWith('Trick 1:')`);
    await claim(pages.phone, 'North', 13);
    await until(pages.pi, 'the claim', `document.querySelector('main h2')?.textContent === 'North claims all 13 tricks left'`);
    await tap(pages.pi, 'Accept');
    await until(pages.pi, 'the result', `document.querySelector('main h2')?.textContent === 'Board 2: result'`);
    // Am. 27 at the tray's first play: the cards not played are passed over the readers, for the tray's record.
    for (const p of [pages.phone, pages.pi]) await until(p, 'the cards to pass', `document.querySelector('main .show-cards')?.innerText.includes('North: 13')`);
    expect(await pages.phone.locator('main .show-cards').innerText()).toMatch(/each player passes the cards still in hand over the reader/);
    expect(await pages.phone.locator('main .to-pass li').allInnerTexts()).toEqual(['North: 13', 'East: 13', 'South: 13', 'West: 13']);
    await shot(pages, 'pass-cards');
    await tap(pages.pi, 'Yes, accept the result');
    for (const p of [pages.phone, pages.pi]) await until(p, 'the next round', `[...document.querySelectorAll('main .big')].some((e) => e.textContent.startsWith('Next round'))`);
    expect(await pages.phone.locator('main .big').last().innerText()).toBe('Next round (2): N-S stay, E-W to table 2, trays to table 3');
    expect(await pages.phone.locator('main .note').innerText()).toMatch(/^Accepted by East\./);
    await shot(pages, 'next-round');
  }, 90_000);
});
