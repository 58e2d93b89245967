// The director's console over HTTP (src/club/director/console-api.ts, auth.ts, players.ts, findings.ts) on a real
// director: the first password is set on the director's own computer and kept as a scrypt hash; a wrong password is
// refused and, after five, the next must wait; every write refuses without the session (401), without its CSRF token
// or from another site (403); a decision goes through the exactly-once path (the same transaction twice counts
// once) and reaches the standings; names entered for a pair grow the players list, reach the snapshot and the tables'
// assignments; a renounce in error at an overplay (Dup. X.1) is listed open, then ruled; a reader away from the
// director's computer and not signed in sees no card of a tray still to be played; and `tenace director
// --set-password` sets the password from the command line.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/sim/prng.js';
import { simulateDeal } from '../../src/sim/simulate.js';
import { ConsoleAuth, hashPassword, setPassword, storedPassword, verifyPassword } from '../../src/club/director/auth.js';
import { DirectorStore } from '../../src/club/director/store.js';
import { Players, seatNames } from '../../src/club/director/players.js';
import { ENGINES, freshDb } from './store-engines.js';
import type { DirectorSnapshot, RoundAssignment, ScoreReport } from '../../src/club/types.js';
import { waitFor } from '../feed/broker.js';
import { seedHand } from './director-rig.js';
import { ConsoleClient, type ConsoleRig, startConsoleRig } from './console-rig.js';

const T = 15_000;
const PASSWORD = 'tenace director 1914';

describe('the director\'s console', () => {
  let rig: ConsoleRig;
  const director = () => new ConsoleClient(rig.url);
  let signedIn: ConsoleClient;
  const snapshot = async (): Promise<DirectorSnapshot> => (await fetch(new URL('snapshot.json', rig.url))).json() as Promise<DirectorSnapshot>;

  beforeAll(async () => { rig = await startConsoleRig(); }, 30_000);
  afterAll(async () => { await rig?.close(); }, 30_000);

  it('a password is kept as a salted scrypt hash and checked against it', async () => {
    const a = await hashPassword(PASSWORD);
    const b = await hashPassword(PASSWORD);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, a)).toBe(false);
  });

  it('a session ends after 12 hours unused; using it restarts the 12 hours; five wrong passwords wait out 15 minutes', async () => {
    let now = 0;
    const db = await freshDb('sqlite');
    const store = await DirectorStore.open(db.url);
    const auth = new ConsoleAuth({ db: store.db, now: () => now });
    expect(await auth.login(PASSWORD, '192.0.2.1')).toMatchObject({ ok: false, status: 409 });
    await setPassword(store.db, PASSWORD);
    const ok = await auth.login(PASSWORD, '192.0.2.1');
    if (!ok.ok) throw new Error(ok.error);
    now = 11 * 3600_000;
    expect(auth.session(ok.session.token)).not.toBeNull();
    now += 12 * 3600_000 - 1;
    expect(auth.session(ok.session.token)).not.toBeNull();
    now += 12 * 3600_000 + 1;
    expect(auth.session(ok.session.token)).toBeNull();
    for (let i = 0; i < 5; i++) expect((await auth.login('wrong password', '192.0.2.2')).ok).toBe(false);
    expect(await auth.login(PASSWORD, '192.0.2.2')).toMatchObject({ ok: false, status: 429 });
    expect((await auth.login(PASSWORD, '192.0.2.3')).ok).toBe(true);
    now += 15 * 60_000 + 1;
    expect((await auth.login(PASSWORD, '192.0.2.2')).ok).toBe(true);
    await store.close();
    await db.drop();
  });

  it('names go to the seats where the pair\'s hands lie: on a tray turned a quarter (Memory Duplicate\'s overplay) N-S sit E-W', () => {
    const pairs = { '1NS': { players: [{ name: 'Ann Lee' }, { name: 'Bo Kim' }] }, '2EW': { players: [{ name: 'Cy Day' }] } };
    expect(seatNames(pairs, '1NS', '2EW')).toEqual({ names: { N: 'Ann Lee', S: 'Bo Kim', E: 'Cy Day' } });
    expect(seatNames(pairs, '1NS', '2EW', 1)).toEqual({ names: { E: 'Ann Lee', W: 'Bo Kim', S: 'Cy Day' } });
    expect(seatNames(pairs, '3NS', '3EW')).toEqual({});
  });

  it('the first run sets the password from this computer; a short one is refused naming the fix', async () => {
    const c = director();
    expect((await c.call('api/me')).body).toMatchObject({ signedIn: false, passwordSet: false, canSetPassword: true });
    // Through a reverse proxy the first password cannot be set: anyone on the network could take the console.
    const proxied = await director().call('api/first-password', { password: PASSWORD }, { 'x-forwarded-for': '203.0.113.9' });
    expect(proxied.status).toBe(403);
    expect((await director().call('api/me', undefined, { 'x-forwarded-for': '203.0.113.9' })).body).toMatchObject({ canSetPassword: false, passwordSet: false });
    const short = await c.call('api/first-password', { password: 'hoyle' });
    expect(short.status).toBe(401);
    expect(short.body.error).toMatch(/^password: is too short; use at least 10 characters/);
    const ok = await c.call('api/first-password', { password: PASSWORD });
    expect(ok.status).toBe(200);
    expect(c.cookie).toMatch(/^tenace_director=/);
    expect((await c.call('api/me')).body).toMatchObject({ signedIn: true, passwordSet: true });
    // Once set, the first-run form cannot replace it.
    expect((await director().call('api/first-password', { password: 'another long password' })).status).toBe(409);
    signedIn = c;
  });

  it('a write without the session is 401, without the CSRF token or from another site 403', async () => {
    const body = { transaction: 'anon-1', board: 1, table: '1', adjusted: 'average' };
    expect((await director().call('api/decisions/adjust-score', body)).status).toBe(401);
    const noToken = new ConsoleClient(rig.url);
    noToken.cookie = signedIn.cookie;
    const r = await noToken.call('api/decisions/adjust-score', body);
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/^csrf:/);
    const cross = await signedIn.call('api/decisions/adjust-score', body, { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.body.error).toMatch(/^origin:/);
    expect((await snapshot()).findings).toEqual([]);
    expect((await snapshot()).tables.map((t) => [t.table, t.manual ?? false])).toEqual([['1', false], ['2', true]]);
  });

  it('a wrong password is refused; after five wrong ones the next must wait, even the right one', async () => {
    const c = director();
    const wrong = await c.call('api/login', { password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('password: is not the director\'s password; type it again');
    for (let i = 0; i < 4; i++) expect((await c.call('api/login', { password: `wrong ${i}` })).status).toBe(401);
    const limited = await c.call('api/login', { password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/^password: too many wrong passwords from this device; wait \d+ s/);
  });

  it('an adjusted score goes through the exactly-once path and reaches the standings', async () => {
    await rig.tables[0].play([{ type: 'tray', code: 'T1' }, ...seedHand(1, false)]);
    await waitFor(async () => ((await snapshot()).standings?.boards.length ?? 0) > 0, T, 'the result of board 1');
    const body = { transaction: 'page-adjust-1', board: 1, table: '1', adjusted: { NS: 10, EW: 3 }, reason: 'director called' };
    const first = await signedIn.call('api/decisions/adjust-score', body);
    expect(first).toEqual({ status: 200, body: { transaction: 'page-adjust-1', ok: true } });
    expect(await signedIn.call('api/decisions/adjust-score', body)).toEqual(first);
    expect((await rig.store.decisions('s1')).filter((d) => d.transaction === 's:page-adjust-1')).toHaveLength(1);
    const reused = await signedIn.call('api/decisions/adjust-score', { ...body, adjusted: 'average' });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatch(/^transaction: "page-adjust-1" was used for another decision/);
    await waitFor(async () => (await snapshot()).standings?.pairs.find((p) => p.pair === '1NS')?.total === 10, T, '1NS scored 10 tricks');
    const st = (await snapshot()).standings as ScoreReport;
    expect(st.pairs.find((p) => p.pair === '1EW')?.total).toBe(3);
  });

  it('names entered for a pair grow the players list and reach the snapshot and the table\'s assignment', async () => {
    const bad = await signedIn.call('api/pairs/1NS', { players: [{ name: 'Ann <b>Lee</b>' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^players\.0\.name: .* cannot be a name/);
    expect((await signedIn.call('api/pairs/9XY', { players: [{ name: 'Ann Lee' }] })).status).toBe(404);
    const ok = await signedIn.call('api/pairs/1NS', { players: [{ name: 'Ann Lee', member: 'EBU-1234' }, { name: 'Bo Kim' }] });
    expect(ok.status).toBe(200);
    expect((await signedIn.call('api/pairs/2EW', { players: [{ name: 'Cy Day' }, { name: 'Ann Lee', member: 'EBU-1234' }] })).status).toBe(200);
    const list = await signedIn.call('api/players');
    expect((list.body.players as { name: string }[]).map((p) => p.name)).toEqual(['Ann Lee', 'Bo Kim', 'Cy Day']);
    expect((await director().call('api/players')).status).toBe(401);
    await waitFor(async () => (await snapshot()).pairs?.['1NS'] !== undefined, T, 'the names in the snapshot');
    expect((await snapshot()).pairs).toEqual({
      '1NS': { players: [{ name: 'Ann Lee', member: 'EBU-1234' }, { name: 'Bo Kim' }] }, '2EW': { players: [{ name: 'Cy Day' }, { name: 'Ann Lee', member: 'EBU-1234' }] },
    });
    // Table 1 has played tray 1, so it is in round 2: 1NS against 2EW.
    await waitFor(() => rig.obs.get<RoundAssignment>('1/assignment')?.names?.E === 'Cy Day', T, 'the names in table 1\'s assignment');
    expect(rig.obs.get<RoundAssignment>('1/assignment')).toMatchObject({ round: 2, names: { N: 'Ann Lee', S: 'Bo Kim', E: 'Cy Day', W: 'Ann Lee' } });
    await waitFor(() => rig.obs.get<ScoreReport>('club/s1/standings')?.pairs.find((p) => p.pair === '1NS')?.names !== undefined, T, 'the names in the standings');
    expect(rig.obs.get<ScoreReport>('club/s1/standings')!.pairs.find((p) => p.pair === '1NS')!.names).toEqual(['Ann Lee', 'Bo Kim']);
    // The exports carry the names: USEBIO's PLAYER with the member number, PBN's TotalScoreTable names.
    const usebio = await (await fetch(new URL('export/usebio.xml', rig.url))).text();
    expect(usebio).toMatch(/<PLAYER>\s*<PLAYER_NAME>Ann Lee<\/PLAYER_NAME>\s*<NATIONAL_ID_NUMBER>EBU-1234<\/NATIONAL_ID_NUMBER>\s*<\/PLAYER>\s*<PLAYER>\s*<PLAYER_NAME>Bo Kim<\/PLAYER_NAME>\s*<\/PLAYER>/);
    expect(await (await fetch(new URL('export/session.pbn', rig.url))).text()).toContain('"Ann Lee;Bo Kim"');
  });

  it('a reader away from the director\'s computer and not signed in gets no card of a tray still to be played', async () => {
    // Tray 1 has been played at table 1 only: table 2 has still to overplay it.
    const read = async (headers: Record<string, string>) => ((await (await fetch(new URL('snapshot.json', rig.url), { headers })).json()) as DirectorSnapshot).trays.find((t) => t.board === 1)!;
    const proxied = { 'x-forwarded-for': '203.0.113.9' };
    expect((await read({})).record?.hands).toMatch(/^N:/);
    const away = await read(proxied);
    expect(away).toEqual({ board: 1, playedAt: ['1'], released: false });
    expect((await read({ ...proxied, cookie: signedIn.cookie })).record?.hands).toMatch(/^N:/);
    // The exports hold every tray's hands: refused to that reader, given to the signed-in director.
    expect((await fetch(new URL('export/session.pbn', rig.url), { headers: proxied })).status).toBe(403);
    expect((await fetch(new URL('export/session.pbn', rig.url), { headers: { ...proxied, cookie: signedIn.cookie } })).status).toBe(200);
    const names = ((await (await fetch(new URL('snapshot.json', rig.url), { headers: proxied })).json()) as DirectorSnapshot).pairs;
    expect(names?.['1NS']).toEqual({ players: [{ name: 'Ann Lee' }, { name: 'Bo Kim' }] });
  });

  it('Dup. X.1: a renounce in error at an overplay is listed open with its law, then ruled by "the result stands"', async () => {
    const deal = simulateDeal(createRng(7), { variant: 'duplicate-whist', board: 1, withHands: true, renounceAt: { trick: 3 } });
    (deal.events[0] as { overplay?: boolean }).overplay = true;
    await rig.tables[1].play([{ type: 'tray', code: 'T1' }, ...deal.events]);
    await waitFor(async () => ((await snapshot()).findings ?? []).some((f) => f.table === '2' && f.kind === 'renounce-in-error'), T, 'the renounce in error at table 2');
    const found = (await snapshot()).findings!.filter((f) => f.table === '2');
    expect(found.map((f) => [f.kind, f.seat, f.law, f.board, f.state])).toEqual([['renounce-in-error', 'E', 'Dup. X.1', 1, 'open'], ['revoke', 'E', 'Dup. X.1(a)', 1, 'open']]);
    const r = await signedIn.call('api/decisions/result-stands', { transaction: 'page-stands-1', board: 1, table: '2' });
    expect(r.body).toEqual({ transaction: 'page-stands-1', ok: true });
    await waitFor(async () => (await snapshot()).findings!.filter((f) => f.table === '2').every((f) => f.state === 'ruled' && f.ruling === 'result-stands'), T, 'the findings ruled');
  });

  it('behind a TLS reverse proxy (Host and Origin the proxy\'s name, X-Forwarded-Proto https) the director signs in with a Secure cookie', async () => {
    const port = new URL(rig.url).port;
    const res = await new Promise<{ status: number; cookie: string }>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1', port, path: '/api/login', method: 'POST',
        headers: { host: 'director.club.example', origin: 'https://director.club.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7', 'content-type': 'application/json' },
      }, (r) => { r.resume(); r.on('end', () => resolve({ status: r.statusCode ?? 0, cookie: String(r.headers['set-cookie'] ?? '') })); });
      req.on('error', reject);
      req.end(JSON.stringify({ password: PASSWORD }));
    });
    expect(res.status).toBe(200);
    expect(res.cookie).toMatch(/^tenace_director=[\w-]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('signing out ends the session: the old cookie can no longer act', async () => {
    const cookie = signedIn.cookie;
    expect((await signedIn.call('api/logout', {})).status).toBe(200);
    const old = new ConsoleClient(rig.url);
    old.cookie = cookie;
    old.csrf = signedIn.csrf;
    expect((await old.call('api/decisions/advance-round', { transaction: 'late-1' })).status).toBe(401);
  });
});

describe('tenace director --set-password', () => {
  /** Run the CLI with `input` on stdin; its exit code and output. */
  function run(args: string[], input: string): Promise<{ code: number; out: string; err: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [join(import.meta.dirname, '..', '..', 'bin', 'tenace.mjs'), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => { out += String(c); });
      child.stderr.on('data', (c) => { err += String(c); });
      child.on('exit', (code) => resolve({ code: code ?? -1, out, err }));
      child.stdin.end(input);
    });
  }

  it('sets the console\'s password in the store from the first line of stdin; a short one is refused naming the fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenace-set-password-'));
    try {
      const config = join(dir, 'club.yaml');
      writeFileSync(config, 'club: { id: ely }\nsession: s\nmovement: { name: mitchell, tables: 3 }\n');
      const db = join(dir, 'club.db');
      const short = await run(['director', '--config', config, '--db', db, '--set-password'], 'hoyle\n');
      expect(short.code).toBe(64);
      expect(short.err).toBe('tenace director: --set-password: password: is too short; use at least 10 characters (a few words are easy to remember)\n');
      const ok = await run(['director', '--config', config, '--db', db, '--set-password'], `${PASSWORD}\n`);
      expect(ok.code).toBe(0);
      expect(ok.out).toBe(`ok: the director's password is set in sqlite:${db}; sign in on the director page\n`);
      const store = await DirectorStore.open(`sqlite:${db}`);
      try {
        const hash = await storedPassword(store.db);
        expect(hash).toMatch(/^scrypt\$/);
        expect(await verifyPassword(PASSWORD, hash!)).toBe(true);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.each(ENGINES)('the players list and the password on %s', (engine) => {
  it('grows as names are entered, finds a player again by member number (taking the name given), and keeps the password hash', async () => {
    const db = await freshDb(engine);
    const store = await DirectorStore.open(db.url);
    try {
      const s1 = new Players(store.db, 's1', { '3NS': { players: [{ name: 'From Config' }] } });
      await s1.setPair('1NS', [{ name: 'Ann Lee', member: 'EBU-1234' }, { name: 'Bo Kim' }]);
      await s1.setPair('1NS', [{ name: 'Ann Lee-Smith', member: 'EBU-1234' }, { name: 'Bo Kim' }]);
      await new Players(store.db, 's2').setPair('2EW', [{ name: 'Bo Kim' }, { name: 'Cy Day' }]);
      expect((await s1.list()).map((p) => [p.name, p.member])).toEqual([['Ann Lee-Smith', 'EBU-1234'], ['Bo Kim', undefined], ['Cy Day', undefined]]);
      const again = new Players(store.db, 's1', { '3NS': { players: [{ name: 'From Config' }] }, '1NS': { players: [{ name: 'Replaced' }] } });
      await again.load();
      expect(again.pairs()).toEqual({ '3NS': { players: [{ name: 'From Config' }] }, '1NS': { players: [{ name: 'Ann Lee-Smith', member: 'EBU-1234' }, { name: 'Bo Kim' }] } });
      await setPassword(store.db, PASSWORD);
      expect(await verifyPassword(PASSWORD, (await storedPassword(store.db))!)).toBe(true);
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
