// The broker's message size limit (Mosquitto's message_size_limit): a message over it makes Mosquitto drop the
// connection, and mqtt.js sends the same message again on the next one, for ever. A 200-table Mitchell's snapshot
// (its schedule alone 2.8 MB) did exactly that to the director holding partition 0. The director must say so once,
// leave that message out, and go on: the connection stays up, the next round's assignment still goes out.
import { Writable } from 'node:stream';
import { createLogger } from '../../src/config/logger.js';
import { describe, expect, it } from 'vitest';
import { DirectorService } from '../../src/club/director/service.js';
import { DirectorStore } from '../../src/club/director/store.js';
import type { DirectorSnapshot, DirectorSnapshotMessage, RoundAssignment } from '../../src/club/types.js';
import { startBroker, uid, waitFor } from '../feed/broker.js';
import { cleanupAfterEach, FakeTable, Observer, SCHEDULE, seedHand, STUBS, testConfig } from './director-rig.js';
import { freshDb } from './store-engines.js';

const T = 15_000;

describe('the director and the broker\'s message size limit', () => {
  const cleanup = cleanupAfterEach();

  async function run(limit: number) {
    const broker = await startBroker(`listener {port} 127.0.0.1\nallow_anonymous true\nmessage_size_limit ${limit}`);
    cleanup.push(() => broker.dispose());
    const club = uid('size');
    const db = await freshDb('sqlite');
    cleanup.push(() => db.drop());
    const obs = await Observer.connect(club, broker.url);
    cleanup.push(() => obs.close());
    const table = await FakeTable.connect(club, '1', 's1', 1, broker.url);
    cleanup.push(() => table.close());
    const lines: { msg: string; topic?: string; bytes?: number }[] = [];
    const log = createLogger({ log: { level: 'warn' } }, new Writable({ write(chunk, _enc, cb) { lines.push(JSON.parse(String(chunk))); cb(); } }));
    const config = testConfig(club, db.url, { mqtt: { url: broker.url, keepalive: 30, baseTopic: 'tenace', protocolVersion: 5, maxMessageBytes: limit } });
    const store = await DirectorStore.open(db.url);
    const s = new DirectorService({ config, log, schedule: SCHEDULE, store, club: STUBS, web: false, requestRetryMs: 400 });
    await s.start();
    cleanup.push(async () => { await s.stop(); await store.close(); });
    return { broker, obs, table, s, store, lines };
  }

  it('over mqtt.maxMessageBytes: said once a topic, not sent; the connection stays and the round goes on', async () => {
    const { broker, obs, table, s, store, lines } = await run(512);
    await waitFor(() => obs.get<RoundAssignment>('1/assignment')?.round === 1, T, 'round 1');
    await table.play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await waitFor(async () => (await store.results('s1')).length === 1, T, 'the traveller stored');
    await waitFor(() => obs.get<RoundAssignment>('1/assignment')?.round === 2, T, 'round 2 assigned after the snapshot was refused');
    // The retained snapshot of two tables with a tray record is over 512 bytes: it is refused, once built (it is
    // rebuilt on a timer, so wait for it).
    const { schedule: _s, standings: _t, ...message } = s.snapshot();
    expect(JSON.stringify(message).length).toBeGreaterThan(512);
    await waitFor(() => lines.some((l) => /maxMessageBytes/.test(l.msg) && l.topic === `${obs.base}/club/s1/director`), T, 'the snapshot refused');
    const refused = lines.filter((l) => /maxMessageBytes/.test(l.msg));
    expect(refused.map((l) => l.topic)).toContain(`${obs.base}/club/s1/director`);
    expect(refused.every((l) => (l.bytes ?? 0) > 512)).toBe(true);
    expect(new Set(refused.map((l) => l.topic)).size).toBe(refused.length);
    // One connection from start to end: Mosquitto never had to drop the director.
    const connects = broker.log().split('\n').filter((l) => l.includes('New client connected') && l.includes(s.clientId));
    expect(connects, broker.log().slice(-2000)).toHaveLength(1);
  });

  it('the retained snapshot leaves out the schedule and the standings (topics of their own) and the rounds not begun', async () => {
    const { obs, table, store, s } = await run(262144);
    type Message = Record<string, unknown> & DirectorSnapshotMessage;
    await waitFor(() => obs.get<Message>('club/s1/director') !== undefined && obs.get('club/s1/schedule') !== undefined, T, 'the retained snapshot');
    const first = obs.get<Message>('club/s1/director')!;
    expect(first.schedule).toBeUndefined();
    expect(first.standings).toBeUndefined();
    // Round 1 begun, round 2 not: its progress is not in the message (the page's copy over HTTP has it all).
    expect(SCHEDULE.rounds.map((r) => r.round)).toEqual([1, 2]);
    expect([...new Set(first.progress.map((p) => p.round))]).toEqual([1]);
    // The page's copy: every round, in the schedule's order, and as JSON too.
    const every = SCHEDULE.rounds.flatMap((r) => r.tables.map((t) => `${t.table}.${r.round}`));
    expect(s.snapshot().progress.map((p) => `${p.table}.${p.round}`)).toEqual(every);
    expect((JSON.parse(JSON.stringify(s.snapshot())) as DirectorSnapshot).progress.map((p) => `${p.table}.${p.round}`)).toEqual(every);
    await table.play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await waitFor(async () => (await store.results('s1')).length === 1, T, 'the traveller stored');
    // The page reads the snapshot meanwhile (HTTP): that must not stand for the retained one being sent.
    await waitFor(() => s.snapshot().tables.find((t) => t.table === '1')?.round === 2, T, 'round 2 in the page\'s snapshot');
    await waitFor(() => obs.get<Message>('club/s1/director')?.tables.find((t) => t.table === '1')?.round === 2, T, 'snapshot of round 2');
    const m = obs.get<Message>('club/s1/director')!;
    expect([...new Set(m.progress.map((p) => p.round))].sort()).toEqual([1, 2]);
    expect(m.progress.find((p) => p.table === 1 && p.round === 1)).toMatchObject({ played: 1, of: 1 });
    expect(m.standings).toBeUndefined();
  });
});
