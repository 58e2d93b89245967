// `tenace session simulate` of Memory Duplicate: the overplay is played with the trays turned a quarter ("If the
// indicators pointed N & S on the original deals, they must lie E & W for the overplay"), each hand at the seat where
// its pocket lies, through the real table path: every overplay is checked against the record and nothing is found
// but the faults the plan put there.
import { afterEach, describe, expect, it } from 'vitest';
import { type CliRun, startCli } from '../cli/spawn-cli.js';
import type { ScoreReport } from '../../src/club/types.js';
import type { SessionCheck } from '../../src/club/session/runner.js';

let run: CliRun | undefined;
afterEach(async () => {
  await run?.dispose();
  run = undefined;
});

describe('tenace session simulate --movement memory-duplicate', () => {
  it('Memory Duplicate, "the trays are reversed" for the overplay and "one suit being declared trumps for the entire sitting": every overplay verified against its record, only the planted revoke found, each pair scored on both sides of every deal', async () => {
    run = startCli(['session', 'simulate', '--tables', '1', '--movement', 'memory-duplicate', '--boards-per-round', '3', '--speed', 'max', '--exit',
      '--http-port', '0', '--json', '--seed', '7', '--faults', 'revokes=1', '--trump', 'H']);
    const code = await run.exited;
    expect(code, run.err()).toBe(0);
    const out = JSON.parse(run.out()) as ScoreReport & { session: SessionCheck };
    expect(out.session.overplays).toBe(3);
    expect(out.session.verified).toBe(3);
    expect(out.session.revokes.map((r) => r.found)).toEqual([true]);
    // No fouled-tray alert: a hand checked against the wrong pocket would raise one at its first card.
    expect(out.session.alerts.filter((a) => a.kind === 'fouled-tray')).toEqual([]);
    // Each deal twice: once with 1NS holding the hands dealt N & S, once (overplay) with 1EW holding them.
    for (const b of out.boards) expect(b.results.map((r) => `${r.ns}-${r.ew}`).sort()).toEqual(['1EW-1NS', '1NS-1EW']);
  }, 120_000);
});
