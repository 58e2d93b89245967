// The hand-scoring terminal's HTTP side, on the director's page server: /hand/ (web/hand/) and /api/hand/*. A table's
// players sign in with the table's PIN (the director's console shows it); a sign-in is a bearer token kept in memory
// for 12 hours. Results go through the director's decision path (`table-result`), so a retry is taken once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bridgeScore, isPassedOut } from '../scoring/bridge.js';
import type { DecisionResponse } from './decisions.js';
import { readBody, samePin } from '../../web/http-body.js';
import type { HandTableView } from './hand-table.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'web', 'hand');
const FILES: Record<string, [string, string]> = {
  '/hand/': ['index.html', 'text/html; charset=utf-8'],
  '/hand/index.html': ['index.html', 'text/html; charset=utf-8'],
  '/hand/app.js': ['app.js', 'text/javascript; charset=utf-8'],
  '/hand/style.css': ['style.css', 'text/css; charset=utf-8'],
};
const SIGN_IN_MS = 12 * 3600_000;
/** Wrong PINs a table may be sent in a minute before it must wait: four digits stay unguessable. */
const TRIES_PER_MINUTE = 5;
const MAX_BODY = 4096;

/** What the terminal needs from the director. */
export interface HandScoringApi {
  /** The PIN of each table. */
  pins(): Record<string, string>;
  /** The table's view, or null when it is not a hand-scored table. */
  view(table: string): HandTableView | null;
  /** Take a decision on the director's exactly-once path. */
  decide(cmd: string, payload: string): Promise<DecisionResponse>;
}

type Route = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/** The terminal's routes; the returned function answers a request and says whether it was one of them. */
export function handScoringRoutes(api: HandScoringApi, headers: Record<string, string>, now: () => number = Date.now): Route {
  const tokens = new Map<string, { table: string; until: number }>();
  const wrong = new Map<string, number[]>();
  const json = (res: ServerResponse, status: number, body: unknown): true => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
    return true;
  };
  const signedIn = (req: IncomingMessage): string | null => {
    const m = /^Bearer ([0-9a-f]{48})$/.exec(req.headers.authorization ?? '');
    const t = m ? tokens.get(m[1]) : undefined;
    if (!t || t.until < now()) return null;
    t.until = now() + SIGN_IN_MS;
    return t.table;
  };
  return async (req, res, path) => {
    if (path in FILES) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'GET only' });
      const [file, type] = FILES[path];
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', ...headers });
      res.end(req.method === 'HEAD' ? undefined : await readFile(join(ROOT, file)));
      return true;
    }
    if (!path.startsWith('/api/hand/')) return false;
    const what = path.slice('/api/hand/'.length);
    if (what === 'state' && req.method === 'GET') {
      const table = signedIn(req);
      if (!table) return json(res, 401, { error: 'Sign in with the table\'s PIN again.' });
      return json(res, 200, api.view(table));
    }
    if (req.method !== 'POST') return json(res, 405, { error: 'POST only' });
    // A JSON body: a form on another site cannot send one without the browser asking this server first.
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return json(res, 415, { error: 'send JSON (content-type: application/json)' });
    const body = await readBody(req, MAX_BODY);
    if (body === null) return json(res, 413, { error: `the request is over ${MAX_BODY} bytes` });
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(body) as Record<string, unknown>;
      if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new Error('not an object');
    } catch {
      return json(res, 400, { error: 'the request is not a JSON object' });
    }
    if (what === 'login') {
      const table = typeof o.table === 'string' ? o.table : String(o.table ?? '');
      const pin = api.pins()[table];
      if (pin === undefined) return json(res, 404, { error: `There is no table ${table.slice(0, 20)} in this session.` });
      const recent = (wrong.get(table) ?? []).filter((t) => t > now() - 60_000);
      if (recent.length >= TRIES_PER_MINUTE) return json(res, 429, { error: 'Too many wrong PINs. Wait a minute, or ask the director for the PIN.' });
      if (!samePin(o.pin, pin)) {
        wrong.set(table, [...recent, now()]);
        return json(res, 403, { error: 'That is not this table\'s PIN. Ask the director for it.' });
      }
      if (!api.view(table)) return json(res, 409, { error: `Table ${table} reads its cards itself: use the terminal of that table.` });
      const token = randomBytes(24).toString('hex');
      tokens.set(token, { table, until: now() + SIGN_IN_MS });
      return json(res, 200, { token, view: api.view(table) });
    }
    const table = signedIn(req);
    if (!table) return json(res, 401, { error: 'Sign in with the table\'s PIN again.' });
    if (what === 'preview') return json(res, 200, preview(o));
    if (what === 'result') {
      const r = await api.decide('table-result', JSON.stringify({ ...o, table }));
      return json(res, r.ok ? 200 : 400, { ...r, view: api.view(table) });
    }
    return json(res, 404, { error: 'no such action' });
  };
}

/** The score a bridge result makes (N-S's, Law 77 by the board's vulnerability), for the opponents to accept. */
function preview(o: Record<string, unknown>): { nsScore?: number; error?: string } {
  try {
    if (typeof o.contract !== 'string' || typeof o.board !== 'number') return {};
    if (isPassedOut(o.contract)) return { nsScore: 0 };
    return { nsScore: bridgeScore(o.board, o.contract, typeof o.tricks === 'number' ? o.tricks : undefined) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
