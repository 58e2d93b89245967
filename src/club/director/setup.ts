// Setting up a session without writing YAML (`tenace director --config club.yaml --setup`): the director page opens
// on the set-up screens (web/director/setup.js): the session and its game, the movement with a preview of its
// schedule, each table smart or hand-scored, the pairs' players from the club's list; then Start writes the session's
// config beside the club's (`<session>.yaml`, the same YAML automation writes) and the director runs it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { parseDocument, stringify } from 'yaml';
import { variantNames } from '../../laws/variants.js';
import { MOVEMENTS, movementByName } from '../movements/index.js';
import type { Schedule } from '../types.js';
import { type ConsoleApi, readJson, reply, sameOrigin } from './console-api.js';
import { type DirectorConfig, parseDirectorConfig } from './config.js';
import { type PairNames, Players, checkPlayers } from './players.js';
import type { DirectorDb } from './store.js';

/** The movement a set-up asks for. */
export interface MovementChoice { name: string; tables: number; boardsPerRound?: number; options?: Record<string, string | number | boolean> }

/** The schedule of a movement choice, or the sentence that says what to change. */
export function previewSchedule(m: unknown): { ok: true; schedule: Schedule } | { ok: false; error: string } {
  const c = (m ?? {}) as Partial<MovementChoice>;
  const movement = typeof c.name === 'string' ? movementByName(c.name) : undefined;
  if (!movement) return { ok: false, error: `movement: choose one of ${Object.keys(MOVEMENTS).join(', ')}` };
  if (!Number.isInteger(c.tables) || c.tables! < 1 || c.tables! > 200) return { ok: false, error: 'tables: give the number of tables, 1 to 200' };
  const opts = { tables: c.tables!, ...(c.boardsPerRound !== undefined ? { boardsPerRound: c.boardsPerRound } : {}), ...(c.options ? { options: c.options } : {}) };
  const problem = movement.check(opts);
  if (problem) return { ok: false, error: problem };
  return { ok: true, schedule: movement.generate(opts) };
}

/** What Start sends: the session, its game and movement, the hand-scored tables, the pairs' players. */
export interface SetupChoice { session: string; variant: string; movement: MovementChoice; manual?: string[]; pairs?: PairNames }

/**
 * The session's config: the club's config (`base`, its YAML text) with the session, game, movement, tables and
 * pairs of the set-up. Checked as any config is; the YAML to write, or the first problem naming the field.
 */
export function sessionConfig(base: string, choice: unknown, baseDir: string, port?: number): { ok: true; yaml: string; config: DirectorConfig } | { ok: false; error: string } {
  const c = (choice ?? {}) as Partial<SetupChoice>;
  const preview = previewSchedule(c.movement);
  if (!preview.ok) return preview;
  const tables = Array.from({ length: preview.schedule.tables }, (_, i) => String(i + 1));
  const manual = Array.isArray(c.manual) ? c.manual.map(String) : [];
  const bad = manual.find((t) => !tables.includes(t));
  if (bad !== undefined) return { ok: false, error: `manual: "${bad}" is not a table of this movement; choose among tables 1 to ${tables.length}` };
  const pairs: PairNames = {};
  for (const [pair, v] of Object.entries(c.pairs ?? {})) {
    if (!preview.schedule.participants.includes(pair)) return { ok: false, error: `pairs: "${pair}" is not a pair of this movement` };
    if (((v as { players?: unknown[] }).players ?? []).length === 0) continue;
    const chk = checkPlayers(v);
    if (!chk.ok) return { ok: false, error: `pairs.${pair}.${chk.error}` };
    pairs[pair] = { players: chk.players };
  }
  const raw = (parseDocument(base).toJS() ?? {}) as Record<string, unknown>;
  // "Any free port" (0) for the set-up: the session keeps the port the page was opened on, where it reloads.
  const http = (raw.http ?? {}) as { port?: number };
  if (port !== undefined && http.port === 0) raw.http = { ...http, port };
  const m = c.movement!;
  const out = {
    ...raw, session: c.session, variant: c.variant,
    movement: { name: m.name, tables: m.tables, ...(m.boardsPerRound !== undefined ? { boardsPerRound: m.boardsPerRound } : {}), ...(m.options ? { options: m.options } : {}) },
    tables, ...(manual.length > 0 ? { tableOptions: Object.fromEntries(manual.map((t) => [t, { manual: true }])) } : {}),
    ...(Object.keys(pairs).length > 0 ? { pairs } : {}),
  };
  const yaml = `# Written by the director's set-up (tenace director --setup); edit it, or set up the next session again.\n${stringify(out)}`;
  const parsed = parseDirectorConfig(yaml, baseDir);
  if (!parsed.ok) return { ok: false, error: `${parsed.errors[0].path || 'config'}: ${parsed.errors[0].message}` };
  return { ok: true, yaml, config: parsed.config };
}

export interface SetupApiOptions {
  /** The sign-in and the players list (a console on the club's store). */
  console: ConsoleApi;
  db: Kysely<DirectorDb>;
  /** Makes what was committed durable (DirectorStore.sync). */
  sync?: () => Promise<void>;
  /** The club's config text and folder, where the session's config is written. */
  base: string;
  dir: string;
  club: string;
  /** The port the set-up page was opened on (once it listens). */
  port?: () => number;
  /** Start was confirmed: the session config's path and the config. */
  onStart(file: string, config: DirectorConfig): void;
}

/** The set-up's HTTP side: /api/setup/... here, sign-in and the players list through the console. */
export function setupApi(o: SetupApiOptions): ConsoleApi {
  let started = false;
  return {
    view: (req, s) => o.console.view(req, s),
    director: (req) => o.console.director(req),
    trusted: (req) => o.console.trusted(req),
    async handle(req, res, path) {
      if (!path.startsWith('/api/setup')) return o.console.handle(req, res, path);
      if (path === '/api/setup' && req.method === 'GET') {
        return reply(res, 200, {
          ok: true, club: o.club, variants: variantNames(),
          movements: Object.values(MOVEMENTS).filter((m) => m.kind === 'pairs').map((m) => ({ name: m.name, summary: m.summary })),
        });
      }
      // Everything else acts: the director only, with the session's CSRF token, from the page itself.
      const gate = o.console.director(req);
      if (!gate) return reply(res, 401, { ok: false, error: 'login: sign in as the director first' });
      if (req.method !== 'POST' || req.headers['x-tenace-csrf'] !== gate.csrf || !sameOrigin(req)) {
        return reply(res, 403, { ok: false, error: 'csrf: the page\'s token is missing or old, or the request comes from another site; reload the page' });
      }
      const read = await readJson(req);
      if (!read.ok) return reply(res, 400, { ok: false, error: read.error });
      const body = read.value;
      if (path === '/api/setup/preview') {
        const p = previewSchedule(body);
        return reply(res, p.ok ? 200 : 400, p);
      }
      if (path === '/api/setup/start') {
        if (started) return reply(res, 409, { ok: false, error: 'start: the session is starting already; wait for the page to reload' });
        const s = sessionConfig(o.base, body, o.dir, o.port?.());
        if (!s.ok) return reply(res, 400, s);
        const file = join(o.dir, `${s.config.session}.yaml`);
        writeFileSync(file, s.yaml);
        // The names grow the club's list, and are the session's pairs in the store as the console would enter them.
        const session = new Players(o.db, s.config.session, {}, o.sync);
        for (const [pair, v] of Object.entries(s.config.pairs ?? {})) await session.setPair(pair, v.players);
        started = true;
        reply(res, 200, { ok: true, file, session: s.config.session });
        res.once('finish', () => o.onStart(file, s.config));
        return;
      }
      return reply(res, 404, { ok: false, error: `path: ${path} is not part of the set-up` });
    },
  };
}

