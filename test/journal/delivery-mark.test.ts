// The delivery mark as an append-only file: one line per advance, the last complete line wins, a torn tail is cut
// off at load, and the file is rewritten as one line before it grows large.
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'node:fs/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DeliveryMark, FLUSH_EVERY_MS } from '../../src/journal/delivery-mark.js';

const base = mkdtempSync(join(tmpdir(), 'tenace-mark-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const fresh = () => mkdtempSync(join(base, `m${++n}-`));

/** How many of this process's file descriptors are open on `file`. */
function handlesOn(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // the folder's own fd, gone by the time it is read
    }
  }).length;
}

describe('DeliveryMark (append-only file)', () => {
  it('appends one line per advance; the last line is the mark', async () => {
    const dir = fresh();
    const m = await DeliveryMark.load(dir, 's');
    await m.advance(1);
    await m.advance(2);
    await m.advance(5);
    const lines = readFileSync(join(dir, 's.delivered'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).seq)).toEqual([1, 2, 5]);
    await m.close();
    expect((await DeliveryMark.load(dir, 's')).seq).toBe(5);
    // Loading rewrote it as one line.
    expect(readFileSync(join(dir, 's.delivered'), 'utf8')).toBe('{"session":"s","seq":5}\n');
  });

  it('ignores a torn last line (a power cut mid-append) and cuts it off before the next append', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 's.delivered'), '{"session":"s","seq":8}\n{"session":"s","seq":9}\n{"session":"s","se');
    const m = await DeliveryMark.load(dir, 's');
    expect(m.seq).toBe(9);
    await m.advance(10);
    expect(readFileSync(join(dir, 's.delivered'), 'utf8')).toBe('{"session":"s","seq":9}\n{"session":"s","seq":10}\n');
    await m.close();
  });

  it('rewrites the file as one line before it passes 128 KiB', async () => {
    const dir = fresh();
    // A long session name makes long lines (about 125 bytes): some 1,050 advances fill 128 KiB.
    const session = `s${'x'.repeat(99)}`;
    const m = await DeliveryMark.load(dir, session);
    const lineBytes = JSON.stringify({ session, seq: 1000 }).length + 1;
    for (let s = 1; s <= 1500; s++) await m.advance(s);
    const size = statSync(join(dir, `${session}.delivered`)).size;
    expect(size).toBeLessThanOrEqual(128 * 1024);
    expect(size).toBeLessThan(1500 * lineBytes - 1000 * lineBytes);
    await m.close();
    expect((await DeliveryMark.load(dir, session)).seq).toBe(1500);
  }, 60_000);

  it('keeps the file open from the first advance to close(), which flushes it (issue 20: no open and close a PUBACK)', async () => {
    const dir = fresh();
    const file = join(dir, 's.delivered');
    const handles = () => handlesOn(file);
    const m = await DeliveryMark.load(dir, 's');
    expect(handles(), 'nothing opened before the first advance').toBe(0);
    for (let s = 1; s <= 50; s++) await m.advance(s);
    expect(handles(), 'one handle for fifty advances, kept between them').toBe(1);
    await m.close();
    expect(handles(), 'closed').toBe(0);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').length).toBe(50);
    await m.advance(51);
    expect(handles(), 'an advance after close() opens it again').toBe(1);
    await m.close();
    expect((await DeliveryMark.load(dir, 's')).seq).toBe(51);
  });

  it('close() with a flush that fails still resolves and closes the file: a mark that lags is not a failed stop', async () => {
    const dir = fresh();
    const m = await DeliveryMark.load(dir, 's');
    await m.advance(1);
    await m.advance(2); // within FLUSH_EVERY_MS of the first: appended, its flush left to the timer or to close()
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { datasync(): Promise<void> };
    await probe.close();
    const spy = vi.spyOn(proto, 'datasync').mockRejectedValue(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    try {
      await expect(m.close()).resolves.toBeUndefined();
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect(handlesOn(join(dir, 's.delivered'))).toBe(0);
    expect((await DeliveryMark.load(dir, 's')).seq).toBe(2);
  });

  it('flushes a burst of advances once: the first at once, the rest together within FLUSH_EVERY_MS', async () => {
    const dir = fresh();
    const file = join(dir, 's.delivered');
    // Every flush goes through a FileHandle's datasync: note the file of each (the other tests' marks flush too).
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { datasync(this: { fd: number }): Promise<void> };
    await probe.close();
    const real = proto.datasync;
    const flushed: string[] = [];
    const spy = vi.spyOn(proto, 'datasync').mockImplementation(function (this: { fd: number }) {
      flushed.push(readlinkSync(`/proc/self/fd/${this.fd}`));
      return real.call(this);
    });
    const flushes = () => flushed.filter((f) => f === file).length;
    try {
      const m = await DeliveryMark.load(dir, 's');
      await m.advance(1);
      expect(flushes(), 'the first advance after a quiet second: flushed at once').toBe(1);
      await m.advance(2);
      await m.advance(3);
      await m.advance(4);
      expect(flushes(), 'the burst: written, not yet flushed').toBe(1);
      expect(readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).seq)).toEqual([1, 2, 3, 4]);
      for (let i = 0; i < 100 && flushes() < 2; i++) await new Promise((r) => setTimeout(r, FLUSH_EVERY_MS / 20));
      await new Promise((r) => setTimeout(r, FLUSH_EVERY_MS / 4));
      expect(flushes(), 'one flush for the three').toBe(2);
      await m.close();
      expect((await DeliveryMark.load(dir, 's')).seq).toBe(4);
    } finally {
      spy.mockRestore();
    }
  });
});
