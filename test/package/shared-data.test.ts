// The tests read real hand records from ../shared/data (README, System packages): a missing file must say where
// the folder belongs, not end in a bare ENOENT.
import { describe, expect, it } from 'vitest';
import { dataFile, dataPath } from '../formats/data.js';

describe('../shared/data', () => {
  it('a file that is not there names the folder and where it belongs', () => {
    expect(() => dataPath('no-such-record.pbn')).toThrow(/no-such-record\.pbn is missing: .*\.\.\/shared\/data, the shared\/ folder beside this checkout/);
    expect(() => dataFile('no-such-record.pbn')).toThrow(/is missing/);
  });

  it('a file that is there is read', () => {
    expect(dataFile('bridgebots-sample.pbn')).toMatch(/\[Deal "/);
  });
});
