// Issue 18, goal 5: faults of the store. The director's SQLite store on a small tmpfs of its own: the disk is filled
// mid-session, then freed; the file system is made read-only, then writable again. Each time the director stops
// acknowledging, says so in one line naming the store and how many events wait (not a line per try, not a restart
// per second), tries again with back-off, and once the store takes writes again every event is stored exactly once
// and the deals are scored. Mounting needs root (CAP_SYS_ADMIN); without it the disk-full fault is made inside SQLite
// too (query_only: "attempt to write a readonly database"), so the test never skips.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { createLogger } from '../../src/config/logger.js';
import { describe, expect, it } from 'vitest';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore } from '../../src/club/director/store.js';
import type { RoundAssignment } from '../../src/club/types.js';
import { sleep, uid, waitFor } from '../feed/broker.js';
import { cleanupAfterEach, FakeTable, Observer, SCHEDULE, seedHand, STUBS, testConfig } from './director-rig.js';

const T = 30_000;

interface Line { level: string; msg: string; store?: string; waiting?: number }

/** A tmpfs of `size` at a new folder, or null when this process may not mount. */
function tmpfs(size: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'tenace-store-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

/** Fill a file system to the last byte. */
function fill(dir: string): void {
  for (const chunk of [65536, 4096, 512, 1]) {
    const b = Buffer.alloc(chunk, 0x55);
    try {
      for (;;) appendFileSync(join(dir, 'filler'), b);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
    }
  }
}

describe('a full or read-only store', () => {
  const cleanup = cleanupAfterEach();

  it('stops acknowledging, says so once with the path and the events waiting, and recovers with every event stored once', async () => {
    const mnt = tmpfs('4m');
    const dir = mnt ?? mkdtempSync(join(tmpdir(), 'tenace-store-full-'));
    cleanup.push(async () => {
      if (mnt) execFileSync('umount', [mnt], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    });
    const path = join(dir, 'club.db');
    const club = uid('full');
    const obs = await Observer.connect(club);
    cleanup.push(() => obs.close());
    const t1 = await FakeTable.connect(club, '1');
    const t2 = await FakeTable.connect(club, '2');
    cleanup.push(() => t1.close(), () => t2.close());
    const lines: Line[] = [];
    const log = createLogger({ log: { level: 'warn' } }, new Writable({ write(chunk, _enc, cb) { lines.push(JSON.parse(String(chunk)) as Line); cb(); } }));
    const store = await DirectorStore.open(`sqlite:${path}`);
    const fatals: Error[] = [];
    const s = new DirectorService({
      config: testConfig(club, `sqlite:${path}`), log, schedule: SCHEDULE, store, club: STUBS, web: false, requestRetryMs: 400,
      storeRetryMaxMs: 400, onFatal: (e) => fatals.push(e),
    });
    await s.start();
    cleanup.push(async () => { await s.stop(); await store.close(); });
    await waitFor(() => obs.get<RoundAssignment>('2/assignment')?.round === 1, T, 'round 1');
    await t1.play([{ type: 'tray', code: 'T1' }]);
    await t2.play([{ type: 'tray', code: 'T2' }]);
    await waitFor(async () => (await store.events('s1')).length === 2, T, 'the first events stored');
    // From here the tables never answer request/events: what the director did not acknowledge is all it gets back.
    t1.silent = true;
    t2.silent = true;
    const faultLines = () => lines.filter((l) => l.msg.startsWith('director: cannot write the store'));
    const backLines = () => lines.filter((l) => l.msg.startsWith('director: the store takes writes again'));

    // The disk fills up while table 1 plays tray 1.
    if (mnt) fill(mnt);
    else await sql`pragma query_only = 1`.execute(store.db);
    await t1.play(seedHand(1, false));
    await waitFor(() => faultLines().length === 1, T, 'the fault said');
    const first = faultLines()[0];
    // The events said to wait: those of the group that failed and of the messages folded since (group commit).
    const said = (l: Line) => Number(/; (\d+) events? wait, not acknowledged/.exec(l.msg)?.[1]);
    expect(first.msg).toContain(`director: cannot write the store ${path}: ${mnt ? 'the disk is full' : 'it is read-only'}; `);
    expect(first).toMatchObject({ store: path, waiting: said(first) });
    expect(said(first)).toBeGreaterThanOrEqual(1);
    expect(said(first)).toBeLessThanOrEqual(t1.journal.length - 1);
    // Several tries later (the waits top out at 400 ms here): still one line, no restart, nothing acknowledged.
    await sleep(2000);
    expect(faultLines()).toHaveLength(1);
    expect(fatals).toEqual([]);
    expect((await store.events('s1')).length).toBe(2);
    if (mnt) rmSync(join(mnt, 'filler'));
    else await sql`pragma query_only = 0`.execute(store.db);
    await waitFor(async () => (await store.events('s1')).length === 2 + t1.journal.length - 1, T, 'tray 1 stored');
    expect(backLines()).toHaveLength(1);

    // The store turns read-only while table 2 plays tray 2. (A file system with the database open for writing cannot
    // be remounted read-only, and root writes a chmod 444 file: SQLite's own read-only switch stands in.)
    await sql`pragma query_only = 1`.execute(store.db);
    await t2.play(seedHand(2, false));
    await waitFor(() => faultLines().length === 2, T, 'the second fault said');
    expect(faultLines()[1].msg).toContain(`director: cannot write the store ${path}: it is read-only; `);
    expect(said(faultLines()[1])).toBeGreaterThanOrEqual(1);
    expect(said(faultLines()[1])).toBeLessThanOrEqual(t2.journal.length - 1);
    await sleep(1500);
    expect(faultLines()).toHaveLength(2);
    await sql`pragma query_only = 0`.execute(store.db);

    // Every event once, in seq order, and both deals scored.
    await waitFor(async () => (await store.results('s1')).length === 2, T, 'both travellers');
    const stored = await store.events('s1');
    expect(stored.filter((e) => e.table === '1').map((e) => e.event)).toEqual(t1.journal);
    expect(stored.filter((e) => e.table === '2').map((e) => e.event)).toEqual(t2.journal);
    expect(backLines()).toHaveLength(2);
    expect(fatals).toEqual([]);
    // Nothing else was said at warn or above but the four lines.
    expect(lines.filter((l) => ['warn', 'error', 'fatal'].includes(l.level)).map((l) => l.msg.slice(0, 40))).toHaveLength(4);
  });
});
