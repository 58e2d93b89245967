// BridgeDriver on serialport's MockBinding, against a small scripted v2 device that answers host
// commands as PROTOCOL.md says (ack, identity, snapshots, replays from its event log). Real timers
// with short settings.
import { createRequire } from 'node:module';
// The package's ESM entry has no types; take them (and the value) through its CommonJS entry.
import type * as BindingMock from '@serialport/binding-mock' with { 'resolution-mode': 'require' };
import { afterEach, describe, expect, it } from 'vitest';
import {
  BridgeDriver,
  MultiBridge,
  presenceFromEvents,
  resumePoints,
  type BridgeDriverOptions,
  type BridgeStatusEvent,
  type EventOrigin,
  type Logger,
  type ReaderStatusEvent,
  type SeatEvent,
} from '../../src/hardware/bridge-driver.js';
import { DeckSet, virtualDeck } from '../../src/hardware/deck.js';
import { decodeLine, encodeFrame, type Frame, seqAfter, withCrc } from '../../src/hardware/protocol.js';
import { SeatMap } from '../../src/hardware/seat-map.js';

const { MockBinding } = createRequire(import.meta.url)('@serialport/binding-mock') as typeof BindingMock;
type MockPortBinding = BindingMock.MockPortBinding;

const deckA = virtualDeck('test-a');
const deckB = virtualDeck('test-b');
const decks = new DeckSet([deckA, deckB]);
const uid = (card: string, deck = 'test-a') => decks.uidOf(card, deck)!;

interface LogEntry { seq: number; kind: 'arrive' | 'leave'; reader: number; uid: string }

/** A scripted firmware bridge (protocol 2) behind MockBinding. */
class FakeBridge {
  seq = 0;
  boot = 4242;
  readers = 4;
  proto = 2;
  status = 'OOOO';
  /** Device presence sets per reader. */
  tags: string[][] = [[], [], [], []];
  /** The event log (§11): every arrive/leave line created in this boot, sent or not. */
  log: LogEntry[] = [];
  /** Answer `since` with `nak gone`, as when the log no longer covers the gap. */
  gone = false;
  /** Keep `since` commands unanswered until releaseSince() (to see what the host holds meanwhile). */
  deferSince = false;
  private deferred: Frame[] = [];
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
        if (r.frame.type === 'since' && this.deferSince) {
          this.deferred.push(r.frame);
          continue;
        }
        if (this.answer) setImmediate(() => this.onCommand(r.frame));
      }
    };
  }

  releaseSince(): void {
    this.deferSince = false;
    for (const f of this.deferred.splice(0)) this.onCommand(f);
  }

  private onCommand(f: Frame): void {
    if (!this.binding?.isOpen) return;
    const h = f.seq;
    if (f.type === 'since') {
      if (this.gone || f.boot !== this.boot || seqAfter(f.after as number, this.seq)) {
        this.send({ type: 'nak', hseq: h, code: 'gone' });
        return;
      }
      this.send({ type: 'ack', hseq: h, cmd: 'since' });
      this.replay(h, f.after as number);
      return;
    }
    this.send({ type: 'ack', hseq: h, cmd: f.type });
    if (f.type === 'ident') {
      this.identity();
    } else if (f.type === 'present') {
      this.snapshot(h);
    } else if (f.type === 'set') {
      this.send({ type: 'cfg', pollMs: f.pollMs, misses: f.misses });
    }
  }

  identity(): void {
    this.send({ type: 'identity', fw: '2.0.0', proto: this.proto, readers: this.readers, reset: 'power', uptimeS: 5, boot: this.boot });
  }

  /** The replay block for `since <boot> <after>` (§11): the logged lines after `after`, in order. */
  replay(h: number, after: number): void {
    const recs = this.log.filter((e) => seqAfter(e.seq, after));
    this.send({ type: 'replay', hseq: h, count: recs.length });
    for (const e of recs) this.send({ type: 'rec', oseq: e.seq, kind: e.kind, reader: e.reader, uid: e.uid });
    this.send({ type: 'replayend', hseq: h, count: recs.length });
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

  /** A tag event: logged, and sent unless `lost` (dropped on the way, as by a full buffer). */
  private event(kind: 'arrive' | 'leave', reader: number, u: string, lost: boolean): void {
    const l = this.line({ type: kind, reader, uid: u });
    this.log.push({ seq: this.seq, kind, reader, uid: u });
    if (!lost) this.raw(`${l}\n`);
  }

  arrive(reader: number, u: string, o: { lost?: boolean } = {}): void {
    this.tags[reader].push(u);
    this.event('arrive', reader, u, o.lost ?? false);
  }

  leave(reader: number, u: string, o: { lost?: boolean } = {}): void {
    this.tags[reader] = this.tags[reader].filter((x) => x !== u);
    this.event('leave', reader, u, o.lost ?? false);
  }

  hb(): void {
    this.send({ type: 'hb', uptimeS: 6, status: this.status, tags: this.tags.map((t) => t.length), boot: this.boot });
  }

  /** The device restarts: a new boot id, seq and log start over, its presence is re-seen (arrive
   * lines, logged). The hello goes out unless `helloLost`. */
  reboot(o: { helloLost?: boolean; boot?: number } = {}): void {
    this.boot = o.boot ?? this.boot + 1;
    this.seq = 0;
    this.log = [];
    const l = this.line({ type: 'hello', fw: '2.0.0', proto: 2, readers: this.readers, reset: 'watchdog', boot: this.boot });
    if (!o.helloLost) this.raw(`${l}\n`);
    const on = this.tags;
    this.tags = [[], [], [], []];
    on.forEach((us, r) => us.forEach((u) => this.arrive(r, u)));
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

/** An event as a short string: "place N SA", with " ?" when its order is unknown. */
function short(e: SeatEvent): string {
  const x = e as { type: string; seat: string; card?: string; tag?: string; orderUnknown?: true };
  return `${x.type} ${x.seat} ${x.card ?? `tag:${x.tag}`}${x.orderUnknown ? ' ?' : ''}`;
}

interface Rig {
  fake: FakeBridge;
  driver: BridgeDriver;
  events: SeatEvent[];
  origins: EventOrigin[];
  readerStatus: ReaderStatusEvent[];
  bridgeStatus: BridgeStatusEvent[];
  synced: number;
  logs: string[];
  out: () => string[];
}

const drivers: Array<{ stop(): Promise<void> }> = [];
let portNo = 0;

function recordingLogger(into: string[]): Logger {
  const rec = (level: string) => (obj: object, msg?: string) => into.push(`${level} ${msg ?? ''} ${JSON.stringify(obj)}`);
  return { debug: () => undefined, info: rec('info'), warn: rec('warn'), error: rec('error') };
}

function rig(opts: Partial<BridgeDriverOptions> = {}, setup?: (f: FakeBridge) => void, existing?: FakeBridge): Rig {
  const path = existing?.path ?? `/dev/serial/by-id/usb-tenace-test-${process.pid}-${++portNo}`;
  const fake = existing ?? new FakeBridge(path);
  setup?.(fake);
  const logs: string[] = [];
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
    incompatibleRetryMs: 150,
    logger: recordingLogger(logs),
    ...opts,
  });
  const r: Rig = { fake, driver, events: [], origins: [], readerStatus: [], bridgeStatus: [], synced: 0, logs, out: () => r.events.map(short) };
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
  await waitFor(() => r.synced >= syncs, 3000, 'first resync');
}

const hostTypes = (f: FakeBridge) => f.hostLines.map((l) => l.type);
const count = (f: FakeBridge, type: string) => f.hostLines.filter((l) => l.type === type).length;

afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.stop()));
  MockBinding.reset();
});

describe('BridgeDriver: connecting (PROTOCOL.md §12)', () => {
  it('sends ident then present, goes online, then turns arrive/leave into place/lift with their source', async () => {
    const r = rig();
    await connected(r);
    expect(hostTypes(r.fake).slice(0, 2)).toEqual(['ident', 'present']);
    expect(r.bridgeStatus.map((s) => s.status)).toContain('online');
    expect(r.driver.deviceInfo()).toMatchObject({ fw: '2.0.0', proto: 2, readers: 4, boot: 4242 });
    r.fake.arrive(0, uid('SA'));
    r.fake.arrive(2, uid('HT', 'test-b'));
    r.fake.leave(0, uid('SA'));
    await waitFor(() => r.events.length === 3);
    expect(r.out()).toEqual(['place N SA', 'place S HT', 'lift N SA']);
    // Every event says where it came from: bridge, boot and the seq of its line.
    expect(r.events.map((e) => e.src)).toEqual(r.fake.log.map((e) => ({ bridge: 'b1', boot: 4242, seq: e.seq })));
    expect(r.origins[1]).toEqual({ bridge: 'b1', reader: 2, uid: uid('HT', 'test-b'), deck: 'test-b', late: false });
    expect(r.driver.stats.places).toBe(2);
    expect(r.driver.stats.lifts).toBe(1);
    expect(r.driver.position()).toEqual({ boot: 4242, seq: r.fake.seq });
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

describe('BridgeDriver: the order of play after a doubt (PROTOCOL.md v2 §4, issue 12)', () => {
  it('a gap: since <boot> <last>, live lines held until replayend, then the replay applied in seq order', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(0, uid('SA'));
    await waitFor(() => r.events.length === 1);
    const last = r.fake.seq;
    r.fake.deferSince = true;
    r.fake.arrive(1, uid('DK'), { lost: true });
    r.fake.leave(0, uid('SA'), { lost: true });
    r.fake.arrive(2, uid('HT')); // the gap shows here
    r.fake.leave(1, uid('DK'));
    r.fake.arrive(3, uid('C2'));
    await waitFor(() => count(r.fake, 'since') === 1);
    await sleep(20);
    expect(r.fake.hostLines.find((l) => l.type === 'since')).toMatchObject({ boot: 4242, after: last });
    // Nothing after the gap is applied before the lines in it: that would be a guessed order.
    expect(r.out()).toEqual(['place N SA']);
    expect(r.driver.stats.held).toBe(3);
    r.fake.releaseSince();
    await waitFor(() => r.events.length === 6);
    expect(r.out()).toEqual(['place N SA', 'place E DK', 'lift N SA', 'place S HT', 'lift E DK', 'place W C2']);
    expect(r.events.map((e) => e.src!.seq)).toEqual(r.fake.log.map((e) => e.seq));
    expect(r.driver.stats).toMatchObject({ gaps: 1, lost: 2, replays: 1, orderUnknown: 0, snapshots: 1 });
    // The same replay again (an answer to a retried since) changes nothing: its records are not after `last`.
    r.fake.replay(999, last);
    r.fake.arrive(0, uid('S9'));
    await waitFor(() => r.events.length === 7);
    expect(r.out().at(-1)).toBe('place N S9');
    expect(r.driver.stats.strayReplayLines).toBeGreaterThan(0);
  });

  it('a damaged line: the arrive it carried comes back from the replay, in order, not late', async () => {
    const r = rig();
    await connected(r);
    const good = r.fake.line({ type: 'arrive', reader: 1, uid: uid('DK') });
    r.fake.tags[1].push(uid('DK'));
    r.fake.log.push({ seq: r.fake.seq, kind: 'arrive', reader: 1, uid: uid('DK') });
    const bad = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    r.fake.raw(`${bad}\n`);
    r.fake.hb();
    await waitFor(() => r.events.length === 1);
    expect(r.driver.stats.bad['bad-crc']).toBe(1);
    expect(r.out()).toEqual(['place E DK']);
    expect(r.events[0].src).toEqual({ bridge: 'b1', boot: 4242, seq: r.fake.log[0].seq });
    expect(r.origins[0].late).toBe(false);
    expect(count(r.fake, 'present')).toBe(1); // only the first one: no snapshot was needed
    expect(r.logs.filter((l) => l.includes('dropped 1 line'))).toHaveLength(1);
  });

  it('err overflow: the dropped lines come back from the replay', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(0, uid('C3'), { lost: true });
    r.fake.arrive(1, uid('C4'), { lost: true });
    r.fake.send({ type: 'err', kind: 'overflow', dropped: 2 });
    await waitFor(() => r.events.length === 2);
    expect(r.out()).toEqual(['place N C3', 'place E C4']);
    expect(r.driver.stats.overflows).toBe(1);
  });

  it('nak gone: the snapshot fallback, and every event it yields is marked orderUnknown', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(3, uid('HA'));
    await waitFor(() => r.events.length === 1);
    r.fake.gone = true;
    r.fake.arrive(1, uid('DK'), { lost: true });
    r.fake.leave(3, uid('HA'), { lost: true });
    r.fake.arrive(2, uid('HT'), { lost: true });
    r.fake.hb();
    await waitFor(() => r.synced === 2);
    expect(r.driver.stats.gone).toBe(1);
    expect(r.out()).toEqual(['place W HA', 'lift W HA ?', 'place E DK ?', 'place S HT ?']);
    // They carry the snapshot's position: the ordered stream resumes after it.
    const snapend = r.driver.position()!.seq;
    expect(r.events.slice(1).map((e) => e.src)).toEqual(new Array(3).fill({ bridge: 'b1', boot: 4242, seq: snapend }));
    r.fake.gone = false;
    r.fake.arrive(0, uid('D2'));
    await waitFor(() => r.events.length === 5);
    expect(r.out()[4]).toBe('place N D2');
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
    expect(r.out()).toEqual(['place N SK']);
    expect(r.driver.stats.gaps).toBe(0);
    expect(r.driver.stats.doubts).toBe(0);
  });

  it('resynchronises by snapshot when a heartbeat count disagrees with an in-order stream', async () => {
    const r = rig();
    await connected(r);
    r.fake.tags[2].push(uid('CQ')); // the device knows a tag the host never heard of
    r.fake.hb();
    await waitFor(() => r.synced === 2);
    expect(r.driver.stats.doubts).toBe(1);
    expect(r.out()).toEqual(['place S CQ ?']);
  });

  it('reports too-long lines once each and keeps going', async () => {
    const r = rig();
    await connected(r);
    r.fake.raw(`${'X'.repeat(5000)}\n${'Y'.repeat(97)}\n`);
    r.fake.arrive(0, uid('S9'));
    await waitFor(() => r.events.length === 1);
    expect(r.out()).toEqual(['place N S9']);
    expect(r.driver.stats.bad['too-long']).toBe(2);
    expect(r.driver.stats.badTotal).toBe(2);
  });
});

describe('BridgeDriver: resets without the hello (v2 §4)', () => {
  it('a new boot id in a heartbeat: the stale-looking lines are counted once, replayed from 0, then reconciled', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(0, uid('SA'));
    r.fake.arrive(3, uid('C2'));
    for (let i = 0; i < 6; i++) r.fake.hb(); // the old boot is ahead of what the new one will send
    await waitFor(() => r.events.length === 2);
    r.fake.tags[3] = []; // C2 lifted while the bridge was down: no boot ever saw it go
    r.fake.reboot({ helloLost: true }); // re-sees SA (arrive 1)
    r.fake.arrive(2, uid('HT')); // arrive 2: a card played right after the reset
    r.fake.hb(); // seq 3: still "stale" for the old stream, but its boot id tells
    await waitFor(() => r.synced === 3);
    const since = r.fake.hostLines.filter((l) => l.type === 'since');
    expect(since.at(-1)).toMatchObject({ boot: 4243, after: 0 });
    expect(r.driver.stats.resets).toBe(1);
    expect(r.driver.stats.duplicates).toBe(2);
    expect(r.logs.filter((l) => l.includes('dropped'))).toEqual([expect.stringContaining('dropped 2 lines')]);
    // HT is not lost, C2's lift is found; neither can be put in order (first poll, reset window).
    expect(r.out()).toEqual(['place N SA', 'place W C2', 'place S HT ?', 'lift W C2 ?']);
    expect(r.events[2].src).toEqual({ bridge: 'b1', boot: 4243, seq: 2 });
    r.fake.leave(0, uid('SA'));
    await waitFor(() => r.events.length === 5);
    expect(r.out()[4]).toBe('lift N SA');
    expect(r.events[4].src!.boot).toBe(4243);
  });

  it('after a device reset (hello) re-announced arrivals do not become second places', async () => {
    const r = rig({ settings: { pollMs: 40, misses: 4 } });
    await connected(r);
    r.fake.arrive(0, uid('SJ'));
    await waitFor(() => r.events.length === 1);
    r.fake.reboot();
    r.fake.send({ type: 'cfg', pollMs: 50, misses: 3 });
    await waitFor(() => r.synced === 2);
    expect(r.out()).toEqual(['place N SJ']);
    expect(hostTypes(r.fake)).toContain('set');
    expect(r.fake.hostLines.find((l) => l.type === 'set')).toMatchObject({ pollMs: 40, misses: 4 });
    expect(r.driver.position()?.boot).toBe(4243);
  });
});

describe('BridgeDriver: protocol version (§1)', () => {
  it('a v1 bridge is reported incompatible, not interpreted, and asked again; once it speaks v2 it is used', async () => {
    const r = rig({}, (f) => (f.proto = 1));
    // A v1 identity has no boot id: announcedProto reads its proto.
    r.fake.identity = function () {
      if (this.proto === 1) this.raw(`${withCrc(`${this.nextSeq()} identity 1.0.0 1 4 power 5`)}\n`);
      else FakeBridge.prototype.identity.call(this);
    };
    r.driver.start();
    await waitFor(() => r.bridgeStatus.some((s) => s.status === 'incompatible'));
    expect(r.bridgeStatus.find((s) => s.status === 'incompatible')!.detail).toMatch(/protocol 1 \(firmware 1\.0\.0\)/);
    r.fake.arrive(0, uid('SA'));
    await waitFor(() => count(r.fake, 'ident') >= 3, 2000, 'idents repeated');
    expect(r.fake.binding!.isOpen).toBe(true);
    expect(r.fake.opened).toBe(1);
    expect(hostTypes(r.fake).every((t) => t === 'ident')).toBe(true); // no present: the stream is not interpreted
    expect(r.events).toEqual([]);
    expect(r.logs.filter((l) => l.startsWith('error'))).toHaveLength(1); // said once, not per line
    r.fake.proto = 2; // firmware updated
    await waitFor(() => r.synced === 1, 2000, 'usable again');
    expect(r.bridgeStatus.at(-1)?.status).toBe('online');
    expect(r.out()).toEqual(['place N SA ?']);
  });

  it('one valid-CRC hello claiming protocol 9 mid-stream does not stop the bridge: the next identity does, and the replay recovers the lines', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(0, uid('SA'));
    await waitFor(() => r.events.length === 1);
    r.fake.raw(`${withCrc(`0 hello 9.9.9 9 4 power ${r.fake.boot}`)}\n`);
    r.fake.arrive(1, uid('HK'));
    r.fake.leave(0, uid('SA'));
    await waitFor(() => r.bridgeStatus.some((s) => s.status === 'incompatible'));
    await waitFor(() => r.events.length === 3, 2000, 'the replay after the next identity');
    expect(r.out()).toEqual(['place N SA', 'place E HK', 'lift N SA']);
    expect(r.bridgeStatus.at(-1)?.status).toBe('online');
    expect(r.driver.stats.foreign).toBe(1);
    expect(r.fake.opened).toBe(1);
    r.fake.arrive(2, uid('HQ'));
    await waitFor(() => r.events.length === 4);
    expect(r.out()[3]).toBe('place S HQ');
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

  it('goes offline after missed heartbeats, and asks for a replay when lines return', async () => {
    const r = rig();
    await connected(r);
    r.fake.hb();
    await waitFor(() => r.readerStatus.length >= 4);
    await waitFor(() => r.bridgeStatus.some((s) => s.status === 'offline'), 2000, 'offline');
    expect(r.driver.isOnline()).toBe(false);
    expect(r.readerStatus.filter((s) => s.status === 'offline').map((s) => s.reader)).toEqual([0, 1, 2, 3]);
    r.fake.hb();
    await waitFor(() => r.synced === 2, 2000, 'resync after offline');
    expect(count(r.fake, 'since')).toBe(1);
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
    expect(r.out()).toEqual(['place E tag:04DEADBEEF0001', 'place E tag:CAFEBABE', 'lift E tag:CAFEBABE']);
    expect(r.driver.stats.unknownTags).toBe(2);
  });
});

describe('BridgeDriver: reconciliation (§11)', () => {
  it('late place and lift against an injected journal, order unknown, and never twice', async () => {
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
    expect(r.out()).toEqual(['lift E HK ?', 'place S D5 ?']);
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
    expect(r.out()).toEqual(['lift E HK ?']);
  });

  it('matches seat-level journal entries by card across two decks (daemon restart from a log without sources)', async () => {
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
    expect(r.out()).toEqual(['lift E C7 ?', 'place S DQ ?']);
    r.fake.leave(0, uid('SA', 'test-b'));
    await waitFor(() => r.events.length === 3);
    expect(r.out()[2]).toBe('lift N SA');
  });

  it('discards a snapshot whose tag count is wrong and asks again', async () => {
    const r = rig({}, (f) => (f.tags[0] = [uid('S2')]));
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
    expect(count(r.fake, 'present')).toBe(2);
    expect(r.out()).toEqual(['place N S2 ?']);
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
    expect(r.out()).toEqual(['place N CA', 'lift N CA']);
  });
});

describe('BridgeDriver: daemon restart (resume from the journal, v2 §4)', () => {
  it('resumes after the last journaled source: exactly the events not journaled, in order, none twice', async () => {
    const journal: SeatEvent[] = [];
    const first = rig();
    first.driver.on('event', (e) => journal.push(e));
    await connected(first);
    first.fake.arrive(0, uid('SA'));
    first.fake.arrive(1, uid('S2'));
    first.fake.arrive(2, uid('S5'));
    await waitFor(() => journal.length === 3);
    // The daemon dies before the third event reaches the journal.
    journal.pop();
    await first.driver.stop();
    const fake = first.fake;
    // The players go on meanwhile.
    fake.arrive(3, uid('S7'));
    fake.leave(0, uid('SA'));
    fake.leave(1, uid('S2'));
    const resume = resumePoints(journal).get('b1');
    expect(resume).toEqual({ boot: 4242, seq: fake.log[1].seq });
    const second = rig({ resume, initialPresence: presenceFromEvents(journal) }, undefined, fake);
    await connected(second);
    expect(fake.hostLines.filter((l) => l.type === 'since').at(-1)).toMatchObject({ boot: 4242, after: resume!.seq });
    expect(second.out()).toEqual(['place S S5', 'place W S7', 'lift N SA', 'lift E S2']);
    expect(second.driver.stats.orderUnknown).toBe(0);
    expect([...journal, ...second.events].map((e) => e.src!.seq)).toEqual(fake.log.map((e) => e.seq));
  });

  it('resume point of a boot the bridge no longer runs: replay of the new boot from 0, then a snapshot', async () => {
    const r = rig({ resume: { boot: 77, seq: 40 }, initialPresence: presenceFromEvents([{ type: 'place', seat: 'N', card: 'SA' }]) });
    r.fake.tags[0] = [uid('SA')];
    r.fake.tags[1] = [uid('HK')];
    await connected(r, 2);
    expect(r.fake.hostLines.find((l) => l.type === 'since')).toMatchObject({ boot: 4242, after: 0 });
    expect(r.out()).toEqual(['place E HK ?']);
  });
});

describe('BridgeDriver: lost port', () => {
  it('reopens after an unplug with backoff; the bridge lost power (new boot): reconciled, order unknown, nothing invented', async () => {
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
    r.fake.reboot({ helloLost: true }); // powered up again before the host reopened
    await waitFor(() => r.synced === 3, 3000, 'resync after replug');
    expect(r.driver.stats.reconnects).toBe(1);
    expect(r.out().slice(2).sort()).toEqual(['lift E HK ?', 'place S HQ ?']);
    r.fake.arrive(3, uid('HJ'));
    await waitFor(() => r.events.length === 5);
    expect(r.out()[4]).toBe('place W HJ');
  });

  it('reopened with the bridge still running (same boot): the lines missed meanwhile come back in order', async () => {
    const r = rig();
    await connected(r);
    r.fake.arrive(0, uid('HA'));
    await waitFor(() => r.events.length === 1);
    await r.fake.unplug();
    await waitFor(() => r.bridgeStatus.at(-1)?.status === 'disconnected');
    r.fake.leave(0, uid('HA'));
    r.fake.arrive(1, uid('HK'));
    r.fake.replug();
    await waitFor(() => r.events.length === 3, 3000, 'replay after replug');
    expect(r.out()).toEqual(['place N HA', 'lift N HA', 'place E HK']);
    expect(r.driver.stats.orderUnknown).toBe(0);
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
    expect(events.map(short)).toEqual(['lift W D4 ?']);
    f1.arrive(1, uid('SA'));
    await waitFor(() => events.length === 2);
    f2.arrive(0, uid('SK'));
    await waitFor(() => events.length === 3);
    expect(events.slice(1).map(short)).toEqual(['place E SA', 'place S SK']);
    expect(events.slice(1).map((e) => e.src!.bridge)).toEqual(['north', 'south']);
    expect(Object.keys(mb.stats())).toEqual(['north', 'south']);
  });
});

describe('raw lines', () => {
  it('withCrc builds what the fake sends', () => {
    expect(decodeLine(withCrc('5 arrive 0 DEADBEEF')).ok).toBe(true);
  });
});
