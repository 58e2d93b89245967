// BridgeDriver on serialport's MockBinding, against a small scripted device that answers host
// commands as PROTOCOL.md says (ack, identity, snapshots). Real timers with short settings.
import { createRequire } from 'node:module';
// The package's ESM entry has no types; take them (and the value) through its CommonJS entry.
import type * as BindingMock from '@serialport/binding-mock' with { 'resolution-mode': 'require' };
import { afterEach, describe, expect, it } from 'vitest';
import {
  BridgeDriver,
  MultiBridge,
  presenceFromEvents,
  type BridgeDriverOptions,
  type BridgeStatusEvent,
  type EventOrigin,
  type ReaderStatusEvent,
  type SeatEvent,
} from '../../src/hardware/bridge-driver.js';
import { DeckSet, virtualDeck } from '../../src/hardware/deck.js';
import { decodeLine, encodeFrame, type Frame, withCrc } from '../../src/hardware/protocol.js';
import { SeatMap } from '../../src/hardware/seat-map.js';

const { MockBinding } = createRequire(import.meta.url)('@serialport/binding-mock') as typeof BindingMock;
type MockPortBinding = BindingMock.MockPortBinding;

const deckA = virtualDeck('test-a');
const deckB = virtualDeck('test-b');
const decks = new DeckSet([deckA, deckB]);
const uid = (card: string, deck = 'test-a') => decks.uidOf(card, deck)!;

/** A scripted firmware bridge behind MockBinding. */
class FakeBridge {
  seq = 0;
  readers = 4;
  proto = 1;
  status = 'OOOO';
  /** Device presence sets per reader. */
  tags: string[][] = [[], [], [], []];
  binding?: MockPortBinding;
  hostLines: Frame[] = [];
  /** Host commands to ignore (no answer), to test timeouts. */
  dropNext = 0;
  answer = true;
  opened = 0;

  constructor(readonly path: string) {
    MockBinding.createPort(path, { echo: false, record: false });
  }

  /** The binding to give the driver: MockBinding whose ports feed host lines to this fake. */
  readonly bindingFor = {
    ...MockBinding,
    open: async (opts: Parameters<typeof MockBinding.open>[0]) => {
      const b = await MockBinding.open(opts);
      this.attach(b);
      return b;
    },
  } as typeof MockBinding;

  private attach(b: MockPortBinding): void {
    this.binding = b;
    this.opened++;
    let partial = '';
    const write = b.write.bind(b);
    b.write = async (buf: Buffer) => {
      await write(buf);
      partial += buf.toString('latin1');
      let nl: number;
      while ((nl = partial.indexOf('\n')) >= 0) {
        const line = partial.slice(0, nl);
        partial = partial.slice(nl + 1);
        if (line === '') continue;
        const r = decodeLine(line);
        if (!r.ok) {
          this.send({ type: 'err', kind: 'line', code: r.error });
          continue;
        }
        this.hostLines.push(r.frame);
        if (this.dropNext > 0) {
          this.dropNext--;
          continue;
        }
        if (this.answer) setImmediate(() => this.onCommand(r.frame));
      }
    };
  }

  private onCommand(f: Frame): void {
    if (!this.binding?.isOpen) return;
    const h = f.seq;
    this.send({ type: 'ack', hseq: h, cmd: f.type });
    if (f.type === 'ident') {
      this.send({ type: 'identity', fw: '1.0.0', proto: this.proto, readers: this.readers, reset: 'power', uptimeS: 5 });
    } else if (f.type === 'present') {
      this.snapshot(h);
    } else if (f.type === 'set') {
      this.send({ type: 'cfg', pollMs: f.pollMs, misses: f.misses });
    }
  }

  snapshot(h: number, opts: { total?: number; status?: string } = {}): void {
    const list = this.tags.flatMap((us, r) => us.map((u) => ({ r, u })));
    this.send({ type: 'snap', hseq: h, total: opts.total ?? list.length });
    for (const t of list) this.send({ type: 'tag', reader: t.r, uid: t.u });
    this.send({ type: 'snapend', hseq: h, total: opts.total ?? list.length, status: opts.status ?? this.status });
  }

  nextSeq(): number {
    this.seq = this.seq >= 65535 ? 1 : this.seq + 1;
    return this.seq;
  }

  line(f: Omit<Frame, 'seq'>, seq?: number): string {
    const s = f.type === 'hello' ? 0 : (seq ?? this.nextSeq());
    if (f.type === 'hello') this.seq = 0;
    return encodeFrame({ ...f, seq: s } as Frame);
  }

  send(f: Omit<Frame, 'seq'>, seq?: number): string {
    const l = this.line(f, seq);
    this.raw(`${l}\n`);
    return l;
  }

  raw(text: string | Buffer): void {
    if (this.binding?.isOpen) this.binding.emitData(typeof text === 'string' ? Buffer.from(text, 'latin1') : text);
  }

  arrive(reader: number, u: string): void {
    this.tags[reader].push(u);
    this.send({ type: 'arrive', reader, uid: u });
  }

  leave(reader: number, u: string): void {
    this.tags[reader] = this.tags[reader].filter((x) => x !== u);
    this.send({ type: 'leave', reader, uid: u });
  }

  hb(): void {
    this.send({ type: 'hb', uptimeS: 6, status: this.status, tags: this.tags.map((t) => t.length) });
  }

  /** Unplug: the pending read fails like EIO, and the device node disappears. */
  async unplug(): Promise<void> {
    const b = this.binding as unknown as { pendingRead: ((e?: Error) => void) | null };
    await waitFor(() => b.pendingRead !== null);
    MockBinding.reset();
    b.pendingRead!(new Error('EIO: i/o error (unplugged)'));
  }

  replug(): void {
    MockBinding.createPort(this.path, { echo: false, record: false });
  }
}

async function waitFor(pred: () => boolean, ms = 3000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 3));
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Rig {
  fake: FakeBridge;
  driver: BridgeDriver;
  events: SeatEvent[];
  origins: EventOrigin[];
  readerStatus: ReaderStatusEvent[];
  bridgeStatus: BridgeStatusEvent[];
  synced: number;
}

const drivers: Array<{ stop(): Promise<void> }> = [];
let portNo = 0;

function rig(opts: Partial<BridgeDriverOptions> = {}, setup?: (f: FakeBridge) => void): Rig {
  const path = `/dev/serial/by-id/usb-tenace-test-${process.pid}-${++portNo}`;
  const fake = new FakeBridge(path);
  setup?.(fake);
  const driver = new BridgeDriver({
    path,
    bridgeId: 'b1',
    binding: fake.bindingFor,
    decks,
    heartbeatTimeoutMs: 150,
    reconnectMinMs: 10,
    reconnectMaxMs: 40,
    commandTimeoutMs: 80,
    snapshotTimeoutMs: 400,
    ...opts,
  });
  const r: Rig = { fake, driver, events: [], origins: [], readerStatus: [], bridgeStatus: [], synced: 0 };
  driver.on('event', (e, o) => {
    r.events.push(e);
    r.origins.push(o);
  });
  driver.on('reader-status', (e) => r.readerStatus.push(e));
  driver.on('bridge-status', (e) => r.bridgeStatus.push(e));
  driver.on('synced', () => r.synced++);
  drivers.push(driver);
  return r;
}

async function connected(r: Rig, syncs = 1): Promise<void> {
  r.driver.start();
  await waitFor(() => r.synced >= syncs, 3000, 'first snapshot');
}

const hostTypes = (f: FakeBridge) => f.hostLines.map((l) => l.type);

afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.stop()));
  MockBinding.reset();
});

describe('BridgeDriver: connecting (PROTOCOL.md §12)', () => {
  it('sends ident then present, goes online, then turns arrive/leave into place/lift', async () => {
    const r = rig();
    await connected(r);
    expect(hostTypes(r.fake).slice(0, 2)).toEqual(['ident', 'present']);
    expect(r.bridgeStatus.map((s) => s.status)).toContain('online');
    expect(r.driver.deviceInfo()).toMatchObject({ fw: '1.0.0', proto: 1, readers: 4 });
    r.fake.arrive(0, uid('SA'));
    r.fake.arrive(2, uid('HT', 'test-b'));
    r.fake.leave(0, uid('SA'));
    await waitFor(() => r.events.length === 3);
    expect(r.events).toEqual([
      { type: 'place', seat: 'N', card: 'SA' },
      { type: 'place', seat: 'S', card: 'HT' },
      { type: 'lift', seat: 'N', card: 'SA' },
    ]);
    expect(r.origins[1]).toEqual({ bridge: 'b1', reader: 2, uid: uid('HT', 'test-b'), deck: 'test-b', late: false });
    expect(r.driver.stats.places).toBe(2);
    expect(r.driver.stats.lifts).toBe(1);
  });

  it('host commands carry their own hseq; an unanswered command is retried with a new hseq', async () => {
    const r = rig({}, (f) => (f.dropNext = 1));
    await connected(r);
    const idents = r.fake.hostLines.filter((l) => l.type === 'ident');
    expect(idents.length).toBe(2);
    expect(idents[1].seq).not.toBe(idents[0].seq);
    expect(r.driver.stats.commandTimeouts).toBeGreaterThanOrEqual(1);
    const ack = await r.driver.command('ping');
    expect(ack).toMatchObject({ type: 'ack', cmd: 'ping' });
  });

  it('a nak rejects the command with its code', async () => {
    const r = rig();
    await connected(r);
    r.fake.answer = false;
    const p = r.driver.command('ping');
    await waitFor(() => r.fake.hostLines.at(-1)?.type === 'ping');
    const h = r.fake.hostLines.at(-1)!.seq;
    r.fake.send({ type: 'nak', hseq: h, code: 'bad-field' });
    await expect(p).rejects.toMatchObject({ code: 'nak', nak: 'bad-field' });
  });
});

describe('BridgeDriver: line checks and sequence (§4, §8)', () => {
  it('counts a CRC failure, emits nothing for it, and resynchronises after the gap it leaves', async () => {
    const r = rig();
    await connected(r);
    const good = r.fake.line({ type: 'arrive', reader: 1, uid: uid('DK') });
    r.fake.tags[1].push(uid('DK'));
    const bad = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    r.fake.raw(`${bad}\n`);
    await waitFor(() => r.driver.stats.badTotal === 1);
    expect(r.driver.stats.bad['bad-crc']).toBe(1);
    expect(r.events).toEqual([]);
    const presentsBefore = hostTypes(r.fake).filter((t) => t === 'present').length;
    r.fake.hb(); // seq jumps over the damaged line: a gap of 1
    await waitFor(() => r.synced === 2, 3000, 'resync after gap');
    expect(r.driver.stats.gaps).toBe(1);
    expect(r.driver.stats.lost).toBe(1);
    expect(hostTypes(r.fake).filter((t) => t === 'present').length).toBe(presentsBefore + 1);
    // The lost arrive comes back as a late place from the snapshot, exactly once.
    expect(r.events).toEqual([{ type: 'place', seat: 'E', card: 'DK' }]);
    expect(r.origins[0].late).toBe(true);
  });

  it('a gap triggers present and the snapshot reconciles lost arrive and leave', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(0, uid('C2'));
    await waitFor(() => r.events.length === 1);
    // Lose two lines: C2 leaves reader 0, C3 arrives on reader 3.
    r.fake.tags[0] = [];
    r.fake.tags[3].push(uid('C3'));
    r.fake.nextSeq();
    r.fake.nextSeq();
    r.fake.hb();
    await waitFor(() => r.synced === 2);
    expect(r.driver.stats.gaps).toBe(1);
    expect(r.driver.stats.lost).toBe(2);
    expect(r.events.slice(1)).toEqual([
      { type: 'lift', seat: 'N', card: 'C2' },
      { type: 'place', seat: 'W', card: 'C3' },
    ]);
  });

  it('drops a duplicate line (same seq) and counts it', async () => {
    const r = rig();
    await connected(r);
    r.fake.tags[0].push(uid('SK'));
    const l = r.fake.send({ type: 'arrive', reader: 0, uid: uid('SK') });
    r.fake.raw(`${l}\n`);
    r.fake.hb();
    await waitFor(() => r.driver.stats.duplicates === 1 && r.driver.stats.linesOk >= 1);
    await sleep(20);
    expect(r.events).toEqual([{ type: 'place', seat: 'N', card: 'SK' }]);
    expect(r.driver.stats.gaps).toBe(0);
    expect(r.driver.stats.doubts).toBe(0);
  });

  it('resynchronises when a heartbeat count disagrees with what it knows', async () => {
    const r = rig();
    await connected(r);
    r.fake.tags[2].push(uid('CQ')); // the device knows a tag the host never heard of
    r.fake.hb();
    await waitFor(() => r.synced === 2);
    expect(r.driver.stats.doubts).toBe(1);
    expect(r.events).toEqual([{ type: 'place', seat: 'S', card: 'CQ' }]);
  });

  it('reports too-long lines once each and keeps going', async () => {
    const r = rig();
    await connected(r);
    r.fake.raw(`${'X'.repeat(5000)}\n${'Y'.repeat(97)}\n`);
    r.fake.arrive(0, uid('S9'));
    await waitFor(() => r.events.length === 1);
    expect(r.driver.stats.bad['too-long']).toBe(2);
    expect(r.driver.stats.badTotal).toBe(2);
  });
});

describe('BridgeDriver: protocol version (§1)', () => {
  it('stops using a bridge whose identity states another proto, and does not reopen it', async () => {
    const r = rig({}, (f) => (f.proto = 2));
    r.driver.start();
    await waitFor(() => r.bridgeStatus.some((s) => s.status === 'incompatible'));
    const st = r.bridgeStatus.find((s) => s.status === 'incompatible')!;
    expect(st.detail).toMatch(/protocol 2/);
    await sleep(100);
    expect(r.fake.opened).toBe(1);
    expect(r.fake.binding!.isOpen).toBe(false);
    expect(hostTypes(r.fake)).toEqual(['ident']); // no present: the stream is not interpreted
    expect(r.events).toEqual([]);
  });

  it('a hello with another proto mid-stream (firmware swapped) also stops the bridge', async () => {
    const r = rig();
    await connected(r);
    r.fake.send({ type: 'hello', fw: '2.0.0', proto: 3, readers: 4, reset: 'power' });
    r.fake.send({ type: 'arrive', reader: 0, uid: uid('SA') });
    await waitFor(() => r.bridgeStatus.some((s) => s.status === 'incompatible'));
    await sleep(30);
    expect(r.events).toEqual([]);
  });
});

describe('BridgeDriver: reader status and liveness (§10)', () => {
  it('reports reader status from heartbeats and err reader, on change only', async () => {
    const r = rig();
    await connected(r);
    r.fake.hb();
    r.fake.hb();
    r.fake.send({ type: 'err', kind: 'reader', reader: 3, code: 'timeout' });
    r.fake.status = 'OOOF';
    r.fake.hb();
    r.fake.send({ type: 'err', kind: 'reader', reader: 1, code: 'overfull' });
    await waitFor(() => r.driver.stats.overfull === 1);
    const forReader3 = r.readerStatus.filter((s) => s.reader === 3).map((s) => [s.status, s.code]);
    expect(forReader3).toEqual([['ok', undefined], ['faulted', 'timeout']]);
    expect(r.readerStatus.filter((s) => s.reader === 1).map((s) => s.status)).toEqual(['ok']); // overfull is a warning
    expect(r.readerStatus.find((s) => s.reader === 2)?.seat).toBe('S');
  });

  it('goes offline after missed heartbeats, and resynchronises when lines return', async () => {
    const r = rig();
    await connected(r);
    r.fake.hb();
    await waitFor(() => r.readerStatus.length >= 4);
    await waitFor(() => r.bridgeStatus.some((s) => s.status === 'offline'), 2000, 'offline');
    expect(r.driver.isOnline()).toBe(false);
    expect(r.readerStatus.filter((s) => s.status === 'offline').map((s) => s.reader)).toEqual([0, 1, 2, 3]);
    r.fake.hb();
    await waitFor(() => r.synced === 2, 2000, 'resync after offline');
    expect(r.driver.isOnline()).toBe(true);
    expect(r.bridgeStatus.at(-1)?.status).toBe('online');
  });
});

describe('BridgeDriver: unknown tags', () => {
  it('a tag from no deck becomes a place with `tag` and no `card`, counted, never dropped', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(1, '04DEADBEEF0001');
    r.fake.arrive(1, 'CAFEBABE');
    r.fake.leave(1, 'CAFEBABE');
    await waitFor(() => r.events.length === 3);
    expect(r.events).toEqual([
      { type: 'place', seat: 'E', tag: '04DEADBEEF0001' },
      { type: 'place', seat: 'E', tag: 'CAFEBABE' },
      { type: 'lift', seat: 'E', tag: 'CAFEBABE' },
    ]);
    expect(r.driver.stats.unknownTags).toBe(2);
  });
});

describe('BridgeDriver: reconciliation (§11)', () => {
  it('late place and lift against an injected journal, and never twice', async () => {
    const r = rig(
      {
        initialPresence: [
          { reader: 0, uid: uid('SA') },
          { reader: 1, uid: uid('HK') },
        ],
      },
      (f) => {
        f.tags[0] = [uid('SA')];
        f.tags[2] = [uid('D5')];
      },
    );
    await connected(r);
    expect(r.events).toEqual([
      { type: 'lift', seat: 'E', card: 'HK' },
      { type: 'place', seat: 'S', card: 'D5' },
    ]);
    expect(r.origins.every((o) => o.late)).toBe(true);
    // The device re-announces what is already known: nothing new.
    r.fake.send({ type: 'arrive', reader: 2, uid: uid('D5') });
    r.fake.send({ type: 'arrive', reader: 0, uid: uid('SA') });
    r.fake.send({ type: 'leave', reader: 1, uid: uid('HK') });
    r.driver.resync();
    await waitFor(() => r.synced === 2);
    expect(r.events.length).toBe(2);
    expect(r.driver.stats.redundant).toBe(3);
    expect(r.driver.stats.latePlaces).toBe(1);
    expect(r.driver.stats.lateLifts).toBe(1);
    expect(r.driver.presence()).toEqual(
      expect.arrayContaining([
        { bridge: 'b1', reader: 0, uid: uid('SA') },
        { bridge: 'b1', reader: 2, uid: uid('D5') },
      ]),
    );
    expect(r.driver.presence().length).toBe(2);
  });

  it('keeps a tag of a reader that is not O, and lifts it once the heartbeat shows O', async () => {
    const r = rig({ initialPresence: [{ reader: 1, uid: uid('HK') }] }, (f) => (f.status = 'OWOO'));
    await connected(r);
    expect(r.events).toEqual([]);
    r.fake.hb(); // still W
    await sleep(20);
    expect(r.synced).toBe(1);
    r.fake.status = 'OOOO';
    r.fake.hb();
    await waitFor(() => r.synced === 2);
    expect(r.events).toEqual([{ type: 'lift', seat: 'E', card: 'HK' }]);
  });

  it('matches seat-level journal entries by card across two decks (daemon restart from the log)', async () => {
    const journal = [
      { type: 'place', seat: 'N', card: 'SA' },
      { type: 'place', seat: 'E', card: 'C7' },
      { type: 'place', seat: 'W', tag: 'CAFEBABE' },
      { type: 'place', seat: 'S', card: 'H2' },
      { type: 'lift', seat: 'S', card: 'H2' },
    ];
    const initial = presenceFromEvents(journal);
    expect(initial).toHaveLength(3);
    const r = rig({ initialPresence: initial }, (f) => {
      f.tags[0] = [uid('SA', 'test-b')]; // the SA of the second pack
      f.tags[3] = ['CAFEBABE'];
      f.tags[2] = [uid('DQ')]; // placed while the daemon was down
    });
    await connected(r);
    // C7 has gone (lift), DQ is new (late place); SA and the unknown tag are matched silently.
    expect(r.events).toEqual([
      { type: 'lift', seat: 'E', card: 'C7' },
      { type: 'place', seat: 'S', card: 'DQ' },
    ]);
    r.fake.leave(0, uid('SA', 'test-b'));
    await waitFor(() => r.events.length === 3);
    expect(r.events[2]).toEqual({ type: 'lift', seat: 'N', card: 'SA' });
  });

  it('discards a snapshot whose tag count is wrong and asks again', async () => {
    const r = rig({}, (f) => (f.tags[0] = [uid('S2')]));
    r.fake.answer = true;
    const orig = r.fake.snapshot.bind(r.fake);
    let first = true;
    r.fake.snapshot = (h: number) => {
      if (first) {
        first = false;
        orig(h, { total: 2 }); // announces 2, sends 1
      } else orig(h);
    };
    await connected(r);
    expect(r.driver.stats.snapshotsDiscarded).toBe(1);
    expect(hostTypes(r.fake).filter((t) => t === 'present').length).toBe(2);
    expect(r.events).toEqual([{ type: 'place', seat: 'N', card: 'S2' }]);
  });

  it('after a device reset (hello) re-announced arrivals do not become second places', async () => {
    const r = rig({ settings: { pollMs: 40, misses: 4 } });
    await connected(r);
    r.fake.arrive(0, uid('SJ'));
    await waitFor(() => r.events.length === 1);
    r.fake.send({ type: 'hello', fw: '1.0.0', proto: 1, readers: 4, reset: 'watchdog' });
    r.fake.send({ type: 'cfg', pollMs: 50, misses: 3 });
    r.fake.send({ type: 'arrive', reader: 0, uid: uid('SJ') });
    await waitFor(() => r.synced === 2);
    expect(r.events).toEqual([{ type: 'place', seat: 'N', card: 'SJ' }]);
    expect(hostTypes(r.fake)).toContain('set');
    expect(r.fake.hostLines.find((l) => l.type === 'set')).toMatchObject({ pollMs: 40, misses: 4 });
  });

  it('two readers under one seat give one place per card', async () => {
    const r = rig({ seatMap: SeatMap.parseSpec('r0=N,r1=N,r2=S,r3=W') });
    await connected(r);
    r.fake.arrive(0, uid('CA'));
    r.fake.arrive(1, uid('CA'));
    r.fake.leave(0, uid('CA'));
    r.fake.leave(1, uid('CA'));
    await waitFor(() => r.events.length === 2);
    await sleep(10);
    expect(r.events).toEqual([
      { type: 'place', seat: 'N', card: 'CA' },
      { type: 'lift', seat: 'N', card: 'CA' },
    ]);
  });
});

describe('BridgeDriver: lost port', () => {
  it('reopens after an unplug with backoff, reconciles, loses and invents nothing', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(0, uid('HA'));
    r.fake.arrive(1, uid('HK'));
    await waitFor(() => r.events.length === 2);
    await r.fake.unplug();
    await waitFor(() => r.bridgeStatus.at(-1)?.status === 'disconnected');
    // While unplugged: HK lifted, HQ placed.
    r.fake.tags[1] = [];
    r.fake.tags[2] = [uid('HQ')];
    await sleep(80); // several failed opens (the node is gone)
    expect(r.driver.stats.openFailures).toBeGreaterThan(0);
    r.fake.replug();
    await waitFor(() => r.synced === 2, 3000, 'resync after replug');
    expect(r.driver.stats.reconnects).toBe(1);
    expect(r.events.slice(2)).toEqual([
      { type: 'lift', seat: 'E', card: 'HK' },
      { type: 'place', seat: 'S', card: 'HQ' },
    ]);
    r.fake.arrive(3, uid('HJ'));
    await waitFor(() => r.events.length === 5);
    expect(r.events[4]).toEqual({ type: 'place', seat: 'W', card: 'HJ' });
  });

  it('keeps retrying a port that does not exist yet, and connects when it appears', async () => {
    const r = rig();
    MockBinding.reset();
    r.driver.start();
    await sleep(60);
    expect(r.driver.stats.openFailures).toBeGreaterThan(1);
    r.fake.replug();
    await waitFor(() => r.synced === 1, 3000);
    expect(r.driver.stats.reconnects).toBe(0);
  });

  it('a throwing listener is counted, not fatal', async () => {
    const r = rig();
    r.driver.on('event', () => {
      throw new Error('listener bug');
    });
    await connected(r);
    r.fake.arrive(0, uid('S3'));
    r.fake.arrive(0, uid('S4'));
    await waitFor(() => r.events.length === 2);
    expect(r.driver.stats.listenerErrors).toBe(2);
  });
});

describe('MultiBridge', () => {
  it('merges the events of two bridges mapped to different seats', async () => {
    const f1 = new FakeBridge(`/dev/serial/by-id/usb-multi-${process.pid}-1`);
    const f2 = new FakeBridge(`/dev/serial/by-id/usb-multi-${process.pid}-2`);
    const seatMap = SeatMap.fromConfig({ bridges: { north: { '0': 'N', '1': 'E' }, south: { '0': 'S', '1': 'W' } } });
    const mb = new MultiBridge({
      seatMap,
      decks,
      bridges: [
        { path: f1.path, bridgeId: 'north', binding: f1.bindingFor, commandTimeoutMs: 80 },
        { path: f2.path, bridgeId: 'south', binding: f2.bindingFor, commandTimeoutMs: 80 },
      ],
      initialPresence: presenceFromEvents([{ type: 'place', seat: 'W', card: 'D4' }]),
    });
    drivers.push(mb);
    const events: SeatEvent[] = [];
    let synced = 0;
    mb.on('event', (e: SeatEvent) => events.push(e));
    mb.on('synced', () => synced++);
    mb.start();
    await waitFor(() => synced === 2);
    // D4 was expected on W (bridge "south" reader 1) and is gone.
    expect(events).toEqual([{ type: 'lift', seat: 'W', card: 'D4' }]);
    f1.arrive(1, uid('SA'));
    await waitFor(() => events.length === 2);
    f2.arrive(0, uid('SK'));
    await waitFor(() => events.length === 3);
    expect(events.slice(1)).toEqual([
      { type: 'place', seat: 'E', card: 'SA' },
      { type: 'place', seat: 'S', card: 'SK' },
    ]);
    expect(Object.keys(mb.stats())).toEqual(['north', 'south']);
  });
});

describe('raw lines', () => {
  it('withCrc builds what the fake sends', () => {
    expect(decodeLine(withCrc('5 arrive 0 DEADBEEF')).ok).toBe(true);
  });
});
