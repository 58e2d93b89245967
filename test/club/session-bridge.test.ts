// Issue 17, "Bridge sessions never finish": a bridge session through the whole club path. The tables' original plays
// make the tray records (the deal event names the game: bridge has no turned trump to wait for), every overplay is
// checked card by card against the record, and the standings are matchpoints that `tenace score` gives again on the
// director's PBN export. Mitchell and Howell, the movements clubs run, with the faults a club meets.
import { describe, expect, it } from 'vitest';
import { movementByName } from '../../src/club/movements/index.js';
import { planSession } from '../../src/club/session/plan.js';
import { runSession } from '../../src/club/session/runner.js';
import type { ScoreReport } from '../../src/club/types.js';
import { createLogger } from '../../src/config/logger.js';
import { scoreExport } from './score-export.js';

const BROKER = 'mqtt://127.0.0.1:1883';

describe('a bridge club session (issue 17)', () => {
  // A phantom pair (an odd number of pairs): whoever meets it sits out the round.
  const cases = [
    { movement: 'mitchell', tables: 4 }, { movement: 'howell', tables: 3 },
    { movement: 'mitchell', tables: 3, options: { phantom: 'ew' }, phantom: true },
  ] as const;
  for (const k of cases) {
    const movement = k.movement;
    it(`${movement}${'phantom' in k ? ' with a phantom pair' : ''}: every tray's record made by its original play, every overplay verified, matchpoints equal to tenace score on the PBN export`, async () => {
      const tables = k.tables;
      const schedule = movementByName(movement)!.generate({ tables, boardsPerRound: 2, ...('options' in k ? { options: { ...k.options } } : {}) });
      if ('phantom' in k) {
        // 5 pairs at 3 tables: each round one table is empty and a named pair sits out.
        expect(schedule.participants).toHaveLength(5);
        for (const r of schedule.rounds) expect(r.tables).toHaveLength(2);
        for (const r of schedule.rounds) expect(r.notes?.[0]).toMatch(/sits out at table \d \(it meets the phantom pair\)/);
      }
      const session = `br${movement[0]}${'phantom' in k ? 'p' : ''}${process.pid}`;
      const full = movement === 'mitchell' && !('phantom' in k);
      const faults = full ? { fouled: 1, wrongTray: 1, revokes: 1 } : { fouled: 0, wrongTray: 0, revokes: 1 };
      // Mitchell: table 4 has no readers (hand-scored); a few plays end with a claim of the last tricks.
      const handScored = full ? [4] : [];
      const plan = planSession({ session, variant: 'bridge', schedule, seed: 17, faults, handScored, claims: 3 });
      let exported = '';
      const outcome = await runSession({
        plan, club: `br${process.pid}`, broker: BROKER, speed: 'max', httpPort: 0, serial: 'loopback', waitMs: 60_000,
        log: createLogger({ log: { level: 'error' } }),
        keepOpen: async (url) => {
          const res = await fetch(new URL('export/session.pbn', url));
          expect(res.status).toBe(200);
          exported = await res.text();
        },
      });
      const c = outcome.check;
      expect(c.played).toBe(c.plays);
      expect(c.claims).toBe(3);
      // Am. 27 at a tray's first play: the claimed original's unplayed cards were passed over the readers, and made
      // the record its overplays were verified against (else they would have waited for it in vain).
      const claimedOriginal = [...plan.plays.values()].flat().find((p) => p.claim && p.playIndex === 0);
      expect(claimedOriginal?.shown?.length).toBeGreaterThan(0);
      expect(c.handScored).toBe(full ? schedule.rounds.length * 2 : 0);
      expect(c.overplays).toBeGreaterThan(0);
      expect(c.verified).toBe(c.overplays);
      expect(c.revokes.length).toBeGreaterThan(0);
      expect(c.revokes.every((r) => r.found)).toBe(true);
      if (full) {
        expect(c.fouled.map((f) => f.found)).toEqual([true]);
        expect(c.wrongTrays.map((w) => w.alerted)).toEqual([true]);
      }
      const s = outcome.standings;
      // Law 78A: matchpoints, scored per direction.
      expect(s.method).toBe('matchpoints');
      expect(s.boards.flatMap((b) => b.results)).toHaveLength(c.plays);
      // Every result names its contract and declarer, as the table journaled them. The fouled board is not averaged
      // (that is duplicate whist's V.1): Law 87B divides its scores into groups by the form played, each rated apart.
      const results = s.boards.flatMap((b) => b.results);
      for (const r of results) expect(r.contract).toMatch(/^[1-7](C|D|H|S|NT)[NESW]X{0,2}$/);
      for (const f of c.fouled) {
        const alert = c.alerts.find((a) => a.kind === 'fouled-tray' && a.board === f.board);
        expect(alert?.outcome).toMatchObject({ remedy: 'score-in-groups', law: 'L87B' });
        // Alone in its form, the fouled table's result is compared with nothing: Neuberg gives it the average.
        const mine = s.boards.find((b) => b.board === f.board)!.results.find((r) => String(r.table) === String(f.table))!;
        const top = s.boards.find((b) => b.board === f.board)!.top!;
        expect(mine.mp).toEqual({ NS: top / 2, EW: top / 2 });
      }
      if (c.fouled.length > 0) expect(exported).toMatch(/Version/);
      // The hand-scored table's results are among them, each as its players entered it.
      const byHand = [...plan.plays.values()].flat().filter((p) => p.handScored);
      for (const p of byHand) {
        const r = s.boards.find((b) => b.board === p.board)!.results.find((x) => String(x.table) === String(p.table))!;
        expect(r.contract).toBe(p.contract);
        expect(r.declarerTricks).toBe(p.result!.tricks);
      }
      // The director gave every pair its players on the console before play: the standings name them, and so does
      // `tenace score` on the export (the TotalScoreTable's Names column).
      expect(s.pairs.every((p) => p.names?.length === 2)).toBe(true);
      const scored = await scoreExport(exported);
      const line = (p: ScoreReport['pairs'][number]) => `${p.pair} ${p.names?.join(' & ')} ${p.total} ${p.rank}`;
      expect(scored.pairs.map(line)).toEqual(s.pairs.map(line));
    }, 180_000);
  }
});
