// DDS runs in a child process: a killed child, a request over its time limit, a full queue and a missing libdds each
// give the caller a DdError, never a crash, and the next request is answered by a new child.
import { describe, expect, it } from 'vitest';
import { analyseCommand } from '../../src/cli/analyse.js';
import { checkConfigCommand } from '../../src/cli/check-config.js';
import { DD_OFF, DdError, DoubleDummy, probeDds } from '../../src/dd/index.js';
import { dataPath } from '../formats/data.js';

// Camrose 2024 board 1 (../shared/data/camrose2024-ben.pbn): its table takes DDS a few tenths of a second.
const BOARD1 = 'N:T5.982.874.AQ632 K43.73.KQ5.KJT54 AJ9.AQT6.JT62.98 Q8762.KJ54.A93.7';
const OTHER = 'N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432';
const MISSING = { ...process.env, LIBDDS_PATH: 'libdds-not-here.so.0' };

async function failure(p: Promise<unknown>): Promise<DdError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(DdError);
  return e as DdError;
}

describe('double dummy: the solver is isolated', () => {
  it('a child killed in the middle of a solve fails that request; the next one is answered by a new child', async () => {
    const dd = new DoubleDummy();
    try {
      expect((await dd.status()).on).toBe(true);
      const pending = dd.table(BOARD1);
      process.kill(dd.pid!, 'SIGSEGV');
      const e = await failure(pending);
      expect(e.code).toBe('crashed');
      expect(e.message).toMatch(/the double-dummy solver stopped \(signal SIGSEGV\)/);
      const t = await dd.table(BOARD1);
      expect(t.S.W).toBe(9);
      expect(dd.starts).toBe(2);
    } finally {
      dd.close();
    }
  });

  it('a request over the time limit is stopped: the caller gets a DdError and the child is killed', async () => {
    const dd = new DoubleDummy({ timeoutMs: 1 });
    try {
      const e = await failure(dd.table(BOARD1));
      expect(e.code).toBe('timeout');
      expect(e.message).toBe('double-dummy analysis took longer than 1 ms and was stopped');
      expect(dd.pid).toBeUndefined();
    } finally {
      dd.close();
    }
  });

  it('tenace analyse goes on past deals the solver could not finish: each says why, and the run ends with 0', async () => {
    let out = '';
    const io = { out: (s: string) => { out += s; }, err: () => undefined };
    const dd = new DoubleDummy({ timeoutMs: 1 });
    try {
      expect(await analyseCommand([dataPath('bridgebots-sample.pbn'), '--no-play'], io, dd)).toBe(0);
    } finally {
      dd.close();
    }
    expect(out.match(/^no analysis: double-dummy analysis took longer than 1 ms and was stopped$/gm)).toHaveLength(3);
    expect(out.match(/^Board \d+ · bridge/gm)).toHaveLength(3);
  });

  it('the queue is bounded: past maxQueue waiting requests, one is refused at once', async () => {
    // Asked in one turn of the event loop, all three wait: two fit the queue.
    const dd = new DoubleDummy({ maxQueue: 2 });
    try {
      const first = dd.table(BOARD1);
      const second = dd.table(OTHER);
      const e = await failure(dd.table('N:AKQJ.AKQ.AKQ.AKQ 2.5432.5432.5432 T987.JT9.JT9.JT9 6543.876.876.876'));
      expect(e.code).toBe('busy');
      expect(e.message).toBe('double-dummy analysis is busy: 2 requests are waiting; ask again later');
      expect((await first).S.W).toBe(9);
      expect((await second).NT.N).toBe(13);
    } finally {
      dd.close();
    }
  });

  it('answers are cached by deal: asked again, the table comes back without the child', async () => {
    const dd = new DoubleDummy();
    try {
      const t = await dd.table(BOARD1);
      process.kill(dd.pid!, 'SIGKILL');
      expect(await dd.table(BOARD1)).toEqual(t);
      expect(dd.starts).toBe(1);
    } finally {
      dd.close();
    }
  });
});

describe('double dummy without libdds', () => {
  it('the solver says analysis is off and how to install it; requests fail with that line', async () => {
    const dd = new DoubleDummy({ env: MISSING });
    try {
      const st = await dd.status();
      expect(st.on).toBe(false);
      expect(!st.on && st.reason.startsWith(DD_OFF)).toBe(true);
      expect(DD_OFF).toBe('double-dummy analysis is off: install libdds0 (apt install libdds0)');
      const e = await failure(dd.table(BOARD1));
      expect(e.code).toBe('off');
    } finally {
      dd.close();
    }
  });

  it('tenace analyse exits 69 (unavailable) with that line; check-config still passes and says so', async () => {
    let out = '', err = '';
    const io = { out: (s: string) => { out += s; }, err: (s: string) => { err += s; } };
    const dd = new DoubleDummy({ env: MISSING });
    expect(await analyseCommand([dataPath('bridgebots-sample.pbn')], io, dd)).toBe(69);
    expect(err).toMatch(/^tenace analyse: double-dummy analysis is off: install libdds0 \(apt install libdds0\)/);
    expect(out).toBe('');
    dd.close();
    expect(probeDds(MISSING).on).toBe(false);
    out = '';
    err = '';
    expect(checkConfigCommand(['config/tenace.example.yaml', '--skip-files'], io, MISSING)).toBe(0);
    expect(out).toContain(`\n${DD_OFF} (libdds-not-here.so.0: `);
    out = '';
    expect(checkConfigCommand(['config/tenace.example.yaml', '--skip-files'], io, process.env)).toBe(0);
    expect(out).toMatch(/\ndouble-dummy analysis: on \(DDS 2\.9\.\d+\)\n$/);
  });
});
