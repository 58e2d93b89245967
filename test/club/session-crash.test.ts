// Issue 19, item 5: a club table's crash. `tenace session simulate --faults crash=N` runs N tables as their own
// `tenace run` processes (journal on disk, bridge and scanner emulated in the session's process on socat pty pairs),
// kills each with SIGKILL at a seeded moment of a deal, and starts it again on its journal. The session must end
// with every result stored once, standings equal to `tenace score` on the director's PBN export, and no finding the
// fault plan did not cause.
//
// The second test does it by hand: `tenace run` (bin/tenace.mjs) on a config with a journal, the firmware emulator
// on a socat pty pair, a deal started by the club's `start-deal` command over the real Mosquitto (127.0.0.1:1883),
// SIGKILL in the middle of the deal while cards are on the wire, `tenace run` again, the deal finished: the journal
// holds each event once, in order, and what the director receives (`director/event`) is each seq once, as journaled.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { DirectorStore } from '../../src/club/director/store.js';
import { freePort } from '../../src/club/session/director-process.js';
import { planSession } from '../../src/club/session/plan.js';
import type { SessionCheck } from '../../src/club/session/runner.js';
import { movementByName } from '../../src/club/movements/index.js';
import type { DirectorFinding, ScoreReport } from '../../src/club/types.js';
import { tableTopics } from '../../src/feed/topics.js';
import { type DealEvent, type TableEvent, parseTableLog } from '../../src/formats/table-log.js';
import { virtualDeck, writeDeckFile } from '../../src/hardware/deck.js';
import { FirmwareEmulator, ptyLink } from '../../src/hardware/emulator.js';
import { PtyPair } from '../../src/hardware/pty.js';
import { readJournalFile } from '../../src/journal/file.js';
import { replay } from '../../src/laws/engine.js';
import { type CliRun, startCli } from '../cli/spawn-cli.js';
import { client, uid, waitFor } from '../feed/broker.js';
import { scoreExport } from './score-export.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tenace.mjs');
const BROKER = 'mqtt://127.0.0.1:1883';

let run: CliRun | undefined;
afterEach(async () => {
  await run?.dispose();
  run = undefined;
});

function requireSocat(): void {
  const r = spawnSync('socat', ['-V'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error('socat is missing: the crash tests need it for the pty pairs (apt-get install socat)');
}

describe('tenace session simulate --faults crash=N', () => {
  it('kills two tables with SIGKILL mid-deal and restarts them from their journals: each result once, the standings tenace score gives, no false finding', async () => {
    requireSocat();
    const port = await freePort();
    // The director's database is kept, to read what it stored.
    const dbDir = mkdtempSync(join(tmpdir(), 'tenace-crash-db-'));
    const db = join(dbDir, 'club.db');
    const session = `crash${process.pid}`;
    const args = ['session', 'simulate', '--tables', '3', '--movement', 'compass', '--boards-per-round', '1', '--speed', 'max',
      '--http-port', String(port), '--json', '--seed', '7', '--faults', 'crash=2,revokes=1', '--db', db, '--session', session];
    // The plan the session runs: which plays the crashes and the renounce in error are on.
    const plan = planSession({
      session: 'x', variant: 'duplicate-whist', schedule: movementByName('compass')!.generate({ tables: 3, boardsPerRound: 1 }), seed: 7,
      faults: { fouled: 0, wrongTray: 0, revokes: 1, crash: 2 }, claims: 1,
    });
    const planned = [...plan.plays.values()].flat();
    expect(planned.filter((p) => p.crash)).toHaveLength(2);
    // Without --exit the director page stays open after the standings: the test downloads the export, then stops it.
    run = startCli(args);
    await run.waitFor(/"session":\{/, 240_000);
    const out = JSON.parse(run.out().trim().split('\n').at(-1)!) as ScoreReport & { session: SessionCheck };
    const url = `http://127.0.0.1:${port}/`;
    const exported = await (await fetch(new URL('export/session.pbn', url))).text();
    const snapshot = await (await fetch(new URL('snapshot.json', url))).json() as { findings?: DirectorFinding[] };
    run.child.kill('SIGINT');
    expect(await run.exited, run.err()).toBe(0);

    const c = out.session;
    // The crashes happened: two tables, each daemon killed by SIGKILL and a new process started on its journal.
    expect(c.crashes, run.err()).toHaveLength(2);
    expect(new Set(c.crashes.map((x) => x.table)).size).toBe(2);
    for (const x of c.crashes) {
      expect(x.signal).toBe('SIGKILL');
      expect(x.pid).toBeGreaterThan(0);
      expect(x.restartedPid).toBeGreaterThan(0);
      expect(x.restartedPid).not.toBe(x.pid);
      expect(x.afterCard).toBeGreaterThan(0);
    }
    // Where the plan put them (the seed decides the table, the play and the moment).
    expect(c.crashes.map((x) => `${x.table}:${x.board}:${x.afterCard}`).sort())
      .toEqual(planned.filter((p) => p.crash).map((p) => `${p.table}:${p.board}:${p.crash!.afterCard}`).sort());

    // Every result stored once: one per scheduled play, no (board, table) twice, in the standings and in the store.
    const keys = out.boards.flatMap((b) => b.results.map((r) => `${b.board}:${r.table}`));
    expect(keys).toHaveLength(c.plays);
    expect(new Set(keys).size).toBe(c.plays);
    expect(c.verified).toBe(c.overplays);
    const store = await DirectorStore.open(`sqlite:${db}`);
    try {
      const stored = (await store.results(session)).map((r) => `${r.traveller.board}:${r.table}`);
      expect(stored.sort()).toEqual([...keys].sort());
      // The crashed tables' events: each seq once, none missing, as the restarted daemons sent them.
      for (const x of c.crashes) {
        const seqs = (await store.events(session, String(x.table))).map((e) => e.seq);
        expect(seqs.length).toBeGreaterThan(0);
        expect(seqs, `table ${x.table}`).toEqual(seqs.map((_, i) => i + 1));
      }
    } finally {
      await store.close();
      rmSync(dbDir, { recursive: true, force: true });
    }

    // No finding the fault plan did not cause: the one renounce in error, found, and nothing at any other play.
    expect(c.revokes.map((r) => r.found)).toEqual([true]);
    const caused = new Set(planned.filter((p) => p.renounce).map((p) => `${p.board}:${p.table}`));
    const findings = snapshot.findings ?? [];
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => !caused.has(`${f.board}:${f.table}`)).map((f) => `${f.kind} ${f.seat} board ${f.board} table ${f.table}`)).toEqual([]);

    // The standings equal `tenace score` on the director's PBN export.
    const scored = await scoreExport(exported);
    const line = (p: ScoreReport['pairs'][number]) => `${p.pair} ${p.total} ${p.vsAverage} ${p.rank}`;
    expect(scored.pairs.map(line)).toEqual(out.pairs.map(line));
  }, 300_000);

  it('refuses a crash it cannot make, naming the fix, with exit 64', async () => {
    for (const [args, msg] of [
      [['--faults', 'crash=4'], /crash=4 asked for, but the session has only 3 tables that read their cards/],
      [['--faults', 'crash=1', '--serial', 'loopback'], /crash=N: a crashed table is its own process.*leave out --serial loopback/],
      [['--faults', 'crash=x'], /"crash=x" is not one of fouled=N, wrong-tray=N, revokes=N, crash=N/],
    ] as const) {
      run = startCli(['session', 'simulate', '--tables', '3', '--movement', 'compass', '--boards-per-round', '1', ...args]);
      expect(await run.exited, run.err()).toBe(64);
      expect(run.err()).toMatch(msg);
      await run.dispose();
      run = undefined;
    }
  }, 60_000);
});

/** One `tenace run` process and its log lines. */
class Daemon {
  readonly proc: ChildProcess;
  readonly logs: string[] = [];
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  readonly closed: Promise<void>;

  constructor(config: string) {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TENACE_') && k !== 'NOTIFY_SOCKET'));
    this.proc = spawn(process.execPath, [BIN, 'run', '--config', config], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: this.proc.stdout! }).on('line', (l) => this.logs.push(l));
    this.proc.stderr!.on('data', (d: Buffer) => this.logs.push(d.toString()));
    this.closed = new Promise((r) => this.proc.once('close', (code, signal) => { this.exit = { code, signal }; r(); }));
  }

  tail(): string {
    return this.logs.slice(-15).join('\n');
  }
}

describe('a table daemon killed with SIGKILL mid-deal, by hand', () => {
  it('tenace run, cards, SIGKILL with cards on the wire, tenace run again on the journal, the deal finished: each event once', async () => {
    requireSocat();
    const dir = mkdtempSync(join(tmpdir(), 'tenace-crash-hand-'));
    const club = uid('crc');
    const table = uid('crt');
    const session = 'crash-by-hand';
    const journalPath = join(dir, 'journal', `${session}.ndjson`);
    const hand = parseTableLog(readFileSync(join(ROOT, 'test/fixtures/seed-hands/hand1.ndjson'), 'utf8')).events;
    const deal = hand[0] as DealEvent;
    const cards = hand.filter((e) => e.type === 'place' || e.type === 'lift');
    const deck = virtualDeck('crash-by-hand');
    writeDeckFile(join(dir, 'deck.json'), deck);
    const pty = await PtyPair.create({ dir: join(dir, 'pty'), names: ['emulator', 'bridge'] });
    const emulator = new FirmwareEmulator({ readers: 4 });
    const daemons: Daemon[] = [];
    let sub: MqttClient | undefined;
    const config = join(dir, 'tenace.yaml');
    writeFileSync(config, [
      `club: { id: ${club} }`, `table: { id: ${table} }`, `session: ${session}`, 'variant: duplicate-whist',
      `journal: { dir: ${JSON.stringify(join(dir, 'journal'))}, fsync: always }`,
      `mqtt: { url: ${JSON.stringify(BROKER)}, keepalive: 5 }`, 'feed: { embargo: live }', 'http: { port: 0, host: 127.0.0.1 }',
      'hardware:', `  decks: [${JSON.stringify(join(dir, 'deck.json'))}]`,
      `  bridges: [{ id: hand, port: ${JSON.stringify(pty.b)}, readers: [{reader: 0, seat: N}, {reader: 1, seat: E}, {reader: 2, seat: S}, {reader: 3, seat: W}] }]`,
      '  scanner: { mode: none }',
    ].join('\n') + '\n');
    const journal = async () => (await readJournalFile(journalPath).catch(() => ({ events: [] as TableEvent[] }))).events;
    const resyncs = () => emulator.stats.snapshots + emulator.stats.replays;
    try {
      // What the director receives: every journal event in full on director/event (at least once, by seq).
      const topics = tableTopics(club, table);
      const received: { seq: number; event: TableEvent }[] = [];
      const responses: Record<string, unknown>[] = [];
      sub = await client(BROKER, { clientId: uid('crash-director-') });
      sub.on('message', (topic, payload) => {
        const m = JSON.parse(payload.toString()) as { seq: number; event: TableEvent } & Record<string, unknown>;
        if (topic === topics.directorEvent) received.push({ seq: m.seq, event: m.event });
        else responses.push(m);
      });
      await sub.subscribeAsync([topics.directorEvent, topics.response('start-deal')], { qos: 1 });
      await emulator.start(ptyLink(pty));
      await emulator.whenReady();

      daemons.push(new Daemon(config));
      await waitFor(() => resyncs() > 0 || daemons[0].exit !== null, 60_000, `the first daemon to sync with its bridge:\n${daemons[0].tail()}`);
      // The club starts the deal (a transaction id: a repeat across a restart is answered, never dealt twice).
      const { type: _t, ...params } = deal;
      await waitFor(async () => {
        if (responses.some((r) => r.transaction === 'board-1')) return true;
        await sub!.publishAsync(topics.request('start-deal'), JSON.stringify({ ...params, transaction: 'board-1' }), { qos: 1 });
        await new Promise((r) => setTimeout(r, 500));
        return responses.some((r) => r.transaction === 'board-1');
      }, 30_000, `the start-deal response:\n${daemons[0].tail()}`);

      // Five tricks, all journaled; then three cards more, and SIGKILL while they are on the wire.
      const first = 40;
      await emulator.play(cards.slice(0, first), { deck, speed: 'max' });
      await waitFor(async () => (await journal()).length >= 1 + first, 20_000, 'the first cards journaled');
      const cut = first + 3;
      await emulator.play(cards.slice(first, cut), { deck, speed: 'max' });
      daemons[0].proc.kill('SIGKILL');
      await daemons[0].closed;
      expect(daemons[0].exit?.signal).toBe('SIGKILL');
      const killedAt = (await journal()).length;

      // tenace run again, on the same config and journal: the deal in progress is restored, the bridge replays what the
      // dead daemon had not journaled, and the players play on.
      const before = resyncs();
      daemons.push(new Daemon(config));
      await waitFor(async () => {
        if (daemons[1].exit) throw new Error(`the second daemon exited: ${JSON.stringify(daemons[1].exit)}\n${daemons[1].tail()}`);
        return resyncs() > before && (await journal()).length >= 1 + cut;
      }, 60_000, `the second daemon to be back with ${1 + cut} events (killed with ${killedAt} journaled):\n${daemons[1].tail()}`);
      await emulator.play(cards.slice(cut), { deck, speed: 'max' });
      await waitFor(async () => (await journal()).length >= 1 + cards.length, 20_000, 'the whole deal journaled');
      const events = await journal();
      await waitFor(() => new Set(received.map((r) => r.seq)).size >= events.length, 30_000, `the director to have every seq (has ${new Set(received.map((r) => r.seq)).size} of ${events.length})`);
      // Nothing after the deal: the journal is exactly the deal, once.
      await new Promise((r) => setTimeout(r, 300));
      expect(await journal()).toHaveLength(events.length);

      // The journal: seq 1..N, one deal, every card event of the hand once and in order.
      const body = (e: TableEvent) => {
        const { seq: _s, at: _a, src: _w, tx: _x, ...rest } = e as TableEvent & { src?: unknown; tx?: unknown };
        return rest;
      };
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.filter((e) => e.type === 'deal')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'place' || e.type === 'lift').map(body)).toEqual(cards.map(body));
      expect(events.some((e) => (e as { orderUnknown?: boolean }).orderUnknown)).toBe(false);
      // The deal as the engine folds it: the same tricks and findings as the uninterrupted hand.
      const clean = replay(hand).deals[0];
      const crashed = replay(events).deals[0];
      expect(crashed.tricks).toHaveLength(13);
      expect(crashed.tricks.map((t) => t.winner)).toEqual(clean.tricks.map((t) => t.winner));
      expect(crashed.findings.map((f) => `${f.kind} ${f.seat} ${f.trick}`)).toEqual(clean.findings.map((f) => `${f.kind} ${f.seat} ${f.trick}`));

      // The director: each seq once (a resend after the restart carries the same event), the journal's events exactly.
      const bySeq = new Map<number, TableEvent>();
      for (const r of received) {
        const had = bySeq.get(r.seq);
        if (had) expect(r.event, `seq ${r.seq} sent again with another event`).toEqual(had);
        else bySeq.set(r.seq, r.event);
      }
      expect([...bySeq.keys()].sort((a, b) => a - b)).toEqual(events.map((e) => e.seq));
      expect(events.map((e) => bySeq.get(e.seq!))).toEqual(events);
    } finally {
      for (const d of daemons) if (d.exit === null) { d.proc.kill('SIGTERM'); await d.closed; }
      await sub?.endAsync(true).catch(() => undefined);
      await emulator.stop().catch(() => undefined);
      await pty.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
