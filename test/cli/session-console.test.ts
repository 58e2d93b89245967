// The console a new director meets (issue 19 item 3): the director page's URL as bound, or one line naming the busy
// port and --http-port; readable log lines on a terminal and JSON elsewhere or with --log-json; a stop signal to the
// whole process group (a Ctrl-C, systemd) without "bridge port closed; reopening"; a database in a missing folder
// named with its setting and the fix; each alert once in --json's session.alerts.
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readableLines, wantsJsonLog } from '../../src/config/console-log.js';
import type { ClubAlert } from '../../src/club/types.js';
import { type CliRun, runCli, startCli } from './spawn-cli.js';

let run: CliRun | undefined;
let server: Server | undefined;
afterEach(async () => {
  await run?.dispose();
  run = undefined;
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

describe('the log of a command at a terminal', () => {
  it('a JSON log record becomes one short line: level (unless info), table, message, the rest as k=v; JSON only when not a terminal or --log-json', () => {
    const rec = JSON.stringify({ level: 'warn', time: '2026-12-04T19:00:00Z', pid: 1, table: 2, bridge: 'sim', err: 'bad file descriptor', msg: 'bridge port closed; reopening' });
    expect(readableLines(rec)).toEqual(['tenace: warn: table 2: bridge port closed; reopening (err=bad file descriptor, bridge=sim)']);
    expect(readableLines(JSON.stringify({ level: 'info', time: 't', pid: 1, msg: 'director running', tables: [1, 2] }))).toEqual(['tenace: director running (tables=[1,2])']);
    // The director's own lines, relayed in a field, are made readable in their turn.
    const relayed = JSON.stringify({ level: 'warn', msg: 'director', director: `${JSON.stringify({ level: 'error', msg: 'cannot start', err: { type: 'Error', message: 'boom', stack: '...' } })}\ntenace director: cannot start: boom` });
    expect(readableLines(relayed)).toEqual(['tenace: director: error: cannot start (err=boom)', 'tenace: director: tenace director: cannot start: boom']);
    // What reaches a terminal is printable: no escape sequence passes.
    expect(readableLines(JSON.stringify({ level: 'warn', msg: 'tray \u001b[2J' }))[0]).toBe('tenace: warn: tray \\x1b[2J');
    expect([wantsJsonLog({ isTTY: true }), wantsJsonLog({ isTTY: false }), wantsJsonLog({ isTTY: true, logJson: true })]).toEqual([false, true, true]);
  });
});

describe('tenace session simulate at the console', () => {
  it('a busy --http-port stops it at once with one line naming the port and the flag that picks another (not another session\'s page as ours)', async () => {
    server = createServer();
    const port = await new Promise<number>((r) => server!.listen(0, '127.0.0.1', () => r((server!.address() as { port: number }).port)));
    const r = await runCli(['session', 'simulate', '--tables', '3', '--movement', 'compass', '--boards-per-round', '1', '--speed', 'max', '--exit', '--http-port', String(port)]);
    await r.dispose();
    expect(r.code).toBe(69);
    expect(r.out).not.toContain('director page at');
    expect(r.err).toBe(`tenace session simulate: port ${port} is already in use (another session's director page?): choose another with --http-port P, or --http-port 0 for a free one\n`);
  }, 60_000);

  it('--db in a missing folder is one line naming the folder and the fix; so is the director\'s store.url', async () => {
    const r = await runCli(['session', 'simulate', '--tables', '3', '--movement', 'compass', '--db', '/nonexistent-tenace/x.db']);
    await r.dispose();
    expect(r.code).toBe(73);
    expect(r.err).toBe('tenace session simulate: --db /nonexistent-tenace/x.db: the folder /nonexistent-tenace does not exist: create it (mkdir -p /nonexistent-tenace) or give --db a file in a folder that exists\n');
    const dir = mkdtempSync(join(tmpdir(), 'tenace-console-'));
    const cfg = join(dir, 'club.yaml');
    writeFileSync(cfg, 'club: { id: c }\nsession: s\nmovement: { name: compass, tables: 3 }\nmqtt: { url: "mqtt://127.0.0.1:1" }\nstore: { url: "sqlite:/nonexistent-tenace/dir/x.db" }\n');
    const d = await runCli(['director', '--config', cfg]);
    await d.dispose();
    rmSync(dir, { recursive: true, force: true });
    expect(d.code).toBe(78);
    expect(d.err).toBe('tenace director: store.url: the folder /nonexistent-tenace/dir of sqlite:/nonexistent-tenace/dir/x.db does not exist: create it (mkdir -p /nonexistent-tenace/dir) or set store.url (or --db FILE) to a file in a folder that exists\n');
  }, 60_000);

  it('SIGTERM to the whole process group (a Ctrl-C, systemd) stops it without "bridge port closed; reopening"', async () => {
    run = startCli(['session', 'simulate', '--tables', '3', '--movement', 'compass', '--boards-per-round', '2', '--http-port', '0', '--serial', 'pty'], {}, { detached: true });
    await run.waitFor(/tenace: 3 tables/, 60_000);
    await new Promise((r) => setTimeout(r, 1500));
    process.kill(-run.child.pid!, 'SIGTERM');
    expect(await run.exited).toBe(130);
    expect(run.err()).not.toMatch(/reopening/);
    expect(run.err()).not.toMatch(/director exited/);
  }, 90_000);

  it('each wrong-tray alert appears once in --json\'s session.alerts', async () => {
    const r = await runCli(['session', 'simulate', '--tables', '3', '--movement', 'compass', '--boards-per-round', '1', '--speed', 'max', '--exit', '--http-port', '0', '--json', '--seed', '2', '--faults', 'wrong-tray=2'], 120_000);
    await r.dispose();
    expect(r.code, r.err).toBe(0);
    const alerts = (JSON.parse(r.out) as { session: { alerts: ClubAlert[] } }).session.alerts;
    expect(alerts.filter((a) => a.kind === 'wrong-tray')).toHaveLength(2);
    expect(new Set(alerts.map((a) => JSON.stringify(a))).size).toBe(alerts.length);
  }, 120_000);
});
