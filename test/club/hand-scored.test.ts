// Hand-scored tables (issue 17, "What to build" 2): a table without readers enters its results on the director's
// terminal, Bridgemate-style. The HTTP side without a browser: the table's PIN (a wrong one refused, and refused
// outright after five a minute), a smart table refused, a result checked and taken once however often it is sent,
// and scored among the others, marked hand-scored. The page itself is tested in Chromium (test/web/hand-terminal).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { nextMoves } from '../../src/club/director/hand-table.js';
import { tablePin } from '../../src/club/director/hand-scored.js';
import type { Schedule } from '../../src/club/types.js';
import { BROKER, SCHEDULE, cleanupAfterEach } from './director-rig.js';
import { startHandScoredDirector } from './hand-rig.js';

const cleanup = cleanupAfterEach();

function handScoredDirector(club: string): ReturnType<typeof startHandScoredDirector> {
  return startHandScoredDirector(club, (fn) => cleanup.push(fn));
}

async function post(url: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(new URL(path, url), {
    method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

describe('the hand-scoring terminal (issue 17)', () => {
  it('signs a table in only with its PIN, and after five wrong PINs in a minute takes none', async () => {
    const { director, url } = await handScoredDirector(`hs${process.pid}a`);
    const pins = director.tablePins();
    expect(pins['2']).toMatch(/^\d{4}$/);
    const wrong = String((Number(pins['2']) + 1) % 10_000).padStart(4, '0');
    const r = await post(url, 'api/hand/login', { table: '2', pin: wrong });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/not this table's PIN/);
    // The smart table has its own terminal: its PIN does not open this one.
    expect((await post(url, 'api/hand/login', { table: '1', pin: pins['1'] })).status).toBe(409);
    const ok = await post(url, 'api/hand/login', { table: '2', pin: pins['2'] });
    expect(ok.status).toBe(200);
    expect((ok.body.view as { table: string; round: number }).round).toBe(1);
    for (let i = 0; i < 4; i++) expect((await post(url, 'api/hand/login', { table: '2', pin: wrong })).status).toBe(403);
    // The sixth try of the minute is refused even with the right PIN: four digits stay unguessable.
    const locked = await post(url, 'api/hand/login', { table: '2', pin: pins['2'] });
    expect(locked.status).toBe(429);
    // Without a sign-in nothing can be entered.
    expect((await post(url, 'api/hand/result', { transaction: 'x', board: 2, contract: '4HE', tricks: 10 })).status).toBe(401);
    expect((await post(url, 'api/hand/result', { transaction: 'x', board: 2, contract: '4HE', tricks: 10 }, 'f'.repeat(48))).status).toBe(401);
  });

  it('takes a bridge result once, refuses what is not a result naming the field, and scores it marked hand-scored', async () => {
    const { director, url } = await handScoredDirector(`hs${process.pid}b`);
    const { body } = await post(url, 'api/hand/login', { table: '2', pin: director.tablePins()['2'] });
    const token = body.token as string;
    // Round 1: table 2 plays tray 2 (SCHEDULE), so tray 1 is not its tray.
    const notHers = await post(url, 'api/hand/result', { transaction: 't0', board: 1, contract: '4HE', tricks: 10 }, token);
    expect(notHers.body.error).toMatch(/^board: table 2 does not play tray 1/);
    const noContract = await post(url, 'api/hand/result', { transaction: 't1', board: 2, tricks: 10 }, token);
    expect(noContract.body.error).toMatch(/^contract: is missing/);
    const badLead = await post(url, 'api/hand/result', { transaction: 't2', board: 2, contract: '4HE', tricks: 10, lead: 'Z9' }, token);
    expect(badLead.body.error).toMatch(/^lead: "Z9" is not a card/);
    // Board 2: E-W... N-S vulnerable (Law 2); 4H by East making 10 is +420 to E-W, -420 to N-S.
    const preview = await post(url, 'api/hand/preview', { board: 2, contract: '4HE', tricks: 10 }, token);
    expect(preview.body.nsScore).toBe(-420);
    const first = await post(url, 'api/hand/result', { transaction: 't3', board: 2, contract: '4HE', tricks: 10, lead: 'SK' }, token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.traveller).toMatchObject({ board: 2, contract: '4HE', tricks: 10, lead: 'SK', handScored: true, ns: '2NS', ew: '2EW' });
    const again = await post(url, 'api/hand/result', { transaction: 't3', board: 2, contract: '4HE', tricks: 10, lead: 'SK' }, token);
    expect(again.body).toEqual(first.body);
    // The same transaction with another body is another decision, refused.
    const reused = await post(url, 'api/hand/result', { transaction: 't3', board: 2, contract: '3NTE', tricks: 9 }, token);
    expect(reused.body.error).toMatch(/^transaction: "t3" was used for another decision/);
    // Scored among the others, and marked: its cards were not verified.
    await expect.poll(() => director.snapshot().standings?.boards.find((b) => b.board === 2)?.results[0], { timeout: 5000 })
      .toMatchObject({ contract: '4HE', declarerTricks: 10, score: -420, handScored: true });
    // Table 2's round is done: the director moves it on, and the terminal shows round 2's tray.
    const view = await fetch(new URL('api/hand/state', url), { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json()) as { round: number; trays: { board: number }[] };
    expect(view.round).toBe(2);
    expect(view.trays.map((t) => t.board)).toEqual([1]);
  });

  it('PINs are the same after a restart of the director (they come from its store), and differ by table and session', () => {
    expect(tablePin('s', 'eve', '1')).toBe(tablePin('s', 'eve', '1'));
    const pins = new Set(['1', '2', '3', '4', '5', '6'].map((t) => tablePin('secret', 'eve', t)));
    expect(pins.size).toBeGreaterThan(4);
    expect(tablePin('secret', 'eve', '1')).not.toBe(tablePin('other', 'eve', '1'));
  });

  it('next round: where each pair and the trays go, read from the schedule (E-W move up, trays cross)', () => {
    const s: Schedule = SCHEDULE;
    // Round 1 → 2: at table 1, 1NS stays, 1EW goes to table 2, tray 1 goes to table 2.
    expect(nextMoves(s, 1, 1)).toEqual({ round: 2, ns: 1, ew: 2, trays: 2, notes: [] });
    expect(nextMoves(s, 2, 1)).toEqual({ round: 2, ns: 2, ew: 1, trays: 1, notes: [] });
    expect(nextMoves(s, 1, 2)).toBeNull();
  });
});

describe('every table\'s PIN from the director (issue 17: the console lists them)', () => {
  it('the assignment carries the table terminal\'s PIN, private to the table (its topic is not public in mosquitto/acl)', async () => {
    const club = `hs${process.pid}p`;
    const { director } = await handScoredDirector(club);
    const client = await mqtt.connectAsync(BROKER, { clientId: `pin-watch-${process.pid}` });
    cleanup.push(() => client.endAsync());
    const got = new Map<string, string | undefined>();
    client.on('message', (topic, payload) => { if (payload.length) got.set(topic.split('/')[2], (JSON.parse(payload.toString()) as { pin?: string }).pin); });
    await client.subscribeAsync(`tenace/${club}/+/assignment`, { qos: 1 });
    await expect.poll(() => got.size, { timeout: 5000 }).toBe(2);
    expect(Object.fromEntries(got)).toEqual(director.tablePins());
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'mosquitto', 'acl'), 'utf8')).not.toMatch(/^pattern read .*assignment/m);
  });
});
