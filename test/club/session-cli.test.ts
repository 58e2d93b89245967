// `tenace session simulate` as a user runs it: the embedded broker (aedes, MQTT 3.1.1), three emulated tables on
// the real table path, the director as its own process on SQLite, and the final standings in the `score` JSON shape.
import { afterEach, describe, expect, it } from 'vitest';
import { type CliRun, startCli } from '../cli/spawn-cli.js';
import { movementByName } from '../../src/club/movements/index.js';
import type { ScoreReport } from '../../src/club/types.js';
import type { SessionCheck } from '../../src/club/session/runner.js';

let run: CliRun | undefined;
afterEach(async () => {
  await run?.dispose();
  run = undefined;
});

describe('tenace session simulate', () => {
  it('plays a compass session on the embedded broker with a fouled tray, a wrong tray and a revoke, and prints the standings', async () => {
    run = startCli(['session', 'simulate', '--tables', '3', '--movement', 'compass', '--boards-per-round', '1', '--speed', 'max', '--exit',
      '--http-port', '0', '--json', '--seed', '5', '--claims', '0', '--faults', 'fouled=1,wrong-tray=1,revokes=1']);
    const code = await run.exited;
    expect(code, run.err()).toBe(0);
    const out = JSON.parse(run.out()) as ScoreReport & { session: SessionCheck };
    // Compass Whist: "each side, N & S and E & W, is then added up in order to find the average".
    expect(out.method).toBe('average');
    expect(out.pairs.map((p) => p.pair).sort()).toEqual(['1EW', '1NS', '2EW', '2NS', '3EW', '3NS']);
    const ns = out.pairs.filter((p) => p.direction === 'NS');
    // To the published two decimals: the fouled tray's table takes the average score for the deal (Dup. V.1, three
    // tables), so totals are fractions, each rounded to 2 places before they are averaged here.
    expect(out.averages!.NS).toBeCloseTo(ns.reduce((n, p) => n + p.total, 0) / ns.length, 2);
    expect(out.boards.flatMap((b) => b.results)).toHaveLength(out.session.plays);
    expect(out.session.verified).toBe(out.session.overplays);
    expect(out.session.fouled.map((f) => f.found)).toEqual([true]);
    expect(out.session.wrongTrays.map((w) => w.alerted)).toEqual([true]);
    expect(out.session.revokes.every((r) => r.found)).toBe(true);
  }, 120_000);

  it('a Howell of six pairs, in which a table plays a tray in two rounds: every scheduled play is a result with its own pairs', async () => {
    run = startCli(['session', 'simulate', '--tables', '3', '--movement', 'howell', '--boards-per-round', '1', '--speed', 'max', '--exit', '--http-port', '0', '--json', '--seed', '3']);
    const code = await run.exited;
    expect(code, run.err()).toBe(0);
    const out = JSON.parse(run.out()) as ScoreReport & { session: SessionCheck };
    const schedule = movementByName('howell')!.generate({ tables: 3, boardsPerRound: 1 });
    const want = schedule.rounds.flatMap((r) => r.tables.flatMap((t) => t.trays.filter((b) => b !== null).map((b) => `${b}@${t.table} ${t.ns}-${t.ew}`))).sort();
    const got = out.boards.flatMap((b) => b.results.map((r) => `${b.board}@${r.table} ${r.ns}-${r.ew}`)).sort();
    expect(got).toEqual(want);
    // Some table plays some tray twice: the case a result keyed by tray and table alone would lose.
    expect(new Set(got.map((g) => g.split(' ')[0])).size).toBeLessThan(got.length);
    expect(out.session.verified).toBe(out.session.overplays);
  }, 120_000);

  it('refuses what it cannot run, naming the fix, with exit 64', async () => {
    for (const [args, msg] of [
      [['--tables', '3', '--movement', 'compas'], /did you mean "compass"/],
      [['--tables', '2', '--movement', 'compass'], /too few for a compass/],
      [['--tables', '3', '--movement', 'compass', '--faults', 'fouled=x'], /--faults: "fouled=x" is not one of/],
      [['--tables', '3', '--movement', 'compass', '--boards-per-round', '1', '--faults', 'fouled=99'], /faults: 99 fouled trays asked for/],
      [['--movement', 'compass'], /--tables must be/],
    ] as const) {
      run = startCli(['session', 'simulate', ...args]);
      expect(await run.exited).toBe(64);
      expect(run.err()).toMatch(msg);
      await run.dispose();
      run = undefined;
    }
  }, 60_000);
});
