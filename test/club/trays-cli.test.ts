// `tenace trays import|show|doctor` as a director runs them, against the real Mosquitto on 127.0.0.1:1883.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsFromPbn, trayDoctor } from '../../src/club/trays/index.js';
import type { TrayRecord } from '../../src/club/types.js';
import { trayTopic } from '../../src/feed/topics.js';
import { dataPath } from '../formats/data.js';
import { hasStack, runCli } from '../cli/spawn-cli.js';
import { type Broker, freePort, startBroker } from '../feed/broker.js';

const BROKER = 'mqtt://127.0.0.1:1883';
const CLUB = `traystest${process.pid}${Date.now().toString(36)}`;
const FIXTURE = new URL('../fixtures/club/trays/dealer4-4boards.pbn', import.meta.url).pathname;
const DEALER4 = readFileSync(FIXTURE, 'utf8');
const used: string[] = [];
let client: MqttClient;
let dir: string;

/** The retained records of a session, read with our own client (subscribe, then wait for the unsubscribe's ack). */
async function retained(session: string): Promise<Map<number, TrayRecord>> {
  const got = new Map<number, TrayRecord>();
  const on = (topic: string, payload: Buffer, p: { retain?: boolean }) => {
    if (p.retain && payload.length > 0 && topic.startsWith(`tenace/${CLUB}/trays/${session}/`)) got.set(Number(topic.split('/').pop()), JSON.parse(payload.toString()) as TrayRecord);
  };
  client.on('message', on);
  await client.subscribeAsync(`tenace/${CLUB}/trays/${session}/+`, { qos: 0 });
  await client.unsubscribeAsync(`tenace/${CLUB}/trays/${session}/+`);
  client.removeListener('message', on);
  return got;
}

function session(name: string): string {
  used.push(name);
  return name;
}

beforeAll(async () => {
  client = await mqtt.connectAsync(BROKER, { clientId: `tenace-trays-test-${process.pid}`, reconnectPeriod: 0 });
  dir = mkdtempSync(join(tmpdir(), 'tenace-trays-test-'));
});

afterAll(async () => {
  // Clear every retained topic the tests wrote: an empty retained payload deletes it.
  for (const s of used) {
    const left = await retained(s);
    for (const b of left.keys()) await client.publishAsync(trayTopic(CLUB, s, b), '', { qos: 1, retain: true });
  }
  await client.endAsync();
  rmSync(dir, { recursive: true, force: true });
});

describe('tenace trays (usage and errors)', () => {
  it('--help prints the usage and exits 0; no subcommand is a usage error, 64', async () => {
    const help = await runCli(['trays', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/tenace trays import FILE\.pbn --club C --session S/);
    const none = await runCli(['trays']);
    expect(none.code).toBe(64);
    const bad = await runCli(['trays', 'imprt']);
    expect(bad.code).toBe(64);
    expect(bad.err).toMatch(/unknown subcommand "imprt"/);
    await Promise.all([help.dispose(), none.dispose(), bad.dispose()]);
  });

  it('import without --club is 64; a missing file 66; a bad PBN 65 naming the game and the tag', async () => {
    const noClub = await runCli(['trays', 'import', FIXTURE, '--session', 's']);
    expect(noClub.code).toBe(64);
    expect(noClub.err).toMatch(/--club and --session are required/);
    const missing = await runCli(['trays', 'import', join(dir, 'nope.pbn'), '--club', CLUB, '--session', 's']);
    expect(missing.code).toBe(66);
    expect(missing.err).toMatch(/nope\.pbn: no such file/);
    const badFile = join(dir, 'bad.pbn');
    // Game 2 loses its [Deal].
    const games = DEALER4.split('\r\n\r\n');
    games[2] = games[2].replace(/\[Deal "[^"]*"\]\r\n/, '');
    writeFileSync(badFile, games.join('\r\n\r\n'));
    const bad = await runCli(['trays', 'import', badFile, '--club', CLUB, '--session', 's']);
    expect(bad.code).toBe(65);
    expect(bad.err).toMatch(/game 2 \(Board 2, line \d+\): \[Deal\] is missing/);
    expect(bad.err).toMatch(/nothing was published/);
    expect(hasStack(bad.err)).toBe(false);
    await Promise.all([noClub.dispose(), missing.dispose(), bad.dispose()]);
  });

  it('a broker that cannot be reached: 69 and a sentence', async () => {
    const port = await freePort();
    const r = await runCli(['trays', 'import', FIXTURE, '--club', CLUB, '--session', 's', '--broker', `mqtt://127.0.0.1:${port}`]);
    expect(r.code).toBe(69);
    expect(r.err).toMatch(new RegExp(`cannot reach the MQTT broker at mqtt://127.0.0.1:${port} \\(.*ECONNREFUSED.*\\): is Mosquitto running there\\? give --broker URL`));
    expect(hasStack(r.err)).toBe(false);
    await r.dispose();
  });

  it('--dry-run prints what it would publish and never contacts the broker', async () => {
    const port = await freePort();
    const r = await runCli(['trays', 'import', FIXTURE, '--club', CLUB, '--session', 'dry', '--broker', `mqtt://127.0.0.1:${port}`, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { dryRun: boolean; records: { topic: string; record: TrayRecord }[] };
    expect(out.dryRun).toBe(true);
    expect(out.records.map((x) => x.topic)).toEqual([1, 2, 3, 4].map((b) => `tenace/${CLUB}/trays/dry/${b}`));
    expect(out.records.map((x) => x.record.hands)).toEqual(recordsFromPbn(DEALER4, { session: 'dry', file: 'x', at: 'x' }).map((x) => x.hands));
    await r.dispose();
  });
});

describe('tenace trays import and show (real Mosquitto)', () => {
  it('publishes each record retained; a second import leaves them as they are', async () => {
    const s = session('s1');
    const r = await runCli(['trays', 'import', FIXTURE, '--club', CLUB, '--session', s, '--broker', BROKER]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/4 boards: 4 published, 0 unchanged, 0 kept/);
    const on = await retained(s);
    const want = recordsFromPbn(DEALER4, { session: s, file: 'dealer4-4boards.pbn', at: 'x' });
    expect([...on.keys()].sort()).toEqual([1, 2, 3, 4]);
    for (const w of want) expect(on.get(w.board)).toMatchObject({ hands: w.hands, dealer: w.dealer, vulnerable: w.vulnerable, rev: 1, session: s, source: { kind: 'hand-record', file: 'dealer4-4boards.pbn' } });
    const again = await runCli(['trays', 'import', FIXTURE, '--club', CLUB, '--session', s, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ published: [], unchanged: [1, 2, 3, 4], kept: [] });
    await Promise.all([r.dispose(), again.dispose()]);
  });

  it('a different record already on the broker stands (exit 1) unless --replace, which raises rev', async () => {
    const s = session('s2');
    const [b1, b2] = recordsFromPbn(DEALER4, { session: s, file: 'x', at: 'x' });
    // Board 2 was played first at table 5 and recorded with board 1's hands (a different deal).
    const first: TrayRecord = { ...b2, hands: b1.hands, source: { kind: 'original-play', table: '5', fromSeq: 1, toSeq: 60, at: '2026-12-03T08:00:00.000Z' } };
    await client.publishAsync(trayTopic(CLUB, s, 2), JSON.stringify(first), { qos: 1, retain: true });
    const r = await runCli(['trays', 'import', FIXTURE, '--club', CLUB, '--session', s]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/board 2: the broker holds different hands \(original play at table 5, .*\); kept, the first record stands: give --replace/);
    expect(r.out).toMatch(/4 boards: 3 published, 0 unchanged, 1 kept/);
    expect((await retained(s)).get(2)).toEqual(first);
    const rep = await runCli(['trays', 'import', FIXTURE, '--club', CLUB, '--session', s, '--replace', '--json']);
    expect(rep.code).toBe(0);
    expect(JSON.parse(rep.out)).toMatchObject({ published: [{ board: 2, rev: 2 }], unchanged: [1, 3, 4] });
    expect((await retained(s)).get(2)).toMatchObject({ hands: b2.hands, rev: 2, source: { kind: 'hand-record' } });
    await Promise.all([r.dispose(), rep.dispose()]);
  });

  it('show reads them back (--json, --board); a board with no record exits 1', async () => {
    const s = session('s3');
    const imp = await runCli(['trays', 'import', FIXTURE, '--club', CLUB, '--session', s]);
    expect(imp.code).toBe(0);
    const all = await runCli(['trays', 'show', '--club', CLUB, '--session', s, '--json']);
    expect(all.code).toBe(0);
    expect((JSON.parse(all.out) as TrayRecord[]).map((x) => [x.board, x.hands])).toEqual(recordsFromPbn(DEALER4, { session: s, file: 'x', at: 'x' }).map((x) => [x.board, x.hands]));
    const one = await runCli(['trays', 'show', '--club', CLUB, '--session', s, '--board', '3']);
    expect(one.code).toBe(0);
    expect(one.out).toMatch(/^board 3 {2}dealer S {2}vul EW {2}rev 1 {2}hand record dealer4-4boards\.pbn/);
    expect(one.out.trim().split('\n')).toHaveLength(5);
    const none = await runCli(['trays', 'show', '--club', CLUB, '--session', s, '--board', '9']);
    expect(none.code).toBe(1);
    expect(none.out).toMatch(/no tray record for board 9/);
    await Promise.all([imp.dispose(), all.dispose(), one.dispose(), none.dispose()]);
  });

  it('160 boards (../shared/data/camrose2024-ben.pbn): every one is published and every one is read back', async () => {
    const s = session('s4');
    const imp = await runCli(['trays', 'import', dataPath('camrose2024-ben.pbn'), '--club', CLUB, '--session', s, '--json']);
    expect(imp.code).toBe(0);
    expect((JSON.parse(imp.out) as { published: unknown[] }).published).toHaveLength(160);
    const show = await runCli(['trays', 'show', '--club', CLUB, '--session', s, '--json']);
    expect((JSON.parse(show.out) as TrayRecord[]).length).toBe(160);
    expect((await retained(s)).size).toBe(160);
    await Promise.all([imp.dispose(), show.dispose()]);
  });
});

describe('tenace trays doctor', () => {
  const record = 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765';
  const table = 'N:AKQT.T98.765.432 J98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765';

  it('--record --table: the moves and, with --tables 3, Dup. V.1 rectify and average; exit 1', async () => {
    const r = await runCli(['trays', 'doctor', '--record', record, '--table', table, '--tables', '3']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/the tray is fouled: 2 cards to move/);
    expect(r.out).toMatch(/move SJ from E's pocket to N's/);
    expect(r.out).toMatch(/move ST from N's pocket to E's/);
    expect(r.out).toMatch(/Dup\. V\.1: rectify-and-average: .*shall take the average score/);
    const j = await runCli(['trays', 'doctor', '--record', record, '--table', table, '--tables', '2', '--json']);
    expect(JSON.parse(j.out)).toMatchObject({ fouled: true, moves: trayDoctor(record, table), outcome: { remedy: 'new-deal', law: 'Dup. V.1' } });
    await Promise.all([r.dispose(), j.dispose()]);
  });

  it('RECORD.pbn TABLE.pbn --board N: reads the board from each file; the same tray exits 0', async () => {
    const recs = recordsFromPbn(DEALER4, { session: 'x', file: 'x', at: 'x' });
    const tableFile = join(dir, 'table.pbn');
    // The table's tray of board 3: N and W swapped their first spade... written from W as a table export might.
    const h = recs[2].hands.slice(2).split(' ');
    const [n, , , w] = h;
    const swap = (a: string, b: string) => [b.split('.')[0].slice(0, 1) + a.split('.')[0].slice(1), ...a.split('.').slice(1)].join('.');
    const fouled = `N:${swap(n, w)} ${h[1]} ${h[2]} ${swap(w, n)}`;
    writeFileSync(tableFile, `[Board "3"]\n[Deal "${fouled}"]\n`);
    const r = await runCli(['trays', 'doctor', FIXTURE, tableFile, '--board', '3', '--tables', '2', '--when', 'original']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^board 3: the tray is fouled: 2 cards to move/);
    expect(r.out).toMatch(/Dup\. III\.2: new-deal/);
    const same = await runCli(['trays', 'doctor', FIXTURE, FIXTURE, '--board', '2']);
    expect(same.code).toBe(0);
    expect(same.out).toMatch(/board 2: the tray matches its record: nothing to move/);
    const which = await runCli(['trays', 'doctor', FIXTURE, tableFile]);
    expect(which.code).toBe(64);
    expect(which.err).toMatch(/holds 4 games: give --board N/);
    await Promise.all([r.dispose(), same.dispose(), which.dispose()]);
  });

  it('unreadable hands are 65 with the field; a bad --tables is 64', async () => {
    const r = await runCli(['trays', 'doctor', '--record', record, '--table', 'N:AKQJ.T98.765.432 - - -']);
    expect(r.code).toBe(65);
    expect(r.err).toMatch(/table hands: E's pocket is "-"/);
    const t = await runCli(['trays', 'doctor', '--record', record, '--table', table, '--tables', 'three']);
    expect(t.code).toBe(64);
    expect(t.err).toMatch(/--tables "three" must be the number of tables in play/);
    await Promise.all([r.dispose(), t.dispose()]);
  });
});

describe('tenace trays against a broker with users and an ACL (our own mosquitto)', () => {
  let broker: Broker;
  let pwDir: string;

  beforeAll(async () => {
    pwDir = mkdtempSync(join(tmpdir(), 'tenace-trays-acl-'));
    const pw = join(pwDir, 'passwd');
    execFileSync('mosquitto_passwd', ['-b', '-c', pw, 'director', 'd1rector']);
    execFileSync('mosquitto_passwd', ['-b', pw, 'table', 't4ble']);
    writeFileSync(join(pwDir, 'acl'), 'user director\ntopic readwrite tenace/#\n\nuser table\ntopic read tenace/+/trays/#\n');
    for (const [u, p] of [['director', 'd1rector'], ['table', 't4ble'], ['wrong', 'nope']]) writeFileSync(join(pwDir, u), `${p}\n`);
    broker = await startBroker(`listener {port} 127.0.0.1\nallow_anonymous false\npassword_file ${pw}\nacl_file ${join(pwDir, 'acl')}\n`);
  });

  afterAll(async () => {
    await broker?.dispose();
    rmSync(pwDir, { recursive: true, force: true });
  });

  it('the director publishes with --username and --password-file; a table user may read but not write (77); a bad password is 69', async () => {
    const ok = await runCli(['trays', 'import', FIXTURE, '--club', 'c', '--session', 's', '--broker', broker.url, '--username', 'director', '--password-file', join(pwDir, 'director')]);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    const show = await runCli(['trays', 'show', '--club', 'c', '--session', 's', '--broker', broker.url, '--username', 'table', '--password-file', join(pwDir, 'table'), '--json']);
    expect(show.code).toBe(0);
    expect((JSON.parse(show.out) as TrayRecord[]).map((r) => r.board)).toEqual([1, 2, 3, 4]);
    const denied = await runCli(['trays', 'import', FIXTURE, '--club', 'c', '--session', 's2', '--broker', broker.url, '--username', 'table', '--password-file', join(pwDir, 'table')]);
    expect(denied.code).toBe(77);
    expect(denied.err).toMatch(/the broker refused 4 records: .*Not authorized/);
    const wrong = await runCli(['trays', 'show', '--club', 'c', '--session', 's', '--broker', broker.url, '--username', 'director', '--password-file', join(pwDir, 'wrong')]);
    expect(wrong.code).toBe(69);
    expect(wrong.err).toMatch(/check --username and --password-file/);
    await Promise.all([ok.dispose(), show.dispose(), denied.dispose(), wrong.dispose()]);
  });
});
