// The director's login for the console's write actions: one password for the club's director, set at first run
// (from the page on this machine, or `tenace director --set-password`), kept in the store as a slow hash (scrypt, a
// random salt per password, compared in constant time). A login makes a session: a random token in an HttpOnly,
// SameSite=Strict cookie, with a CSRF token the page sends back on every write; it ends after 12 hours unused.
// Failed logins are limited per address, so the password cannot be guessed at speed.
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DirectorDb } from './store.js';

/** scrypt's cost: N = 2^15 takes some 60 ms and 32 MiB on a Raspberry Pi 4, for each login. */
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;
const META_KEY = 'console-password';

/** The cookie that carries a console session. */
export const SESSION_COOKIE = 'tenace_director';

function scrypt(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize('NFC'), salt, KEY_BYTES, { ...o, maxmem: SCRYPT.maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Why a new password cannot be used, naming the fix; null when it can. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'password: is missing; type the password in the password box';
  if ([...password].length < 10) return 'password: is too short; use at least 10 characters (a few words are easy to remember)';
  if (password.length > 200) return 'password: is too long; use at most 200 characters';
  return null;
}

/** `scrypt$N$r$p$salt$hash` (base64) of a password with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches a stored hash; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64');
  const got = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) }).catch(() => null);
  return got !== null && got.length === want.length && timingSafeEqual(got, want);
}

/** The stored password hash, or null before the first run has set one. */
export async function storedPassword(db: Kysely<DirectorDb>): Promise<string | null> {
  const r = await db.selectFrom('meta').select('value').where('key', '=', META_KEY).executeTakeFirst();
  return r?.value ?? null;
}

/** Set (or replace) the director's password in the store. */
export async function setPassword(db: Kysely<DirectorDb>, password: string): Promise<void> {
  const value = await hashPassword(password);
  await db.insertInto('meta').values({ key: META_KEY, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}

export interface ConsoleSession { token: string; csrf: string; lastSeen: number }

export type LoginOutcome = { ok: true; session: ConsoleSession } | { ok: false; status: 401 | 409 | 429; error: string };

export interface ConsoleAuthOptions {
  db: Kysely<DirectorDb>;
  /** Makes what was committed durable (DirectorStore.sync): the first password is on disk before it signs in. */
  sync?: () => Promise<void>;
  now?: () => number;
  /** A session ends after this long unused (ms, default 12 h). */
  idleMs?: number;
  /** Failed logins allowed per address within `windowMs` before the next must wait (default 5 in 15 minutes). */
  maxFailures?: number;
  windowMs?: number;
}

/** The director's sessions and the login's rate limit (in memory: a restart of the director signs everyone out). */
export class ConsoleAuth {
  private readonly sessions = new Map<string, ConsoleSession>();
  private readonly failures = new Map<string, number[]>();
  private readonly now: () => number;
  private readonly idleMs: number;
  private readonly maxFailures: number;
  private readonly windowMs: number;

  constructor(private readonly o: ConsoleAuthOptions) {
    this.now = o.now ?? Date.now;
    this.idleMs = o.idleMs ?? 12 * 3600_000;
    this.maxFailures = o.maxFailures ?? 5;
    this.windowMs = o.windowMs ?? 15 * 60_000;
  }

  /** Whether the first run has set a password. */
  async passwordSet(): Promise<boolean> {
    return (await storedPassword(this.o.db)) !== null;
  }

  /** First run: set the password (refused once one is set) and sign in. */
  async firstPassword(password: unknown): Promise<LoginOutcome> {
    const problem = passwordProblem(password);
    if (problem) return { ok: false, status: 401, error: problem };
    if (await this.passwordSet()) return { ok: false, status: 409, error: 'password: is set already; sign in with it (to change it, run `tenace director --config FILE --set-password`)' };
    await setPassword(this.o.db, password as string);
    await this.o.sync?.();
    return { ok: true, session: this.open() };
  }

  /** Check a password from `address`; a session when it matches. */
  async login(password: unknown, address: string): Promise<LoginOutcome> {
    const wait = this.waitSeconds(address);
    if (wait > 0) return { ok: false, status: 429, error: `password: too many wrong passwords from this device; wait ${wait} s and try again` };
    const stored = await storedPassword(this.o.db);
    if (stored === null) return { ok: false, status: 409, error: 'password: none is set yet; set one on this computer\'s console first, or run `tenace director --config FILE --set-password`' };
    if (typeof password !== 'string' || password.length > 200 || !(await verifyPassword(password, stored))) {
      const list = this.failures.get(address) ?? [];
      list.push(this.now());
      this.failures.set(address, list);
      return { ok: false, status: 401, error: 'password: is not the director\'s password; type it again' };
    }
    this.failures.delete(address);
    return { ok: true, session: this.open() };
  }

  /** Seconds `address` must wait before another login attempt (0: it may try now). */
  waitSeconds(address: string): number {
    const since = this.now() - this.windowMs;
    const list = (this.failures.get(address) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(address);
    else this.failures.set(address, list);
    if (list.length < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((list[0] + this.windowMs - this.now()) / 1000));
  }

  /** The live session of a token (its idle time restarted), or null when there is none or it has expired. */
  session(token: string | undefined): ConsoleSession | null {
    if (!token) return null;
    const s = this.sessions.get(token);
    if (!s) return null;
    if (this.now() - s.lastSeen > this.idleMs) {
      this.sessions.delete(token);
      return null;
    }
    s.lastSeen = this.now();
    return s;
  }

  /** End a session. */
  logout(token: string | undefined): void {
    if (token) this.sessions.delete(token);
  }

  private open(): ConsoleSession {
    // Expired sessions go when a new one opens, so the map never grows with abandoned logins.
    for (const [t, s] of this.sessions) if (this.now() - s.lastSeen > this.idleMs) this.sessions.delete(t);
    const s: ConsoleSession = { token: randomBytes(32).toString('base64url'), csrf: randomBytes(24).toString('base64url'), lastSeen: this.now() };
    this.sessions.set(s.token, s);
    return s;
  }

  /** The session cookie's header value (`secure` when the page is reached over TLS). */
  cookie(s: ConsoleSession | null, secure: boolean): string {
    const attrs = ['Path=/', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])];
    return s ? [`${SESSION_COOKIE}=${s.token}`, `Max-Age=${Math.floor(this.idleMs / 1000)}`, ...attrs].join('; ')
      : [`${SESSION_COOKIE}=`, 'Max-Age=0', ...attrs].join('; ');
  }
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
