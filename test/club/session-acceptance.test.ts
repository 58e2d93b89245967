// Issue 7, "Done when": a simulated 7-table session against the real Mosquitto (127.0.0.1:1883). Every table runs the
// real table path (emulated bridge and scanner, serial driver, journal, engine, feed); the director is the real
// `tenace director` process on SQLite. Faults: a fouled tray, a wrong tray, a renounce in error; the director is
// killed (-9) mid-session and a table is stopped and started again mid-round.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movementByName } from '../../src/club/movements/index.js';
import { planSession } from '../../src/club/session/plan.js';
import { runSession, type SessionOutcome } from '../../src/club/session/runner.js';
import type { ClubAlert, ScoreReport } from '../../src/club/types.js';
import { createLogger } from '../../src/config/logger.js';
import { scoreExport } from './score-export.js';

const BROKER = 'mqtt://127.0.0.1:1883';

describe('a club session of 7 tables (issue 7)', () => {
  it('verifies every tray at every overplay, finds the faults, survives kill -9, and scores as tenace score does', async () => {
    const schedule = movementByName('mitchell')!.generate({ tables: 7, boardsPerRound: 1 });
    const session = `acc${process.pid}`;
    const plan = planSession({ session, variant: 'duplicate-whist', schedule, seed: 11, faults: { fouled: 1, wrongTray: 1, revokes: 1 } });
    const work = mkdtempSync(join(tmpdir(), 'tenace-acceptance-'));
    let exported = '';
    let outcome: SessionOutcome;
    try {
      outcome = await runSession({
        plan, club: `acc${process.pid}`, broker: BROKER, speed: 'max', httpPort: 0, serial: 'loopback', waitMs: 90_000,
        log: createLogger({ log: { level: 'error' } }),
        chaos: { killDirectorAfterPlays: 20, restartTable: { table: 3, play: 4 } },
        // While everything still runs: the director's own export, as a club would download it.
        keepOpen: async (url) => {
          const res = await fetch(new URL('export/session.pbn', url));
          expect(res.status).toBe(200);
          exported = await res.text();
        },
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    const c = outcome.check;
    // 7 trays at 7 tables: 7 originals and 42 overplays, each started with the tray record's hands.
    expect(c.plays).toBe(49);
    expect(c.overplays).toBe(42);
    expect(c.verified).toBe(42);

    // The fouled tray: found at the table at its first misplaced card, and the director's doctor names the moves.
    expect(c.fouled).toHaveLength(1);
    const f = c.fouled[0];
    expect(f.found).toBe(true);
    const play = plan.plays.get(f.table)!.find((p) => p.board === f.board)!;
    const [c1, c2] = play.fouled!.cards;
    const [s1, s2] = play.fouled!.seats;
    const alert = c.alerts.find((a): a is ClubAlert => a.kind === 'fouled-tray' && a.board === f.board && a.table === String(f.table));
    expect(alert, JSON.stringify(c.alerts.map((a) => `${a.kind} ${a.table} ${a.board}`))).toBeDefined();
    // The table had c1 in s2's pocket and c2 in s1's: the repair moves them back.
    expect(alert!.moves!.map((m) => `${m.card} ${m.from}>${m.to}`).sort()).toEqual([`${c1} ${s2}>${s1}`, `${c2} ${s1}>${s2}`].sort());
    expect(alert!.outcome?.law).toMatch(/V\.1/);

    // The wrong tray: alerted before any card of it (the runner waits for the alert before the right scan).
    expect(c.wrongTrays).toHaveLength(1);
    expect(c.wrongTrays[0].alerted).toBe(true);
    expect(c.revokes.every((r) => r.found)).toBe(true);

    // Nothing lost or doubled through the kill -9 and the restart: one result per (board, table).
    const s = outcome.standings;
    const keys = s.boards.flatMap((b) => b.results.map((r) => `${b.board}:${r.table}`));
    expect(keys).toHaveLength(49);
    expect(new Set(keys).size).toBe(49);

    // The standings equal `tenace score` on the exported travellers.
    const scored = await scoreExport(exported);
    const line = (p: ScoreReport['pairs'][number]) => `${p.pair} ${p.total} ${p.vsAverage} ${p.rank}`;
    expect(scored.pairs.map(line)).toEqual(s.pairs.map(line));
  }, 300_000);
});
