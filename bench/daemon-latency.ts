// The daemon benchmark's part (a), card-to-subscriber latency (bench/daemon.ts explains it): in-process daemons on
// MockBinding ports against the floor, a ReadlineParser that appends, fdatasyncs and publishes.
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Duplex } from 'node:stream';
import { ReadlineParser } from '@serialport/parser-readline';
import { SerialPortStream } from '@serialport/stream';
import type { MqttClient } from 'mqtt';
import { formatConfigErrors, parseConfig } from '../src/config/load.js';
import { createLogger, fdDestination } from '../src/config/logger.js';
import { Controller } from '../src/daemon/controller.js';
import type { BindingInterface } from '../src/hardware/bridge-driver.js';
import { FirmwareEmulator, type RfidStep, streamLink } from '../src/hardware/emulator.js';
import { encodeFrame, nextDeviceSeq } from '../src/hardware/protocol.js';
import { createRng } from '../src/sim/prng.js';
import { BUDGET_A_MS, CLUB, Cleanup, type DaemonBenchOptions, Inbox, MockBinding, type MockPortBinding, clearRetained, connect, dealParams, dealsFor, noWatchdog, progress, sleep, tableTopicsOf, timeLeft, partDirs } from './daemon-tools.js';

// ------------------------------------------------------------------ (a) card-to-subscriber latency

export interface PartA {
  disk: number[];
  tmpfs: number[];
  floor: number[];
  /** Bytes in → the event durable in the journal (journal.append resolved), per daemon. */
  diskDurable: number[];
  tmpfsDurable: number[];
  mismatched: number;
  /** Director alerts and feed incidents (engine errors, privacy-guard trips): none in legal play. */
  alerts: number;
  incidents: number;
  timeouts: string[];
  requested: number;
  budgetHit: boolean;
  journalDir: string;
  shmDir: string;
}

/** One in-process daemon on a MockBinding port, its emulated bridge wired to that port. */
interface MockTable {
  table: string;
  controller: Controller;
  emu: FirmwareEmulator;
  /** Set by the device side when it writes an arrive/leave line: when, just before the bytes went in. */
  lastCard: { at: number } | null;
  /** seq → when journal.append resolved (the event was durable). */
  durableAt: Map<number, number>;
}

async function mockTable(opts: {
  table: string; dir: string; journalDir: string; deckPath: string; broker: string; bridgePath: string;
  binding: typeof MockBinding; opened: Map<string, MockPortBinding>; clean: Cleanup;
}): Promise<MockTable> {
  const yaml = [
    `club: { id: ${CLUB} }`,
    `table: { id: ${JSON.stringify(opts.table)} }`,
    `journal: { dir: ${JSON.stringify(opts.journalDir)}, fsync: always }`,
    `mqtt: { url: ${JSON.stringify(opts.broker)} }`,
    `feed: { embargo: live }`,
    `http: { port: 0, host: 127.0.0.1 }`,
    `hardware:`,
    `  decks: [${JSON.stringify(opts.deckPath)}]`,
    `  bridges: [{ id: bench, port: ${JSON.stringify(opts.bridgePath)}, readers: [{reader: 0, seat: N}, {reader: 1, seat: E}, {reader: 2, seat: S}, {reader: 3, seat: W}] }]`,
    `log: { level: info }`,
  ].join('\n');
  const parsed = parseConfig(yaml, { env: {} });
  if (!parsed.ok) throw new Error(`bench config: ${formatConfigErrors(parsed.errors)}`);
  const logFd = openSync(join(opts.dir, `${opts.table}.log`), 'a');
  opts.clean.add(`close log ${opts.table}`, () => closeSync(logFd));
  const log = createLogger(parsed.config, fdDestination(logFd));
  const controller = new Controller({ config: parsed.config, log, watchdog: noWatchdog, binding: opts.binding as unknown as BindingInterface });
  await controller.start();
  opts.clean.add(`stop daemon ${opts.table}`, () => controller.stop());
  const end = Date.now() + 5000;
  while (!opts.opened.has(opts.bridgePath)) {
    if (Date.now() > end) throw new Error(`the daemon did not open its bridge port ${opts.bridgePath}`);
    await sleep(5);
  }
  const port = opts.opened.get(opts.bridgePath)!;
  const t: MockTable = { table: opts.table, controller, emu: new FirmwareEmulator({ readers: 4 }), lastCard: null, durableAt: new Map() };
  // Note when each append resolves (our reaction is attached first, so it runs before the controller's own).
  const journal = controller.journal;
  const append = journal.append.bind(journal);
  journal.append = (ev) => {
    const p = append(ev);
    p.then((st) => { t.durableAt.set(st.seq!, performance.now()); }, () => undefined);
    return p;
  };
  // The device's end of the wire: what the emulator writes goes into the MockBinding port, what the driver writes
  // to the port comes out here for the emulator.
  const device = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      const at = performance.now();
      if (port.isOpen) port.emitData(chunk);
      const s = chunk.toString('latin1');
      if (s.includes(' arrive ') || s.includes(' leave ')) t.lastCard = { at };
      cb();
    },
  });
  const write = port.write.bind(port);
  port.write = async (buf: Buffer) => {
    await write(buf);
    device.push(Buffer.from(buf));
  };
  await t.emu.start(streamLink(device, opts.bridgePath));
  opts.clean.add(`stop emulator ${opts.table}`, () => t.emu.stop());
  if (!(await t.emu.whenHostSynced(5000))) throw new Error(`the daemon of ${opts.table} did not synchronise with its bridge`);
  return t;
}

export async function partA(o: DaemonBenchOptions, clean: Cleanup, inbox: Inbox, sub: MqttClient): Promise<PartA> {
  const { dir, shm, deck, deckPath } = partDirs(clean, 'lat');

  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const paths = { disk: `/dev/tenace-bench-disk-${tag}`, tmpfs: `/dev/tenace-bench-tmpfs-${tag}`, floor: `/dev/tenace-bench-floor-${tag}` };
  for (const p of Object.values(paths)) MockBinding.createPort(p, { echo: false, record: false });
  clean.add('MockBinding.reset', () => MockBinding.reset());
  const opened = new Map<string, MockPortBinding>();
  const binding = {
    ...MockBinding,
    open: async (opts: Parameters<typeof MockBinding.open>[0]) => {
      const b = await MockBinding.open(opts);
      opened.set(opts.path, b);
      return b;
    },
  } as typeof MockBinding;

  const tables = { disk: `lat-disk-${tag}`, tmpfs: `lat-tmpfs-${tag}` };
  const floorTopic = `tenace-bench/floor/${tag}/a`;
  await sub.subscribeAsync([...Object.values(tables).flatMap((t) => [`tenace/${CLUB}/${t}/event`, `tenace/${CLUB}/${t}/director`, `tenace/${CLUB}/${t}/director/state`]), floorTopic], { qos: 1 });
  clean.add('clear retained (a)', () => clearRetained(sub, Object.values(tables).flatMap(tableTopicsOf)));

  const common = { dir, deckPath, broker: o.broker, binding, opened, clean };
  const disk = await mockTable({ ...common, table: tables.disk, journalDir: join(dir, 'journal'), bridgePath: paths.disk });
  const tmpfs = await mockTable({ ...common, table: tables.tmpfs, journalDir: join(shm, 'journal'), bridgePath: paths.tmpfs });

  // The floor: MockBinding → SerialPortStream → ReadlineParser → append + fdatasync → publish QoS 1.
  const floorClient = await connect(o.broker, `tenace-bench-floor-${tag}`);
  clean.add('disconnect floor client', () => floorClient.endAsync());
  const floorPort = new SerialPortStream({ binding, path: paths.floor, baudRate: 115200, autoOpen: false });
  await new Promise<void>((res, rej) => floorPort.open((e) => (e ? rej(e) : res())));
  clean.add('close floor port', () => new Promise<void>((r) => (floorPort.isOpen ? floorPort.close(() => r()) : r())));
  const parser = floorPort.pipe(new ReadlineParser());
  // The same durable work as the daemon's for a card (issue 20): one append with fdatasync, on the disk journal's
  // disk, before the QoS 1 publish.
  const floorFd = openSync(join(dir, 'floor.ndjson'), 'a');
  clean.add('close floor file', () => closeSync(floorFd));
  parser.on('data', (line: string) => {
    writeSync(floorFd, `${line}\n`);
    fdatasyncSync(floorFd);
    floorClient.publish(floorTopic, line, { qos: 1 });
  });
  const floorMock = opened.get(paths.floor)!;
  let floorSeq = 0;

  const out: PartA = { disk: [], tmpfs: [], floor: [], diskDurable: [], tmpfsDurable: [], alerts: 0, incidents: 0, mismatched: 0, timeouts: [], requested: o.cards, budgetHit: false, journalDir: join(dir, 'journal'), shmDir: join(shm, 'journal') };
  const total = o.cards + o.warmupCards;
  const deals = dealsFor(o.seed, deck, Math.ceil(total / 104) + 1);
  const rng = createRng(o.seed ^ 0x5eed);
  const deadline = Date.now() + Math.min(BUDGET_A_MS, timeLeft());

  /** Wait until a daemon has published everything it journaled (its director/state caught up): it is idle. */
  const idle = (t: MockTable) => inbox.wait(() => (inbox.dirSeq.get(t.table) ?? -1) >= t.controller.journal.lastSeq, 5000, `${t.table} to go idle`);

  const daemonCard = async (t: MockTable, step: RfidStep): Promise<{ total: number; durable: number }> => {
    const seq = t.controller.journal.lastSeq + 1;
    t.lastCard = null;
    if (step.kind === 'arrive') t.emu.place(step.reader, step.uid);
    else t.emu.lift(step.reader, step.uid);
    const sent = t.lastCard as { at: number } | null;
    if (!sent) throw new Error(`the emulator of ${t.table} sent no line for ${step.kind} ${step.uid}`);
    await inbox.wait(() => inbox.events.get(t.table)?.has(seq) ?? false, 5000, `event ${seq} of ${t.table}`);
    const got = inbox.events.get(t.table)!.get(seq)!;
    if (got.type !== (step.kind === 'arrive' ? 'place' : 'lift')) out.mismatched++;
    inbox.events.get(t.table)!.delete(seq);
    const durable = (t.durableAt.get(seq) ?? NaN) - sent.at;
    t.durableAt.clear();
    await idle(t);
    return { total: got.at - sent.at, durable };
  };
  const floorCard = async (step: RfidStep): Promise<number> => {
    floorSeq = nextDeviceSeq(floorSeq);
    const bytes = Buffer.from(`${encodeFrame({ seq: floorSeq, type: step.kind, reader: step.reader, uid: step.uid })}\n`, 'latin1');
    const n = (inbox.floor.get(floorTopic)?.n ?? 0) + 1;
    const t0 = performance.now();
    floorMock.emitData(bytes);
    await inbox.wait(() => (inbox.floor.get(floorTopic)?.n ?? 0) >= n, 5000, 'the floor message');
    return inbox.floor.get(floorTopic)!.at - t0;
  };

  let done = 0;
  const gc = (globalThis as { gc?: () => void }).gc;
  let dealIndex = -1;
  outer: for (const d of deals) {
    dealIndex++;
    // The tmpfs daemon (a secondary figure) plays every other deal, whole: a daemon that saw only some of a deal's
    // cards would find irregularities in it and publish director alerts, which is another workload.
    const withTmpfs = dealIndex % 2 === 0;
    for (const t of withTmpfs ? [disk, tmpfs] : [disk]) {
      await t.controller.ingest({ type: 'deal', ...dealParams(d.deal) } as never);
      await idle(t);
    }
    for (const step of d.steps) {
      if (done >= total) break outer;
      if (Date.now() > deadline) {
        out.budgetHit = true;
        break outer;
      }
      const record = done >= o.warmupCards;
      // The disk daemon and the floor take every card, in turns as to which goes first.
      const sides: ('disk' | 'tmpfs' | 'floor')[] = withTmpfs
        ? (['disk', 'floor', 'tmpfs'] as const).map((_, k, all) => all[(done + k) % 3])
        : done % 2 === 0 ? ['disk', 'floor'] : ['floor', 'disk'];
      for (const side of sides) {
        if (side === 'floor') {
          const lat = await floorCard(step);
          if (record) out.floor.push(lat);
        } else {
          const lat = await daemonCard(side === 'disk' ? disk : tmpfs, step);
          if (record) {
            out[side].push(lat.total);
            (side === 'disk' ? out.diskDurable : out.tmpfsDurable).push(lat.durable);
          }
        }
        await sleep(1 + rng.int(4));
      }
      done++;
      if (done % 100 === 0) {
        progress(`(a) ${done}/${total} cards`);
        // A collection between cards (never during one), so garbage from earlier cards lands on no side in particular.
        if (gc) gc();
      }
    }
  }
  for (const t of [disk, tmpfs]) {
    out.alerts += inbox.directorAlerts.get(t.table) ?? 0;
    const fs = t.controller.feed?.stats;
    out.incidents += (fs?.engineErrors ?? 0) + (fs?.privacyGuardTrips ?? 0) + (fs?.publishFailures ?? 0);
  }
  return out;
}

