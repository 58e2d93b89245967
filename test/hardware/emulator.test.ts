// The firmware emulator on an in-memory Duplex: it must speak PROTOCOL.md v2 exactly (the example
// session of §15 byte for byte), answer host lines as command.cpp does, snapshot and replay
// correctly, play a log, and inject the faults of its SPEC.
import { Duplex, PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { virtualDeck } from '../../src/hardware/deck.js';
import { FirmwareEmulator, planSteps, streamLink, invisibleIn } from '../../src/hardware/emulator.js';
import { FaultRandom, FaultSpecError, corruptLine, formatFaultSpec, parseFaultSpec } from '../../src/hardware/emulator-faults.js';
import { type Frame, decodeLine, withCrc } from '../../src/hardware/protocol.js';
import { SeatMap } from '../../src/hardware/seat-map.js';
import type { TableEvent } from '../../src/formats/table-log.js';

/** A host on the other end of an in-memory wire. */
class Host {
  readonly raw: string[] = [];
  private buf = '';
  private readonly toDev = new PassThrough();
  private readonly fromDev = new PassThrough();
  readonly deviceEnd: Duplex;

  constructor() {
    this.deviceEnd = Duplex.from({ readable: this.toDev, writable: this.fromDev });
    this.fromDev.on('data', (b: Buffer) => {
      this.buf += b.toString('latin1');
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        this.raw.push(this.buf.slice(0, nl));
        this.buf = this.buf.slice(nl + 1);
      }
    });
  }

  /** Send a line body with its CRC (or raw bytes when `raw`). */
  send(body: string, raw = false): void {
    this.toDev.write(raw ? body : `${withCrc(body)}\n`);
  }

  frames(): Frame[] {
    return this.raw.map((l) => decodeLine(l)).filter((r) => r.ok).map((r) => (r as { frame: Frame }).frame);
  }

  async waitLines(n: number, ms = 3000): Promise<string[]> {
    await waitFor(() => this.raw.length >= n, ms, () => `only ${this.raw.length} of ${n} lines: ${this.raw.join(' | ')}`);
    return this.raw;
  }

  async waitFrame(pred: (f: Frame) => boolean, ms = 3000): Promise<Frame> {
    let found: Frame | undefined;
    await waitFor(() => (found = this.frames().find(pred)) !== undefined, ms, () => `no such frame in: ${this.raw.join(' | ')}`);
    return found!;
  }
}

async function waitFor(cond: () => boolean, ms: number, why: () => string = () => 'timed out'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(why());
    await new Promise((r) => setTimeout(r, 2));
  }
}

const emulators: FirmwareEmulator[] = [];
afterEach(async () => {
  for (const e of emulators.splice(0)) await e.stop();
});

async function startEmu(opts: ConstructorParameters<typeof FirmwareEmulator>[0] = {}) {
  const host = new Host();
  const emu = new FirmwareEmulator({ heartbeatMs: 60_000, bootMs: 1, ...opts });
  emulators.push(emu);
  await emu.start(streamLink(host.deviceEnd));
  return { host, emu };
}

describe('FirmwareEmulator: the wire', () => {
  it('reproduces the example session of PROTOCOL.md §15 byte for byte', async () => {
    const host = new Host();
    const emu = new FirmwareEmulator({ fw: '1.0.0', bootMs: 1 });
    emulators.push(emu);
    emu.place(0, '04A1B2C3D4E5F6'); // a card already on North's spot at power-up
    await emu.start(streamLink(host.deviceEnd));
    await host.waitLines(2);
    host.send('1 ident');
    host.send('2 present');
    await host.waitLines(9);
    await host.waitLines(10, 2500); // the first heartbeat, one second after the reset
    emu.place(2, '04C29A5B7F3A80');
    emu.lift(0, '04A1B2C3D4E5F6');
    await host.waitLines(12);
    host.send('3 since 8383 9*CE\n', true);
    await host.waitLines(17);
    host.send('4 since 8382 9*10\n', true);
    await host.waitLines(18);
    expect(host.raw).toEqual([
      '0 hello 1.0.0 2 4 power 8383*E6',
      '1 cfg 50 3*BC',
      '2 ack 1 ident*D3',
      '3 identity 1.0.0 2 4 power 0 8383*D1',
      '4 ack 2 present*0F',
      '5 arrive 0 04A1B2C3D4E5F6*81',
      '6 snap 2 1*83',
      '7 tag 0 04A1B2C3D4E5F6*8C',
      '8 snapend 2 1 OOOO*5D',
      '9 hb 1 OOOO 1000 8383*67',
      '10 arrive 2 04C29A5B7F3A80*9E',
      '11 leave 0 04A1B2C3D4E5F6*24',
      '12 ack 3 since*62',
      '13 replay 3 2*36',
      '14 rec 10 arrive 2 04C29A5B7F3A80*2A',
      '15 rec 11 leave 0 04A1B2C3D4E5F6*75',
      '16 replayend 3 2*56',
      '17 nak 4 gone*76',
    ]);
  });

  it('answers host lines as §7 and the §15 examples say', async () => {
    const { host } = await startEmu({ fw: '1.0.0' });
    await host.waitLines(2);
    host.send('3 set 40 4*DB\n', true);
    host.send('4 set 5 4*48\n', true); // 5 ms is below the minimum
    host.send('5 pong*ED\n', true);
    host.send('6 ping*00\n', true); // damaged: the right CRC is 90
    host.send('\n', true); // an empty line: no answer
    host.send('\r\n', true);
    host.send('7 ping');
    host.send('8 hello 1.0.0 2 4 power 7'); // a device type sent to the device
    host.send('9 ping extra');
    host.send('10 set 40');
    host.send('x ping');
    host.send(`11 ${'p'.repeat(120)}`);
    host.send('12 ping\r\n', true); // no checksum
    host.send('13 ping\x01*00\n', true);
    const lines = await host.waitLines(2 + 13);
    const rest = lines.slice(2).map((l) => l.replace(/^\d+ /, '').replace(/\*[0-9A-F]{2}$/, ''));
    expect(rest).toEqual([
      'ack 3 set', 'cfg 40 4',
      'nak 4 bad-field',
      'nak 5 unknown-type',
      'err line bad-crc',
      'ack 7 ping',
      'nak 8 unknown-type',
      'nak 9 extra-field',
      'nak 10 missing-field',
      'err line bad-seq',
      'err line too-long',
      'err line no-checksum',
      'err line bad-char',
    ]);
    // Every line the emulator wrote decodes, with consecutive sequence numbers.
    const frames = host.frames();
    expect(frames).toHaveLength(lines.length);
    expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i));
  });

  it('heartbeats every period: W until the readers settle, then O, with the tag count per reader', async () => {
    const { host, emu } = await startEmu({ heartbeatMs: 40, readers: 3 });
    emu.place(1, '04000000000001');
    emu.place(1, '04000000000002');
    const hbO = await host.waitFrame((f) => f.type === 'hb' && f.status === 'OOO');
    expect(hbO.tags).toEqual([0, 2, 0]);
    const hbs = host.frames().filter((f) => f.type === 'hb');
    expect(hbs.length).toBeGreaterThanOrEqual(1);
    for (const f of hbs) expect(typeof f.uptimeS).toBe('number');
    // hello says 3 readers
    expect(host.frames()[0]).toMatchObject({ type: 'hello', readers: 3 });
  });

  it('present: one snapshot, readers in index order and tags in order of arrival, lines consecutive', async () => {
    const { host, emu } = await startEmu();
    emu.place(2, '04BBBBBBBBBBBB');
    emu.place(0, '04AAAAAAAAAAAA');
    emu.place(2, '04CCCCCCCCCCCC');
    await emu.whenReady();
    host.send('20 present');
    host.send('21 present'); // before the answer: shares it? (here the first is answered at once)
    await host.waitFrame((f) => f.type === 'snapend' && f.hseq === 21);
    const f = host.frames();
    const snapAt = f.findIndex((x) => x.type === 'snap');
    const snap = f.slice(snapAt, snapAt + 5);
    expect(snap.map(({ seq: _s, ...rest }) => rest)).toEqual([
      { type: 'snap', hseq: 20, total: 3 },
      { type: 'tag', reader: 0, uid: '04AAAAAAAAAAAA' },
      { type: 'tag', reader: 2, uid: '04BBBBBBBBBBBB' },
      { type: 'tag', reader: 2, uid: '04CCCCCCCCCCCC' },
      { type: 'snapend', hseq: 20, total: 3, status: 'OOOO' },
    ]);
    for (let i = 1; i < snap.length; i++) expect(snap[i].seq).toBe(snap[i - 1].seq + 1);
  });

  it('several presents before a settled answer share one snapshot with the latest hseq', async () => {
    const host = new Host();
    const emu = new FirmwareEmulator({ heartbeatMs: 60_000, bootMs: 1 });
    emulators.push(emu);
    await emu.start(streamLink(host.deviceEnd));
    await host.waitLines(1);
    host.send('1 present');
    host.send('2 present');
    host.send('3 present');
    await host.waitFrame((f) => f.type === 'snapend');
    await new Promise((r) => setTimeout(r, 200));
    const f = host.frames();
    expect(f.filter((x) => x.type === 'ack').map((x) => x.hseq)).toEqual([1, 2, 3]);
    expect(f.filter((x) => x.type === 'snap')).toEqual([expect.objectContaining({ hseq: 3, total: 0 })]);
    expect(f.find((x) => x.type === 'snapend')).toMatchObject({ hseq: 3, status: 'OOOO' });
  });

  it('reset: ack, then hello (seq 0, cause host) and cfg with the defaults; cards on the table are seen again', async () => {
    const { host, emu } = await startEmu();
    emu.place(1, '04111111111111');
    await emu.whenReady();
    const before = emu.boot();
    host.send('5 set 100 5');
    host.send('6 reset');
    await host.waitFrame((f) => f.type === 'hello' && f.reset === 'host');
    await waitFor(() => host.frames().filter((f) => f.type === 'arrive').length === 2, 2000);
    const f = host.frames();
    const resetAck = f.findIndex((x) => x.type === 'ack' && x.cmd === 'reset');
    expect(emu.boot()).not.toBe(before);
    expect(f[0]).toMatchObject({ type: 'hello', boot: before });
    expect(f.slice(resetAck + 1).map(({ seq, type, ...rest }) => ({ seq, type, ...rest }))).toEqual([
      { seq: 0, type: 'hello', fw: '1.0.0-emu', proto: 2, readers: 4, reset: 'host', boot: emu.boot() },
      { seq: 1, type: 'cfg', pollMs: 50, misses: 3 },
      { seq: 2, type: 'arrive', reader: 1, uid: '04111111111111' },
    ]);
    expect(emu.stats.resets).toBe(1);
  });

  it('a ninth tag on one antenna: err reader overfull once, and it arrives when there is room', async () => {
    const { host, emu } = await startEmu();
    await emu.whenReady();
    const uids = Array.from({ length: 10 }, (_, i) => `04${String(i).padStart(12, '0')}`);
    for (const u of uids) emu.place(0, u);
    emu.lift(0, uids[0]);
    await waitFor(() => host.frames().filter((f) => f.type === 'arrive').length === 9, 2000);
    const f = host.frames().filter((x) => x.type === 'arrive' || x.type === 'leave' || x.type === 'err');
    expect(f.map((x) => (x.type === 'err' ? `err ${x.code}` : `${x.type} ${(x.uid as string).slice(-2)}`))).toEqual([
      ...uids.slice(0, 8).map((u) => `arrive ${u.slice(-2)}`),
      'err overfull',
      `leave 00`, `arrive 08`,
    ]);
    expect(emu.presence()[0]).toHaveLength(8);
  });

  it('ident after a reset reports its cause and the uptime', async () => {
    const { host, emu } = await startEmu();
    emu.reset('watchdog');
    await host.waitFrame((f) => f.type === 'hello' && f.reset === 'watchdog');
    host.send('9 ident');
    const id = await host.waitFrame((f) => f.type === 'identity');
    expect(id).toMatchObject({ fw: '1.0.0-emu', proto: 2, readers: 4, reset: 'watchdog', uptimeS: 0, boot: emu.boot() });
  });
});

describe('fault SPEC', () => {
  it('parses the documented example', () => {
    const p = parseFaultSpec('crc:0.01,flicker:0.05,lose:0.01,reset:at=120,unplug:at=200:for=1500');
    expect(p).toEqual({
      crc: 0.01, flicker: 0.05, lose: 0.01,
      resets: [{ at: 120, reason: 'watchdog' }],
      unplugs: [{ at: 200, forMs: 1500, play: 0 }],
      badHellos: [],
      seed: 1,
    });
    expect(parseFaultSpec(formatFaultSpec(p))).toEqual(p);
  });

  it('takes p=, several resets and unplugs, a reason, play=, a seed; an empty spec is no faults', () => {
    const p = parseFaultSpec(' crc:p=0.5 , reset:at=9:reason=pin,reset:at=3,unplug:at=4:for=0:play=2,seed:42');
    expect(p.crc).toBe(0.5);
    expect(p.resets).toEqual([{ at: 3, reason: 'watchdog' }, { at: 9, reason: 'pin' }]);
    expect(p.unplugs).toEqual([{ at: 4, forMs: 0, play: 2 }]);
    expect(p.seed).toBe(42);
    expect(parseFaultSpec(formatFaultSpec(p))).toEqual(p);
    expect(parseFaultSpec('')).toEqual({ crc: 0, lose: 0, flicker: 0, resets: [], unplugs: [], badHellos: [], seed: 1 });
  });

  it('takes a lost or corrupted hello after a reset, and foreign hellos (issue 12)', () => {
    const p = parseFaultSpec('reset:at=4:hello=lost,badhello:at=9,reset:at=2:reason=pin:hello=crc,badhello:at=3');
    expect(p.resets).toEqual([{ at: 2, reason: 'pin', hello: 'crc' }, { at: 4, reason: 'watchdog', hello: 'lost' }]);
    expect(p.badHellos).toEqual([3, 9]);
    expect(parseFaultSpec(formatFaultSpec(p))).toEqual(p);
  });

  it('refuses bad specs with a sentence naming the item', () => {
    const cases: [string, RegExp][] = [
      ['crc:2', /"crc:2".*probability/],
      ['crc', /write crc:0.01/],
      ['crc:0.1,crc:0.2', /given twice/],
      ['bogus:1', /unknown fault "bogus"/],
      ['reset', /"at=" is required/],
      ['reset:at=0', /at must be an integer ≥ 1/],
      ['reset:at=3:reason=coffee', /reason must be one of/],
      ['unplug:at=3', /"for=" is required/],
      ['unplug:at=3:for=10:when=2', /unknown parameter "when"/],
      ['unplug:at=3:for=x', /for must be an integer/],
      ['lose:abc', /probability/],
      ['reset:at=3:hello=gone', /hello must be one of lost, crc/],
      ['badhello', /"at=" is required/],
      ['badhello:at=0', /at must be an integer ≥ 1/],
      ['badhello:at=2:reason=pin', /unknown parameter "reason"/],
    ];
    for (const [spec, re] of cases) {
      expect(() => parseFaultSpec(spec), spec).toThrow(FaultSpecError);
      expect(() => parseFaultSpec(spec), spec).toThrow(re);
    }
  });

  it('corruptLine breaks the CRC and keeps one printable line', () => {
    const rnd = new FaultRandom(7);
    const line = withCrc('12 arrive 3 04A1B2C3D4E5F6');
    for (let i = 0; i < 2000; i++) {
      const bad = corruptLine(line, rnd);
      expect(bad).not.toBe(line);
      expect(bad).toMatch(/^[\x20-\x7e]+$/);
      const r = decodeLine(bad);
      expect(r.ok).toBe(false);
    }
  });
});

describe('faults on the wire', () => {
  it('crc:1 corrupts every line but the hello', async () => {
    const { host, emu } = await startEmu({ faults: 'crc:1' });
    emu.place(0, '04A1B2C3D4E5F6');
    await host.waitLines(3);
    expect(decodeLine(host.raw[0]).ok).toBe(true);
    for (const l of host.raw.slice(1)) expect(decodeLine(l).ok).toBe(false);
    expect(emu.stats.corrupted).toBe(host.raw.length - 1);
  });

  it('lose: dropped lines leave seq gaps, and an err overflow with the count goes out before the next line', async () => {
    const { host, emu } = await startEmu({ faults: 'lose:0.3,seed:5' });
    await emu.whenReady();
    for (let i = 0; i < 40; i++) emu.place(i % 4, `04${String(i).padStart(12, '0')}`);
    // One more line after the last drop, so that every drop has been reported; the ack may itself
    // be lost, so ping until one arrives.
    for (let h = 100; !host.frames().some((f) => f.type === 'ack'); h++) {
      host.send(`${h} ping`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 10));
    while (host.frames().at(-1)?.type === 'err') await new Promise((r) => setTimeout(r, 5));
    const f = host.frames();
    expect(emu.stats.lost).toBeGreaterThan(3);
    let lost = 0;
    for (let i = 1; i < f.length; i++) {
      const gap = f[i].seq - f[i - 1].seq - 1;
      if (gap > 0) {
        lost += gap;
        expect(f[i]).toMatchObject({ type: 'err', kind: 'overflow', dropped: gap });
      }
    }
    expect(lost).toBe(emu.stats.lost);
    const reported = f.filter((x) => x.type === 'err' && x.kind === 'overflow').reduce((a, x) => a + (x.dropped as number), 0);
    expect(reported).toBe(emu.stats.lost);
  });

  it('lose never drops a snapshot line or the hello', async () => {
    const { host, emu } = await startEmu({ faults: 'lose:0.9,seed:3' });
    for (let r = 0; r < 4; r++) emu.place(r, `04${String(r).padStart(12, '0')}`);
    await emu.whenReady();
    host.send('1 present');
    await waitFor(() => host.frames().some((f) => f.type === 'snapend'), 2000);
    const f = host.frames();
    expect(f[0].type).toBe('hello');
    const s = f.findIndex((x) => x.type === 'snap');
    expect(f.slice(s, s + 6).map((x) => x.type)).toEqual(['snap', 'tag', 'tag', 'tag', 'tag', 'snapend']);
  });

  it('flicker:1 repeats every arrive and leave with a new seq', async () => {
    const { host, emu } = await startEmu({ faults: 'flicker:1' });
    await emu.whenReady();
    emu.place(3, '04A1B2C3D4E5F6');
    emu.lift(3, '04A1B2C3D4E5F6');
    await waitFor(() => host.frames().filter((f) => f.type === 'leave').length === 2, 2000);
    const ev = host.frames().filter((f) => f.type === 'arrive' || f.type === 'leave');
    expect(ev.map((f) => `${f.type} ${f.reader} ${f.uid}`)).toEqual([
      'arrive 3 04A1B2C3D4E5F6', 'arrive 3 04A1B2C3D4E5F6', 'leave 3 04A1B2C3D4E5F6', 'leave 3 04A1B2C3D4E5F6',
    ]);
    expect(new Set(ev.map((f) => f.seq)).size).toBe(4);
    expect(emu.stats.flickers).toBe(2);
  });
});

/** The replay that answers host line `hseq`: its lines from `replay` to `replayend`. */
function replayOf(frames: Frame[], hseq: number): Frame[] {
  const a = frames.findIndex((f) => f.type === 'replay' && f.hseq === hseq);
  const b = frames.findIndex((f) => f.type === 'replayend' && f.hseq === hseq);
  return a >= 0 && b > a ? frames.slice(a, b + 1) : [];
}
const uidN = (i: number) => `04${String(i).padStart(12, '0')}`;
const events = (frames: Frame[]) => frames.filter((f) => f.type === 'arrive' || f.type === 'leave');

describe('v2: boot ids (PROTOCOL.md §4)', () => {
  it('hello, identity and every hb carry the boot id; a reset, a host reset and an unplug each pick a new one', async () => {
    const { host, emu } = await startEmu({ heartbeatMs: 30 });
    const seen = [emu.boot()];
    await host.waitFrame((f) => f.type === 'hb');
    host.send('1 ident');
    await host.waitFrame((f) => f.type === 'identity');
    for (const f of host.frames().filter((x) => ['hello', 'hb', 'identity'].includes(x.type))) expect(f.boot).toBe(seen[0]);
    emu.reset('pin');
    await host.waitFrame((f) => f.type === 'hb' && f.boot !== seen[0]);
    seen.push(emu.boot());
    host.send('2 reset');
    await host.waitFrame((f) => f.type === 'hello' && f.reset === 'host');
    seen.push(emu.boot());
    await emu.unplug(10);
    seen.push(emu.boot());
    for (let i = 0; i < 30; i++) {
      emu.reset();
      seen.push(emu.boot());
    }
    for (const b of seen) expect(Number.isInteger(b) && b >= 1 && b <= 65535).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i], `boot ${i}`).not.toBe(seen[i - 1]);
    expect(new Set(seen).size).toBeGreaterThan(25);
    const hellos = host.frames().filter((f) => f.type === 'hello');
    expect(hellos.map((h) => h.boot)).toEqual(seen.slice(0, hellos.length));
  });

  it('the same seed gives the same boot ids; another seed others', async () => {
    const boots = async (faults: string) => {
      const { emu } = await startEmu({ faults });
      const out = [emu.boot()];
      for (let i = 0; i < 4; i++) {
        emu.reset();
        out.push(emu.boot());
      }
      return out;
    };
    const a = await boots('seed:7');
    expect(await boots('seed:7')).toEqual(a);
    expect(await boots('seed:8')).not.toEqual(a);
  });
});

describe('v2: the event log and since (PROTOCOL.md §11)', () => {
  it('since replays exactly the logged events after `after`, with their original seqs, right after the ack, as consecutive lines', async () => {
    const { host, emu } = await startEmu();
    await emu.whenReady();
    for (let i = 0; i < 6; i++) emu.place(i % 4, uidN(i));
    emu.lift(1, uidN(1));
    host.send('9 ping'); // a non-event line in between
    await host.waitFrame((f) => f.type === 'ack');
    emu.lift(0, uidN(4));
    const sent = events(host.frames());
    expect(sent).toHaveLength(8);
    const after = sent[2].seq;
    host.send(`10 since ${emu.boot()} ${after}`);
    await host.waitFrame((f) => f.type === 'replayend');
    const f = host.frames();
    const ack = f.findIndex((x) => x.type === 'ack' && x.cmd === 'since');
    expect(f[ack].hseq).toBe(10);
    const r = replayOf(f, 10);
    expect(f.indexOf(r[0])).toBe(ack + 1);
    expect(r[0]).toMatchObject({ type: 'replay', count: 5 });
    expect(r.at(-1)).toMatchObject({ type: 'replayend', count: 5 });
    expect(r.slice(1, -1).map(({ oseq, kind, reader, uid }) => ({ oseq, kind, reader, uid })))
      .toEqual(sent.slice(3).map((e) => ({ oseq: e.seq, kind: e.type, reader: e.reader, uid: e.uid })));
    for (let i = 1; i < r.length; i++) expect(r[i].seq).toBe(r[i - 1].seq + 1);
    expect(emu.stats.replays).toBe(1);
  });

  it('after 0 means since the hello (the first poll\'s arrivals included); after = the last seq gives an empty replay', async () => {
    const { host, emu } = await startEmu();
    emu.place(2, uidN(1));
    await emu.whenReady();
    emu.place(3, uidN(2));
    host.send(`1 since ${emu.boot()} 0`);
    await host.waitFrame((f) => f.type === 'replayend');
    expect(replayOf(host.frames(), 1).slice(1, -1).map((x) => `${x.kind} ${x.reader} ${x.uid}`))
      .toEqual([`arrive 2 ${uidN(1)}`, `arrive 3 ${uidN(2)}`]);
    const last = host.frames().at(-1)!.seq;
    host.send(`2 since ${emu.boot()} ${last}`);
    await host.waitFrame((f) => f.type === 'replayend' && f.hseq === 2);
    expect(replayOf(host.frames(), 2).map((x) => x.type)).toEqual(['replay', 'replayend']);
  });

  it('nak gone: another boot, an `after` the device has not reached, and after a reset (the log is RAM)', async () => {
    const { host, emu } = await startEmu();
    await emu.whenReady();
    emu.place(0, uidN(1));
    const old = emu.boot();
    host.send(`1 since ${old === 1 ? 2 : old - 1} 0`);
    await host.waitFrame((f) => f.type === 'nak' && f.hseq === 1);
    const last = host.frames().at(-1)!.seq;
    host.send(`2 since ${old} ${last + 5}`); // ahead of the last seq used
    host.send(`3 since ${old} 60000`); // a seq this boot never reached
    await host.waitFrame((f) => f.type === 'nak' && f.hseq === 3);
    emu.reset();
    await emu.whenReady();
    host.send(`4 since ${old} 0`);
    host.send(`5 since ${emu.boot()} 0`);
    await host.waitFrame((f) => f.type === 'replayend' && f.hseq === 5);
    const f = host.frames();
    for (const h of [1, 2, 3, 4]) expect(f.find((x) => x.hseq === h && (x.type === 'nak' || x.type === 'ack'))).toMatchObject({ type: 'nak', code: 'gone' });
    // the new boot's log holds only what its first poll saw again
    expect(replayOf(f, 5).slice(1, -1).map((x) => `${x.kind} ${x.uid}`)).toEqual([`arrive ${uidN(1)}`]);
    expect(emu.stats.gone).toBe(4);
  });

  it('the log keeps the last 256 events: gone once an event after `after` was evicted, a replay otherwise', async () => {
    const { host, emu } = await startEmu();
    await emu.whenReady();
    for (let i = 0; i < 150; i++) {
      emu.place(i % 4, uidN(i));
      emu.lift(i % 4, uidN(i));
    }
    const sent = events(host.frames());
    expect(sent).toHaveLength(300);
    const boot = emu.boot();
    host.send(`1 since ${boot} 0`); // 44 events evicted
    host.send(`2 since ${boot} ${sent[42].seq}`); // the 44th event (index 43) is gone
    host.send(`3 since ${boot} ${sent[43].seq}`); // everything after the 44th is still there
    await host.waitFrame((f) => f.type === 'replayend' && f.hseq === 3);
    const f = host.frames();
    expect(f.filter((x) => x.type === 'nak').map((x) => [x.hseq, x.code])).toEqual([[1, 'gone'], [2, 'gone']]);
    const r = replayOf(f, 3);
    expect(r[0].count).toBe(256);
    expect(r.slice(1, -1).map((x) => x.oseq)).toEqual(sent.slice(44).map((e) => e.seq));
  });

  it('a line the lose fault dropped is in the log: the replay gives back every lost event in order', async () => {
    const { host, emu } = await startEmu({ faults: 'lose:0.4,seed:9' });
    await emu.whenReady();
    for (let i = 0; i < 30; i++) emu.place(i % 4, uidN(i));
    expect(emu.stats.lost).toBeGreaterThan(5);
    for (let h = 1; replayOf(host.frames(), h - 1).length === 0; h++) {
      host.send(`${h} since ${emu.boot()} 0`); // the ack may itself be lost, never the replay
      await new Promise((r) => setTimeout(r, 5));
    }
    const f = host.frames();
    const r = f.filter((x) => x.type === 'rec');
    expect(r.slice(0, 30).map((x) => x.uid)).toEqual(Array.from({ length: 30 }, (_, i) => uidN(i)));
    const seen = new Set(events(f).map((e) => e.seq));
    expect(r.slice(0, 30).filter((x) => !seen.has(x.oseq as number)).length).toBeGreaterThan(5);
  });

  it('seq wraps 65535 → 1: since compares modularly and replays across the wrap in order', async () => {
    const { host, emu } = await startEmu();
    await emu.whenReady();
    let n = 0;
    // 65535 lines take a while to decode; the host only looks at raw lines here
    while (emu.stats.linesSent < 65532) {
      emu.place(0, uidN(n % 1000));
      emu.lift(0, uidN(n % 1000));
      n++;
      if (n % 2000 === 0) await new Promise((r) => setImmediate(r));
    }
    await waitFor(() => host.raw.length === emu.stats.linesSent, 3000);
    const lastBefore = Number(host.raw.at(-1)!.split(' ')[0]);
    for (let i = 0; i < 6; i++) emu.place(1, uidN(5000 + i));
    await waitFor(() => host.raw.length === emu.stats.linesSent, 3000);
    const tail = host.raw.slice(-6).map((l) => decodeLine(l)).map((x) => (x.ok ? x.frame : undefined)!);
    expect(tail.map((x) => x.seq)).toContain(1); // the wrap happened among them
    host.send(`1 since ${emu.boot()} ${lastBefore}`);
    await waitFor(() => host.raw.at(-1)!.includes('replayend'), 3000);
    const r = host.raw.slice(-8).map((l) => decodeLine(l)).map((x) => (x.ok ? x.frame : undefined)!);
    expect(r[0]).toMatchObject({ type: 'replay', count: 6 });
    expect(r.slice(1, -1).map((x) => x.oseq)).toEqual(tail.map((x) => x.seq));
  }, 30_000);
});

describe('v2: hello faults (issue 12)', () => {
  it('reset with hello=lost: no hello reaches the host; the next hb names the new boot', async () => {
    const { host, emu } = await startEmu({ heartbeatMs: 30 });
    const old = emu.boot();
    await host.waitFrame((f) => f.type === 'hb');
    emu.reset('watchdog', 'lost');
    const hb = await host.waitFrame((f) => f.type === 'hb' && f.boot !== old);
    expect(hb.boot).toBe(emu.boot());
    expect(host.frames().filter((f) => f.type === 'hello')).toHaveLength(1);
    expect(host.frames().filter((f) => f.type === 'cfg' && f.seq === 1)).toHaveLength(2);
    expect(emu.stats.helloFaults).toBe(1);
  });

  it('reset with hello=crc: the hello arrives damaged', async () => {
    const { host, emu } = await startEmu();
    await host.waitLines(2);
    emu.reset('watchdog', 'crc');
    await host.waitLines(4);
    expect(decodeLine(host.raw[2]).ok).toBe(false);
    expect(host.raw[2]).toHaveLength(withCrc(`0 hello 1.0.0-emu 2 4 watchdog ${emu.boot()}`).length); // one bit flipped
    expect(decodeLine(host.raw[3])).toMatchObject({ ok: true, frame: { seq: 1, type: 'cfg' } });
  });

  it('badhello: one valid hello claiming protocol 9; the device\'s own seq goes on', async () => {
    const { host, emu } = await startEmu();
    await emu.whenReady();
    emu.place(0, uidN(1));
    emu.injectForeignHello();
    emu.place(0, uidN(2));
    await waitFor(() => events(host.frames()).length === 2, 2000);
    const f = host.frames();
    const i = f.findIndex((x) => x.type === 'hello' && x.proto === 9);
    expect(f[i]).toEqual({ seq: 0, type: 'hello', fw: '1.0.0-emu', proto: 9, readers: 4, reset: 'power', boot: emu.boot() });
    expect(f[i + 1].seq).toBe(f[i - 1].seq + 1);
    expect(emu.stats.badHellos).toBe(1);
  });
});

const LOG: TableEvent[] = [
  { type: 'tray', code: 'eve:1' },
  { type: 'deal', board: 1, dealer: 'W' },
  { type: 'place', seat: 'W', card: 'H5' },
  { type: 'place', seat: 'N', card: 'CK' },
  { type: 'place', seat: 'E', card: 'C5' },
  { type: 'lift', seat: 'W', card: 'H5' },
  { type: 'place', seat: 'S', card: 'C7' },
  { type: 'place', seat: 'W', card: 'C3' },
  { type: 'lift', seat: 'N', card: 'CK' },
  { type: 'claim', seat: 'N', tricks: 12 },
];

describe('playing a log', () => {
  const deck = virtualDeck('emu-test');
  const uid = (c: string) => Object.entries(deck.cards).find(([, v]) => v === c)![0];

  it('place → arrive on the seat\'s reader with the card\'s UID, lift → leave; deal/claim skipped; trays forwarded', async () => {
    const { host, emu } = await startEmu();
    const trays: string[] = [];
    const r = await emu.play(LOG, { deck, speed: 'max', waitForHost: false, onTray: (c) => { trays.push(c); } });
    expect(r).toMatchObject({ played: 7, skipped: 2, trays: 1, impossible: [], outages: [], aborted: false });
    expect(trays).toEqual(['eve:1']);
    await waitFor(() => host.frames().filter((f) => f.type === 'arrive' || f.type === 'leave').length === 7, 2000);
    const ev = host.frames().filter((f) => f.type === 'arrive' || f.type === 'leave');
    expect(ev.map((f) => `${f.type} ${f.reader} ${f.uid}`)).toEqual([
      `arrive 3 ${uid('H5')}`, `arrive 0 ${uid('CK')}`, `arrive 1 ${uid('C5')}`, `leave 3 ${uid('H5')}`,
      `arrive 2 ${uid('C7')}`, `arrive 3 ${uid('C3')}`, `leave 0 ${uid('CK')}`,
    ]);
  });

  it('a seat map sends a seat to another reader', async () => {
    const { host, emu } = await startEmu();
    await emu.play(LOG.slice(0, 4), { deck, waitForHost: false, seatMap: SeatMap.parseSpec('r0=S,r1=W,r2=N,r3=E') });
    await waitFor(() => host.frames().filter((f) => f.type === 'arrive').length === 2, 2000);
    expect(host.frames().filter((f) => f.type === 'arrive').map((f) => f.reader)).toEqual([1, 2]);
  });

  it('waits for the host to resynchronise before playing', async () => {
    const { host, emu } = await startEmu();
    const p = emu.play(LOG, { deck, hostWaitMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(host.frames().some((f) => f.type === 'arrive')).toBe(false);
    host.send('1 present');
    const r = await p;
    expect(r.hostWaitTimeouts).toBe(0);
    await waitFor(() => host.frames().filter((f) => f.type === 'arrive').length === 5, 2000);
  });

  it('speed: events per second', async () => {
    const { emu } = await startEmu();
    const t0 = Date.now();
    await emu.play(LOG, { deck, speed: 50, waitForHost: false });
    const ms = Date.now() - t0;
    expect(ms).toBeGreaterThanOrEqual(7 * 20 - 25);
    expect(ms).toBeLessThan(2000);
  });

  it('reset:at=N restarts the bridge before the N-th event; the cards on the table are seen again', async () => {
    const { host, emu } = await startEmu({ faults: 'reset:at=5' });
    await emu.play(LOG, { deck, waitForHost: false });
    await waitFor(() => host.frames().filter((f) => f.type === 'arrive' || f.type === 'leave').length >= 9, 2000);
    const f = host.frames().filter((x) => ['hello', 'arrive', 'leave'].includes(x.type));
    expect(f.map((x) => (x.type === 'hello' ? `hello ${x.reset}` : `${x.type} ${x.reader}`))).toEqual([
      'hello power',
      'arrive 3', 'arrive 0', 'arrive 1', 'leave 3',
      'hello watchdog',
      'arrive 0', 'arrive 1', // CK and C5 still lie on the table: re-seen by the first poll
      'arrive 2', 'arrive 3', 'leave 0',
    ]);
  });

  it('unplug:at=N:for=MS:play=K on a plain stream falls silent, plays K events meanwhile, and powers up again', async () => {
    const { host, emu } = await startEmu({ faults: 'unplug:at=2:for=100:play=2' });
    const r = await emu.play(LOG, { deck, waitForHost: false });
    expect(r.outages).toEqual([{ at: 2, events: [LOG[3], LOG[4]], invisible: [] }]);
    await waitFor(() => host.frames().filter((f) => f.type === 'leave').length >= 2, 2000);
    const f = host.frames().filter((x) => ['hello', 'arrive', 'leave'].includes(x.type));
    expect(f.map((x) => (x.type === 'hello' ? `hello ${x.reset}` : `${x.type} ${x.reader}`))).toEqual([
      'hello power',
      'arrive 3',
      'hello power',
      'arrive 0', 'arrive 1', 'arrive 3', // the first poll, in reader order: CK and C5 placed while unplugged, H5 still there
      'leave 3', 'arrive 2', 'arrive 3', 'leave 0',
    ]);
    expect(emu.stats.unplugs).toBe(1);
  });

  it('after a corrupted line the play waits for the host to resynchronise (or counts a timeout)', async () => {
    // A host that asks for a snapshot whenever it sees a damaged line.
    const { host, emu } = await startEmu({ faults: 'crc:0.3,seed:11' });
    let h = 1000;
    let seen = 0;
    const timer = setInterval(() => {
      for (; seen < host.raw.length; seen++) if (!decodeLine(host.raw[seen]).ok) host.send(`${h++} present`);
    }, 1);
    try {
      const r = await emu.play(LOG, { deck, waitForHost: false, hostWaitMs: 3000 });
      expect(emu.stats.corrupted).toBeGreaterThan(0);
      expect(r.resyncTimeouts).toBe(0);
    } finally {
      clearInterval(timer);
    }
    // A host that never resynchronises: each wait ends after hostWaitMs and is counted.
    const deaf = await startEmu({ faults: 'crc:0.5,seed:2' });
    const r2 = await deaf.emu.play(LOG, { deck, waitForHost: false, hostWaitMs: 30 });
    expect(r2.resyncTimeouts).toBeGreaterThan(0);
    const r3 = await deaf.emu.play(LOG, { deck, waitForHost: false, waitAfterFaults: false, hostWaitMs: 30 });
    expect(r3.resyncTimeouts).toBe(0);
    expect(r3.played).toBe(7);
  });

  it('after a lost line a replay that covers it resynchronises; one that starts after it does not', async () => {
    // A host that answers every seq gap with `since <boot> <last>`, as the v2 driver does.
    const sinceHost = async (lastOf: (lastSeq: number, gapSeq: number) => number) => {
      const { host, emu } = await startEmu({ faults: 'lose:0.3,seed:4' });
      let h = 2000;
      let seen = 0;
      let last = -1;
      let inReplay = false;
      const timer = setInterval(() => {
        for (; seen < host.raw.length; seen++) {
          const r = decodeLine(host.raw[seen]);
          if (!r.ok) continue;
          const f = r.frame;
          if (f.type === 'replay') inReplay = true;
          if (f.type === 'replayend') inReplay = false;
          if (!inReplay && last >= 0 && f.seq > last + 1) host.send(`${h++} since ${emu.boot()} ${lastOf(last, f.seq)}`);
          last = f.seq;
        }
      }, 1);
      try {
        return { r: await emu.play(LOG, { deck, waitForHost: false, hostWaitMs: 300 }), emu };
      } finally {
        clearInterval(timer);
      }
    };
    const good = await sinceHost((last) => last);
    expect(good.emu.stats.lost).toBeGreaterThan(0);
    expect(good.emu.stats.replays).toBeGreaterThan(0);
    expect(good.r.resyncTimeouts).toBe(0);
    const late = await sinceHost((_last, gapSeq) => gapSeq);
    expect(late.emu.stats.replays).toBeGreaterThan(0);
    expect(late.r.resyncTimeouts).toBeGreaterThan(0);
  });

  it('badhello:at=N holds the play until the host has resynchronised', async () => {
    const { host, emu } = await startEmu({ faults: 'badhello:at=3' });
    let h = 3000;
    const p = emu.play(LOG, { deck, waitForHost: false, hostWaitMs: 5000 });
    await waitFor(() => host.frames().some((f) => f.type === 'hello' && f.proto === 9), 2000);
    await new Promise((r) => setTimeout(r, 150));
    expect(events(host.frames())).toHaveLength(3); // events 1-2, then event 3 after the injected hello
    const lastGood = host.frames().filter((f) => f.type !== 'hello').at(-2)!.seq;
    host.send(`${h++} since ${emu.boot()} ${lastGood}`);
    const r = await p;
    expect(r.resyncTimeouts).toBe(0);
    expect(emu.stats.badHellos).toBe(1);
  });

  it('after a reset the play goes on once the host took a replay of the new boot (a snapshot is not required)', async () => {
    const { host, emu } = await startEmu({ faults: 'reset:at=3:hello=lost', heartbeatMs: 30 });
    const first = emu.boot();
    const p = emu.play(LOG, { deck, waitForHost: false, hostWaitMs: 5000 });
    const hb = await host.waitFrame((f) => f.type === 'hb' && f.boot !== first);
    host.send(`1 since ${hb.boot} 0`);
    const r = await p;
    expect(r.hostWaitTimeouts).toBe(0);
    expect(emu.stats.snapshots).toBe(0);
  });

  it('refuses a log whose cards the deck lacks, or whose seat has no reader', () => {
    const partial = { ...deck, cards: Object.fromEntries(Object.entries(deck.cards).filter(([, c]) => c !== 'CK' && c !== 'H5')) };
    expect(() => planSteps(LOG, partial, SeatMap.default())).toThrow(/no tag for H5 CK/);
    expect(() => planSteps(LOG, deck, SeatMap.parseSpec('r0=N,r1=E,r2=S'))).toThrow(/no reader .* seat W/);
    expect(() => planSteps(LOG, deck, SeatMap.default(), 3)).toThrow(/seat W/);
  });

  it('invisibleIn: a card placed and lifted within an outage', () => {
    expect(invisibleIn(LOG)).toEqual([LOG[2], LOG[5], LOG[3], LOG[8]]);
  });
});
