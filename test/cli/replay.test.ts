// `tenace replay`: the DESIGN §5 JSON for a table log, a PBN and a LIN file; human output; PBN export; exit codes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/replay.js';
import { parsePbn } from '../../src/formats/pbn.js';

const root = resolve(import.meta.dirname, '../..');
const data = (f: string) => resolve(root, '../shared/data', f);
const fixture = (f: string) => resolve(root, 'test/fixtures/seed-hands', f);

function run(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = replayCommand(argv, { out: (s) => { out += s; }, err: (s) => { err += s; } });
  return { code, out, err };
}

const DEAL_KEYS = ['board', 'variant', 'tricks', 'tricksWon', 'findings', 'scored'];

describe('tenace replay', () => {
  it('--json prints exactly the DESIGN §5 shape for a table log (Hoyle No. 1: N-S 11, E-W 2)', () => {
    const { code, out } = run([fixture('hand1.ndjson'), '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(Object.keys(r)).toEqual(['deals']);
    expect(Object.keys(r.deals[0])).toEqual(DEAL_KEYS);
    expect(r.deals[0].tricks[0]).toEqual({ leader: 'N', cards: { N: 'CK', E: 'C5', S: 'C7', W: 'C3' }, winner: 'N' });
    expect(r.deals[0].tricksWon).toEqual({ NS: 11, EW: 2 });
    expect(r.deals[0].findings).toEqual([]);
  });

  it('--json for a PBN file: every played board\'s tricks add up to 13', () => {
    const { code, out } = run([data('bridgebots-sample.pbn'), '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(r.deals.map((d: { board: number }) => d.board)).toEqual([10, 1, 14]);
    for (const d of r.deals) expect(d.tricksWon.NS + d.tricksWon.EW).toBe(13);
    expect(Object.keys(r.deals[0])).toEqual(DEAL_KEYS);
  });

  it('--json for a LIN file: board 15 in 3NT, East leads the H4', () => {
    const { code, out } = run([data('bridgebots-sample.lin'), '--json']);
    expect(code).toBe(0);
    const d = JSON.parse(out).deals[0];
    expect(d.board).toBe(15);
    expect(d.variant).toBe('bridge');
    expect(d.tricks[0]).toEqual({ leader: 'E', cards: { E: 'H4', S: 'H2', W: 'HJ', N: 'HA' }, winner: 'N' });
    expect(d.tricks).toHaveLength(13);
  });

  it('the human output is a trick-by-trick table plus the findings with their law citations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenace-'));
    const file = join(dir, 'revoke.ndjson');
    writeFileSync(file, [
      '{"type":"deal","board":3,"variant":"duplicate-whist","dealer":"W","hands":"N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432"}',
      '{"type":"place","seat":"W","card":"C2"}', '{"type":"lift","seat":"W","card":"C2"}',
      '{"type":"place","seat":"N","card":"SA"}', '{"type":"place","seat":"E","card":"H8"}',
      '{"type":"place","seat":"S","card":"S5"}', '{"type":"place","seat":"W","card":"S2"}',
      '{"type":"claim","seat":"N","tricks":12}',
    ].join('\n'));
    const { code, out } = run([file]);
    expect(code).toBe(0);
    expect(out).toMatch(/Board 3 · duplicate-whist/);
    expect(out).toMatch(/^\s+1\s+N\s+SA\*\s+H8\s+S5\s+S2\s+N$/m);
    expect(out).toMatch(/trick  1  E  renounce-in-error H8  \[Dup\. X\.1\]/);
    expect(out).toMatch(/revoke H8  \[Dup\. X\.1\(a\)\]/);
    expect(out).toMatch(/tricks won: N-S 13, E-W 0/);
  });

  it('--pbn writes our findings as ^R, and the PBN reads back with the revoke marked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenace-'));
    const file = join(dir, 'revoke.ndjson');
    const tricks = [['N', 'SA'], ['E', 'H8'], ['S', 'S5'], ['W', 'S2']];
    writeFileSync(file, [
      '{"type":"deal","board":3,"variant":"bridge","dealer":"W","contract":"3NTW","hands":"N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432"}',
      ...tricks.map(([s, c]) => JSON.stringify({ type: 'place', seat: s, card: c })),
      '{"type":"place","seat":"N","card":"SK"}', '{"type":"place","seat":"E","card":"S8"}',
    ].join('\n'));
    const { code, out } = run([file, '--pbn']);
    expect(code).toBe(0);
    const back = parsePbn(out);
    expect(back.errors).toEqual([]);
    expect(back.records[0].contract).toBe('3NTW');
    expect(back.records[0].irregularities).toEqual([{ trick: 1, seat: 'E', marker: 'R' }]);
  });

  it('bad lines are named with their line number and the rest still replays; exit 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenace-'));
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, '{"type":"deal","variant":"whist"}\n{"type":"place","seat":"Q","card":"SA"}\nnot json\n{"type":"place","seat":"N","card":"SA"}\n');
    const { code, err, out } = run([file, '--json']);
    expect(code).toBe(0);
    expect(err).toMatch(/bad\.ndjson:2: "seat" must be one of N, E, S, W/);
    expect(err).toMatch(/bad\.ndjson:3: not valid JSON/);
    expect(JSON.parse(out).deals).toHaveLength(1);
  });

  it('exit codes: non-zero only for unreadable input — 66 missing file, 65 nothing to replay, 64 usage', () => {
    expect(run(['/nonexistent/x.ndjson']).code).toBe(66);
    const dir = mkdtempSync(join(tmpdir(), 'tenace-'));
    writeFileSync(join(dir, 'empty.pbn'), 'garbage\n');
    expect(run([join(dir, 'empty.pbn')]).code).toBe(65);
    expect(run([]).code).toBe(64);
    expect(run([fixture('hand1.ndjson'), '--variant', 'poker']).code).toBe(64);
  });

  it('the installed bin runs: npx tenace replay prints JSON and exits 0', () => {
    const out = execFileSync(process.execPath, [resolve(root, 'bin/tenace.mjs'), 'replay', fixture('hand2.ndjson'), '--json'], { encoding: 'utf8' });
    expect(JSON.parse(out).deals[0].tricksWon).toEqual({ NS: 12, EW: 1 });
    const bad = spawnSync(process.execPath, [resolve(root, 'bin/tenace.mjs'), 'nonsense'], { encoding: 'utf8' });
    expect(bad.status).toBe(64);
    expect(bad.stderr).toMatch(/unknown command "nonsense"/);
  });
});
