// The table terminal's settings: `terminal.pin` (4-8 digits, made at start when absent) and `terminal.tries`.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { errorAt } from './config-errors.js';

const MINIMAL = 'club: { id: ely }\ntable: { id: "7" }\n';

describe('terminal config', () => {
  it('no terminal section: no PIN (one is made at start) and 5 tries', () => {
    const r = parseConfig(MINIMAL);
    expect(r.ok && r.config.terminal).toEqual({ tries: 5 });
  });

  it('a PIN of 4-8 digits in quotes is taken as it is', () => {
    const r = parseConfig(`${MINIMAL}terminal: { pin: "04821", tries: 3 }\n`);
    expect(r.ok && r.config.terminal).toEqual({ pin: '04821', tries: 3 });
  });

  it('a PIN that is not 4-8 digits, or tries out of range, names the field and the fix', () => {
    const r = parseConfig(`${MINIMAL}terminal: { pin: "12ab", tries: 0 }\n`);
    expect(errorAt(r, 'terminal.pin').message).toMatch(/^must be 4 to 8 digits in quotes, e\.g\. pin: "4821"/);
    expect(errorAt(r, 'terminal.tries').message).toMatch(/^must be the wrong PINs allowed before the terminal locks, 1 to 20/);
    const n = parseConfig(`${MINIMAL}terminal: { pin: 4821 }\n`);
    expect(errorAt(n, 'terminal.pin').message).toMatch(/4 to 8 digits in quotes/);
  });
});
