// Fuzz: 10⁵ lines — valid device lines, corrupted copies and random garbage — through a MockBinding
// port into the splitter, decoder and driver. No crash, every bad line counted exactly once
// (the sum of the per-code counters equals the number of bad lines), and the events stay sane:
// for each (seat, card) places and lifts alternate, starting with a place.
import { describe, expect, it } from 'vitest';
import { BridgeDriver, type SeatEvent } from '../../src/hardware/bridge-driver.js';
import { DeckSet, virtualDeck } from '../../src/hardware/deck.js';
import { decodeLine, encodeFrame, type Frame, isDeviceType, LINE_ERRORS } from '../../src/hardware/protocol.js';
import { MockBinding, type MockPortBinding, scriptedPort } from './mock-port.js';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LINES = 100_000;

describe('fuzz: splitter + decoder + driver', () => {
  it(`${LINES.toLocaleString('en')} random and corrupted lines: no crash, every bad line counted`, async () => {
    const rnd = mulberry32(20240607);
    const int = (n: number) => Math.floor(rnd() * n);
    const deck = virtualDeck('fuzz');
    const decks = new DeckSet([deck]);
    const uids = [...Object.keys(deck.cards), '04DEADBEEF0001', 'CAFEBABE'];

    // A plausible device: tags come and go on 4 readers.
    let seq = 0;
    let boot = 1;
    const on: Array<Set<string>> = [new Set(), new Set(), new Set(), new Set()];
    const next = () => (seq = seq >= 65535 ? 1 : seq + 1);
    const deviceLine = (): string => {
      const k = rnd();
      if (k < 0.002) {
        seq = 0;
        boot = boot >= 65535 ? 1 : boot + 1;
        for (const s of on) s.clear();
        return encodeFrame({ seq: 0, type: 'hello', fw: '2.0.0', proto: 2, readers: 4, reset: 'watchdog', boot });
      }
      if (k < 0.05) {
        return encodeFrame({ seq: next(), type: 'hb', uptimeS: int(1e6), status: 'OOOO', tags: on.map((s) => Math.min(9, s.size)), boot });
      }
      if (k < 0.06) return encodeFrame({ seq: next(), type: 'err', kind: 'reader', reader: int(4), code: 'timeout' });
      const r = int(4);
      const present = [...on[r]];
      if (present.length > 0 && rnd() < 0.5) {
        const u = present[int(present.length)];
        on[r].delete(u);
        return encodeFrame({ seq: next(), type: 'leave', reader: r, uid: u });
      }
      const u = uids[int(uids.length)];
      on[r].add(u);
      return encodeFrame({ seq: next(), type: 'arrive', reader: r, uid: u });
    };
    const PRINTABLE = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
    const garbage = (): string => {
      const n = rnd() < 0.05 ? 97 + int(400) : int(90);
      let s = '';
      for (let i = 0; i < n; i++) {
        const b = rnd() < 0.9 ? PRINTABLE.charCodeAt(int(PRINTABLE.length)) : int(256);
        s += String.fromCharCode(b === 0x0a ? 0x20 : b);
      }
      return s;
    };
    const corrupt = (line: string): string => {
      const chars = [...line];
      const flips = 1 + (rnd() < 0.3 ? int(4) : 0);
      for (let f = 0; f < flips; f++) {
        const i = int(chars.length);
        let b = int(256);
        if (b === 0x0a || b === chars[i].charCodeAt(0)) b = 0x7f;
        chars[i] = String.fromCharCode(b);
      }
      return chars.join('');
    };

    const lines: string[] = [];
    let intendedBad = 0;
    for (let i = 0; i < LINES; i++) {
      const k = rnd();
      if (k < 0.6) lines.push(deviceLine());
      else if (k < 0.85) {
        lines.push(corrupt(deviceLine())); // the damaged line still used up a seq number
        intendedBad++;
      } else if (k < 0.99) {
        lines.push(garbage());
        intendedBad++;
      } else lines.push(rnd() < 0.5 ? '' : '\r');
    }
    // Oracle: what the shared decoder says about each line (after the splitter's cap).
    let expectBad = 0;
    let expectEmpty = 0;
    let expectOk = 0;
    const expectByCode: Record<string, number> = {};
    for (const l of lines) {
      const r = decodeLine(l);
      if (r.ok) {
        if (isDeviceType(r.frame.type)) expectOk++;
      } else if (r.error === 'empty') expectEmpty++;
      else {
        expectBad++;
        expectByCode[r.error] = (expectByCode[r.error] ?? 0) + 1;
      }
    }
    // Single-byte damage is always caught (CRC-8); multi-byte damage nearly always.
    expect(expectBad).toBeGreaterThan(intendedBad * 0.99);
    expect(expectBad).toBeLessThanOrEqual(intendedBad);

    // The port: answer the driver's ident, then pour the lines in, in random-sized chunks.
    const path = '/dev/serial/by-id/usb-fuzz';
    let answered: MockPortBinding | undefined; // the first ident on each open is answered
    const { binding, port } = scriptedPort(path, (buf, b) => {
      const r = decodeLine(buf.toString('latin1').trim());
      if (answered !== b && r.ok && r.frame.type === 'ident') {
        answered = b;
        const f = (x: Omit<Frame, 'seq'>, s: number) => `${encodeFrame({ ...x, seq: s } as Frame)}\n`;
        setImmediate(() =>
          b.emitData(f({ type: 'ack', hseq: r.frame.seq, cmd: 'ident' }, 1) + f({ type: 'identity', fw: '2.0.0', proto: 2, readers: 4, reset: 'power', uptimeS: 9, boot: 1 }, 2)),
        );
      }
    }, { maxReadSize: 4096 });
    // Only ident is answered: every since fails after its three short tries, and the driver goes on
    // with live lines as order-unknown, waiting for a snapshot that never comes.
    const driver = new BridgeDriver({ path, bridgeId: 'fz', binding, decks, heartbeatTimeoutMs: 60_000, commandTimeoutMs: 5, snapshotTimeoutMs: 60_000 });
    const events: SeatEvent[] = [];
    driver.on('event', (e) => events.push(e));
    let identified = false;
    driver.on('bridge-status', (s) => {
      if (s.status === 'online') identified = true;
    });
    driver.start();
    const t0 = Date.now();
    while (!identified) {
      if (Date.now() - t0 > 3000) throw new Error('not identified');
      await new Promise((r) => setTimeout(r, 2));
    }
    const okBefore = driver.stats.linesOk;
    const stream = Buffer.from(lines.join('\n') + '\n', 'latin1');
    for (let at = 0; at < stream.length; ) {
      const n = 1 + int(8192);
      port()!.emitData(stream.subarray(at, at + n));
      at += n;
      if (rnd() < 0.05) await new Promise((r) => setImmediate(r));
    }
    const s = driver.stats;
    const t1 = Date.now();
    while (s.linesOk - okBefore + s.unexpected + s.badTotal + s.emptyLines < lines.length) {
      if (Date.now() - t1 > 15_000) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    await driver.stop();
    MockBinding.reset();

    // Every line accounted for, every bad one under exactly one code.
    expect(s.linesOk - okBefore + s.unexpected + s.badTotal + s.emptyLines).toBe(lines.length);
    const sum = LINE_ERRORS.filter((e) => e !== 'empty').reduce((a, e) => a + s.bad[e as keyof typeof s.bad], 0);
    expect(sum).toBe(s.badTotal);
    expect(s.badTotal).toBe(expectBad);
    expect(s.emptyLines).toBe(expectEmpty);
    for (const [code, n] of Object.entries(expectByCode)) expect(s.bad[code as keyof typeof s.bad], code).toBe(n);
    expect(s.linesOk - okBefore).toBe(expectOk);
    expect(s.gaps).toBeGreaterThan(1000); // damaged lines leave gaps
    expect(s.listenerErrors).toBe(0);

    // Events: per (seat, card|tag), place and lift alternate starting with a place.
    expect(events.length).toBeGreaterThan(1000);
    const state = new Map<string, boolean>();
    for (const e of events) {
      const k = `${e.seat} ${'card' in e ? e.card : e.tag}`;
      const isOn = state.get(k) ?? false;
      expect(e.type === 'place', `${e.type} ${k}`).toBe(!isOn);
      state.set(k, !isOn);
    }
    expect(s.unknownTags).toBeGreaterThan(0);
  }, 60_000);
});
