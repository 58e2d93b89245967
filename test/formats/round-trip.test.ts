// Every file we write reads back (issue 19): a deal replayed to PBN (`tenace replay --pbn`) and that PBN replayed
// give the same tricks, findings and scores; the director's PBN export replays under its own [Variant] and
// [TrumpCard]; formatPbn writes no LIN tag of a LIN record as a PBN tag. Deals come from src/sim (random play, with
// and without a renounce in error), so the property covers whist, bridge and the declared trump of Dup. IV.11.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/replay.js';
import { formatPbn, parseLin, parsePbn } from '../../src/formats/index.js';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { playToTableLog } from '../../src/sim/to-table-log.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'tenace-trips-'));
let n = 0;

/** Run `tenace replay` on text written to a file; returns stdout, stderr and the exit code. */
function replay(text: string, ext: string, ...flags: string[]): { out: string; err: string; code: number } {
  const file = join(dir, `f${n++}.${ext}`);
  writeFileSync(file, text);
  let out = '';
  let err = '';
  const code = replayCommand([file, ...flags], { out: (s) => { out += s; }, err: (s) => { err += s; } });
  return { out, err, code };
}

/** What must survive the trip: each deal's variant, tricks, tricks won, findings (seq aside) and score. */
function judged(json: string): unknown {
  const r = JSON.parse(json) as { deals: Record<string, unknown>[] };
  return r.deals.map((d) => ({
    ...d,
    findings: (d.findings as Record<string, unknown>[]).map(({ seq: _s, fromSeq: _f, toSeq: _t, ...f }) => f),
    score: undefined,
  }));
}

const VARIANTS = ['duplicate-whist', 'whist', 'english-whist', 'bridge'] as const;

describe('tenace replay FILE --pbn, then tenace replay of that PBN (issue 19)', () => {
  it('writes [Variant] and [TrumpCard]; the PBN replays with no warning to the same tricks and findings (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(...VARIANTS), fc.boolean(), (seed, variant, renounce) => {
      const rng = createRng(seed);
      const deals = [1, 2].map((board) => simulateDeal(rng, { variant, board, ...(renounce ? { renounceAt: { trick: 1 + rng.int(12) } } : {}) }));
      const log = deals.flatMap((d) => d.events).map((e) => JSON.stringify(e)).join('\n') + '\n';
      const first = replay(log, 'ndjson', '--json');
      expect(first.code).toBe(0);
      const pbn = replay(log, 'ndjson', '--pbn');
      expect(pbn.err).toBe('');
      if (variant !== 'bridge') {
        expect(pbn.out).toContain(`[Variant "${variant}"]`);
        expect(pbn.out).toMatch(/\[TrumpCard "[SHDC][2-9TJQKA]"\]/);
      }
      const again = replay(pbn.out, 'pbn', '--json');
      expect(again.err).toBe('');
      expect(judged(again.out)).toEqual(judged(first.out));
    }), { numRuns: 25 });
  });

  it('a suit declared trumps (Dup. IV.11: "no trump is turned") is written as [Trump] and read back', () => {
    const rng = createRng(7);
    const sim = simulateDeal(rng, { variant: 'duplicate-whist', board: 3 });
    const events = playToTableLog(sim.hands, sim.plays, { variant: 'duplicate-whist', board: 3, dealer: sim.dealer, withHands: true, trump: 'SHDC'[sim.trump] });
    const log = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
    const pbn = replay(log, 'ndjson', '--pbn');
    expect(pbn.out).toContain(`[Trump "${'SHDC'[sim.trump]}"]`);
    expect(pbn.out).not.toContain('[TrumpCard');
    const again = replay(pbn.out, 'pbn', '--json');
    expect(again.err).toBe('');
    expect(judged(again.out)).toEqual(judged(replay(log, 'ndjson', '--json').out));
  });
});

describe('the director\'s PBN export replays under its own tags', () => {
  it('[Variant "duplicate-whist"] and [TrumpCard] are honoured: the board is whist with its trump, not bridge', () => {
    const text = [
      '% PBN 2.1', '% EXPORT', '',
      '[Event "Club s1"]', '[Board "1"]', '[Dealer "N"]', '[Vulnerable "None"]',
      '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]',
      '[Declarer ""]', '[Contract ""]', '[Result ""]', '[TrumpCard "HA"]', '[Variant "duplicate-whist"]', '',
    ].join('\r\n');
    const r = replay(text, 'pbn');
    expect(r.err).toBe('');
    expect(r.out).toContain('Board 1 · duplicate-whist · trump ♥ (HA turned)');
    expect(r.out).not.toContain('bridge');
    expect(r.out).not.toContain('contract unknown');
    const rec = parsePbn(text).records[0];
    expect(rec.variant).toBe('duplicate-whist');
    expect(rec.trumpCard).toBe('HA');
  });

  it('an unknown [Variant] or a [TrumpCard] that is not a card is one line naming the tag and the fix', () => {
    const bad = parsePbn('[Board "1"]\n[Variant "bridgeish"]\n[TrumpCard "Z9"]\n');
    expect(bad.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Variant "bridgeish" is not a game tenace knows: use one of .*duplicate-whist/),
      expect.stringMatching(/^TrumpCard "Z9" is not a card: give the turned trump card, e\.g\. "H5"/),
    ]);
  });
});

describe('formatPbn on a LIN record', () => {
  it('writes PBN tags, not the LIN tags (md, pn, mb, pc…) as if they were PBN tags', () => {
    const lin = 'pn|South,West,North,East|st||md|3S23456789TJQKA,H23456789TJQKA,D23456789TJQKA,|rh||ah|Board 1|sv|o|mb|1S|mb|p|mb|p|mb|p|pg||\n';
    const read = parseLin(lin);
    expect(read.errors).toEqual([]);
    const out = formatPbn(read.records);
    for (const linTag of ['md', 'pn', 'mb', 'ah', 'sv', 'rh', 'st', 'pg']) expect(out).not.toContain(`[${linTag} `);
    expect(out).toContain('[South "South"]');
    expect(parsePbn(out).errors).toEqual([]);
  });
});
