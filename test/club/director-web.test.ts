// The director page in real Chromium (Debian's `chromium` through playwright-core, launched as the table view's
// browser test does): hand-built DirectorSnapshots go through startDirectorWeb, and the page must show the tables ×
// rounds grid, the alerts with their laws newest first, a fouled tray's record with the tray doctor's moves and the
// outcome Dup. V.1 gives ("If more than two tables are in play, the hands must be rectified"), and the standings in
// rank order; a second snapshot then arrives over Server-Sent Events. Screenshots (desktop and phone) go beside the
// table view's. The HTTP side (snapshot.json, the event stream, downloads, paths) is checked without a browser too.
import { request } from 'node:http';
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type DirectorWeb, startDirectorWeb } from '../../src/club/director/web.js';
import { sessionExports } from '../../src/club/exports/index.js';
import { formatDeal, parseDeal } from '../../src/cards/deal.js';
import type { ClubAlert, DirectorSnapshot, Schedule, SessionExport, TrayRecord } from '../../src/club/types.js';
import { SCREENSHOTS, saveScreenshot, useChromium } from '../web/helpers.js';

// ------------------------------------------------------------------------------------------------------------------
// A whist session of three tables, three rounds, two trays a round (a Mitchell: N-S sit, E-W move up).

const SCHEDULE: Schedule = {
  movement: 'mitchell', tables: 3, kind: 'pairs', boardsPerRound: 2, trays: 6,
  participants: ['1NS', '2NS', '3NS', '1EW', '2EW', '3EW'],
  rounds: [1, 2, 3].map((round) => ({
    round,
    tables: [1, 2, 3].map((table) => {
      const set = (table + round - 2) % 3;
      return { table, ns: `${table}NS`, ew: `${((table + round - 2) % 3) + 1}EW`, trays: [set * 2 + 1, set * 2 + 2] };
    }),
  })),
};

const HANDS: Record<number, string> = {
  1: 'N:AKQJ.T98.765.432 T987.AKQ.432.J65 6543.J76.AKQ.T98 2.5432.JT98.AKQ7',
  2: 'N:T98.AKQJ.432.765 AKQ.T987.J65.432 J76.6543.T98.AKQ 5432.2.AKQ7.JT98',
  3: 'N:765.432.AKQJ.T98 432.J65.T987.AKQ AKQ.T98.6543.J76 JT98.AKQ7.2.5432',
  4: 'N:432.765.T98.AKQJ J65.432.AKQ.T987 T98.AKQ.J76.6543 AKQ7.JT98.5432.2',
};

function record(board: number): TrayRecord {
  return {
    schema: 1, type: 'tenace.tray', session: 'tue-1', board, hands: formatDeal(parseDeal(HANDS[board]), 0), dealer: (['N', 'E', 'S', 'W'] as const)[(board - 1) % 4],
    trumpCard: board === 3 ? 'H7' : 'S2', variant: 'whist',
    source: { kind: 'original-play', table: String(((board - 1) >> 1) + 1), fromSeq: 10 * board, toSeq: 10 * board + 56, at: '2026-12-03T19:1' + board + ':00.000Z' }, rev: 1,
  };
}

const WRONG_TRAY: ClubAlert = {
  schema: 1, type: 'tenace.alert', kind: 'wrong-tray', session: 'tue-1', table: '2', board: 3, round: 2, expected: [5, 6],
  message: 'Table 2 scanned board 3, which is not one of its trays this round; no card has been played.', at: '2026-12-03T19:35:00.000Z',
};
const FOULED: ClubAlert = {
  schema: 1, type: 'tenace.alert', kind: 'fouled-tray', session: 'tue-1', table: '1', board: 3, round: 2, law: 'Dup. V.1',
  message: 'Board 3 at table 1 differs from the record: 2 cards are in the wrong pockets.',
  differences: [{ card: 'H7', record: 'N', table: 'E' }, { card: 'C2', record: 'E', table: 'N' }],
  moves: [{ card: 'H7', from: 'E', to: 'N' }, { card: 'C2', from: 'N', to: 'E' }],
  outcome: { remedy: 'rectify-and-average', law: 'Dup. V.1', message: 'Three tables are in play: the hands are rectified and passed on; table 1 takes the average score.' },
  seq: 212, at: '2026-12-03T19:38:00.000Z',
};
// A message with markup in it must be shown as text.
const LATE: ClubAlert = {
  schema: 1, type: 'tenace.alert', kind: 'late-play', session: 'tue-1', table: '3', board: 6, round: 2, law: 'L8',
  message: 'Table 3 is still on <img src=x id=injected> board 6 after the round was called.', at: '2026-12-03T19:44:00.000Z',
};

function progress(done: Record<string, number>): DirectorSnapshot['progress'] {
  return [1, 2, 3].flatMap((table) => [1, 2, 3].map((round) => ({ table, round, played: done[`${table}.${round}`] ?? 0, of: 2 })));
}

const FIRST: DirectorSnapshot = {
  schema: 1, type: 'tenace.director', club: 'Hoyle & Co', session: 'tue-1', variant: 'whist', schedule: SCHEDULE, round: 2,
  tables: [
    { table: '1', status: 'online', round: 2, board: 4, trick: 2, done: [1, 2], lastSeq: 140 },
    { table: '2', status: 'online', round: 2, done: [3, 4], lastSeq: 212 },
    { table: '3', status: 'offline', round: 2, done: [5, 6, 1, 2], lastSeq: 130 },
  ],
  progress: progress({ '1.1': 2, '2.1': 2, '3.1': 2, '1.2': 1, '3.2': 2 }),
  trays: [1, 2, 3, 4, 5, 6].map((board) => ({
    board, record: board <= 4 ? record(board) : undefined, playedAt: board <= 2 ? ['1', '3'] : board <= 4 ? ['2'] : ['3'],
    released: board <= 2, fouled: board === 3 ? FOULED : undefined,
  })),
  alerts: [WRONG_TRAY, FOULED],
  standings: {
    method: 'average', averages: { NS: 14, EW: 12 },
    pairs: [
      { pair: '2EW', direction: 'EW', total: 17, vsAverage: 5, rank: 1 },
      { pair: '1NS', direction: 'NS', total: 16, vsAverage: 2, rank: 2 },
      { pair: '3NS', direction: 'NS', total: 14, vsAverage: 0, rank: 3 },
      { pair: '1EW', direction: 'EW', total: 10, vsAverage: -2, rank: 4 },
    ],
    boards: [],
  },
  at: '2026-12-03T19:40:00.000Z',
};

/** Twenty minutes on: round 3, table 3 back, a late-play alert, 1NS has overtaken 2EW. */
const SECOND: DirectorSnapshot = {
  ...FIRST,
  round: 3,
  tables: FIRST.tables.map((t) => ({ ...t, status: 'online' as const, round: 3, board: undefined, trick: undefined })),
  progress: progress({ '1.1': 2, '2.1': 2, '3.1': 2, '1.2': 2, '2.2': 2, '3.2': 2, '2.3': 1 }),
  alerts: [WRONG_TRAY, FOULED, LATE],
  standings: {
    ...FIRST.standings!,
    pairs: [
      { pair: '1NS', direction: 'NS', total: 24, vsAverage: 4, rank: 1 },
      { pair: '2EW', direction: 'EW', total: 22, vsAverage: 3, rank: 2 },
      { pair: '1EW', direction: 'EW', total: 18, vsAverage: -1, rank: 3 },
      { pair: '3NS', direction: 'NS', total: 17, vsAverage: -3, rank: 4 },
    ],
  },
  at: '2026-12-03T20:00:00.000Z',
};

function sessionOf(s: DirectorSnapshot): SessionExport {
  return {
    club: s.club, session: s.session, date: '2026-12-03', variant: s.variant, schedule: s.schedule,
    records: s.trays.flatMap((t) => (t.record ? [t.record] : [])),
    travellers: [{ board: 1, ns: '1NS', ew: '1EW', table: 1, round: 1, tricks: { NS: 8, EW: 5 } }, { board: 1, ns: '3NS', ew: '3EW', table: 3, round: 2, tricks: { NS: 6, EW: 7 } }],
    report: s.standings!,
  };
}

/** A director for the tests: the latest snapshot, and a way to publish the next to every open page. */
function feed(first: DirectorSnapshot | null) {
  let current = first;
  const listeners = new Set<(s: DirectorSnapshot) => void>();
  return {
    listeners,
    snapshot: () => current,
    subscribe(fn: (s: DirectorSnapshot) => void) { listeners.add(fn); return () => { listeners.delete(fn); }; },
    publish(s: DirectorSnapshot) { current = s; for (const fn of listeners) fn(s); },
  };
}

// ------------------------------------------------------------------------------------------------------------------

describe('director page over HTTP', () => {
  const webs: DirectorWeb[] = [];
  afterAll(async () => { for (const w of webs) await w.close(); });

  it('binds to the given host; serves /snapshot.json, the page with a strict CSP, and 404s the exports it was not given', async () => {
    const f = feed(null);
    const web = await startDirectorWeb({ host: '127.0.0.1', port: 0, snapshot: f.snapshot, subscribe: f.subscribe });
    webs.push(web);
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await (await fetch(`${web.url}snapshot.json`)).json()).toBeNull();
    f.publish(FIRST);
    expect(await (await fetch(`${web.url}snapshot.json`)).json()).toEqual(FIRST);
    const page = await fetch(web.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="app.js">');
    expect((await fetch(`${web.url}export/session.pbn`)).status).toBe(404);
    expect(await (await fetch(`${web.url}info.json`)).json()).toEqual({ exports: false });
    // Nothing outside web/director/ is served, however the path is spelt.
    for (const p of ['%2e%2e/%2e%2e/package.json', '..%2f..%2fpackage.json', '%2e%2e%2fapp.js']) {
      expect([403, 404], p).toContain((await fetch(`${web.url}${p}`)).status);
    }
    expect((await fetch(`${web.url}%E0%A4%A`)).status).toBe(400);
    expect((await fetch(web.url, { method: 'POST' })).status).toBe(405);
  });

  it('refuses a Host it does not know (DNS rebinding would let another site read the hands), and takes IPs, localhost and allowedHosts', async () => {
    const f = feed(FIRST);
    const web = await startDirectorWeb({ host: '127.0.0.1', port: 0, snapshot: f.snapshot, subscribe: f.subscribe, allowedHosts: ['director.club.example'] });
    webs.push(web);
    const port = new URL(web.url).port;
    const status = (host: string) => new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/snapshot.json', headers: { host } }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
      req.on('error', reject);
      req.end();
    });
    expect(await status('evil.example.com')).toBe(403);
    expect(await status(`evil.example.com:${port}`)).toBe(403);
    for (const ok of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'director', 'director.local', 'DIRECTOR.CLUB.EXAMPLE', `192.168.1.20:${port}`]) {
      expect(await status(ok), ok).toBe(200);
    }
  });

  it('/events: the current snapshot at once, then each new one as an SSE "snapshot" event; a closed stream unsubscribes', async () => {
    const f = feed(FIRST);
    const web = await startDirectorWeb({ host: '127.0.0.1', port: 0, snapshot: f.snapshot, subscribe: f.subscribe });
    webs.push(web);
    const ctl = new AbortController();
    const res = await fetch(`${web.url}events`, { signal: ctl.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const got: DirectorSnapshot[] = [];
    let buf = '';
    const next = async (): Promise<DirectorSnapshot> => {
      for (;;) {
        const m = /event: snapshot\ndata: (.*)\n\n/.exec(buf);
        if (m) { buf = buf.slice(m.index + m[0].length); return JSON.parse(m[1]) as DirectorSnapshot; }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buf += new TextDecoder().decode(value);
      }
    };
    got.push(await next());
    expect(f.listeners.size).toBe(1);
    f.publish(SECOND);
    got.push(await next());
    expect(got.map((s) => s.at)).toEqual([FIRST.at, SECOND.at]);
    expect(got[1]).toEqual(SECOND);
    ctl.abort();
    for (let i = 0; i < 100 && f.listeners.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(f.listeners.size).toBe(0);
  });

  it('downloads the exports as attachments named after the session: PBN, USEBIO XML, CSV travellers', async () => {
    const f = feed(FIRST);
    const web = await startDirectorWeb({ host: '127.0.0.1', port: 0, snapshot: f.snapshot, subscribe: f.subscribe, exports: sessionExports(() => sessionOf(f.snapshot()!)) });
    webs.push(web);
    const pbn = await fetch(`${web.url}export/session.pbn`);
    expect(pbn.headers.get('content-disposition')).toBe('attachment; filename="tue-1.pbn"');
    expect(await pbn.text()).toMatch(/^% PBN 2\.1\r\n/);
    const xml = await fetch(`${web.url}export/usebio.xml`);
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await xml.text()).toContain('<USEBIO Version="1.2">');
    const csv = await fetch(`${web.url}export/travellers.csv`);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="tue-1.travellers.csv"');
    expect((await csv.text()).split('\r\n')[0]).toMatch(/^board,round,table,ns,ew,/);
  });
});

describe('director page in Chromium', () => {
  const chromium = useChromium();
  const open = (url: string, options: BrowserContextOptions) => chromium.open(url, options);

  // Predicates are functions, not strings: the page's CSP forbids eval, which a string predicate would need.
  async function until(page: Page, what: string, fn: (arg: string) => boolean, arg = ''): Promise<void> {
    try {
      await page.waitForFunction(fn, arg, { timeout: 10_000 });
    } catch (e) {
      throw new Error(`${what}: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  const texts = (page: Page, sel: string) => page.locator(sel).allInnerTexts();

  /** The grid as the page shows it: table → round → "played/of", and the current round's header. */
  const grid = (page: Page) => page.evaluate(() => {
    const cells: Record<string, string> = {};
    for (const td of document.querySelectorAll<HTMLElement>('#grid tbody td')) {
      const table = (td.parentElement as HTMLElement).dataset.table;
      cells[`${table}.${td.dataset.round}`] = td.querySelector('.count')?.textContent ?? '';
    }
    const status = Object.fromEntries([...document.querySelectorAll<HTMLElement>('#grid tbody tr')].map((tr) => [tr.dataset.table, tr.querySelector<HTMLElement>('th')!.dataset.status]));
    const current = [...document.querySelectorAll('#grid thead th.current')].map((th) => th.textContent);
    const currentCells = [...document.querySelectorAll<HTMLElement>('#grid tbody td.current')].map((td) => td.dataset.round);
    return { cells, status, current, currentCells };
  });

  it('shows the grid with progress, the alerts with their laws newest first, the tray doctor for a fouled tray (Dup. V.1: "the hands must be rectified"), the standings — and a live update over SSE', async () => {
    const f = feed(FIRST);
    const web = await startDirectorWeb({ host: '127.0.0.1', port: 0, snapshot: f.snapshot, subscribe: f.subscribe, exports: sessionExports(() => sessionOf(f.snapshot()!)) });
    chromium.closeAfter(() => web.close());
    const page = await open(web.url, { viewport: { width: 1280, height: 800 } });
    await until(page, 'the first snapshot drawn', (at) => document.body.dataset.at === at, FIRST.at);
    await until(page, 'the event stream open', () => document.getElementById('live')!.dataset.status === 'online');

    expect(await page.locator('#club').innerText()).toBe('Hoyle & Co');
    expect(await page.locator('#round').innerText()).toBe('2');
    const g = await grid(page);
    for (const p of FIRST.progress) expect(g.cells[`${p.table}.${p.round}`], `table ${p.table} round ${p.round}`).toBe(`${p.played}/${p.of}`);
    expect(g.current).toEqual(['Round 2']);
    expect(g.currentCells).toEqual(['2', '2', '2']);
    expect(g.status).toEqual({ 1: 'online', 2: 'online', 3: 'offline' });
    expect(await page.locator('#grid tr[data-table="1"] .now').innerText()).toBe('board 4, trick 2');
    expect(await page.locator('#downloads').isVisible()).toBe(true);

    // Alerts, newest first, each with its law.
    expect(await page.locator('#alerts > li').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.kind))).toEqual(['fouled-tray', 'wrong-tray']);
    const fouled = page.locator('#alerts > li.fouled-tray');
    expect(await fouled.locator('.law').innerText()).toBe('Dup. V.1');
    expect(await fouled.locator('.differences li').allInnerTexts()).toEqual([
      "♥7 is North's in the record, East's at this table", "♣2 is East's in the record, North's at this table",
    ]);
    expect(await page.locator('#alerts > li.wrong-tray .expected').innerText()).toBe('This round table 2 plays boards 5, 6.');

    // The tray doctor: the record's four hands in the compass, the trump card, the source, the moves and the outcome.
    expect(await page.locator('#tray').isHidden()).toBe(true);
    await fouled.locator('button.open-doctor').click();
    await until(page, 'the tray panel', (b) => document.getElementById('tray')!.dataset.board === b, '3');
    const rec = record(3);
    const [n, e, s, w] = rec.hands.slice(2).split(' ');
    for (const [seat, hand] of Object.entries({ N: n, E: e, S: s, W: w })) {
      const lines = await texts(page, `#hand-${seat} .suit-line .ranks`);
      expect(lines.map((l) => l.replace(/ /g, '').replace(/10/g, 'T').replace('—', '')).join('.'), seat).toBe(hand);
    }
    expect(await page.locator('#tray-trump').innerText()).toBe('♥7');
    expect(await page.locator('#tray-dealer').innerText()).toBe('South');
    expect(await page.locator('#tray-source').innerText()).toBe('original play at table 2 (events 30–86, 19:13:00)');
    expect(await texts(page, '#moves li')).toEqual(["Move ♥7 from East's pocket to North's", "Move ♣2 from North's pocket to East's"]);
    expect(await page.locator('#outcome').getAttribute('data-remedy')).toBe('rectify-and-average');
    expect(await page.locator('#outcome .law').innerText()).toBe('Dup. V.1');
    expect(await page.locator('#outcome .outcome-message').innerText()).toContain('table 1 takes the average score');

    // Standings in rank order, with the seed's plus or minus against the average.
    expect(await page.locator('#standings tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.pair))).toEqual(['2EW', '1NS', '3NS', '1EW']);
    expect(await texts(page, '#standings tbody td.extra')).toEqual(['+5', '+2', '0', '-2']);
    expect(await page.locator('#extra-head').innerText()).toBe('vs average');

    // A board of the grid opens its tray: board 1 has a record and no doctor.
    await page.locator('#grid tr[data-table="1"] td[data-round="1"] button.tray-btn[data-board="1"]').click();
    await until(page, 'board 1', (b) => document.getElementById('tray')!.dataset.board === b, '1');
    expect(await page.locator('#doctor').isHidden()).toBe(true);
    expect(await page.locator('#tray-released').innerText()).toBe('yes');
    await page.locator('#alerts > li.fouled-tray button.open-doctor').click();
    await until(page, 'back to board 3', (b) => document.getElementById('tray')!.dataset.board === b, '3');
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await saveScreenshot(page, join(SCREENSHOTS, 'director-desktop.png'))).toMatch(/written|unchanged/);

    // The live update: published by the director, carried by SSE, drawn without a reload.
    const rev = Number(await page.evaluate(() => document.body.dataset.rev));
    f.publish(SECOND);
    await until(page, 'the second snapshot drawn', (at) => document.body.dataset.at === at, SECOND.at);
    expect(Number(await page.evaluate(() => document.body.dataset.rev))).toBe(rev + 1);
    const g2 = await grid(page);
    expect(g2.current).toEqual(['Round 3']);
    expect(g2.cells['2.2']).toBe('2/2');
    expect(g2.cells['2.3']).toBe('1/2');
    expect(g2.status['3']).toBe('online');
    expect(await page.locator('#alerts > li').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.kind))).toEqual(['late-play', 'fouled-tray', 'wrong-tray']);
    expect(await page.locator('#alerts > li.late-play .law').innerText()).toBe('L8');
    // Text from a table is text: the markup in the message is shown, not made into an element.
    expect(await page.locator('#alerts > li.late-play .message').innerText()).toContain('<img src=x id=injected>');
    expect(await page.locator('#injected').count()).toBe(0);
    expect(await page.locator('#standings tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.pair))).toEqual(['1NS', '2EW', '1EW', '3NS']);
    // The tray the director had open stays open.
    expect(await page.locator('#tray').getAttribute('data-board')).toBe('3');

    // At 1280×800 nothing scrolls sideways.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(1280);
  });

  it('fits a phone: no sideways scroll of the page (the grid scrolls in its own box), the tray\'s hands on screen', async () => {
    const f = feed(SECOND);
    const web = await startDirectorWeb({ host: '127.0.0.1', port: 0, snapshot: f.snapshot, subscribe: f.subscribe });
    chromium.closeAfter(() => web.close());
    const page = await open(web.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    await until(page, 'the snapshot drawn', (at) => document.body.dataset.at === at, SECOND.at);
    expect(await page.locator('#downloads').isHidden()).toBe(true);
    await page.locator('#alerts > li.fouled-tray button.open-doctor').click();
    await until(page, 'the tray panel', (b) => document.getElementById('tray')!.dataset.board === b, '3');
    const facts = await page.evaluate(() => ({
      innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,
      hands: [...document.querySelectorAll('#compass .hand')].map((h) => { const r = h.getBoundingClientRect(); return { left: r.left, right: r.right }; }),
      gridBox: document.getElementById('grid-scroll')!.getBoundingClientRect().right,
    }));
    expect(facts.innerWidth).toBe(390);
    expect(facts.scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(390);
    expect(facts.gridBox).toBeLessThanOrEqual(390);
    expect(facts.hands).toHaveLength(4);
    for (const h of facts.hands) {
      expect(h.left).toBeGreaterThanOrEqual(0);
      expect(h.right).toBeLessThanOrEqual(390);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await saveScreenshot(page, join(SCREENSHOTS, 'director-phone.png'))).toMatch(/written|unchanged/);
  });
});
