// Issue 18, goal 4: a bounded intake. The attacks of the issue, sent as a table's own account would send them, to a
// real director on a real Mosquitto: events of 250 kB, one of 5 MB, alerts of 100 kB and a flood of small ones,
// seqs "1", -1 and 1.5, a reused seq with other content, events far past a gap, a deal of a board not in the
// movement. Each is refused (or, the unknown board, alerted), counted, logged once per burst with one alert naming
// the table; nothing oversize is stored, the events held past a gap stay within the window, and the table's real
// events still go in.
import { Writable } from 'node:stream';
import mqtt, { type MqttClient } from 'mqtt';
import { createLogger } from '../../src/config/logger.js';
import { describe, expect, it } from 'vitest';
import { ALERT_BURST, GAP_WINDOW, INTAKE_LIMITS } from '../../src/club/director/intake.js';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore } from '../../src/club/director/store.js';
import type { ClubAlert, RoundAssignment } from '../../src/club/types.js';
import { startBroker, uid, waitFor } from '../feed/broker.js';
import { BROKER, cleanupAfterEach, FakeTable, Observer, SCHEDULE, seedHand, STUBS, testConfig } from './director-rig.js';
import { freshDb } from './store-engines.js';

const T = 20_000;

interface Line { msg: string; table?: string; reason?: string; refused?: number }

describe('the director\'s intake is bounded', () => {
  const cleanup = cleanupAfterEach();

  async function rig(broker = BROKER) {
    const club = uid('intake');
    const db = await freshDb('sqlite');
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club, broker);
    cleanup.push(() => obs.close());
    const table = await FakeTable.connect(club, '1', 's1', 1, broker);
    cleanup.push(() => table.close());
    // The attacker holds table 1's account: it publishes on table 1's own topics.
    const evil: MqttClient = await mqtt.connectAsync(broker, { clientId: `evil-${club}`, protocolVersion: 4 });
    cleanup.push(() => evil.endAsync());
    const lines: Line[] = [];
    const log = createLogger({ log: { level: 'warn' } }, new Writable({ write(chunk, _enc, cb) { lines.push(JSON.parse(String(chunk)) as Line); cb(); } }));
    const store = await DirectorStore.open(db.url);
    const s = new DirectorService({ config: testConfig(club, db.url, { mqtt: { url: broker, keepalive: 30, baseTopic: 'tenace', protocolVersion: 5, maxMessageBytes: 262144 } }), log, schedule: SCHEDULE, store, club: STUBS, web: false, requestRetryMs: 400 });
    await s.start();
    cleanup.push(async () => { await s.stop(); await store.close(); });
    await waitFor(() => obs.get<RoundAssignment>('1/assignment')?.round === 1, T, 'round 1');
    const root = `tenace/${club}/1`;
    const event = (seq: unknown, event: object, session = 's1') => JSON.stringify({ schema: 1, type: 'tenace.journal-event', session, seq, event: { ...event, seq, at: new Date().toISOString() } });
    const send = async (topic: string, body: string | Buffer) => { await evil.publishAsync(`${root}/${topic}`, body, { qos: 1 }); };
    const refusedAlerts = () => obs.alerts.filter((a) => a.kind === 'refused-message' && a.table === '1');
    const burstLines = (reason: string) => lines.filter((l) => l.reason === reason && l.table === '1');
    return { club, obs, table, store, s, lines, event, send, refusedAlerts, burstLines };
  }

  it('events of 250 kB past a gap and alerts of 100 kB are refused by size: counted, logged and alerted once, none stored', async () => {
    const { s, store, obs, event, send, refusedAlerts, burstLines } = await rig();
    const pad = 'x'.repeat(250_000);
    for (let i = 0; i < 40; i++) await send('director/event', event(10 + i, { type: 'tray', code: 'T1', pad }));
    const alert = (i: number) => JSON.stringify({ schema: 1, type: 'tenace.alert', kind: 'wrong-tray', session: 's1', table: '1', message: 'y'.repeat(100_000), seq: i, at: new Date().toISOString() });
    for (let i = 0; i < 40; i++) await send('director', alert(i));
    await waitFor(() => (s.refusals()['1:too-large'] ?? 0) === 80, T, '80 refusals by size');
    expect(await store.events('s1')).toEqual([]);
    expect((await store.alerts('s1')).map((a) => a.alert.kind)).toEqual(['refused-message']);
    expect(s.pendingEvents()['1']).toBe(0);
    // One burst: one log line and one alert on the console, naming the table and the limit.
    expect(burstLines('too-large')).toHaveLength(1);
    await waitFor(() => refusedAlerts().length === 1, T, 'the alert');
    expect(refusedAlerts()[0].message).toContain('Table 1 sent a message larger than the director takes');
    expect(refusedAlerts()[0].message).toContain(String(INTAKE_LIMITS.event));
    // The snapshot still fits the broker's limit and is published.
    await waitFor(() => (obs.get<{ alerts: ClubAlert[] }>('club/s1/director')?.alerts ?? []).some((a) => a.kind === 'refused-message'), T, 'the snapshot with the alert');
  });

  it('a seq that is not a positive integer ("1", -1, 1.5, none) is refused and does not block the table\'s real event', async () => {
    const { s, store, table, event, send, refusedAlerts, burstLines } = await rig();
    for (const seq of ['1', -1, 1.5, 0, null]) await send('director/event', event(seq, { type: 'tray', code: 'T9' }));
    await waitFor(() => s.refusals()['1:bad-seq'] === 5, T, 'five refusals');
    expect(burstLines('bad-seq')).toHaveLength(1);
    await waitFor(() => refusedAlerts().length === 1, T, 'the alert');
    expect(refusedAlerts()[0].message).toMatch(/^Table 1 sent an event numbered "1", which is not a whole number from 1 up/);
    await table.play([{ type: 'tray', code: 'T1' }]);
    await waitFor(async () => (await store.events('s1')).length === 1, T, 'the real event 1');
    expect((await store.events('s1'))[0].event).toMatchObject({ type: 'tray', code: 'T1', seq: 1 });
  });

  it('a reused seq with other content is an alert, folded or held past a gap; the first stands', async () => {
    const { s, store, table, obs, event, send } = await rig();
    await table.play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false).slice(0, 3)]);
    await waitFor(async () => (await store.events('s1')).length === 4, T, 'four events');
    // Seq 3 folded already: the same content again is a redelivery (nothing said), other content an alert.
    const real3 = (await store.events('s1'))[2].event;
    await send('director/event', JSON.stringify({ schema: 1, type: 'tenace.journal-event', session: 's1', seq: 3, event: real3 }));
    await send('director/event', event(3, { type: 'tray', code: 'T2' }));
    await waitFor(() => s.refusals()['1:reused-seq'] === 1, T, 'the reused seq counted');
    await waitFor(() => obs.alerts.some((a) => a.kind === 'reused-seq' && a.table === '1' && a.seq === 3), T, 'the reused-seq alert');
    expect(obs.alerts.find((a) => a.kind === 'reused-seq')!.message).toContain('Table 1 sent event 3 a second time with other content; the first one stands');
    // Past a gap: seq 5 never arrives (and the table does not answer for now), seq 6 waits; a forged 6 is an alert.
    table.silent = true;
    await table.play(seedHand(1, false).slice(3, 5), { publish: (seq) => seq !== 5 });
    await waitFor(() => s.pendingEvents()['1'] === 1, T, 'seq 6 held past the gap');
    await send('director/event', event(6, { type: 'tray', code: 'T2' }));
    await waitFor(() => s.refusals()['1:reused-seq'] === 2, T, 'the second reused seq counted');
    table.silent = false;
    await waitFor(async () => (await store.events('s1')).length === 6 && s.pendingEvents()['1'] === 0, T, 'the gap filled');
    const stored = await store.events('s1');
    expect(stored.map((e) => e.event)).toEqual(table.journal);
  });

  it('events far past a gap are dropped and asked for again: the events held stay within the window', async () => {
    const { s, store, table, event, send, burstLines } = await rig();
    // The table answered the director's first request (an empty journal: its first seq is 1), then falls silent.
    await waitFor(() => table.requests.length > 0, T, 'the first request');
    table.silent = true;
    // Seq 1 never comes: 2..GAP_WINDOW are held, GAP_WINDOW + 1 on dropped (and asked for again).
    for (let seq = 2; seq <= GAP_WINDOW + 100; seq++) await send('director/event', event(seq, { type: 'tray', code: 'T1' }));
    await waitFor(() => (s.refusals()['1:past-window'] ?? 0) + s.pendingEvents()['1'] === GAP_WINDOW + 99, T, 'every event held or dropped');
    expect(s.pendingEvents()['1']).toBe(GAP_WINDOW - 1);
    expect(s.refusals()['1:past-window']).toBe(100);
    expect((await store.events('s1')).length).toBe(GAP_WINDOW - 1);
    expect(burstLines('past-window')).toHaveLength(1);
    // The table's real seq 1 (its own journal, which differs from the forged 2..): the gap closes, the forged events
    // fold, and a seq past lastSeq + window is still dropped.
    table.silent = false;
    await table.play([{ type: 'tray', code: 'T1' }]);
    await waitFor(() => s.pendingEvents()['1'] === 0, T, 'the gap filled');
    await send('director/event', event(100_000, { type: 'tray', code: 'T1' }));
    await waitFor(() => s.refusals()['1:past-window'] === 101, T, 'seq 100000 dropped');
    expect((await store.events('s1')).some((e) => e.seq === 100_000)).toBe(false);
    expect(table.requests.length).toBeGreaterThan(0);
  });

  it('a real table whose events ran past the window loses none: what was dropped is asked for again', async () => {
    const { s, store, table } = await rig();
    await waitFor(() => table.requests.length > 0, T, 'the first request');
    table.silent = true;
    const n = GAP_WINDOW + 100;
    await table.play(Array.from({ length: n }, (_, i) => ({ type: 'tray' as const, code: `T${i}` })), { publish: (seq) => seq !== 1 });
    await waitFor(() => s.refusals()['1:past-window'] === 100, T, 'the events past the window dropped');
    table.silent = false;
    await waitFor(async () => (await store.events('s1')).length === n, T, 'every event stored');
    expect((await store.events('s1')).map((e) => e.event)).toEqual(table.journal);
    expect(s.pendingEvents()['1']).toBe(0);
  });

  it('a flood of small alerts is rate-limited per table; a deal of a board not in the movement is an alert', async () => {
    const { s, store, obs, table, send, refusedAlerts, burstLines } = await rig();
    for (let i = 0; i < 200; i++) {
      await send('director', JSON.stringify({ schema: 1, type: 'tenace.alert', kind: 'wrong-tray', session: 's1', table: '1', message: 'Wrong tray.', seq: i, at: new Date().toISOString() }));
    }
    await waitFor(() => (s.refusals()['1:alert-rate'] ?? 0) >= 200 - ALERT_BURST - 1, T, 'the flood refused');
    const kinds = (await store.alerts('s1')).map((a) => a.alert.kind);
    expect(kinds.filter((k) => k === 'wrong-tray').length).toBeLessThanOrEqual(ALERT_BURST + 1);
    expect(kinds.filter((k) => k === 'refused-message')).toHaveLength(1);
    expect(burstLines('alert-rate')).toHaveLength(1);
    await waitFor(() => refusedAlerts().length === 1, T, 'the alert');
    expect(refusedAlerts()[0].message).toContain(`Table 1 sent more alerts than ${ALERT_BURST} at once`);

    // Table 2 deals board 999 (its budget untouched by table 1's flood).
    const t2 = await FakeTable.connect(obs.base.split('/')[1], '2');
    cleanup.push(() => t2.close());
    await t2.play([{ type: 'deal', board: 999, dealer: 'N' }]);
    await waitFor(() => obs.alerts.some((a) => a.kind === 'unknown-board' && a.table === '2'), T, 'the unknown-board alert');
    const a = obs.alerts.find((x) => x.kind === 'unknown-board')!;
    expect(a).toMatchObject({ board: 999, seq: 1 });
    expect(a.message).toBe('Table 2 dealt board 999, which is not in this session\'s movement. Check the tray at the table.');
    expect((await store.events('s1')).filter((e) => e.table === '2')).toHaveLength(1);
    expect(table.journal).toHaveLength(0);
  });

  it('events of another session are refused with one alert a burst, not a log line each', async () => {
    const { s, store, event, send, burstLines, refusedAlerts } = await rig();
    for (let i = 0; i < 30; i++) await send('director/event', event(i + 1, { type: 'tray', code: 'T1' }, `other-${i}`));
    await waitFor(() => s.refusals()['1:other-session'] === 30, T, 'thirty refusals');
    expect(burstLines('other-session')).toHaveLength(1);
    await waitFor(() => refusedAlerts().length === 1, T, 'the alert');
    expect(refusedAlerts()[0].message).toContain('Table 1 is sending events of another session');
    expect(await store.events('s1')).toEqual([]);
  });

  it('a message of 5 MB never reaches the director (MQTT 5 maximumPacketSize): not stored, the connection stays', async () => {
    const broker = await startBroker('listener {port} 127.0.0.1\nallow_anonymous true');
    cleanup.push(() => broker.dispose());
    const { s, store, table, event, send } = await rig(broker.url);
    await send('director/event', event(1, { type: 'tray', code: 'T1', pad: 'z'.repeat(5_000_000) }));
    // A marker after it from the same client (delivered in order): once it is counted, the 5 MB one was never seen.
    await send('director/event', event('marker', { type: 'tray', code: 'T1' }));
    await waitFor(() => s.refusals()['1:bad-seq'] === 1, T, 'the marker refused');
    expect(s.refusals()['1:too-large']).toBeUndefined();
    await table.play([{ type: 'tray', code: 'T1' }]);
    await waitFor(async () => (await store.events('s1')).length === 1, T, 'the real event');
    expect(JSON.stringify((await store.events('s1'))[0].event).length).toBeLessThan(200);
    const connects = broker.log().split('\n').filter((l) => l.includes('New client connected') && l.includes(s.clientId));
    expect(connects).toHaveLength(1);
  });
});
