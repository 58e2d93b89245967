// A bridge director whose table 2 has no readers (hand-scored), on SQLite in a temporary folder, its page on a free
// port: for the hand-scoring terminal's HTTP and browser tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectorService } from '../../src/club/director/service.js';
import { SCHEDULE, quietLog, testConfig } from './director-rig.js';

/** Start it; `closeAfter` is given what stops it and removes its folder. */
export async function startHandScoredDirector(club: string, closeAfter: (fn: () => Promise<unknown>) => void): Promise<{ director: DirectorService; url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tenace-hand-'));
  closeAfter(async () => rmSync(dir, { recursive: true, force: true }));
  const config = testConfig(club, `sqlite:${join(dir, 'club.db')}`, { variant: 'bridge', handScored: ['2'], http: { enabled: true, host: '127.0.0.1', port: 0 } });
  const director = new DirectorService({ config, log: quietLog, schedule: SCHEDULE });
  await director.start();
  closeAfter(() => director.stop());
  return { director, url: director.pageUrl! };
}
