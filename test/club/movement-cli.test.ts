// `tenace movement`: the schedule for people and as JSON, --list, and the usage errors (exit 64) with their fixes.
// A few runs go through the real binary; the rest call the command in-process.
import { afterAll, describe, expect, it } from 'vitest';
import { movementCommand, traysText } from '../../src/cli/movement.js';
import { checkSchedule } from '../../src/club/movements/invariants.js';
import { MOVEMENTS } from '../../src/club/movements/index.js';
import type { Schedule } from '../../src/club/types.js';
import { hasStack, runCli } from '../cli/spawn-cli.js';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await movementCommand(argv, { out: (s) => { out += s; }, err: (s) => { err += s; } });
  return { code, out, err };
}

const disposers: (() => Promise<void>)[] = [];
afterAll(async () => { for (const d of disposers) await d(); });

describe('tenace movement (the binary)', () => {
  it('howell-teams --tables 5: the seed\'s first set, table by table ("e a b c d", "Hands:— 1 to 4 5 to 8 ...")', async () => {
    const r = await runCli(['movement', 'howell-teams', '--tables', '5']);
    disposers.push(r.dispose);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^howell-teams · 5 tables · teams · 4 trays a round · 20 trays · 4 rounds$/m);
    expect(r.out).toMatch(/Round 1\n {2}table {2}N-S {2}E-W {2}trays {2}deals\n {2}1 {6}5NS {2}1EW {2}1-4 {4}1-4\n {2}2 {6}1NS {2}2EW {2}5-8 {4}5-8/);
    expect(r.out).toMatch(/Round 2\n.*\n {2}1 {6}4NS {2}1EW {2}9-12/);
    expect(r.out).toContain('· trays move 2 tables West: those at the middle table (3) go to table 1');
  });

  it('an unknown name: exit 64 with "did you mean", no stack', async () => {
    const r = await runCli(['movement', 'compas', '--tables', '5']);
    disposers.push(r.dispose);
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/^tenace movement: "compas" is not a movement: did you mean compass\?/);
    expect(hasStack(r.err)).toBe(false);
    expect(r.out).toBe('');
  });

  it('a table count the movement refuses: exit 64 with its check() sentence', async () => {
    const r = await runCli(['movement', 'compass', '--tables', '2']);
    disposers.push(r.dispose);
    expect(r.code).toBe(64);
    expect(r.err).toBe(`tenace movement: ${MOVEMENTS.compass.check({ tables: 2 })}\n`);
  });

  it('--json prints the Schedule: movement, tables, rounds [{round, tables [{table, ns, ew, trays}]}]', async () => {
    const r = await runCli(['movement', 'gilman', '--tables', '10', '--json']);
    disposers.push(r.dispose);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out) as Schedule;
    expect(Object.keys(s)).toEqual(['movement', 'tables', 'kind', 'boardsPerRound', 'trays', 'rounds', 'participants']);
    expect(s.rounds[0].tables[5]).toEqual({ table: 6, ns: '6NS', ew: '6EW', trays: [2, 3, 1], original: [true, true, false] });
    expect(s).toEqual(MOVEMENTS.gilman.generate({ tables: 10 }));
  });
});

describe('tenace movement (in-process)', () => {
  it('--list names every movement with its kind and summary', async () => {
    const r = await run(['--list']);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(Object.keys(MOVEMENTS));
    expect(lines[0]).toMatch(/^compass\s+pairs\s+Compass Whist: /);
    const json = JSON.parse((await run(['--list', '--json'])).out) as { name: string }[];
    expect(json.map((m) => m.name)).toEqual(Object.keys(MOVEMENTS));
  });

  it('every movement prints as JSON a sound schedule at a count it accepts', async () => {
    for (const [name, m] of Object.entries(MOVEMENTS)) {
      const tables = Array.from({ length: 12 }, (_, i) => i + 1).find((n) => m.check({ tables: n }) === null);
      if (tables === undefined) continue;
      const r = await run([name, '--tables', String(tables), '--json']);
      expect(r.code, r.err).toBe(0);
      expect(checkSchedule(JSON.parse(r.out))).toEqual([]);
    }
  });

  it('a movement for a fixed number of tables takes it when --tables is left out (four-pairs: 2, six-pairs: 3)', async () => {
    const four = await run(['four-pairs']);
    expect(four.code).toBe(0);
    expect(four.out).toMatch(/^four-pairs · 2 tables/);
    expect(four.out).toMatch(/ {2}2 {6}2NS {2}2EW {2}5-8, 1-4 {2}5-8/);
    expect((await run(['six-pairs'])).out).toMatch(/ {2}3 {6}3NS {2}3EW {2}idle/);
    expect((await run(['four-pairs', '--boards-per-round', '7'])).err).toMatch(/boardsPerRound: 7 cannot be dealt half at each table/);
  });

  it('--option k=v reaches the movement: memory-duplicate form=individuals prints players by seat', async () => {
    const r = await run(['memory-duplicate', '--option', 'form=individuals']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ {2}table {2}N {2}E {2}S {2}W {2}trays {2}deals\n {2}1 {6}c {2}b {2}S {2}a {2}1-4/);
    expect(r.out).toMatch(/· form=individuals/);
  });

  it('usage errors exit 64 with the fix', async () => {
    const cases: [string[], RegExp][] = [
      [['gilman'], /gilman needs --tables N/],
      [['compass', '--tables', 'x'], /--tables "x" is not a whole number from 1/],
      [['compass', '--tables', '5', '--boards-per-round', '0'], /--boards-per-round "0" is not a whole number from 1/],
      [['compass', '--tables', '5', '--option', 'even'], /--option "even" must be k=v/],
      [['compass', '--tables', '5', '--option', 'even=relay'], /option even: "relay" is not a form of compass; the only one is even=skip/],
      [['compass', '--tables', '5', '--option', 'colour=red'], /option colour: compass does not know it/],
      [['compass', 'gilman', '--tables', '5'], /one NAME at a time/],
      [['--list', 'compass'], /--list takes no NAME/],
      [['compass', '--tabels', '5'], /unknown option --tabels: did you mean --tables\?/],
      [[], /^usage: tenace movement NAME/],
      [['nosuchthing', '--tables', '3'], /"nosuchthing" is not a movement \(tenace movement --list/],
    ];
    for (const [argv, re] of cases) {
      const r = await run(argv);
      expect([argv.join(' '), r.code]).toEqual([argv.join(' '), 64]);
      expect(r.err).toMatch(re);
    }
  });

  it('--help prints the usage and exits 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--option k=v/);
  });

  it('trays for people: runs as "1-4", waits as "wait"', () => {
    expect(traysText([5, 6, 7, 8, 1, 2, 3, 4])).toBe('5-8, 1-4');
    expect(traysText([2, 3, 1])).toBe('2, 3, 1');
    expect(traysText([1, null])).toBe('1, wait');
    expect(traysText([null, 4, 5, 6])).toBe('wait, 4-6');
  });
});
