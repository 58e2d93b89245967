// The table terminal's HTTP API on a real Controller (embedded broker, no hardware): the PIN opens a session, every
// other call without one is refused (403), a wrong PIN is refused with the tries left and locks the terminal after the
// last, and each action is a command on the exactly-once path: the same transaction twice journals once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/config/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Controller } from '../../src/daemon/controller.js';
import type { TableEvent } from '../../src/formats/table-log.js';
import { LOCK_MS, TerminalApi } from '../../src/web/terminal-api.js';
import { startWebView } from '../../src/web/server.js';
import type { TerminalView } from '../../src/web/terminal-state.js';
import { game } from '../laws/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tenace-terminal-api-'));
const noWatchdog = { enabled: false, intervalMs: undefined, ready() {}, status() {}, ping() {}, stop: async () => {} };
let controller: Controller;
let base: string;
let cookie = '';
const alerts: object[] = [];

async function call(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown>; setCookie: string | null }> {
  const r = await fetch(`${base}terminal/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: await r.json() as Record<string, unknown>, setCookie: r.headers.get('set-cookie') };
}

const journaled = (type: string): TableEvent[] => controller.journal.events().filter((e) => e.type === type);
const view = async (): Promise<TerminalView> => (await call('state')).body.view as TerminalView;

beforeAll(async () => {
  const yaml = `club: { id: tc }\ntable: { id: "3" }\nvariant: bridge\njournal: { dir: ${JSON.stringify(dir)} }\nmqtt: { url: embedded }\nhttp: { port: 0, host: 127.0.0.1 }\nterminal: { pin: "2468", tries: 3 }\nfeed: { embargo: live }\n`;
  const parsed = parseConfig(yaml, { env: {} });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  controller = new Controller({ config: parsed.config, log: createLogger({ log: { level: 'silent' } }), watchdog: noWatchdog, protocolVersion: 4 });
  await controller.start();
  const publish = controller.feed!.publishClubAlert.bind(controller.feed!);
  controller.feed!.publishClubAlert = (a: object, after?: number) => { alerts.push(a); publish(a, after); };
  base = controller.web!.url;
  // A bridge deal, its contract not yet entered, West's opening lead read.
  const [deal, ...cards] = game({ variant: 'bridge', contract: '4HS', board: 5, dealer: 'N' }).trick('W: S2 SA S3 SK').holdRest('N').log();
  const { contract: _c, ...bare } = deal as TableEvent & { contract?: string };
  await controller.ingest(bare as Parameters<Controller['ingest']>[0]);
  for (const e of cards.slice(0, 2)) await controller.ingest(e);
}, 30_000);

afterAll(async () => {
  await controller?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the terminal API without a PIN session', () => {
  it('refuses the state and every command with 403, and journals nothing', async () => {
    const before = controller.journal.lastSeq;
    const s = await call('state');
    expect(s.status).toBe(403);
    expect(s.body.error).toMatch(/Enter the table's PIN first/);
    const c = await call('command/set-contract', { transaction: 'x1', contract: '4HS' });
    expect(c.status).toBe(403);
    expect(await call('command/claim', { transaction: 'x2', seat: 'S', tricks: 3 }, { cookie: 'tenace_terminal=forged' })).toMatchObject({ status: 403 });
    expect(controller.journal.lastSeq).toBe(before);
  });

  it('the read-only table view takes no action: a POST to it is refused', async () => {
    const r = await fetch(base, { method: 'POST', body: '{}' });
    expect(r.status).toBe(405);
    expect((await fetch(`${base}terminal/`)).status).toBe(200);
  });

  it('answers /favicon.ico with the club\'s icon (a browser asks for it on its own)', async () => {
    const r = await fetch(`${base}favicon.ico`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/svg+xml');
    expect(await r.text()).toMatch(/^<svg /);
  });

  it('a wrong PIN is refused with the tries left, and the right one opens a session', async () => {
    const w = await call('pin', { pin: '1111' });
    expect(w.status).toBe(403);
    expect(w.body.error).toBe('That PIN is wrong. 2 tries left. The PIN is on the director\'s list for this table.');
    expect(w.setCookie).toBeNull();
    const bad = await call('pin', { pin: 'abc' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'pin: enter the table\'s PIN, 4 to 8 digits' } });
    const ok = await call('pin', { pin: '2468' });
    expect(ok.status).toBe(200);
    expect(ok.setCookie).toMatch(/^tenace_terminal=[\w-]+; Path=\/terminal; HttpOnly; SameSite=Strict/);
    cookie = ok.setCookie!.split(';')[0];
  });
});

describe('the terminal\'s actions (a PIN session)', () => {
  it('set-contract after the opening lead: journaled once for the same transaction sent twice, and the lead judged', async () => {
    const body = { transaction: 'term-contract-1', contract: '4HS' };
    const first = await call('command/set-contract', body);
    const again = await call('command/set-contract', body);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const contracts = journaled('contract');
    expect(contracts).toHaveLength(1);
    expect(contracts[0].tx?.id).toBe('term-contract-1');
    expect(first.body.seq).toBe(contracts[0].seq);
    const v = await view();
    expect(v.deal).toMatchObject({ board: 5, contract: '4HS', declarer: 'S', needsContract: false, findings: [] });
  });

  it('the same transaction id with another body is refused, naming the fix', async () => {
    const r = await call('command/set-contract', { transaction: 'term-contract-1', contract: '3NTS' });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/^transaction: "term-contract-1" was already used for another command \(set-contract, journaled as seq \d+\)/);
  });

  it('a command the terminal may not send, and a malformed one, are refused', async () => {
    expect((await call('command/start-deal', { transaction: 't-sd', board: 9 })).status).toBe(403);
    const bad = await call('command/claim', { transaction: 't-bad', seat: 'Q', tricks: 3 });
    expect(bad).toMatchObject({ status: 409, body: { ok: false, error: 'seat: is not allowed; use one of N, E, S, W' } });
  });

  it('a claim disputed: the claim is withdrawn and the director is called with the reason', async () => {
    expect((await call('command/claim', { transaction: 't-claim-1', seat: 'S', tricks: 12 })).status).toBe(200);
    expect((await view()).deal?.claim).toEqual({ seat: 'S', tricks: 12, accepted: false });
    // South's partner cannot answer his claim.
    const partner = await call('command/answer-claim', { transaction: 't-ans-0', seat: 'N', accept: true });
    expect(partner.body.error).toMatch(/^seat: N is not an adversary of the claimant S/);
    const d = await call('command/answer-claim', { transaction: 't-ans-1', seat: 'W', accept: false, reason: 'West holds the trump ace' });
    expect(d.status).toBe(200);
    const v = await view();
    expect(v.deal?.claim).toBeNull();
    expect(v.deal?.disputed).toEqual({ seat: 'S', by: 'W' });
    expect(alerts.at(-1)).toMatchObject({ type: 'tenace.alert', kind: 'director-call', table: '3', board: 5, message: expect.stringMatching(/claim disputed by W: West holds the trump ace/) });
  });

  it('a claim accepted ends the deal with the claimed result; the defenders accept the result, once', async () => {
    expect((await call('command/accept-result', { transaction: 't-res-0', seat: 'E' })).body.error).toMatch(/has not ended/);
    await call('command/claim', { transaction: 't-claim-2', seat: 'S', tricks: 11 });
    expect((await call('command/answer-claim', { transaction: 't-ans-2', seat: 'W', accept: true })).status).toBe(200);
    const v = await view();
    // Board 5: North-South vulnerable; no trick was played, so South's 11 of 13 are the whole result.
    expect(v.deal?.over).toBe(true);
    expect(v.deal?.result).toMatchObject({ tricks: { NS: 11, EW: 2 }, score: 650, summary: '4♥ by South: 11 tricks, made with 1 overtrick. N-S +650', acceptBy: ['E', 'W'], acceptedBy: null });
    expect((await call('command/accept-result', { transaction: 't-res-1', seat: 'N', board: 5 })).body.error).toBe('seat: N is of declarer\'s side; the result is accepted by a defender');
    const a = await call('command/accept-result', { transaction: 't-res-2', seat: 'E', board: 5 });
    await call('command/accept-result', { transaction: 't-res-2', seat: 'E', board: 5 });
    expect(a.status).toBe(200);
    expect(journaled('result-accepted')).toHaveLength(1);
    expect((await view()).deal?.result?.acceptedBy).toBe('E');
  });

  it('call-director journals the call and sends the director an alert', async () => {
    const r = await call('command/call-director', { transaction: 't-dir-1', reason: 'A card shown by mistake' });
    expect(r.status).toBe(200);
    expect(journaled('director-call').at(-1)).toMatchObject({ reason: 'A card shown by mistake', tx: { id: 't-dir-1' } });
    expect(alerts.at(-1)).toMatchObject({ kind: 'director-call', message: 'Table 3 calls the director: A card shown by mistake' });
  });
});

describe('the PIN\'s bounded tries', () => {
  it('after the last try the terminal is locked, even to the right PIN, until the lock time has passed', async () => {
    let now = 1_000_000;
    const api = new TerminalApi({ pin: () => '9753', tries: 2, view: () => ({}) as TerminalView, submit: () => null, now: () => now });
    const web = await startWebView({ port: 0, host: '127.0.0.1', club: 'c', table: '1', wsUrl: '/mqtt', terminal: api });
    try {
      const pin = async (p: string) => {
        const r = await fetch(`${web.url}terminal/api/pin`, { method: 'POST', body: JSON.stringify({ pin: p }) });
        return { status: r.status, error: ((await r.json()) as { error?: string }).error };
      };
      expect(await pin('0000')).toEqual({ status: 403, error: 'That PIN is wrong. 1 try left. The PIN is on the director\'s list for this table.' });
      expect((await pin('0001')).error).toMatch(/Too many wrong PINs: the terminal is locked for 10 minutes/);
      expect(await pin('9753')).toMatchObject({ status: 429, error: expect.stringMatching(/locked for 10 more minutes/) });
      now += LOCK_MS + 1;
      expect((await pin('9753')).status).toBe(200);
    } finally {
      await web.close();
    }
  });
});
