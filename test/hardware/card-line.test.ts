// The byte-level decoder of the lines of play (card-line.ts) against decodeLine, and the driver with
// it against the driver without it: same verdicts, same values, same events, on valid lines and on
// seeded random corruptions of them.
import { describe, expect, it } from 'vitest';
import { BridgeDriver } from '../../src/hardware/bridge-driver.js';
import { CARD_ARRIVE, CARD_HB, CARD_LEAVE, decodeCardLine, newCardLine, uidHashOfBytes, uidHashOfString } from '../../src/hardware/card-line.js';
import { DeckSet, virtualDeck } from '../../src/hardware/deck.js';
import { latin1 } from '../../src/hardware/line-splitter.js';
import { decodeLine, encodeFrame, withCrc } from '../../src/hardware/protocol.js';
import { FaultRandom } from '../../src/hardware/emulator-faults.js';

/** The seeded generator of the emulator's faults (mulberry32), as a function. */
function mulberry32(seed: number): () => number {
  const r = new FaultRandom(seed);
  return () => r.next();
}

const HEX = '0123456789ABCDEF';
/** Characters that sit on the edges of the field grammar. */
const EDGY = ['0', '1', '7', '8', '9', 'A', 'F', 'G', 'a', 'f', 'O', 'W', 'F', 'X', ' ', '  ', '*', '\r', '\t', '\x7f', '\xe9', 'hb', 'tag', 'rec'];

function generator(seed: number) {
  const rnd = mulberry32(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const uid = (bytes = pick([4, 7, 10, 7, 7])) => Array.from({ length: bytes * 2 }, () => HEX[int(16)]).join('');
  const valid = (): string => {
    const seq = 1 + int(65535);
    const k = rnd();
    if (k < 0.7) return encodeFrame({ seq, type: k < 0.35 ? 'arrive' : 'leave', reader: int(8), uid: uid() });
    const n = 1 + int(8);
    const status = Array.from({ length: n }, () => pick(['O', 'O', 'W', 'F'])).join('');
    const tags = Array.from({ length: n }, () => int(10));
    const uptimeS = pick([0, 1, int(100000), 4294967295]);
    return encodeFrame({ seq, type: 'hb', uptimeS, status, tags, boot: 1 + int(65535) });
  };
  /** A corruption of `line`: raw (CRC now wrong, mostly) or re-checksummed (reaching the grammar). */
  const corrupt = (line: string): string => {
    const body = line.slice(0, -3);
    const at = int(body.length + 1);
    switch (int(10)) {
      case 0: {
        const i = int(line.length);
        return line.slice(0, i) + String.fromCharCode(int(256)) + line.slice(i + 1);
      }
      case 1:
        return line.slice(0, at) + pick(EDGY) + line.slice(at);
      case 2:
        return line.slice(0, at) + line.slice(at + 1);
      case 3:
        return `${line}${pick(['\r', '\r\r', ' ', '\n'])}`;
      case 4:
        return line.slice(0, -2) + line.slice(-2).toLowerCase();
      case 5: {
        // A field replaced by an edge value, with a good checksum.
        const tok = body.split(' ');
        const i = int(tok.length);
        tok[i] = pick(['0', '00', '01', '8', '65535', '65536', '4294967295', '4294967296', '12345678901', uid(), uid(3), uid(4).toLowerCase(), 'OOOOOOOOO', 'OWF', '', 'arrive', 'leave', 'hb', 'hello', 'tag']);
        return withCrc(tok.join(' '));
      }
      case 6: {
        // An extra or a missing field, with a good checksum.
        const tok = body.split(' ');
        if (rnd() < 0.5) tok.push(pick(['0', uid(), 'O']));
        else tok.splice(1 + int(tok.length - 1), 1);
        return withCrc(tok.join(' '));
      }
      case 7:
        return withCrc(body.slice(0, at) + pick(EDGY) + body.slice(at));
      case 8:
        return withCrc(body.slice(0, at) + body.slice(at + 1));
      default:
        return withCrc(`${body}${'0'.repeat(int(80))}`);
    }
  };
  return { rnd, int, pick, uid, valid, corrupt };
}

describe('decodeCardLine = decodeLine on the lines of play', () => {
  it('takes exactly the valid arrive/leave/hb lines, with the same values, on 60,000 seeded lines and corruptions', () => {
    const g = generator(20_261_205);
    const out = newCardLine();
    const kinds = new Map<number, string>([[CARD_ARRIVE, 'arrive'], [CARD_LEAVE, 'leave'], [CARD_HB, 'hb']]);
    const seen = { fast: 0, slowValid: 0, slowBad: 0 };
    for (let i = 0; i < 60_000; i++) {
      let line = g.valid();
      for (let k = g.int(3); k > 0; k--) line = g.corrupt(line);
      // The line inside a larger buffer, as the splitter hands it over.
      const pad = g.int(5);
      const buf = Buffer.from(`${'x'.repeat(pad)}${line}\nyz`, 'latin1');
      const fast = decodeCardLine(buf, pad, pad + line.length, out);
      const slow = decodeLine(line);
      if (slow.ok) seen.slowValid++;
      else seen.slowBad++;
      const takes = slow.ok && (slow.frame.type === 'arrive' || slow.frame.type === 'leave' || slow.frame.type === 'hb');
      expect(fast, JSON.stringify(line)).toBe(takes);
      if (!fast || !slow.ok) continue;
      seen.fast++;
      const f = slow.frame;
      expect(kinds.get(out.kind)).toBe(f.type);
      expect(out.seq).toBe(f.seq);
      if (f.type === 'hb') {
        expect(out.uptimeS).toBe(f.uptimeS);
        expect(out.boot).toBe(f.boot);
        expect(latin1(buf, out.statusStart, out.statusEnd)).toBe(f.status);
        const n = out.statusEnd - out.statusStart;
        expect(Array.from(buf.subarray(out.tagsStart, out.tagsStart + n), (c) => c - 0x30)).toEqual(f.tags);
      } else {
        expect(out.reader).toBe(f.reader);
        expect(latin1(buf, out.uidStart, out.uidEnd)).toBe(f.uid);
        expect(out.uidHash).toBe(uidHashOfString(f.uid as string));
        expect(out.uidHash).toBe(uidHashOfBytes(buf, out.uidStart, out.uidEnd));
      }
    }
    // Both sides of the comparison occur often.
    expect(seen.fast).toBeGreaterThan(15_000);
    expect(seen.slowBad).toBeGreaterThan(15_000);
  });
});

/** A driver that never decodes in place: every line goes to decodeLine as a string. */
function slowDriver(d: BridgeDriver, calls: { n: number }): BridgeDriver {
  // The splitter calls `this.onLine`, so an own property replaces the fast path for this instance.
  const self = d as unknown as { onLine(buf: Buffer, s: number, e: number): void; onItem(item: string): void };
  self.onLine = (buf, s, e) => {
    calls.n++;
    self.onItem(latin1(buf, s, e));
  };
  return d;
}

/** Everything a driver tells: its events, frames, presence changes, line errors, stats and J. */
function recorder(d: BridgeDriver): { log: string[]; summary: () => unknown } {
  const log: string[] = [];
  d.on('event', (ev, origin) => log.push(`event ${JSON.stringify(ev)} ${JSON.stringify(origin)}`));
  d.on('frame', (f) => log.push(`frame ${JSON.stringify(f)}`));
  d.on('presence', (c) => log.push(`presence ${JSON.stringify(c)}`));
  d.on('line-error', (e, line) => log.push(`line-error ${e} ${JSON.stringify(line)}`));
  d.on('reader-status', (s) => log.push(`reader-status ${JSON.stringify(s)}`));
  d.on('bridge-status', (s) => log.push(`bridge-status ${JSON.stringify(s)}`));
  d.on('synced', (s) => log.push(`synced ${JSON.stringify(s)}`));
  return { log, summary: () => ({ stats: d.stats, presence: d.presence(), position: d.position(), readers: d.readerStatuses() }) };
}

describe('BridgeDriver with the byte-level fast path = without it', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`same events, frames, errors, stats and presence on a corrupted session (seed ${seed})`, async () => {
      const g = generator(seed * 7919);
      const deck = virtualDeck('diff');
      const decks = new DeckSet([deck]);
      // Deck tags and strangers, a few of them on several readers.
      const uids = [...Object.keys(deck.cards).slice(0, 20), g.uid(4), g.uid(7), g.uid(10)];
      const lines: string[] = [];
      let seq = 0;
      let boot = 7;
      const next = () => (seq = seq >= 65535 ? 1 : seq + 1);
      lines.push(encodeFrame({ seq: 0, type: 'hello', fw: '1.0.0', proto: 2, readers: 4, reset: 'power', boot }));
      const on: Array<Set<string>> = [new Set(), new Set(), new Set(), new Set()];
      for (let i = 0; i < 4000; i++) {
        const k = g.rnd();
        let line: string;
        if (k < 0.6) {
          const reader = g.int(5) === 4 ? 7 : g.int(4); // reader 7: not in the seat map
          const u = g.pick(uids);
          const arrive = g.rnd() < 0.55;
          if (reader < 4) {
            if (arrive) on[reader].add(u);
            else on[reader].delete(u);
          }
          line = encodeFrame({ seq: next(), type: arrive ? 'arrive' : 'leave', reader, uid: u });
        } else if (k < 0.8) {
          // Heartbeats: mostly true counts; now and then a wrong one, a fault, or a new boot.
          const status = g.rnd() < 0.9 ? 'OOOO' : g.pick(['OOWO', 'FOOO', 'OOO', 'OOOOO']);
          const tags = Array.from({ length: status.length }, (_, r) => (r < 4 ? Math.min(9, on[r].size) : 0) + (g.rnd() < 0.05 ? 1 : 0));
          if (g.rnd() < 0.01) boot = 1 + g.int(65535);
          line = encodeFrame({ seq: next(), type: 'hb', uptimeS: i, status, tags: tags.map((n) => Math.min(9, n)), boot });
        } else if (k < 0.84) {
          line = encodeFrame({ seq: next(), type: 'identity', fw: '1.0.0', proto: 2, readers: 4, reset: 'power', uptimeS: i, boot });
        } else if (k < 0.87) {
          const total = g.int(3);
          lines.push(encodeFrame({ seq: next(), type: 'snap', hseq: g.int(5), total }));
          for (let t = 0; t < total; t++) lines.push(encodeFrame({ seq: next(), type: 'tag', reader: g.int(4), uid: g.pick(uids) }));
          line = encodeFrame({ seq: next(), type: 'snapend', hseq: g.int(5), total, status: 'OOOO' });
        } else if (k < 0.89) {
          line = encodeFrame({ seq: next(), type: 'rec', oseq: Math.max(1, seq - g.int(5)), kind: g.pick(['arrive', 'leave'] as const), reader: g.int(4), uid: g.pick(uids) });
        } else if (k < 0.9) {
          line = encodeFrame({ seq: next(), type: 'err', kind: 'overflow', dropped: 1 + g.int(3) });
        } else if (k < 0.905) {
          seq = 0;
          boot = 1 + g.int(65535);
          line = encodeFrame({ seq: 0, type: 'hello', fw: '1.0.0', proto: 2, readers: 4, reset: 'watchdog', boot });
        } else {
          // A corrupted line of play, a repeated line, a line from the past, or a gap.
          const r = g.rnd();
          if (r < 0.5) line = g.corrupt(encodeFrame({ seq: next(), type: g.pick(['arrive', 'leave'] as const), reader: g.int(4), uid: g.pick(uids) }));
          else if (r < 0.7) line = lines[lines.length - 1] ?? '';
          else if (r < 0.85) line = lines[Math.max(0, lines.length - 1 - g.int(10))] ?? '';
          else {
            for (let s = g.int(4); s > 0; s--) next();
            line = encodeFrame({ seq: next(), type: 'arrive', reader: g.int(4), uid: g.pick(uids) });
          }
        }
        lines.push(line);
        if (g.rnd() < 0.01) lines.push('x'.repeat(90 + g.int(200))); // too long, or nearly
      }
      const bytes = Buffer.from(`${lines.join('\n')}\n`, 'latin1');

      const make = () => {
        const d = new BridgeDriver({ path: '/dev/diff', bridgeId: 'diff', decks, initialPresence: [{ reader: 1, uid: uids[0] }, { seat: 'S', card: deck.cards[uids[1]] }] });
        // As if its port were open, so the resync paths run too (their commands fail at once: no port).
        const inner = d as unknown as { link?: { state: string }; run?: string };
        if (inner.link) inner.link.state = 'open';
        else inner.run = 'open'; // a driver from before serial-link.ts
        expect(d.isOnline()).toBe(false);
        return d;
      };
      const calls = { n: 0 };
      const fast = make();
      const slow = slowDriver(make(), calls);
      const rf = recorder(fast);
      const rs = recorder(slow);
      // The same chunks to both, with the microtasks (failed commands) run between batches.
      let off = 0;
      while (off < bytes.length) {
        for (let b = 0; b < 20 && off < bytes.length; b++) {
          const n = 1 + g.int(g.rnd() < 0.5 ? 64 : 300);
          const chunk = bytes.subarray(off, off + n);
          fast.receive(chunk);
          slow.receive(chunk);
          off += n;
        }
        await Promise.resolve();
        await new Promise((res) => setImmediate(res));
      }
      await fast.stop();
      await slow.stop();
      expect(calls.n).toBeGreaterThan(lines.length / 2);
      expect(rf.log.length).toBeGreaterThan(1000);
      for (let i = 0; i < Math.max(rf.log.length, rs.log.length); i++) {
        if (rf.log[i] !== rs.log[i]) expect({ i, fast: rf.log[i] }).toEqual({ i, fast: rs.log[i] });
      }
      expect(rf.summary()).toEqual(rs.summary());
      // The session reached the paths it was meant to.
      const st = fast.stats;
      expect(st.places).toBeGreaterThan(100);
      expect(st.badTotal).toBeGreaterThan(50);
      expect(st.gaps + st.duplicates).toBeGreaterThan(20);
      expect(st.sinceRequests).toBeGreaterThan(10);
      expect(st.held).toBeGreaterThan(10);
      expect(st.orderUnknown).toBeGreaterThan(10);
    });
  }
});
