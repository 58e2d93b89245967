// The director's console: the HTTP side of the page's write actions (web/director/console.js). Reading needs no
// login; every write needs the director's session (auth.ts) and its CSRF token, and a request from another site's
// page (an Origin header naming another host) is refused. Decisions go through the service's exactly-once path, the
// same as a decision on MQTT: the page sends one transaction id per confirmed decision, so a retry counts once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { DirectorSnapshot } from '../types.js';
import { ConsoleAuth, type ConsoleSession, SESSION_COOKIE, cookieValue } from './auth.js';
import { type Players, checkPlayers } from './players.js';
import type { DirectorStore } from './store.js';

export interface ConsoleApiOptions {
  auth: ConsoleAuth;
  players: Players;
  /** The pair ids of the schedule, which names may be given for. */
  participants(): string[];
  /** Take a decision (the body as the MQTT request would carry it); resolves to the decision's response. */
  decide(cmd: string, body: string): Promise<Record<string, unknown>>;
  /** The pairs' names changed: give the tables their assignments again, with the names. */
  pairsChanged(): Promise<void>;
  /** Each table's PIN for this session, by table id (the players type it on their terminal). */
  pins(): Record<string, string>;
  /** The hand-scored tables' ids (their terminal is the director's /hand/ page). */
  handScored(): string[];
}

/** The HTTP side of the console: `handle` answers /api/... and `view` gives each reader the snapshot it may see. */
export interface ConsoleApi {
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  view(req: IncomingMessage, s: DirectorSnapshot): DirectorSnapshot;
  /** The director's session this request carries, or null. */
  director(req: IncomingMessage): ConsoleSession | null;
  /** Whether the request may read everything: the director's own computer, or the director signed in. */
  trusted(req: IncomingMessage): boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_BODY = 16 * 1024;

/** What the console needs of the director service. */
export interface ConsoleService {
  readonly schedule: { participants: string[] };
  players: Players | null;
  decide(cmd: string, body: string): Promise<Record<string, unknown>>;
  renamePairs(): Promise<void>;
  tablePins(): Record<string, string>;
  readonly handScored: ReadonlySet<string>;
}

/** The console of a started director service, its password in the service's store. */
export function directorConsole(svc: ConsoleService, store: Pick<DirectorStore, 'db' | 'sync'>): ConsoleApi {
  return consoleApi({
    auth: new ConsoleAuth({ db: store.db, sync: () => store.sync() }), players: svc.players!, participants: () => svc.schedule.participants,
    decide: (cmd, body) => svc.decide(cmd, body), pairsChanged: () => svc.renamePairs(),
    pins: () => svc.tablePins(), handScored: () => [...svc.handScored],
  });
}

/** Make the console's API. */
export function consoleApi(o: ConsoleApiOptions): ConsoleApi {
  const sessionOf = (req: IncomingMessage): ConsoleSession | null => o.auth.session(cookieValue(req.headers.cookie, SESSION_COOKIE));
  return {
    view: (req, s) => (local(req) || sessionOf(req) ? s : publicView(s)),
    director: sessionOf,
    trusted: (req) => local(req) || sessionOf(req) !== null,
    async handle(req, res, path) {
      const write = req.method === 'POST';
      if (!write && req.method !== 'GET') return reply(res, 405, { ok: false, error: 'method: use GET to read and POST to act' });
      if (write && !sameOrigin(req)) return reply(res, 403, { ok: false, error: 'origin: this request comes from another site\'s page; use the director\'s page itself' });
      const session = sessionOf(req);
      if (path === '/api/me' && !write) {
        return reply(res, 200, { ok: true, signedIn: !!session, passwordSet: await o.auth.passwordSet(), canSetPassword: local(req), ...(session ? { csrf: session.csrf } : {}) });
      }
      if (!write && path !== '/api/players' && path !== '/api/pins') return reply(res, 404, { ok: false, error: `path: ${path} is not part of the console` });
      if (path === '/api/login' || path === '/api/first-password') {
        const body = await readJson(req);
        if (!body.ok) return reply(res, 400, { ok: false, error: body.error });
        const password = (body.value as { password?: unknown } | null)?.password;
        if (path === '/api/first-password' && !local(req)) {
          return reply(res, 403, { ok: false, error: 'password: the first password is set on the director\'s own computer (http://localhost:...), or with `tenace director --set-password`' });
        }
        const out = path === '/api/login' ? await o.auth.login(password, address(req)) : await o.auth.firstPassword(password);
        if (!out.ok) return reply(res, out.status, { ok: false, error: out.error });
        return reply(res, 200, { ok: true, csrf: out.session.csrf }, { 'set-cookie': o.auth.cookie(out.session, secure(req)) });
      }
      // Everything from here acts (or reads the players list, with its member numbers): the director only.
      if (!session) return reply(res, 401, { ok: false, error: 'login: sign in as the director first' }, { 'set-cookie': o.auth.cookie(null, secure(req)) });
      if (write && req.headers['x-tenace-csrf'] !== session.csrf) return reply(res, 403, { ok: false, error: 'csrf: the page\'s token is missing or old; reload the page' });
      if (path === '/api/logout') {
        o.auth.logout(session.token);
        return reply(res, 200, { ok: true }, { 'set-cookie': o.auth.cookie(null, secure(req)) });
      }
      if (path === '/api/players') {
        if (write) return reply(res, 405, { ok: false, error: 'method: the players list grows as names are given to pairs (POST /api/pairs/<pair>)' });
        return reply(res, 200, { ok: true, players: await o.players.list(), pairs: o.players.pairs(), participants: o.participants() });
      }
      if (path === '/api/pins') {
        if (write) return reply(res, 405, { ok: false, error: 'method: the PINs are made by the director for the session; read them with GET' });
        const hand = new Set(o.handScored());
        return reply(res, 200, { ok: true, tables: Object.entries(o.pins()).map(([table, pin]) => ({ table, pin, handScored: hand.has(table) })) });
      }
      const body = await readJson(req);
      if (!body.ok) return reply(res, 400, { ok: false, error: body.error });
      const pair = /^\/api\/pairs\/([^/]+)$/.exec(path);
      if (pair) {
        const id = decodeURIComponent(pair[1]);
        if (!o.participants().includes(id)) return reply(res, 404, { ok: false, error: `pair: "${id.slice(0, 20)}" is not a pair of this session; use one of ${o.participants().join(', ')}` });
        const chk = checkPlayers(body.value);
        if (!chk.ok) return reply(res, 400, { ok: false, error: chk.error });
        await o.players.setPair(id, chk.players);
        await o.pairsChanged();
        return reply(res, 200, { ok: true, pair: id, players: chk.players });
      }
      const decision = /^\/api\/decisions\/([a-z-]+)$/.exec(path);
      if (decision) {
        const r = await o.decide(decision[1], body.text);
        return reply(res, r.ok === true ? 200 : 400, r);
      }
      return reply(res, 404, { ok: false, error: `path: ${path} is not part of the console` });
    },
  };
}

/** The snapshot for a reader who is not the director, away from the director's computer: no card of a tray that is still to be played. */
export function publicView(s: DirectorSnapshot): DirectorSnapshot {
  const released = new Set(s.trays.filter((t) => t.released).map((t) => t.board));
  const open = (board: number | undefined) => board !== undefined && released.has(board);
  return {
    ...s,
    trays: s.trays.map((t) => (open(t.board) ? t : { board: t.board, playedAt: t.playedAt, released: t.released })),
    alerts: s.alerts.map((a) => (a.board === undefined || open(a.board) || a.kind !== 'fouled-tray' ? a : {
      schema: a.schema, type: a.type, kind: a.kind, session: a.session, table: a.table, board: a.board, ...(a.round !== undefined ? { round: a.round } : {}),
      ...(a.law ? { law: a.law } : {}), message: `Tray ${a.board} at table ${a.table} did not hold the hands of its record; the director has the details.`, at: a.at,
    })),
    ...(s.findings ? {
      findings: s.findings.map((f) => (open(f.board) ? f : {
        id: f.id, table: f.table, board: f.board, ...(f.round !== undefined ? { round: f.round } : {}), kind: f.kind, seat: f.seat, trick: f.trick, law: f.law,
        message: 'The cards are shown once every table has played this tray.', ...(f.inPlay ? { inPlay: f.inPlay } : {}), state: f.state, ...(f.ruling ? { ruling: f.ruling } : {}),
      })),
    } : {}),
    // Member numbers are for the director and the exports, not for the room.
    ...(s.pairs ? { pairs: Object.fromEntries(Object.entries(s.pairs).map(([k, v]) => [k, { players: v.players.map((p) => ({ name: p.name })) }])) } : {}),
  };
}

const loopback = (a: string | undefined): boolean => a === '127.0.0.1' || a === '::1' || a === '::ffff:127.0.0.1';

/**
 * Who the login limit counts: the peer, or behind a reverse proxy on this computer the address the proxy added last
 * to X-Forwarded-For (the one it saw; what a client wrote before it cannot move the count elsewhere).
 */
function address(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? '?';
  const xff = req.headers['x-forwarded-for'];
  if (!loopback(peer) || xff === undefined) return peer;
  return String(xff).split(',').at(-1)!.trim() || peer;
}

/** A request from this computer itself, not passed on by a reverse proxy. */
function local(req: IncomingMessage): boolean {
  return loopback(req.socket.remoteAddress) && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined;
}

function secure(req: IncomingMessage): boolean {
  return (req.socket as TLSSocket).encrypted === true || req.headers['x-forwarded-proto'] === 'https';
}

/** No Origin (not a browser's cross-site request), or one naming the host the request was sent to. */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === String(req.headers.host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

/** A request's JSON body (application/json, at most 16 KiB), or the sentence that says what is wrong with it. */
export async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown; text: string } | { ok: false; error: string }> {
  if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) return { ok: false, error: 'content-type: send the body as application/json' };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) return { ok: false, error: 'body: is too large; send at most 16 KiB' };
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { ok: true, value: JSON.parse(text), text };
  } catch {
    return { ok: false, error: 'body: is not JSON; send a JSON object' };
  }
}

/** Answer with JSON, never cached. */
export function reply(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });
  res.end(JSON.stringify(body));
}
