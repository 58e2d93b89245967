// The capped line splitter: same lines as ReadlineParser on good input, constant memory on bad.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ReadlineParser } from '@serialport/parser-readline';
import { LineSplitter, LineSplitterStream, type SplitItem } from '../../src/hardware/line-splitter.js';
import { decodeLine, MAX_LINE } from '../../src/hardware/protocol.js';

function split(chunks: Array<string | Buffer>): { items: SplitItem[]; s: LineSplitter } {
  const items: SplitItem[] = [];
  const s = new LineSplitter((i) => items.push(i));
  for (const c of chunks) s.push(typeof c === 'string' ? Buffer.from(c, 'latin1') : c);
  return { items, s };
}

describe('LineSplitter', () => {
  it('splits on LF across chunk boundaries and keeps a CR for the decoder', () => {
    const { items } = split(['0 hello 1.0.0 1 4 power*5A\n1 cfg', ' 50 3*BC\r', '\n', '\n']);
    expect(items).toEqual(['0 hello 1.0.0 1 4 power*5A', '1 cfg 50 3*BC\r', '']);
    expect(decodeLine(items[1] as string)).toMatchObject({ ok: true, frame: { type: 'cfg' } });
  });

  it('passes 96 bytes + CR, and a 97-byte line (the decoder calls it too-long)', () => {
    const l96 = 'A'.repeat(MAX_LINE);
    const { items } = split([`${l96}\r\n${l96}B\n`]);
    expect(items).toEqual([`${l96}\r`, `${l96}B`]);
    expect(decodeLine(items[1] as string)).toEqual({ ok: false, error: 'too-long' });
  });

  it('reports a longer line once as too-long, discarding up to the next LF, in constant memory', () => {
    const items: SplitItem[] = [];
    const s = new LineSplitter((i) => items.push(i));
    const junk = Buffer.alloc(64 * 1024, 0x41);
    for (let i = 0; i < 160; i++) {
      s.push(junk); // 10 MB without a terminator
      expect(s.buffered).toBeLessThanOrEqual(LineSplitter.CAPACITY);
    }
    expect(items).toEqual([]);
    s.push(Buffer.from('tail\n41 ping*33\n'));
    expect(items).toEqual([{ error: 'too-long', length: 160 * 65536 + 4 }, '41 ping*33']);
    expect(s.stats).toEqual({ lines: 1, tooLong: 1, partialDropped: 0 });
  });

  it('a 98-byte line is too-long even when it ends in CR', () => {
    const { items } = split([`${'A'.repeat(97)}\r\n`]);
    expect(items).toEqual([{ error: 'too-long', length: 98 }]);
  });

  it('reset() drops and counts a partial line', () => {
    const { items, s } = split(['3 arrive 0 04A1']);
    s.reset();
    s.push(Buffer.from('B2*00\n'));
    expect(items).toEqual(['B2*00']);
    expect(s.stats.partialDropped).toBe(1);
  });

  it('gives the same lines as ReadlineParser on well-formed input, byte by byte', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `${i + 1} hb ${i} OOOO 0000*00`).join('\n') + '\n';
    const bytes = Buffer.from(text);
    const ours = split([...bytes].map((b) => Buffer.from([b]))).items;
    const theirs: string[] = [];
    const rp = new ReadlineParser({ delimiter: '\n' });
    rp.on('data', (l: string) => theirs.push(l));
    await new Promise<void>((res) => {
      rp.on('end', res);
      Readable.from([bytes]).pipe(rp);
    });
    expect(ours).toEqual(theirs);
  });

  it('works as a Transform stream (object mode out)', async () => {
    const out: SplitItem[] = [];
    const t = new LineSplitterStream();
    t.on('data', (i: SplitItem) => out.push(i));
    await new Promise<void>((res) => {
      t.on('end', res);
      Readable.from([Buffer.from('41 ping*33\n'), Buffer.from('x'.repeat(300)), Buffer.from('\nhalf')]).pipe(t);
    });
    expect(out).toEqual(['41 ping*33', { error: 'too-long', length: 300 }]);
    expect(t.splitter.stats.partialDropped).toBe(1);
  });
});
