// The room-to-centre bridge of mosquitto/room.conf, run as shipped (only ports, paths, accounts and the address
// changed), with a TCP proxy between the room's bridge and the centre so the link can be cut for 60 s (issue 10).
import { readFileSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { type Broker, client, freePort, sleep, startBroker, uid, waitFor } from '../feed/broker.js';

const CUT_MS = 60_000;
const TABLES = 10;
const PUBLISH_EVERY_MS = 100; // per table: 100 journal events/s for the room

/** Replace one line of a shipped configuration; fail loudly when the shipped file no longer has it. */
function edit(conf: string, re: RegExp, to: string): string {
  if (!re.test(conf)) throw new Error(`the shipped configuration has no line matching ${re}: update this test with it`);
  return conf.replace(re, to);
}

/** The shipped file, made to run here: anonymous, our ports and folder, stderr logging (added by startBroker). */
function forTest(path: string, address?: string): string {
  let c = readFileSync(path, 'utf8');
  c = edit(c, /^allow_anonymous false$/m, 'allow_anonymous true');
  c = edit(c, /^password_file .*$/m, '');
  c = edit(c, /^acl_file .*$/m, '');
  c = edit(c, /^persistence_location .*$/m, 'persistence_location {dir}/');
  c = edit(c, /^listener 1883$/m, 'listener {port} 127.0.0.1');
  c = c.replace(/^log_(dest|type) .*$/gm, '');
  if (address !== undefined) {
    c = edit(c, /^address .*$/m, `address ${address}`);
    c = edit(c, /^remote_username .*$/m, '');
    c = edit(c, /^remote_password .*$/m, '');
  }
  return c;
}

/** A TCP proxy whose link can be cut (sockets destroyed, connections refused) and restored on the same port. */
async function proxy(target: number): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const listen = (): Promise<void> => new Promise((resolve, reject) => {
    const s = createServer((inbound) => {
      const outbound = tcpConnect({ host: '127.0.0.1', port: target });
      sockets.add(inbound); sockets.add(outbound);
      const drop = (): void => { inbound.destroy(); outbound.destroy(); sockets.delete(inbound); sockets.delete(outbound); };
      inbound.on('error', drop).on('close', drop);
      outbound.on('error', drop).on('close', drop);
      inbound.pipe(outbound); outbound.pipe(inbound);
    });
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => { server = s; resolve(); });
  });
  const stop = async (): Promise<void> => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  await listen();
  return { port, cut: stop, restore: listen, close: stop };
}

interface Seen { table: string; seq: number }
function parse(topic: string, payload: Buffer): Seen {
  const table = topic.split('/')[2]!;
  const m = JSON.parse(payload.toString()) as { seq: number };
  return { table, seq: m.seq };
}

describe('championship: a room bridged to the centre (mosquitto/room.conf, issue 10 "bridge cut for 60 s")', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => { for (const f of cleanup.reverse()) await f().catch(() => undefined); });

  it('the room goes on during a 60 s cut; after it the centre has every (table, seq) once; nothing loops', async () => {
    const club = uid('c');
    const centre: Broker = await startBroker(forTest('mosquitto/central.conf'));
    cleanup.push(() => centre.dispose());
    const link = await proxy(centre.port);
    cleanup.push(() => link.close());
    const room: Broker = await startBroker(forTest('mosquitto/room.conf', `127.0.0.1:${link.port}`));
    cleanup.push(() => room.dispose());

    const clients: MqttClient[] = [];
    cleanup.push(async () => { for (const c of clients) await c.endAsync(true); });
    const mk = async (url: string, opts = {}): Promise<MqttClient> => { const c = await client(url, opts); clients.push(c); return c; };

    // The bridge says "1" on the centre when its link is up (notifications true).
    const centreSub = await mk(centre.url, { clientId: uid('director-'), clean: false, properties: { sessionExpiryInterval: 3600 } });
    let linkState = '';
    const atCentre: Seen[] = [];
    const atCentreOther = new Map<string, number>();
    centreSub.on('message', (topic, payload) => {
      if (topic.startsWith('$SYS/broker/connection/')) linkState = payload.toString();
      else if (topic.endsWith('/director/event')) atCentre.push(parse(topic, payload));
      else atCentreOther.set(topic, (atCentreOther.get(topic) ?? 0) + 1);
    });
    await centreSub.subscribeAsync({
      '$SYS/broker/connection/+/state': { qos: 1 },
      [`tenace/${club}/+/director/event`]: { qos: 1 },
      [`tenace/${club}/club/#`]: { qos: 1 },
    });
    await waitFor(() => linkState === '1', 15_000, 'the bridge to report its link up at the centre');

    const roomSub = await mk(room.url);
    const atRoom: (Seen & { at: number })[] = [];
    const atRoomOther = new Map<string, string[]>();
    roomSub.on('message', (topic, payload) => {
      if (topic.endsWith('/director/event')) atRoom.push({ ...parse(topic, payload), at: Date.now() });
      else atRoomOther.set(topic, [...(atRoomOther.get(topic) ?? []), payload.toString()]);
    });
    await roomSub.subscribeAsync(`tenace/${club}/#`, { qos: 1 });

    const director = await mk(centre.url);
    const assignment = `tenace/${club}/t0/assignment`;
    // "in" before the cut: a retained assignment crosses from the centre to the room.
    await director.publishAsync(assignment, 'round-1', { qos: 1, retain: true });
    await waitFor(() => (atRoomOther.get(assignment) ?? []).includes('round-1'), 10_000, 'round 1 assignment at the room');
    // Loop check: a session named "response" makes a topic that matches both an "in" line (tenace/+/club/#) and
    // an "out" line (tenace/+/+/response/+); it must arrive once at each end, not bounce.
    const overlap = `tenace/${club}/club/response/standings`;
    await director.publishAsync(overlap, 'once', { qos: 1 });

    // Ten tables publish journal events at the room, continuously.
    const tables = Array.from({ length: TABLES }, (_, i) => `t${i}`);
    const sent = new Map<string, number>(tables.map((t) => [t, 0]));
    const publisher = await mk(room.url);
    let publishing = true;
    const loops = tables.map(async (table) => {
      while (publishing) {
        const seq = sent.get(table)! + 1;
        await publisher.publishAsync(`tenace/${club}/${table}/director/event`,
          JSON.stringify({ type: 'tenace.journal-event', session: 's1', seq, event: { type: 'card', seq } }), { qos: 1 });
        sent.set(table, seq);
        await sleep(PUBLISH_EVERY_MS);
      }
    });

    const t0 = Date.now();
    await sleep(3000);
    await link.cut();
    const cutAt = Date.now();
    await waitFor(() => linkState === '0' || Date.now() - cutAt > 2000, 5000, 'the centre to see the link down');
    // "in" during the cut: queued at the centre for the bridge's persistent session.
    await director.publishAsync(assignment, 'round-2', { qos: 1, retain: true });
    await sleep(CUT_MS - (Date.now() - cutAt));
    const centreCountAtRestore = atCentre.length;
    const roomDuringCut = atRoom.filter((m) => m.at >= cutAt).length;
    await link.restore();
    const restoredAt = Date.now();
    await waitFor(() => linkState === '1', 30_000, 'the bridge to reconnect after the cut');
    const reconnectMs = Date.now() - restoredAt;
    await sleep(3000);
    publishing = false;
    await Promise.all(loops);
    // "in" after the cut.
    await director.publishAsync(assignment, 'round-3', { qos: 1, retain: true });

    const total = [...sent.values()].reduce((a, b) => a + b, 0);
    const distinct = (xs: Seen[]): number => new Set(xs.map((m) => `${m.table}:${m.seq}`)).size;
    await waitFor(() => distinct(atCentre) >= total, 60_000, `all ${total} events at the centre`)
      .catch(() => undefined);
    await waitFor(() => (atRoomOther.get(assignment) ?? []).includes('round-3'), 10_000, 'round 3 assignment at the room');
    await sleep(500);

    const duplicates = atCentre.length - distinct(atCentre);
    const report = `sent ${total} events; centre got ${atCentre.length} (${duplicates} duplicates, ${distinct(atCentre)} distinct; ` +
      `${centreCountAtRestore} before the link returned); room got ${atRoom.length}, ${roomDuringCut} during the ${CUT_MS / 1000} s cut; ` +
      `bridge back ${reconnectMs} ms after the link; whole run ${Math.round((Date.now() - t0) / 1000)} s`;
    console.log(`bridge test: ${report}`);

    // The room went on: its own subscriber got every event exactly once (none came back from the centre).
    expect(atRoom.length, report).toBe(total);
    expect(distinct(atRoom), report).toBe(total);
    expect(roomDuringCut, report).toBeGreaterThan((CUT_MS / PUBLISH_EVERY_MS) * TABLES * 0.5);
    // The centre: every (table, seq), once counting only QoS 1 resends. Not necessarily in order: when the link
    // returns, Mosquitto 2.0 may forward a message published during the reconnect ahead of the queue it resends
    // (seen in CI: t8's seq 748 came between 40 and 41). The issue asks for every result once, and the director
    // does not rely on arrival order: it folds a table's journal by seq, asks the table for a gap (`after: seq`)
    // and ignores a (table, seq) it already holds (test/club/director.test.ts, "a gap is filled").
    let reordered = 0;
    for (const table of tables) {
      const firsts: number[] = [];
      const had = new Set<number>();
      for (const m of atCentre) if (m.table === table && !had.has(m.seq)) { had.add(m.seq); firsts.push(m.seq); }
      reordered += firsts.filter((seq, i) => i > 0 && seq < firsts[i - 1]!).length;
      expect([...firsts].sort((a, b) => a - b), `${table}: ${report}`).toEqual(Array.from({ length: sent.get(table)! }, (_, i) => i + 1));
    }
    console.log(`bridge test: ${reordered} first arrivals at the centre came after a later seq of their table`);
    expect(duplicates, report).toBeLessThanOrEqual(100 * TABLES); // at most the bridge's in-flight window resent
    // In direction: round 2 (published during the cut) and round 3 reached the room, in order.
    // The bridge subscribes again at each connect, so the centre also sends the retained round 2 once more: a
    // retained assignment may come twice (latest wins at the table); the order of first arrivals must hold.
    const rounds = atRoomOther.get(assignment) ?? [];
    console.log(`bridge test: assignments at the room: ${rounds.join(', ')}`);
    expect([...new Set(rounds)], `${rounds.join(',')}; ${report}`).toEqual(['round-1', 'round-2', 'round-3']);
    expect(rounds.at(-1)).toBe('round-3');
    // No loop: the overlapping topic arrived once at each end.
    expect(atRoomOther.get(overlap), report).toEqual(['once']);
    expect(atCentreOther.get(overlap), report).toBe(1);
    expect(centreCountAtRestore, report).toBeLessThan(total);
  }, CUT_MS + 120_000);
});
