// The director's rehearsal before the first table connects (issue 18): the session's first tray, made up from a fixed
// seed, played as an original and as an overplay through a director of its own on an in-memory store, with the real
// laws, tray records and scoring, so that round 1's results are not taken by cold code. It must get through the
// whole path (else it warms nothing), and leave the real director's state as it was.
import { describe, expect, it } from 'vitest';
import { DirectorState } from '../../src/club/director/state.js';
import { DirectorStore } from '../../src/club/director/store.js';
import { rehearse } from '../../src/club/director/rehearsal.js';
import { movementByName } from '../../src/club/movements/index.js';
import { SCHEDULE, quietLog, testConfig } from './director-rig.js';
import { freshDb } from './store-engines.js';

describe.each(['duplicate-whist', 'bridge'])('the rehearsal of a %s session', (variant) => {
  it('takes the first tray\'s original and overplay to two results, one tray record and scored standings', async () => {
    const schedule = movementByName('mitchell')!.generate({ tables: 3, boardsPerRound: 1 });
    const config = testConfig('rehearse', 'sqlite::memory:', { variant, movement: { name: 'mitchell', tables: 3 }, tables: ['1', '2', '3'] });
    const store = await DirectorStore.open('sqlite::memory:');
    const st = new DirectorState({ config, log: quietLog, schedule, store, web: false });
    const r = await rehearse(st).finally(() => store.close());
    expect(r).toEqual({ results: 2, records: 1, scored: 1 });
    expect(st.results.size + st.records.size + st.alerts.length, 'nothing of it in the real director\'s state').toBe(0);
    expect(st.standings).toBeNull();
  });
});

describe('a director on PostgreSQL (a championship instance)', () => {
  it('does not rehearse: it would load better-sqlite3, which it never otherwise carries', async () => {
    const db = await freshDb('postgres');
    const store = await DirectorStore.open(db.url);
    try {
      const st = new DirectorState({ config: testConfig('rehearse', db.url), log: quietLog, schedule: SCHEDULE, store, web: false });
      expect(await rehearse(st)).toEqual({ results: 0, records: 0, scored: 0 });
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
