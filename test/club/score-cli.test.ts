// `tenace score` as a user runs it: the seed's Compass game and club match from files, JSON and text, stdin, and the
// exit codes (64 usage, 65 bad input with the line and field, 66 missing file).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasStack, runCli } from '../cli/spawn-cli.js';

const fixture = (f: string) => resolve(import.meta.dirname, '../fixtures/club', f);
const BIN = resolve(import.meta.dirname, '../../bin/tenace.mjs');

async function score(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await runCli(['score', ...args]);
  await r.dispose();
  return r;
}

/** Run `tenace score -` with `input` on stdin. */
function scoreStdin(args: string[], input: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'score', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => { out += s; });
    child.stderr.setEncoding('utf8').on('data', (s: string) => { err += s; });
    child.once('close', (code) => done({ code: code ?? -1, out, err }));
    child.stdin.end(input);
  });
}

describe('tenace score', () => {
  it('--json on the seed\'s Compass game: the ScoreReport with averages 207 and 183, pair f first', async () => {
    const { code, out, err } = await score([fixture('compass-seed.ndjson'), '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(Object.keys(r)).toEqual(['method', 'averages', 'pairs', 'boards']);
    expect(r.method).toBe('average');
    expect(r.averages).toEqual({ NS: 207, EW: 183 });
    expect(r.pairs[0]).toEqual({ pair: 'f', direction: 'EW', total: 189, vsAverage: 6, rank: 1, rankLabel: '1' });
    expect(r.pairs.find((p: { pair: string }) => p.pair === 'a')).toMatchObject({ total: 201, vsAverage: -6, rank: 10 });
    expect(r.boards).toHaveLength(30);
    expect(r.boards[0].results[0]).toEqual({ table: 1, ns: 'a', ew: 'f', tricks: { NS: 7, EW: 6 } });
  });

  it('the text is a standings table people read: the averages, ranks with ties, plus and minus as the seed prints them', async () => {
    const { code, out } = await score([fixture('compass-seed.ndjson')]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Average: N-S 207, E-W 183$/m);
    expect(out).toMatch(/^\s+1\s+f\s+E-W\s+189\s+\+6$/m);
    expect(out).toMatch(/^\s+5=\s+d\s+N-S\s+207\s+=$/m);
    expect(out).toMatch(/^\s+10\s+a\s+N-S\s+201\s+-6$/m);
    expect(out).toMatch(/Best N-S: e \(\+5\) · best E-W: f \(\+6\)/);
  });

  it('--method matches on the club match: "X ... the winners of the match by two tricks"', async () => {
    const { code, out } = await score([fixture('club-match.ndjson'), '--method', 'matches']);
    expect(code).toBe(0);
    expect(out).toMatch(/O v X: X by 2 tricks \(table 1: O \+1; table 2: X \+3\)/);
    expect(out).toMatch(/^\s+1\s+X\s+1\s+\+2$/m);
  });

  it('a revoke in a pair match is adjusted by Dup. X.4 and the text says so', async () => {
    const { code, out } = await score([fixture('revoke.ndjson')]);
    expect(code).toBe(0);
    expect(out).toMatch(/board 5, a v f at table 1: Dup\. X\.4: N-S 8, not 9: held to the other tables' maximum 8/);
  });

  it('a PBN file with whist results in a ScoreTable', async () => {
    const { code, out } = await score([fixture('whist-scoretable.pbn'), '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(r.boards.map((b: { results: unknown[] }) => b.results.length)).toEqual([3, 3]);
    expect(r.pairs[0]).toMatchObject({ pair: 'b', total: 15 });
  });

  it('bridge text: matchpoints with their %, IMPs (cross-imps, butler) without an empty % column', async () => {
    const mp = await score([fixture('bridge-results.pbn')]);
    expect(mp.code, mp.err).toBe(0);
    expect(mp.out).toMatch(/^rank {2}pair {2}side {2}total {4}%$/m);
    for (const method of ['cross-imps', 'butler']) {
      const r = await score([fixture('bridge-results.pbn'), '--method', method]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^rank {2}pair {2}side {2}IMPs$/m);
      expect(r.out).not.toMatch(/%/);
      // Every line of the table ends with its number, not with white space left for a column with nothing in it.
      for (const line of r.out.split('\n').filter((l) => /^ +\d/.test(l))) expect(line).toMatch(/-?\d+(\.\d+)?$/);
    }
  });

  it('- reads stdin', async () => {
    const { code, out } = await scoreStdin(['-', '--json'], '{"board":1,"ns":"a","ew":"f","tricks":{"NS":8,"EW":5}}\n{"board":1,"ns":"b","ew":"g","tricks":{"NS":6,"EW":7}}\n');
    expect(code).toBe(0);
    expect(JSON.parse(out).averages).toEqual({ NS: 7, EW: 6 });
  });

  it('exit 65 for bad input: every bad line with its number, the field and the fix, and no stack', async () => {
    const { code, out, err } = await score([fixture('bad.ndjson')]);
    expect(code).toBe(65);
    expect(out).toBe('');
    expect(err).toMatch(/bad\.ndjson:3: tricks: N-S 7 and E-W 5 make 12; a deal has 13 tricks/);
    expect(err).toMatch(/bad\.ndjson:5: "trick" is not a traveller field: did you mean "tricks"\?/);
    expect(err).toMatch(/bad\.ndjson:7: board 1, a v f is already on line 1/);
    expect(hasStack(err)).toBe(false);
  });

  it('exit 65 with the line for a problem only scoring sees (an average with no other table)', async () => {
    const { code, err } = await scoreStdin(['-'], '{"board":1,"ns":"a","ew":"f","tricks":{"NS":8,"EW":5}}\n{"board":2,"ns":"b","ew":"g","adjusted":"average"}\n');
    expect(code).toBe(65);
    expect(err).toMatch(/^stdin:2: adjusted: board 2, b v g takes "the average score for the deal", but no other table played board 2/m);
  });

  it('exit 65 for a bridge method on whist travellers, and for an empty file', async () => {
    const a = await score([fixture('club-match.ndjson'), '--method', 'butler']);
    expect(a.code).toBe(65);
    expect(a.err).toMatch(/method: "butler" scores bridge contracts/);
    const b = await scoreStdin(['-'], '\n# nothing\n');
    expect(b.code).toBe(65);
    expect(b.err).toMatch(/holds no result/);
  });

  it('exit 66 for a missing file', async () => {
    const missing = await score(['/nonexistent/travellers.ndjson']);
    expect(missing.code).toBe(66);
    expect(missing.err).toMatch(/cannot read \/nonexistent\/travellers\.ndjson: no such file/);
  });

  it('exit 64 for bad usage: no file, two files, an unknown method, a mistyped option', async () => {
    expect((await score([])).code).toBe(64);
    const bad = await score([fixture('club-match.ndjson'), '--method', 'avg']);
    expect(bad.code).toBe(64);
    expect(bad.err).toMatch(/--method "avg" is unknown: use one of average, matches, individuals, matchpoints, cross-imps, butler/);
    expect((await score([fixture('club-match.ndjson'), '--jsno'])).err).toMatch(/did you mean --json\?/);
    expect((await score(['a.ndjson', 'b.ndjson'])).code).toBe(64);
  });
});
