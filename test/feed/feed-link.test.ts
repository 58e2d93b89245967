// The feed's link to the broker (issue 11 items 8 and 10): a broker that stays down costs a reconnection attempt less
// and less often and one log line, not an error+warn pair every 2 s forever; its return is logged once with the
// outage's length; two daemons with one client id are told so once, with the fix, and stop fighting every second.
import { type AddressInfo, type Socket, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../src/broker/embedded.js';
import { Feed, type FeedLogger, type FeedOptions, MemoryDeliveryMark, MemoryEventSource } from '../../src/feed/mqtt-feed.js';
import { freePort, sleep, startBroker, uid, waitFor } from './broker.js';

interface Line { level: 'debug' | 'info' | 'warn' | 'error'; msg: string; obj: Record<string, unknown> }

function recorder(): { logger: FeedLogger; lines: Line[]; at(level: Line['level']): Line[] } {
  const lines: Line[] = [];
  const rec = (level: Line['level']) => (obj: object, msg?: string) => { lines.push({ level, msg: msg ?? '', obj: obj as Record<string, unknown> }); };
  return {
    lines,
    logger: { debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') },
    at: (level) => lines.filter((l) => l.level === level),
  };
}

function feedFor(url: string, opts: Partial<FeedOptions> = {}): Feed {
  return new Feed({ url, club: uid('c'), table: uid('t'), source: new MemoryEventSource(), mark: new MemoryDeliveryMark(), ...opts });
}

describe('the feed\'s link to the broker', () => {
  it('backs off while the broker is down, says so once, and logs its return once with the outage length', async () => {
    const port = await freePort();
    const log = recorder();
    const feed = feedFor(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 100, maxReconnectPeriod: 800, logger: log.logger });
    const attempts: number[] = [];
    feed.on('close', () => attempts.push(Date.now()));
    await feed.start();
    let broker: Awaited<ReturnType<typeof startBroker>> | undefined;
    try {
      await sleep(3500);
      // A fixed 100 ms period would have made ~35 attempts; doubling to a cap of 800 ms makes ~7.
      expect(attempts.length, `attempts at ${attempts.map((t) => t - attempts[0]).join(', ')}`).toBeGreaterThanOrEqual(4);
      expect(attempts.length).toBeLessThanOrEqual(9);
      const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
      expect(gaps.at(-1)!).toBeGreaterThanOrEqual(600);
      expect(gaps[0]).toBeLessThan(400);
      // One line for the whole outage so far, naming the broker and the reason; nothing at error level.
      expect(log.at('warn').map((l) => l.msg)).toEqual(['cannot reach the broker; events wait in the journal; retrying, less often as the outage lasts']);
      expect(log.at('warn')[0].obj).toMatchObject({ url: `mqtt://127.0.0.1:${port}`, err: expect.stringMatching(/ECONNREFUSED/), retryMaxMs: 800 });
      expect(log.at('error')).toEqual([]);

      broker = await startBroker('listener {port} 127.0.0.1\nallow_anonymous true', { port });
      await waitFor(() => feed.connected, 5000, 'the feed to reconnect');
      const back = log.at('info').filter((l) => /again/.test(l.msg));
      expect(back).toHaveLength(1);
      expect(back[0].msg).toMatch(/^connected to the broker again after \d+ s$/);
      expect(back[0].obj.outageMs as number).toBeGreaterThanOrEqual(3500);

      // A second outage after a stable connection: reported once again, and the first retry is quick again.
      await sleep(200);
      const before = attempts.length;
      await broker.stop('SIGKILL');
      await waitFor(() => attempts.length > before, 3000, 'the feed to notice');
      expect(log.at('warn').map((l) => l.msg).slice(1)).toEqual(['disconnected from the broker; events wait in the journal; reconnecting']);
      await broker.start();
      await waitFor(() => feed.connected, 3000, 'the quick reconnection');
      expect(log.at('info').filter((l) => /again/.test(l.msg))).toHaveLength(2);
      expect(log.at('error')).toEqual([]);
    } finally {
      await feed.stop();
      await broker?.dispose();
    }
  }, 30_000);

  it('stops at once while the broker is down, instead of waiting to say goodbye to nobody', async () => {
    const feed = feedFor(`mqtt://127.0.0.1:${await freePort()}`, { reconnectPeriod: 100 });
    await feed.start();
    await sleep(300);
    const t0 = Date.now();
    await feed.stop();
    expect(Date.now() - t0).toBeLessThan(500);
  });

  it('two feeds with one client id on Mosquitto: each says so once, names the fix, and backs off', async () => {
    const broker = await startBroker('listener {port} 127.0.0.1\nallow_anonymous true');
    const club = uid('c'), table = uid('t');
    const logs = [recorder(), recorder()];
    const feeds = logs.map((l) => new Feed({
      url: broker.url, club, table, source: new MemoryEventSource(), mark: new MemoryDeliveryMark(),
      reconnectPeriod: 100, maxReconnectPeriod: 1000, logger: l.logger,
    }));
    try {
      await feeds[0].start();
      await waitFor(() => feeds[0].connected, 5000, 'the first feed');
      await feeds[1].start();
      await sleep(4000);
      for (const [i, l] of logs.entries()) {
        const errors = l.at('error');
        expect(errors, `feed ${i}: ${JSON.stringify(l.lines)}`).toHaveLength(1);
        // Mosquitto 2.0.11 closes the older connection without a DISCONNECT reason: the short connections tell.
        expect(errors[0].msg).toContain(`client id "tenace-${club}-${table}"`);
        expect(errors[0].msg).toContain('give each table its own table.id, or set a unique mqtt.clientId');
        // The flapping is not logged line by line: at most the first two ends, before they were recognised.
        const recognised = l.lines.indexOf(errors[0]);
        expect(l.lines.slice(recognised + 1).filter((x) => x.level !== 'debug'), JSON.stringify(l.lines)).toEqual([]);
        expect(l.at('warn').length).toBeLessThanOrEqual(2);
      }
      // Without the back-off they would take the session from each other every 100 ms (~40 connections each).
      const connects = feeds[0].stats.connects + feeds[1].stats.connects;
      expect(connects).toBeGreaterThanOrEqual(3);
      expect(connects).toBeLessThanOrEqual(16);
    } finally {
      for (const f of feeds) await f.stop();
      await broker.dispose();
    }
  }, 20_000);

  it('a broker that says "session taken over" (MQTT 5 reason 0x8e) is believed at the first time', async () => {
    // A broker of a few bytes: it accepts each connection, then hands the session to "another client" 50 ms later.
    const takenOver: Socket[] = [];
    const server = createServer((sock) => {
      takenOver.push(sock);
      sock.on('error', () => undefined);
      sock.once('data', () => {
        sock.write(Buffer.from([0x20, 0x03, 0x00, 0x00, 0x00])); // CONNACK, success, no properties
        setTimeout(() => sock.end(Buffer.from([0xe0, 0x02, 0x8e, 0x00])), 50); // DISCONNECT 0x8e
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const log = recorder();
    const feed = feedFor(`mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`, { clientId: 'tenace-ely-7', reconnectPeriod: 100, maxReconnectPeriod: 800, logger: log.logger });
    let closes = 0;
    feed.on('close', () => { closes++; });
    try {
      await feed.start();
      await sleep(2500);
      expect(log.at('error').map((l) => l.msg)).toEqual([
        'another client connected with client id "tenace-ely-7" and took our session over (MQTT reason 0x8e, session taken over); '
        + 'two daemons (or a daemon and a test client) are using one client id: give each table its own table.id, or set a unique mqtt.clientId. '
        + 'Reconnecting less and less often meanwhile',
      ]);
      expect(log.at('warn')).toEqual([]);
      // 100 ms apart this would be ~16 connections; the waits double from the first takeover: 200, 400, 800, 800 ms.
      expect(closes).toBeGreaterThanOrEqual(3);
      expect(closes).toBeLessThanOrEqual(7);
    } finally {
      await feed.stop();
      for (const s of takenOver) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it('on an MQTT 3.1.1 broker, which gives no reason, repeated short connections are recognised as a client id clash', async () => {
    const broker = await startEmbeddedBroker();
    const logs = [recorder(), recorder()];
    const feeds = logs.map((l) => feedFor(broker.url, { clientId: 'tenace-ely-7', protocolVersion: 4, reconnectPeriod: 100, maxReconnectPeriod: 800, logger: l.logger }));
    try {
      for (const f of feeds) await f.start();
      await waitFor(() => logs.some((l) => l.at('error').length > 0), 8000, 'a feed to recognise the clash');
      await sleep(2000);
      const errors = logs.flatMap((l) => l.at('error'));
      expect(errors.length).toBeGreaterThanOrEqual(1);
      expect(errors.length).toBeLessThanOrEqual(2);
      for (const e of errors) expect(e.msg).toMatch(/most likely another client uses client id "tenace-ely-7".*set a unique mqtt\.clientId/);
    } finally {
      for (const f of feeds) await f.stop();
      await broker.close();
    }
    // Above the sum of the bounds inside (8 s to see the clash, 2 s, up to 4 s to stop each feed), so that on a
    // loaded machine a failure shows as the assertion that failed, not as the test's timeout.
  }, 40_000);
});
