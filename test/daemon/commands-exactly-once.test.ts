// Issue 12 item 5: "Commands are exactly-once across crashes: the transaction id is journaled with the command; a
// retry returns the first answer after a restart too; the same id with a different body is refused; undo of a seq
// that is not a place/lift of the deal in progress is refused."
//
// Two tables on the real Mosquitto (127.0.0.1:1883), commands sent over MQTT as the club layer sends them:
// - in process: a Controller (no hardware) is stopped and a new one opened on the same journal folder, which forgets
//   everything the first held in memory, as a crash does;
// - across a real kill -9: the daemon (`tenace run`, a child process, the kill -9 rig) is SIGKILLed while cards are
//   played through the firmware emulator, and restarted.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { createLogger } from '../../src/config/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Controller } from '../../src/daemon/controller.js';
import { commandDigest, checkCommand } from '../../src/feed/commands.js';
import { type DealEvent, type TableEvent, parseTableLog } from '../../src/formats/table-log.js';
import { tableTopics } from '../../src/feed/topics.js';
import { client, sleep, uid, waitFor } from '../feed/broker.js';
import { type DaemonBuild, ROOT, Rig, buildDaemon, requireSocatBinary } from './kill9/rig.js';

const URL = 'mqtt://127.0.0.1:1883';
const base = mkdtempSync(join(tmpdir(), 'tenace-exactly-once-'));
const hand1 = parseTableLog(readFileSync(join(ROOT, 'test/fixtures/seed-hands/hand1.ndjson'), 'utf8')).events;
const { type: _t, seq: _s, at: _a, ...dealParams } = hand1[0] as DealEvent;
const rigs: Rig[] = [];

afterAll(async () => {
  for (const r of rigs) await r.dispose().catch(() => undefined);
  rmSync(base, { recursive: true, force: true });
}, 30_000);

/** The digest the daemon journals for this command (the test fails here if the payload is not a valid command). */
function digestOf(cmd: string, payload: Record<string, unknown>): string {
  const r = checkCommand(cmd, JSON.stringify(payload));
  if (!r.ok) throw new Error(r.error);
  return commandDigest(r.command);
}

const noWatchdog = { enabled: false, intervalMs: undefined, ready() {}, status() {}, ping() {}, stop: async () => {} };

describe('in process: a Controller reopened on its journal (issue 12 item 5)', () => {
  const club = uid('xc'), table = uid('xt');
  const topics = tableTopics(club, table);
  const dir = join(base, 'in-process');
  const responses: { cmd: string; payload: Record<string, unknown> }[] = [];
  let sender: MqttClient;
  let controller: Controller | null = null;

  async function open(): Promise<Controller> {
    const yaml = `club: { id: ${club} }\ntable: { id: ${table} }\nsession: s1\njournal: { dir: ${JSON.stringify(dir)} }\nmqtt: { url: ${JSON.stringify(URL)} }\nhttp: { port: 0, host: 127.0.0.1 }\nfeed: { embargo: live }\n`;
    const parsed = parseConfig(yaml, { env: {} });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const c = new Controller({ config: parsed.config, log: createLogger({ log: { level: 'silent' } }), watchdog: noWatchdog });
    await c.start();
    // The feed subscribes to its requests after announcing itself: once a malformed claim (never applied) is
    // answered, it takes commands.
    const ping = uid('ping-');
    const end = Date.now() + 5000;
    while (!responses.some((r) => r.payload.transaction === ping)) {
      if (Date.now() > end) throw new Error('the controller did not answer commands within 5 s');
      await sender.publishAsync(topics.request('claim'), JSON.stringify({ transaction: ping, seat: 'N' }), { qos: 1 });
      await sleep(200);
    }
    return c;
  }

  async function ask(cmd: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const from = responses.length;
    await sender.publishAsync(topics.request(cmd), JSON.stringify(payload), { qos: 1 });
    let found: Record<string, unknown> | undefined;
    await waitFor(() => (found = responses.slice(from).find((r) => r.cmd === cmd && r.payload.transaction === payload.transaction)?.payload) !== undefined, 5000, `a response to ${cmd} ${String(payload.transaction)}`);
    return found!;
  }

  beforeAll(async () => {
    sender = await client(URL);
    const prefix = topics.response('');
    sender.on('message', (topic, p) => responses.push({ cmd: topic.slice(prefix.length), payload: JSON.parse(p.toString()) as Record<string, unknown> }));
    await sender.subscribeAsync(topics.response('+'), { qos: 1 });
  });

  afterAll(async () => {
    await controller?.stop();
    const c = await client(URL);
    for (const t of [topics.status, topics.state, topics.directorState]) await c.publishAsync(t, '', { qos: 1, retain: true });
    await c.endAsync();
    await sender?.endAsync();
  });

  it('journals the transaction with its event, and after a restart answers a retry from the journal without applying it again', async () => {
    controller = await open();
    const deal = { transaction: 'deal-1', ...dealParams };
    expect(await ask('start-deal', deal)).toEqual({ transaction: 'deal-1', ok: true, seq: 1 });
    for (const ev of hand1.slice(1, 5)) await controller.ingest(ev as never);
    const claim = { transaction: 42, seat: 'S', tricks: 13 };
    const before = controller.journal.events();
    expect(before.map((e) => e.type)).toEqual(['deal', 'place', 'place', 'place', 'place']);
    // The tx is on the journaled deal event, written before the answer was sent: what a restart rebuilds from.
    expect(before[0].tx).toEqual({ id: 'deal-1', digest: digestOf('start-deal', deal) });

    await controller.stop();
    controller = await open();
    expect(await ask('start-deal', deal)).toEqual({ transaction: 'deal-1', ok: true, seq: 1 });
    expect(controller.journal.events(), 'a retried start-deal must not deal again (it would wipe the play)').toEqual(before);
    expect(controller.table.currentTrick().cards.map((c) => c.card)).toEqual(['CK', 'C5', 'C7']);

    // A claim applied once, then retried in the same run and after another restart: seq 6 every time.
    expect(await ask('claim', claim)).toEqual({ transaction: 42, ok: true, seq: 6 });
    expect(await ask('claim', claim)).toEqual({ transaction: 42, ok: true, seq: 6 });
    await controller.stop();
    controller = await open();
    expect(await ask('claim', { tricks: 13, seat: 'S', transaction: 42 })).toEqual({ transaction: 42, ok: true, seq: 6 });
    expect(controller.journal.lastSeq).toBe(6);
    expect(controller.feed!.stats.duplicateCommands).toBe(1);
  });

  it('refuses the same id with a different body after a restart, naming the transaction, and journals nothing', async () => {
    const last = controller!.journal.lastSeq;
    const r = await ask('start-deal', { transaction: 'deal-1', ...dealParams, board: 2 });
    expect(r).toEqual({
      transaction: 'deal-1', ok: false,
      error: 'transaction: "deal-1" was already used for another command (start-deal, journaled as seq 1); send this command with a new transaction id, or repeat the first one unchanged to get its answer again',
    });
    expect(await ask('abandon-deal', { transaction: 42 })).toMatchObject({ ok: false, error: expect.stringMatching(/^transaction: 42 was already used for another command \(claim, journaled as seq 6\)/) });
    expect(controller!.journal.lastSeq).toBe(last);
  });

  it('refuses undo-misread of a seq that is not a place/lift of the deal in progress, saying which seq and why', async () => {
    const c = controller!;
    const last = c.journal.lastSeq; // 6: deal, place, lift, place, place, claim
    const refused: [seq: number, why: RegExp][] = [
      [999999, /^seq: there is no event 999999 in this session \(its last is seq 6\); give the seq of a misread place or lift/],
      [1, /^seq: event 1 is a deal, not a card read \(place or lift\)/],
      [6, /^seq: event 6 is a claim, not a card read/],
    ];
    for (const [seq, why] of refused) {
      const r = await ask('undo-misread', { transaction: uid('u-'), seq });
      expect(r, `undo of ${seq}`).toMatchObject({ ok: false, error: expect.stringMatching(why) });
    }
    expect(c.journal.lastSeq).toBe(last);

    // A place of the deal in progress can be undone, once.
    expect(await ask('undo-misread', { transaction: 'undo-4', seq: 4 })).toEqual({ transaction: 'undo-4', ok: true, seq: 7 });
    expect(await ask('undo-misread', { transaction: 'undo-4b', seq: 4 })).toMatchObject({ ok: false, error: 'seq: event 4 was already undone by seq 7; give the seq of a misread place or lift of the deal in progress' });

    // A new deal: the cards of the previous one are no longer in progress; after abandon, nothing is.
    expect(await ask('start-deal', { transaction: 'deal-2', board: 2 })).toMatchObject({ ok: true, seq: 8 });
    expect(await ask('undo-misread', { transaction: uid('u-'), seq: 5 })).toMatchObject({ ok: false, error: expect.stringMatching(/^seq: event 5 belongs to an earlier deal \(the deal in progress starts at seq 8\)/) });
    await c.ingest({ type: 'place', seat: 'W', card: 'C2' });
    expect(await ask('abandon-deal', { transaction: 'ab', reason: 'fouled board' })).toMatchObject({ ok: true, seq: 10 });
    expect(await ask('undo-misread', { transaction: uid('u-'), seq: 9 })).toMatchObject({ ok: false, error: expect.stringMatching(/^seq: 9 cannot be undone: the deal of seq 8 was abandoned at seq 10/) });
    expect(c.journal.lastSeq).toBe(10);
    expect(c.journal.events().filter((e: TableEvent) => e.type === 'undo')).toHaveLength(1);
  });
});

describe('across kill -9 of the daemon (issue 12 item 5)', () => {
  let daemon: DaemonBuild;

  beforeAll(async () => {
    requireSocatBinary();
    daemon = await buildDaemon(base);
  }, 60_000);

  it('answers a start-deal retried after kill -9 with its first answer: one deal, the play in progress kept', async () => {
    const rig = await Rig.create({ name: 'exactly-once', dir: mkdtempSync(join(base, 'rig-')), daemon });
    rigs.push(rig);
    const steps = rig.steps(hand1.slice(1));
    const d1 = rig.spawn();
    await rig.waitBack(d1, 0);
    const first = await rig.command('start-deal', dealParams, { transaction: 'hand-1' });
    expect(first).toEqual({ transaction: 'hand-1', ok: true, seq: 1 });
    for (let i = 0; i < 6; i++) {
      rig.play(steps[i]);
      await rig.waitJournal(i + 2);
    }

    // The journal had the deal before its answer was sent.
    expect((await rig.journalEvents())[0]).toMatchObject({ type: 'deal', seq: 1, tx: { id: 'hand-1', digest: digestOf('start-deal', { transaction: 'hand-1', ...dealParams }) } });

    // An undo whose answer the sender never sees: the daemon dies as soon as the journal has it.
    const journaled = (await rig.journalEvents()).length;
    await rig.send('undo-misread', { seq: 6 }, 'undo-6');
    await rig.waitJournal(journaled + 1);
    await d1.kill9();

    const d2 = rig.spawn();
    await rig.waitBack(d2, journaled + 1);
    const before = await rig.journalEvents();
    expect(await rig.command('start-deal', dealParams, { transaction: 'hand-1' }), 'the retry after kill -9').toEqual(first);
    expect(await rig.command('undo-misread', { seq: 6 }, { transaction: 'undo-6' })).toEqual({ transaction: 'undo-6', ok: true, seq: 8 });
    expect(await rig.command('start-deal', { ...dealParams, board: 9 }, { transaction: 'hand-1' }))
      .toMatchObject({ ok: false, error: expect.stringMatching(/^transaction: "hand-1" was already used for another command \(start-deal, journaled as seq 1\)/) });
    expect(await rig.command('undo-misread', { seq: 999999 }))
      .toMatchObject({ ok: false, error: expect.stringMatching(/^seq: there is no event 999999 in this session/) });
    const after = await rig.journalEvents();
    expect(after, 'nothing journaled by the retries and refusals').toEqual(before);
    expect(after.filter((e) => e.type === 'deal')).toHaveLength(1);
    expect(after.filter((e) => e.type === 'undo')).toHaveLength(1);

    // The play goes on in the same deal: the rest of the first trick reaches the journal after the undo.
    rig.play(steps[6]);
    const events = await rig.waitJournal(after.length + 1);
    expect(events[events.length - 1]).toMatchObject(steps[6].event);
    await waitFor(() => rig.mirror.state?.seq === events.length, 10_000, 'the spectator to catch up');
    expect(rig.mirror.state!.deal?.board).toBe(dealParams.board);
    expect(rig.mirror.state!.deal?.status).not.toBe('ended');
    // The digest covers the tray's hands: it stays in the journal, never on a public topic.
    expect(rig.mirror.events.filter((e) => 'tx' in e.event)).toEqual([]);
  }, 90_000);
});
