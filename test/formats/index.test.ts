// loadRecords chooses the reader by file name.
import { describe, expect, it } from 'vitest';
import { loadRecords } from '../../src/formats/index.js';
import { dataFile } from './data.js';

describe('loadRecords', () => {
  it('reads .pbn and .lin by extension, in any case', () => {
    expect(loadRecords(dataFile('bridgebots-sample.pbn'), 'x/bridgebots-sample.pbn').records).toHaveLength(3);
    expect(loadRecords(dataFile('bridgebots-sample.lin'), 'HAND.LIN').records[0].board).toBe(15);
  });

  it('recognises the content when the name has no known extension', () => {
    expect(loadRecords(dataFile('bridgebots-sample.lin'), 'download').records[0].contract).toBe('3NTN');
    expect(loadRecords(dataFile('camrose2024-ben.pbn'), 'camrose.txt').records).toHaveLength(160);
  });

  it('says so when it is neither', () => {
    const r = loadRecords('{"type":"deal"}', 'log.ndjson');
    expect(r.records).toEqual([]);
    expect(r.errors).toEqual([{ line: 1, message: expect.stringContaining('neither PBN') }]);
  });
});
