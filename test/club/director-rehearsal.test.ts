// The director's rehearsal before the first table connects (issue 18): the session's first tray, made up from a fixed
// seed, played as an original and as an overplay through a director of its own on an in-memory store, with the real
// laws, tray records and scoring, so that round 1's results are not taken by cold code. It must get through the
// whole path (else it warms nothing), and leave the real director's state as it was.
import { describe, expect, it } from 'vitest';
import { DirectorState } from '../../src/club/director/state.js';
import { rehearse } from '../../src/club/director/rehearsal.js';
import { movementByName } from '../../src/club/movements/index.js';
import { quietLog, testConfig } from './director-rig.js';

describe.each(['duplicate-whist', 'bridge'])('the rehearsal of a %s session', (variant) => {
  it('takes the first tray\'s original and overplay to two results, one tray record and scored standings', async () => {
    const schedule = movementByName('mitchell')!.generate({ tables: 3, boardsPerRound: 1 });
    const config = testConfig('rehearse', 'sqlite::memory:', { variant, movement: { name: 'mitchell', tables: 3 }, tables: ['1', '2', '3'] });
    const st = new DirectorState({ config, log: quietLog, schedule, web: false });
    const r = await rehearse(st);
    expect(r).toEqual({ results: 2, records: 1, scored: 1 });
    expect(st.results.size + st.records.size + st.alerts.length, 'nothing of it in the real director\'s state').toBe(0);
    expect(st.standings).toBeNull();
  });
});
