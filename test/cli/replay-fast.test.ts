// Issue 20, goal 5: `tenace replay FILE --json` by the fast path (replay-fast.ts) says exactly what replay.ts says,
// byte for byte on standard output and standard error, with the same exit code: on every real record in
// ../shared/data and on random deals (src/sim) with injected irregularities, in files with the oddities PBN allows.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/replay.js';
import { replayFastCommand } from '../../src/cli/replay-fast.js';
import { parseContract } from '../../src/cards/contract.js';
import { formatDeal } from '../../src/cards/deal.js';
import { formatCard } from '../../src/cards/card.js';
import { SEATS } from '../../src/cards/seat.js';
import { createRng, type Rng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { dataPath } from '../formats/data.js';

interface Said { code: number; out: string; err: string }

/** replay.ts itself. */
function old(argv: string[]): Said {
  let out = '', err = '';
  const code = replayCommand(argv, { out: (s) => { out += s; }, err: (s) => { err += s; } });
  return { code, out, err };
}

/** The fast path, its bytes and replay.ts's text (when it hands over) gathered in their order. */
async function fast(argv: string[]): Promise<Said & { bytes: number }> {
  const parts: string[] = [];
  let err = '', bytes = 0;
  const code = await replayFastCommand(argv, { out: (s) => { parts.push(s); }, err: (s) => { err += s; } }, (b) => {
    bytes += b.length;
    parts.push(Buffer.from(b).toString('utf8'));
  });
  return { code, out: parts.join(''), err, bytes };
}

const dir = mkdtempSync(join(tmpdir(), 'tenace-replay-fast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const file = (text: string): string => {
  const f = join(dir, `f${files++}.pbn`);
  writeFileSync(f, text);
  return f;
};

/** A random bridge deal as a PBN game, the play in columns from the opening leader; `renounce` injects one. */
function game(rng: Rng, board: number, renounce: boolean): { tags: string[]; rows: string[][] } {
  const d = simulateDeal(rng, { variant: 'bridge', board, ...(renounce ? { renounceAt: { trick: 1 + Math.floor((rng.nextU32() / 0x1_0000_0000) * 12) } } : {}) });
  const c = parseContract(d.contract!);
  if (!c.ok) throw new Error(c.error);
  const { level, strain, declarer, doubled } = c.value;
  const first = d.leader;
  const rows: string[][] = [];
  for (let t = 0; t * 4 < d.plays.length; t++) {
    const row = ['-', '-', '-', '-'];
    for (const p of d.plays.slice(t * 4, t * 4 + 4)) row[(p.seat - first + 4) & 3] = formatCard(p.card);
    rows.push(row);
  }
  const tags = [
    `[Event "random"]`, `[Board "${board}"]`, `[Dealer "${d.dealer}"]`, `[Vulnerable "None"]`,
    `[Deal "${formatDeal(d.hands, 0)}"]`, `[Declarer "${SEATS[declarer]}"]`,
    `[Contract "${level}${strain < 0 ? 'NT' : 'SHDC'[strain]}${['', 'X', 'XX'][doubled]}"]`,
    `[Result "${(rng.nextU32() / 0x1_0000_0000) < 0.5 ? '' : '9'}"]`, `[Play "${SEATS[first]}"]`,
  ];
  return { tags, rows };
}

/** The oddities a game may get: each still PBN that replay.ts reads, or a problem it reports. */
const ODDITIES: ((g: { tags: string[]; rows: string[][] }, rng: Rng) => void)[] = [
  (g) => { g.rows = g.rows.map((r) => r.map((c) => c.toLowerCase())); }, // cards in lower case
  (g) => { g.tags = g.tags.map((t) => t.replace(/^\[Contract "(\d)NT/, '[Contract "$1N')); }, // 3N
  (g, rng) => { // a claim: the play stops, the Result says the rest
    const k = 1 + Math.floor((rng.nextU32() / 0x1_0000_0000) * 11);
    g.rows = [...g.rows.slice(0, k), ['*']];
    g.tags = g.tags.map((t) => t.replace(/^\[Result "[^"]*"\]/, `[Result "${Math.floor((rng.nextU32() / 0x1_0000_0000) * 14)}"]`));
  },
  (g) => { g.tags = g.tags.map((t) => t.replace(/^\[Play "(.)"\]/, (_, s: string) => `[Play "${SEATS[(SEATS.indexOf(s as 'N') + 1) & 3]}"]`)); }, // led out of turn
  (g) => { g.tags.splice(3, 0, '{a comment\n\nacross an empty line}'); },
  (g) => { g.tags.push('[Note "1: a note"]', '; a line comment'); },
  (g) => { g.tags = g.tags.filter((t) => !t.startsWith('[Board ')); }, // no board
  (g) => { g.tags.push('[Board "#"]'); }, // a second Board: a new game in pbn.ts
  (g) => { g.tags.unshift('[Event "##inherited"]'); },
  (g) => { g.tags = g.tags.map((t) => t.replace(/^\[Board "(\d+)"\]/, '[Board "#"]')); }, // inherited board
  (g) => { g.tags.push('[Dealer "#"]'); g.tags.reverse(); }, // may not inherit; tags out of order
  (g) => { g.rows[0][0] = 'S1'; }, // not a card
  (g) => { g.tags.push('[Unclosed "value'); },
  (g) => { g.tags.push('[Scoring \\"IMP\\"]'); g.tags.push('[Site "a \\" quote"]'); },
  (g) => { g.tags = g.tags.map((t) => t.replace(/^\[Deal "(.*)"\]/, '[Deal   "$1"  ]')); },
  (g) => { g.tags = g.tags.map((t) => t.replace(/^\[Contract "[^"]*"\]/, '[Contract "Pass"]')); },
  (g) => { g.tags = g.tags.map((t) => t.replace(/^\[Vulnerable "None"\]/, '[Vulnerable "Both"]')); },
  (g) => { g.tags.push('[Variant "bridge"]'); },
  (g) => { g.tags.unshift('stray tokens'); },
];

/** A file of `n` random games, some with a renounce, some with an oddity, joined by empty lines (CRLF or LF). */
function randomFile(seed: number, n: number, oddity: number): string {
  const rng = createRng(seed);
  const games: string[] = [];
  for (let b = 1; b <= n; b++) {
    const g = game(rng, b, (rng.nextU32() / 0x1_0000_0000) < 0.3);
    if (oddity >= 0 && (rng.nextU32() / 0x1_0000_0000) < 0.25) ODDITIES[oddity](g, rng);
    games.push([...g.tags, ...g.rows.map((r) => r.join(' '))].join('\n'));
  }
  const text = `% PBN 2.1\n\n${games.join('\n\n')}\n`;
  return seed % 2 ? text.replace(/\n/g, '\r\n') : text;
}

async function expectSame(argv: string[]): Promise<Said> {
  const want = old(argv);
  const got = await fast(argv);
  expect({ code: got.code, err: got.err }).toEqual({ code: want.code, err: want.err });
  expect(got.out).toBe(want.out);
  return want;
}

describe('replay --json, fast path against replay.ts (issue 20)', () => {
  const real = readdirSync(dataPath('.')).filter((f) => /\.(pbn|lin)$/.test(f));

  it.each(real)('the real record %s: the same bytes, and the fast path writes them itself', async (f) => {
    const want = await expectSame([dataPath(f), '--json']);
    expect(JSON.parse(want.out).deals.length).toBeGreaterThan(0);
    if (f.endsWith('.pbn')) expect((await fast(['--json', dataPath(f)])).bytes).toBe(Buffer.byteLength(want.out));
  });

  it('a file over 256 KiB, for which the fast path first primes V8 on its own sample: the same bytes, none of the sample\'s', async () => {
    const text = ['camrose2024-ben.pbn', 'tablemonitor-training.pbn'].map((f) => readFileSync(dataPath(f), 'latin1')).join('\n');
    expect(text.length).toBeGreaterThan(1 << 18);
    const f = file(text);
    const want = await expectSame([f, '--json']);
    expect((await fast([f, '--json'])).bytes).toBe(Buffer.byteLength(want.out));
  });

  it('random legal deals and deals with a renounce in error (Hoyle, revoke): the same findings, all by the fast path', async () => {
    const f = file(randomFile(20, 200, -1));
    const want = await expectSame([f, '--json']);
    const deals = JSON.parse(want.out).deals as { findings: { kind: string }[] }[];
    expect(deals.length).toBe(200);
    expect(deals.some((d) => d.findings.some((x) => x.kind === 'revoke'))).toBe(true);
    expect((await fast([f, '--json'])).bytes).toBe(Buffer.byteLength(want.out));
  });

  it.each(ODDITIES.map((_, i) => i))('random deals with oddity %i in some games: the same output, problems and exit code', async (i) => {
    for (const seed of [i * 2 + 1, i * 2 + 2]) await expectSame([file(randomFile(seed, 24, i)), '--json']);
  });

  it('a file that is not PBN, a missing file, other options: replay.ts answers as before', async () => {
    await expectSame([file('{"type":"deal"}\n'), '--json']);
    await expectSame([join(dir, 'missing.pbn'), '--json']);
    await expectSame([file('% PBN\n\n[Event "nothing to replay"]\n'), '--json']);
    const f = file(randomFile(7, 3, -1));
    await expectSame([f]);
    await expectSame([f, '--json', '--variant', 'bridge']);
  });

  it('a file bigger than the read buffer, with a game across the edge: the same bytes', async () => {
    const one = randomFile(40, 300, 4);
    await expectSame([file(one.repeat(12)), '--json']);
  });

  it('board numbers of every width, and the tail of each trick count N-S won: the same bytes', async () => {
    const boards = [9, 10, 99, 100, 999, 1000, 65536, 123456789012];
    let k = 0;
    const text = randomFile(41, 240, -1).replace(/\[Board "\d+"\]/g, () => `[Board "${boards[k++ % boards.length]}"]`);
    const want = await expectSame([file(text), '--json']);
    const deals = JSON.parse(want.out).deals as { board: number; tricksWon: { NS: number } }[];
    expect(new Set(deals.map((d) => d.board))).toEqual(new Set(boards));
    expect(new Set(deals.map((d) => d.tricksWon.NS)).size).toBeGreaterThanOrEqual(8);
  });
});
