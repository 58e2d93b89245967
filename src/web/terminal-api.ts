// The table terminal's HTTP API (web/terminal/): the players' PIN opens a session, and each action is a command on the
// table's exactly-once path (the same checks, transaction index and journal as `request/<cmd>` on MQTT). The answer is
// sent only once the command's event is on disk. Without a valid session every call but the PIN is refused (403).
import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CommandResponse } from '../feed/mqtt-feed.js';
import type { TerminalView } from './terminal-state.js';
import { readBody, samePin } from './http-body.js';

/** The commands the terminal may send; the others (start-deal, remedy, ...) stay the director's and the hardware's. */
export const TERMINAL_COMMANDS = ['set-contract', 'claim', 'answer-claim', 'accept-result', 'call-director', 'undo-misread', 'set-players'] as const;

/** How long a PIN session lasts: a club session, with room to spare. */
const SESSION_MS = 12 * 3600_000;
/** After the last try allowed, the PIN is refused for this long (the director can restart the daemon sooner). */
export const LOCK_MS = 10 * 60_000;
const COOKIE = 'tenace_terminal';
const MAX_BODY = 16 * 1024;

export interface TerminalApiOptions {
  /** The table's PIN, 4-8 digits (asked each time: the director's assignment may bring it). */
  pin(): string;
  /** Wrong PINs allowed before the terminal locks for LOCK_MS. */
  tries: number;
  view(): TerminalView;
  /** Apply a command as `request/<cmd>` would; null when the table takes no commands now (no feed). */
  submit(cmd: string, body: string): Promise<CommandResponse> | null;
  now?: () => number;
}

/** A PIN made at start when the config gives none: four digits. */
export function makePin(): string {
  return String(randomInt(0, 10_000)).padStart(4, '0');
}

/** The terminal's API, mounted by the web view under /terminal/api/. */
export class TerminalApi {
  private readonly sessions = new Map<string, number>();
  private wrong = 0;
  private lockedUntil = 0;
  private readonly now: () => number;

  constructor(private readonly opts: TerminalApiOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Answer one request under /terminal/api/. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const route = path.slice('/terminal/api/'.length);
    if (route === 'pin') {
      if (req.method !== 'POST') return json(res, 405, { ok: false, error: 'POST the PIN as {"pin":"1234"}' });
      return this.login(req, res);
    }
    if (!this.authorised(req)) {
      return json(res, 403, { ok: false, error: 'Enter the table\'s PIN first: only the players at this table may use its terminal.' });
    }
    if (route === 'state') {
      if (req.method !== 'GET') return json(res, 405, { ok: false, error: 'GET the state' });
      return json(res, 200, { ok: true, view: this.opts.view() });
    }
    const m = /^command\/([a-z-]+)$/.exec(route);
    if (!m) return json(res, 404, { ok: false, error: `no such terminal call: ${route}` });
    if (req.method !== 'POST') return json(res, 405, { ok: false, error: 'POST a command as JSON with a "transaction" id' });
    const cmd = m[1];
    if (!(TERMINAL_COMMANDS as readonly string[]).includes(cmd)) {
      return json(res, 403, { ok: false, error: `command: the terminal cannot send ${cmd}; it sends ${TERMINAL_COMMANDS.join(', ')}` });
    }
    const body = await readBody(req, MAX_BODY);
    if (body === null) return json(res, 413, { ok: false, error: `payload: send at most ${MAX_BODY} bytes` });
    const pending = this.opts.submit(cmd, body);
    if (!pending) return json(res, 503, { ok: false, error: 'The table is starting or stopping; try again in a moment.' });
    const answer = await pending;
    return json(res, answer.ok ? 200 : 409, answer);
  }

  private async login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const now = this.now();
    if (now < this.lockedUntil) {
      const min = Math.ceil((this.lockedUntil - now) / 60_000);
      return json(res, 429, { ok: false, error: `Too many wrong PINs: the terminal is locked for ${min} more minute${min === 1 ? '' : 's'}. Ask the director for the table's PIN.` });
    }
    const body = await readBody(req, MAX_BODY);
    let pin: unknown;
    try {
      pin = body === null ? undefined : (JSON.parse(body) as { pin?: unknown }).pin;
    } catch {
      pin = undefined;
    }
    if (typeof pin !== 'string' || !/^[0-9]{1,8}$/.test(pin)) return json(res, 400, { ok: false, error: 'pin: enter the table\'s PIN, 4 to 8 digits' });
    if (!samePin(pin, this.opts.pin())) {
      this.wrong++;
      const left = this.opts.tries - this.wrong;
      if (left <= 0) {
        this.wrong = 0;
        this.lockedUntil = now + LOCK_MS;
        return json(res, 429, { ok: false, error: `That PIN is wrong. Too many wrong PINs: the terminal is locked for ${LOCK_MS / 60_000} minutes. Ask the director for the table's PIN.` });
      }
      return json(res, 403, { ok: false, error: `That PIN is wrong. ${left} ${left === 1 ? 'try' : 'tries'} left. The PIN is on the director's list for this table.` });
    }
    this.wrong = 0;
    const token = randomBytes(24).toString('base64url');
    this.sessions.set(token, now + SESSION_MS);
    res.setHeader('set-cookie', `${COOKIE}=${token}; Path=/terminal; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}`);
    return json(res, 200, { ok: true });
  }

  private authorised(req: IncomingMessage): boolean {
    const token = cookieOf(req.headers.cookie ?? '', COOKIE);
    if (!token) return false;
    const until = this.sessions.get(token);
    if (until === undefined) return false;
    if (until < this.now()) {
      this.sessions.delete(token);
      return false;
    }
    return true;
  }
}

function cookieOf(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return null;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
