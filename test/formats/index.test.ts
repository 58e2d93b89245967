// loadRecords and detectFormat choose the reader by content, then by file name; binary input is refused.
import { describe, expect, it } from 'vitest';
import { detectFormat, loadRecords } from '../../src/formats/index.js';
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

  it('the content wins over a wrong extension: a LIN file named .pbn is read as LIN, and a PBN named .lin as PBN', () => {
    const lin = loadRecords(dataFile('bridgebots-sample.lin'), 'vugraph.pbn');
    expect(lin.errors).toEqual([]);
    expect(lin.records[0].board).toBe(15);
    const pbn = loadRecords(dataFile('bridgebots-sample.pbn'), 'x.lin');
    expect(pbn.errors).toEqual([]);
    expect(pbn.records.map((r) => r.board)).toEqual([10, 1, 14]);
  });

  it('says so when it is neither', () => {
    const r = loadRecords('{"type":"deal"}', 'log.ndjson');
    expect(r.records).toEqual([]);
    expect(r.errors).toEqual([{ line: 1, message: expect.stringContaining('neither PBN') }]);
  });
});

describe('detectFormat', () => {
  it('a table log by its JSON lines, even after comment lines or under another name', () => {
    expect(detectFormat('// table 3\n{"type":"deal"}\n', 'game.pbn')).toEqual({ format: 'table-log' });
    expect(detectFormat('{"type":"deal"}', 'x')).toEqual({ format: 'table-log' });
  });

  it('a PBN brace comment is not taken for JSON', () => {
    expect(detectFormat('{ made by hand }\n[Board "1"]\n', 'x')).toEqual({ format: 'pbn' });
  });

  it('a file with NUL bytes is not text, whatever its name', () => {
    const elf = '\u007fELF\u0002\u0001\u0001\u0000\u0000\u0000[Board "1"]';
    expect(detectFormat(elf, 'hands.pbn')).toEqual({ error: expect.stringContaining('not a text file') });
  });

  it('the extension decides when the content says nothing; neither says so', () => {
    expect(detectFormat('', 'x.pbn')).toEqual({ format: 'pbn' });
    expect(detectFormat('hello', 'x.txt')).toEqual({ error: expect.stringContaining('neither a table log') });
  });
});
