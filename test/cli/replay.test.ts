// `tenace replay`: the DESIGN §5 JSON for a table log, a PBN and a LIN file; human output; PBN export; exit codes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/replay.js';
import { parsePbn } from '../../src/formats/pbn.js';
import { dataPath } from '../formats/data.js';

const root = resolve(import.meta.dirname, '../..');
const data = dataPath;
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
    const { code, out } = run([revokeLog()]);
    expect(code).toBe(0);
    expect(out).toMatch(/Board 3 · duplicate-whist/);
    expect(out).toMatch(/^\s+1\s+N\s+SA\*\s+H8\s+S5\s+S2\s+N$/m);
    expect(out).toMatch(/trick  1  E  renounce-in-error H8  \[Dup\. X\.1\]/);
    expect(out).toMatch(/revoke H8  \[Dup\. X\.1\(a\)\]/);
    expect(out).toMatch(/tricks won: N-S 13, E-W 0/);
  });

  it('--pbn writes our findings as ^R, and the PBN reads back with the revoke marked', () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
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
    const dir = mkdtempSync(join(scratch, 'case-'));
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
    const dir = mkdtempSync(join(scratch, 'case-'));
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

const bin = resolve(root, 'bin/tenace.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'tenace-replay-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A duplicate-whist log: East renounces in error at trick 1 and the revoke is established. */
function revokeLog(): string {
  const file = join(scratch, 'dup-revoke.ndjson');
  writeFileSync(file, [
    '{"type":"deal","board":3,"variant":"duplicate-whist","dealer":"W","hands":"N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432"}',
    '{"type":"place","seat":"W","card":"C2"}', '{"type":"lift","seat":"W","card":"C2"}',
    '{"type":"place","seat":"N","card":"SA"}', '{"type":"place","seat":"E","card":"H8"}',
    '{"type":"place","seat":"S","card":"S5"}', '{"type":"place","seat":"W","card":"S2"}',
    '{"type":"claim","seat":"N","tricks":12}',
  ].join('\n'));
  return file;
}

describe('tenace replay: what issue 11 asked for', () => {
  it('--json carries the -R/+R marks of a pair match (Dup. X.4), which the human output prints', () => {
    const { code, out } = run([revokeLog(), '--json']);
    expect(code).toBe(0);
    const d = JSON.parse(out).deals[0];
    expect(Object.keys(d)).toEqual([...DEAL_KEYS, 'marks']);
    expect(d.marks).toEqual({ EW: '-R', NS: '+R' });
    expect(run([revokeLog()]).out).toMatch(/^marks: EW -R, NS \+R$/m);
  });

  it('the human output names contract, declarer and result, and says "passed out" for a passed board', () => {
    expect(run([data('bridgebots-sample.lin')]).out).toMatch(/^Board 15 · bridge · 3NT by N · 6 tricks, down 3$/m);
    const camrose = run([data('camrose2024-ben.pbn')]).out;
    expect(camrose).toMatch(/^Board 1 · bridge · 3♠ by W · 9 tricks, made$/m);
    expect(camrose).toMatch(/^Board 2 · bridge · 3♠ by W · 10 tricks, made \+1$/m);
    expect(camrose).toMatch(/^Board 99 · bridge · passed out\n\nBoard 100 /m);
  });

  it('a contract event in a table log is shown too', () => {
    const file = join(scratch, 'contract.ndjson');
    writeFileSync(file, [
      '{"type":"deal","board":4,"variant":"bridge","dealer":"N","hands":"N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432"}',
      '{"type":"contract","contract":"7NTN"}',
      '{"type":"place","seat":"E","card":"H8"}', '{"type":"claim","seat":"N","tricks":13}',
    ].join('\n'));
    expect(run([file]).out).toMatch(/^Board 4 · bridge · 7NT by N · 13 tricks, made$/m);
  });

  it('--pbn keeps Event, Site, Date and the players of the source, in one PBN file', () => {
    const out = run([data('bridgebots-sample.pbn'), '--pbn']).out;
    expect(out.match(/% PBN 2\.1/g)).toHaveLength(1);
    const back = parsePbn(out);
    expect(back.records.map((r) => r.board)).toEqual([10, 1, 14]);
    expect(back.records[0].tags).toMatchObject({ Event: 'Cavendish Pairs Day 2', Site: 'Rio Hotel, Las Vegas, USA', Date: '2004.05.05' });
    const lin = parsePbn(run([data('bridgebots-sample.lin'), '--pbn']).out);
    expect(lin.errors).toEqual([]);
    expect(lin.records[0].players).toEqual({ S: 'PrinceBen', W: 'Forrest_', N: 'smalark', E: 'granola357' });
    // LIN's own tags (md, pn, mb...) are not PBN tags and are not copied.
    expect(Object.keys(lin.records[0].tags).filter((t) => /^[a-z]{2}$/.test(t))).toEqual([]);
  });

  it('a passed-out board is exported as Contract "Pass"', () => {
    const out = run([data('camrose2024-ben.pbn'), '--pbn']).out;
    const board99 = parsePbn(out).records.find((r) => r.board === 99);
    expect(board99?.passedOut).toBe(true);
    expect(out).toMatch(/\[Board "99"\][^]*?\[Contract "Pass"\]/);
  });

  it('--json and --pbn together are a usage error', () => {
    const r = run([fixture('hand1.ndjson'), '--json', '--pbn']);
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/--json and --pbn .*choose one/);
    expect(r.out).toBe('');
  });

  it('a mistyped flag gets the nearest one suggested', () => {
    const r = run([fixture('hand1.ndjson'), '--jsno']);
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/^tenace replay: unknown option --jsno: did you mean --json\?$/m);
    expect(run([fixture('hand1.ndjson'), '--varient', 'bridge']).err).toMatch(/did you mean --variant\?/);
  });

  it('--version prints the package version', () => {
    const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
    expect(run(['--version'])).toEqual({ code: 0, out: `tenace ${version}\n`, err: '' });
  });

  it('chooses the format by content: a LIN file named .pbn, a PBN file named .ndjson', () => {
    const lin = join(scratch, 'vugraph.pbn');
    writeFileSync(lin, readFileSync(data('bridgebots-sample.lin')));
    expect(JSON.parse(run([lin, '--json']).out).deals[0].board).toBe(15);
    const pbn = join(scratch, 'hands.ndjson');
    writeFileSync(pbn, readFileSync(data('bridgebots-sample.pbn')));
    expect(JSON.parse(run([pbn, '--json']).out).deals.map((d: { board: number }) => d.board)).toEqual([10, 1, 14]);
  });

  it('- reads standard input', () => {
    const r = spawnSync(process.execPath, [bin, 'replay', '-', '--json'], { input: readFileSync(data('bridgebots-sample.lin')), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).deals[0].board).toBe(15);
  });
});

describe('tenace replay on junk (issue 11: exit 0, binary echoed, empty boards)', () => {
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it('a binary named .pbn: exit 65, one short line, no control bytes, nothing on stdout', () => {
    const elf = Buffer.alloc(120_000);
    for (let i = 0; i < elf.length; i++) elf[i] = (i * 7919) % 251;
    elf.write('\u007fELF', 0, 'latin1');
    const file = join(scratch, 'a.out.pbn');
    writeFileSync(file, elf);
    const r = run([file]);
    expect(r.code).toBe(65);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/not a text file/);
    expect(r.err.length).toBeLessThan(600);
    expect(r.err).not.toMatch(CONTROL);
  });

  it('a PBN cut inside its Deal tag: exit 65, and the cut is named', () => {
    const file = join(scratch, 'cut.pbn');
    writeFileSync(file, '[Event "club night"]\n[Board "7"]\n[Dealer "N"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ T98.JT');
    const r = run([file]);
    expect(r.code).toBe(65);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/cut\.pbn:4: the value of tag Deal has no closing quote/);
    expect(r.err).toMatch(/board 7 has neither a deal nor any card played/);
  });

  it('a text file full of junk: at most 20 problems listed, then how many more', () => {
    const file = join(scratch, 'junk.pbn');
    writeFileSync(file, Array.from({ length: 500 }, (_, i) => `junk\u001b[2J${i}`).join('\n'));
    const r = run([file]);
    expect(r.code).toBe(65);
    const lines = r.err.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(22);
    expect(r.err).toMatch(/more problems not shown/);
    expect(r.err).not.toMatch(CONTROL);
  });
});
