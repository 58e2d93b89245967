// The public results (issue 17, "Results people follow and send on"), from a real bridge session: a Mitchell of
// three tables, one of them hand-scored, a fouled board. Afterwards /results/ shows the rankings per direction, each
// board's traveller, hand record and findings, with no login; the static folder (/export/results.tar) unpacks to the
// same page. Screenshots in Chromium at the phone's size and a room screen's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movementByName } from '../../src/club/movements/index.js';
import { planSession } from '../../src/club/session/plan.js';
import { runSession } from '../../src/club/session/runner.js';
import type { PublicResults } from '../../src/club/director/public-results.js';
import { createLogger } from '../../src/config/logger.js';
import { DoubleDummy } from '../../src/dd/solver.js';
import { SCREENSHOTS, saveScreenshot, useChromium } from './helpers.js';

const chromium = useChromium();

describe('the public results page', () => {
  it('after the session: rankings per direction, travellers, hand records and findings, without a login; the static folder is the same page', async () => {
    const schedule = movementByName('mitchell')!.generate({ tables: 3, boardsPerRound: 1 });
    const plan = planSession({ session: `res${process.pid}`, variant: 'bridge', schedule, seed: 4, faults: { fouled: 1, wrongTray: 0, revokes: 0 }, handScored: [3], claims: 1 });
    const dir = mkdtempSync(join(tmpdir(), 'tenace-results-'));
    try {
      await runSession({
        plan, club: `res${process.pid}`, broker: 'mqtt://127.0.0.1:1883', speed: 'max', httpPort: 0, serial: 'loopback', waitMs: 60_000,
        log: createLogger({ log: { level: 'error' } }),
        keepOpen: async (url) => {
          const read = async () => await (await fetch(new URL('results.json', url))).json() as PublicResults;
          // Issue 21: each released board's double-dummy table and par, solved in the background once asked for.
          await expect.poll(async () => (await read()).boards.filter((b) => b.dd).length, { timeout: 30_000, interval: 200 }).toBe(3);
          const pub = await read();
          expect(pub.complete).toBe(true);
          expect(pub.boards.map((b) => b.board)).toEqual([1, 2, 3]);
          // A Mitchell: one field a direction.
          expect(new Set(pub.pairs.map((p) => p.direction))).toEqual(new Set(['NS', 'EW']));
          for (const b of pub.boards) expect(b.hands).toMatch(/^[NESW]:/);
          expect(pub.boards.flatMap((b) => b.findings).some((f) => f.kind === 'fouled-tray' && f.law === 'L87B')).toBe(true);
          expect(pub.boards.flatMap((b) => b.results).filter((r) => r.handScored)).toHaveLength(3);
          // The table and par are DDS's for the board's hands and vulnerability, worked out here on their own.
          const dd = new DoubleDummy();
          try {
            for (const b of pub.boards) {
              const table = await dd.table(b.hands!);
              expect(b.dd!.table, `board ${b.board}`).toEqual(table);
              expect(b.dd!.par, `board ${b.board}`).toEqual(await dd.par(table, (b.vulnerable ?? 'None') as 'None', b.dealer as 'N'));
            }
          } finally {
            dd.close();
          }
          const html = await (await fetch(new URL('results/', url))).text();
          // Each board: the table, NT first, a row per declarer, and the par.
          expect(html.match(/<table class="dd-table">/g)).toHaveLength(3);
          expect(html.match(/<p class="par">Par: /g)).toHaveLength(3);
          const b1 = pub.boards[0];
          const row = (seat: 'N' | 'S' | 'E' | 'W', name: string) => `<tr><td>${name}</td>${(['NT', 'S', 'H', 'D', 'C'] as const).map((st) => `<td>${b1.dd!.table[st][seat]}</td>`).join('')}</tr>`;
          expect(html).toContain(row('N', 'North') + row('S', 'South') + row('E', 'East') + row('W', 'West'));
          expect(html).toMatch(/Final results/);
          expect(html).toMatch(/North-South[\s\S]*East-West/);
          expect(html).not.toMatch(/http-equiv="refresh"/);
          for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['screen', { width: 1280, height: 800 }]] as const) {
            const page = await chromium.open(new URL('results/', url).href, { viewport });
            await expect.poll(() => page.locator('.board').count()).toBe(3);
            await saveScreenshot(page, join(SCREENSHOTS, `results-${name}.png`), { fullPage: false });
          }
          const tar = Buffer.from(await (await fetch(new URL('export/results.tar', url))).arrayBuffer());
          const file = join(dir, 'results.tar');
          writeFileSync(file, tar);
          const listed = execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim().split('\n');
          expect(listed).toEqual([`res${process.pid}-results/index.html`, `res${process.pid}-results/style.css`]);
          execFileSync('tar', ['-xf', file, '-C', dir]);
          const page = readFileSync(join(dir, `res${process.pid}-results`, 'index.html'), 'utf8');
          expect(page).toMatch(/Final results/);
          expect(page).toMatch(/<link rel="stylesheet" href="style.css">/);
          expect(page.match(/<table class="dd-table">/g)).toHaveLength(3);
        },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
