// `tenace analyse` on real records (../shared/data) and on Hoyle's whist hand: the par agrees with another program's,
// the tables agree with the play (what a side took = what it could take from the lead, less what its own cards cost,
// plus what the other side's cost), and the PBN output carries the standard tags.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseCommand } from '../../src/cli/analyse.js';
import { DoubleDummy } from '../../src/dd/index.js';
import { parsePbn } from '../../src/formats/pbn.js';
import { dataFile, dataPath } from '../formats/data.js';

const dd = new DoubleDummy();
const tmp = mkdtempSync(join(tmpdir(), 'tenace-analyse-'));
afterAll(() => {
  dd.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const code = await analyseCommand(argv, { out: (s) => { out += s; }, err: (s) => { err += s; } }, dd);
  return { code, out, err };
}

interface CardCost { trick: number; seat: string; card: string; best: number; cost: number }
interface DealJson {
  board: number; variant: string; strain: string; contract?: string; skipped?: string;
  table: Record<string, Record<string, number>>; par?: { score: number };
  fromLead?: { leader: string; NS: number; EW: number }; tricksWon: { NS: number; EW: number };
  plays?: CardCost[]; stopped?: string;
  after?: { won: { NS: number; EW: number }; left: { NS: number; EW: number } };
}

const side = (seat: string) => (seat === 'N' || seat === 'S' ? 'NS' : 'EW');

/**
 * If the tables are right, what a side took (played out) or took and can still take (play stopped at a claim) is
 * what it could take from the lead, less what its own cards cost, plus what the other side's cost.
 */
function checkConsistent(d: DealJson): void {
  expect(d.stopped).toBeUndefined();
  const full = d.plays!.length === 52;
  expect(d.after === undefined).toBe(full);
  for (const s of ['NS', 'EW'] as const) {
    const own = d.plays!.filter((c) => side(c.seat) === s).reduce((n, c) => n + c.cost, 0);
    const theirs = d.plays!.filter((c) => side(c.seat) !== s).reduce((n, c) => n + c.cost, 0);
    const got = full ? d.tricksWon[s] : d.after!.won[s] + d.after!.left[s];
    expect(got, `board ${d.board} ${s}`).toBe(d.fromLead![s] - own + theirs);
  }
  // The opening leader's side could take what the table gives the declarer's opponents.
  expect(d.plays![0].best).toBe(d.fromLead![side(d.plays![0].seat) as 'NS' | 'EW']);
}

describe('tenace analyse', () => {
  it('the par of the first 16 Camrose 2024 deals is the ParScore BridgeComposer wrote in the file', async () => {
    const text = dataFile('camrose2024-ben.pbn');
    // The first 16 games, cut at the blank line before the 17th.
    // The file's header (its % lines), then one game per blank-line-separated block.
    const games = text.split(/\r?\n\r?\n(?=\[)/).slice(1);
    const file = join(tmp, 'camrose16.pbn');
    writeFileSync(file, games.slice(0, 16).join('\n\n'));
    const { code, out } = await run([file, '--json', '--no-play']);
    expect(code).toBe(0);
    const deals = out.trim().split('\n').map((l) => JSON.parse(l) as DealJson);
    const want = [...games.slice(0, 16).join('\n').matchAll(/\[ParScore "(-?\d+)"\]/g)].map((m) => Number(m[1]));
    expect(want).toHaveLength(16);
    expect(deals.map((d) => d.par?.score)).toEqual(want);
  });

  it('Camrose board 1, 3♠ by West making 9: the table gives West 9 in spades and N-S 4', async () => {
    const file = join(tmp, 'camrose1.pbn');
    writeFileSync(file, dataFile('camrose2024-ben.pbn').split(/\r?\n\r?\n(?=\[)/)[1]);
    const { code, out } = await run([file, '--json']);
    expect(code).toBe(0);
    const d = JSON.parse(out) as DealJson;
    expect(d.table.S).toEqual({ N: 4, E: 9, S: 4, W: 9 });
    expect(d.fromLead).toEqual({ leader: 'N', NS: 4, EW: 9 });
    expect(d.tricksWon).toEqual({ NS: 4, EW: 9 });
    checkConsistent(d);
  });

  it('the bridge-bots sample, played to a claim: each deal agrees with its table card by card and at the claim', async () => {
    const { code, out } = await run([dataPath('bridgebots-sample.pbn'), '--json']);
    expect(code).toBe(0);
    const deals = out.trim().split('\n').map((l) => JSON.parse(l) as DealJson);
    expect(deals.map((d) => d.board)).toEqual([10, 1, 14]);
    for (const d of deals) checkConsistent(d);
    // Board 1, 3♦ by East: 10 tricks were there from South's lead; East's ♠6 at trick 4 threw one away.
    const b1 = deals[1];
    expect(b1.table.D.E).toBe(10);
    expect(b1.plays!.filter((c) => c.cost > 0).map((c) => `${c.trick} ${c.seat} ${c.card} ${c.cost}`)).toEqual(['4 E S6 1']);
    // ...and at the claim after 7 tricks (N-S 3, E-W 4) East could take 5 of the 6 left: the claim of 9 was right.
    expect(b1.after).toEqual({ won: { NS: 3, EW: 4 }, left: { NS: 1, EW: 5 } });
    expect(b1.tricksWon.EW).toBe(b1.after!.won.EW + b1.after!.left.EW);
  });

  it('a LIN file: its deal analysed through the LIN reader', async () => {
    const { code, out } = await run([dataPath('bridgebots-sample.lin'), '--json']);
    expect(code).toBe(0);
    const d = JSON.parse(out) as DealJson;
    expect(d.board).toBe(15);
    expect(d.contract).toBe('3NTN');
    expect(d.table.NT.N).toBe(6);
    checkConsistent(d);
  });

  it('a whist table log: Hoyle\'s first illustrative hand, hearts trumps, N-S 11 as played and as the table says', async () => {
    const { code, out } = await run([resolve(import.meta.dirname, '../fixtures/seed-hands/hand1.ndjson'), '--json']);
    expect(code).toBe(0);
    const d = JSON.parse(out) as DealJson;
    expect(d.variant).toBe('duplicate-whist');
    expect(d.strain).toBe('H');
    expect(d.par).toBeUndefined();
    expect(d.tricksWon).toEqual({ NS: 11, EW: 2 });
    checkConsistent(d);
  });

  it('--pbn writes OptimumScore, ParContract and the 20-row OptimumResultTable, and reads back', async () => {
    const { code, out } = await run([dataPath('bridgebots-sample.pbn'), '--pbn', '--no-play']);
    expect(code).toBe(0);
    expect(out.startsWith('% PBN 2.1\r\n% EXPORT\r\n')).toBe(true);
    const games = out.split('\r\n\r\n').slice(1);
    expect(games).toHaveLength(3);
    for (const g of games) {
      const lines = g.split('\r\n');
      const at = lines.indexOf('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]');
      expect(at).toBeGreaterThan(lines.findIndex((l) => l.startsWith('[Play ')));
      expect(lines.slice(at + 1, at + 21).every((l) => /^[NSEW] (NT| S| H| D| C) [ 1]\d$/.test(l))).toBe(true);
      expect(lines.slice(at + 1, at + 6).map((l) => l.slice(0, 4))).toEqual(['N NT', 'N  S', 'N  H', 'N  D', 'N  C']);
    }
    const back = parsePbn(out);
    expect(back.records.map((r) => r.tags.OptimumScore)).toEqual(['EW 140', 'EW 130', 'EW 430']);
    expect(back.records.map((r) => r.tags.ParContract)).toEqual(['EW 3H', 'E 4D', 'EW 4NT']);
    expect(back.records[0].plays.length).toBe(28);
  });

  it('the text names the tricks lost card by card', async () => {
    const { code, out } = await run([dataPath('bridgebots-sample.pbn')]);
    expect(code).toBe(0);
    expect(out).toContain('Board 1 · bridge · 3D by E\ndouble dummy   NT  S  H  D  C\n');
    expect(out).toContain('par: E-W +130, 4D by E (vulnerable: None, dealer N)\n');
    expect(out).toContain('from S\'s lead in D: N-S take 3, E-W 10 with best play; at the table N-S took 4, E-W 9\ntricks lost: trick 4 E S6 (1)\n');
  });
});
