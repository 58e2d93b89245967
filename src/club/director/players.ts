// Names for the pairs: the club's players list (`players(id, name, member_number)`, grown as the director enters
// names) and who plays in each pair of a session (`pair_players`). The config's `pairs` section gives names for
// automation; what the director enters on the console takes its place, pair by pair.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Seat } from '../../cards/seat.js';
import { type TrayTurn, tableSeat } from '../../cards/tray-turn.js';
import type { ScoreReport } from '../types.js';
import type { DirectorDb } from './store.js';

/** One player of a pair: the name, and the member number of the club or national body when known. */
export interface PlayerName { name: string; member?: string }

/** The players of each pair, by pair id ("1NS"): the shape of the director's config and snapshot. */
export type PairNames = Record<string, { players: PlayerName[] }>;

/** A player of the club's list. */
export interface ClubPlayer { id: string; name: string; member?: string }

const NAME = /^[^\p{Cc}<>]{1,60}$/u;
const MEMBER = /^[A-Za-z0-9][A-Za-z0-9 ./-]{0,19}$/;

/** Check a pair's players as entered: the players, or a sentence naming the field and the fix. */
export function checkPlayers(body: unknown): { ok: true; players: PlayerName[] } | { ok: false; error: string } {
  const list = (body as { players?: unknown } | null)?.players;
  if (!Array.isArray(list) || list.length === 0 || list.length > 4) return { ok: false, error: 'players: give the pair\'s players, one or two names (up to four for a team)' };
  const out: PlayerName[] = [];
  for (const [i, p] of list.entries()) {
    const o = (p ?? {}) as { name?: unknown; member?: unknown };
    const name = typeof o.name === 'string' ? o.name.trim().replace(/\s+/g, ' ') : '';
    if (!NAME.test(name)) return { ok: false, error: `players.${i}.name: "${String(o.name ?? '').slice(0, 60)}" cannot be a name; give 1-60 characters, without < or >` };
    const member = typeof o.member === 'string' ? o.member.trim() : '';
    if (member !== '' && !MEMBER.test(member)) return { ok: false, error: `players.${i}.member: "${member.slice(0, 20)}" is not a member number; use letters, digits, ".", "/" or "-", at most 20` };
    out.push(member ? { name, member } : { name });
  }
  return { ok: true, players: out };
}

/**
 * An assignment's `names` by the table's seats, when any: the N-S pair's players at the seats where the hands dealt
 * N and S lie, the E-W pair's where E and W lie (on a tray turned a quarter, Memory Duplicate's overplay, the N-S pair
 * sits E-W at the table).
 */
export function seatNames(pairs: PairNames, ns?: string, ew?: string, turn: TrayTurn = 0): { names?: Partial<Record<Seat, string>> } {
  const out: Partial<Record<Seat, string>> = {};
  const [n, s] = (ns !== undefined ? pairs[ns]?.players : undefined) ?? [];
  const [e, w] = (ew !== undefined ? pairs[ew]?.players : undefined) ?? [];
  for (const [seat, p] of [['N', n], ['S', s], ['E', e], ['W', w]] as const) if (p) out[tableSeat(seat, turn)] = p.name;
  return Object.keys(out).length > 0 ? { names: out } : {};
}

/** The standings with each pair's players' names (no member numbers: the standings are public). */
export function withNames(report: ScoreReport, pairs: PairNames): ScoreReport {
  if (Object.keys(pairs).length === 0) return report;
  return { ...report, pairs: report.pairs.map((p) => (pairs[p.pair] ? { ...p, names: pairs[p.pair].players.map((x) => x.name) } : p)) };
}

/** The exports' names (by pair, in seat order) and the pairs with member numbers, when any pair has players. */
export function exportNames(pairs: PairNames): { names?: Record<string, string[]>; pairs?: PairNames } {
  if (Object.keys(pairs).length === 0) return {};
  return { names: Object.fromEntries(Object.entries(pairs).map(([k, v]) => [k, v.players.map((p) => p.name)])), pairs };
}

/** The players list and a session's pairs, read from the store and kept in memory. */
export class Players {
  private stored: PairNames = {};
  /** The config's pairs with the store's over them (pairs()), made again only when the store's change. */
  private merged: PairNames | null = null;

  /** `sync` makes what was committed durable (DirectorStore.sync): an edit is on disk before the page is told it is saved. */
  constructor(private readonly db: Kysely<DirectorDb>, private readonly session: string, private readonly fromConfig: PairNames = {},
    private readonly sync: () => Promise<void> = async () => undefined) {}

  /** Read the session's pairs from the store. */
  async load(): Promise<void> {
    const rows = await this.db.selectFrom('pair_players').innerJoin('players', 'players.id', 'pair_players.player_id')
      .select(['pair_players.pair', 'pair_players.position', 'players.name', 'players.member_number'])
      .where('pair_players.session', '=', this.session).orderBy('pair_players.pair').orderBy('pair_players.position').execute();
    const out: PairNames = {};
    for (const r of rows) {
      (out[r.pair] ??= { players: [] }).players.push(r.member_number ? { name: r.name, member: r.member_number } : { name: r.name });
    }
    this.stored = out;
    this.merged = null;
  }

  /** The pairs' players: the config's, each replaced by what the director entered for that pair. */
  pairs(): PairNames {
    // Kept: the snapshot asks for each table's pairs, and merging the two at every call was 47 ms of a club bench run.
    return this.merged ??= { ...this.fromConfig, ...this.stored };
  }

  /** A pair's players as the room reads them ("Ann Lee & Bo Kim"); undefined when it has none. */
  label(pair: string): string | undefined {
    return this.pairs()[pair]?.players.map((p) => p.name).join(' & ') || undefined;
  }

  /** The club's players list, by name. */
  async list(): Promise<ClubPlayer[]> {
    const rows = await this.db.selectFrom('players').selectAll().orderBy('name').orderBy('member_number').execute();
    return rows.map((r) => (r.member_number ? { id: r.id, name: r.name, member: r.member_number } : { id: r.id, name: r.name }));
  }

  /** Give a pair its players: each found in the list (by member number, else by name) or added to it. */
  async setPair(pair: string, players: PlayerName[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const ids: string[] = [];
      for (const p of players) {
        let q = tx.selectFrom('players').select('id');
        q = p.member ? q.where('member_number', '=', p.member) : q.where('name', '=', p.name).where('member_number', 'is', null);
        const found = await q.executeTakeFirst();
        if (found) {
          // A member number is the player's: the name entered with it is the name now (a correction, a new surname).
          if (p.member) await tx.updateTable('players').set({ name: p.name }).where('id', '=', found.id).execute();
          ids.push(found.id);
        } else {
          const id = randomUUID();
          await tx.insertInto('players').values({ id, name: p.name, member_number: p.member ?? null }).execute();
          ids.push(id);
        }
      }
      await tx.deleteFrom('pair_players').where('session', '=', this.session).where('pair', '=', pair).execute();
      await tx.insertInto('pair_players').values(ids.map((player_id, position) => ({ session: this.session, pair, position, player_id }))).execute();
    });
    await this.sync();
    this.stored = { ...this.stored, [pair]: { players } };
    this.merged = null;
  }
}
