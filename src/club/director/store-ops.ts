// The director store's schema as Kysely sees it, and its queries (StoreOps), on the database or inside a
// transaction; the partition leases' queries (LeaseOps). DirectorStore (store.ts) opens, migrates and closes it.
import { CompiledQuery, Kysely, sql, type Transaction } from 'kysely';
import type { TableEvent } from '../../formats/table-log.js';
import type { ClubAlert, RoundAssignment, Traveller, TrayRecord } from '../types.js';

interface EventsTable { session: string; table_id: string; seq: number; json: string; received: string }
interface TableStateTable { session: string; table_id: string; first_seq: number }
interface TraysTable { session: string; board: number; rev: number; json: string; source: string; at: string }
interface ResultsTable {
  /** 0 when the play had no round (a table not in the schedule's entry for the board). */
  session: string; board: number; table_id: string; round: number; ns: string; ew: string; json: string; from_seq: number; to_seq: number;
}
interface AlertsTable { session: string; id: string; kind: string; json: string; at: string }
interface DecisionsTable { session: string; transaction_id: string; cmd: string; digest: string; request: string; response: string; at: string }
interface AssignmentsTable { session: string; table_id: string; round: number; json: string; at: string }
interface MetaTable { key: string; value: string }
interface InstancesTable { session: string; instance: string; seen_ms: number | string }
interface LeasesTable { session: string; part: number; holder: string | null; expires_ms: number | string; epoch: number }
interface PlayersTable { id: string; name: string; member_number: string | null }
interface PairPlayersTable { session: string; pair: string; position: number; player_id: string }

/** The tables of the store, as Kysely sees them. */
export interface DirectorDb {
  events: EventsTable;
  table_state: TableStateTable;
  trays: TraysTable;
  results: ResultsTable;
  alerts: AlertsTable;
  decisions: DecisionsTable;
  assignments: AssignmentsTable;
  meta: MetaTable;
  instances: InstancesTable;
  leases: LeasesTable;
  players: PlayersTable;
  pair_players: PairPlayersTable;
}

/** A partition's lease as stored: who holds it, until when, and how many times it has changed hands. */
export interface LeaseRow { part: number; holder: string | null; expiresMs: number; epoch: number }

/** A stored event: the table's journal event with the table it came from. */
export interface StoredEvent { table: string; seq: number; event: TableEvent }

/** A stored traveller line with where it came from. */
export interface StoredResult { table: string; traveller: Traveller; fromSeq: number; toSeq: number }

/** A journaled director decision and the response it got. */
export interface StoredDecision { transaction: string; cmd: string; digest: string; request: unknown; response: unknown; at: string }

/** A number from a row (pg gives bigint columns as strings). */
export const num = (v: unknown): number => Number(v);

/** A list cut into pieces small enough for one `in (...)` on either engine (SQLite's and pg's limits on parameters). */
export function chunks<T>(xs: T[], n = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/**
 * A store fault that passes once the operator acts (a disk full, a file or file system read-only, an I/O error, a
 * busy database), in words; null for any other error. The director waits such a fault out without acknowledging.
 */
export function storeFault(err: unknown): string | null {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === '53100') return 'the disk is full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === '25006') return 'it is read-only';
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO' || code === '58030') return 'the disk gave an I/O error';
  if (code === 'SQLITE_CANTOPEN') return 'its files cannot be opened';
  if (code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED') return 'another process holds it locked';
  return null;
}

/** The events written by one INSERT: a group's events, however many tables sent them, in as few round trips. */
export const EVENTS_PER_STATEMENT = 200;

/** The PostgreSQL channel on which director instances say that they stored results, records, alerts or decisions. */
export const CHANGE_CHANNEL = 'tenace_director_changes';

/**
 * What a commit stored that the other instances read back: the tables whose results changed (`results`, to read
 * back), and the other kinds. `carried`: the results themselves where they fit in the payload, in commit order, which
 * the others take as they are instead of reading back.
 */
export interface ChangeNote { results: Set<string>; trays: boolean; assignments: boolean; alerts: boolean; decisions: boolean; carried?: StoredResult[] }

/** PostgreSQL's limit on a NOTIFY payload is 8,000 bytes: a note that would not fit is left out (all is read back). */
const MAX_PAYLOAD = 7_900;
const KINDS = [['trays', 't'], ['assignments', 'a'], ['alerts', 'l'], ['decisions', 'd']] as const;

/**
 * A change's NOTIFY payload: session and instance, then what changed (`s\ti\tkinds\ttable,table`), then the results
 * stored as JSON: as much of that as fits. An instance that reads only the tables reads their results back.
 */
export function changePayload(session: string, instance: string, note?: ChangeNote): string {
  const head = `${session}\t${instance}`;
  if (!note) return head;
  const noted = `${head}\t${KINDS.filter(([k]) => note[k]).map(([, c]) => c).join('')}\t${[...note.results].join(',')}`;
  // JSON escapes a tab inside a string, so the fields stay apart.
  const carried = note.carried?.length ? `${noted}\t${JSON.stringify(note.carried)}` : noted;
  if (Buffer.byteLength(carried) <= MAX_PAYLOAD) return carried;
  return Buffer.byteLength(noted) <= MAX_PAYLOAD ? noted : head;
}

/** A NOTIFY payload read: who stored, and what, when it says (an instance of before issue 18's notes says only who). */
export function parseChangePayload(payload: string): { session: string; instance: string; note?: ChangeNote } | null {
  const [session, instance, kinds, tables, results] = payload.split('\t');
  if (session === undefined || instance === undefined) return null;
  if (kinds === undefined || tables === undefined) return { session, instance };
  const carried = results === undefined ? undefined : carriedResults(results);
  // The results carried are the tables' results stored: nothing of theirs to read back.
  const note: ChangeNote = { results: new Set(tables === '' || carried ? [] : tables.split(',')), trays: false, assignments: false, alerts: false, decisions: false };
  if (carried) note.carried = carried;
  for (const [k, c] of KINDS) note[k] = kinds.includes(c);
  return { session, instance, note };
}

/** The results a payload carries, or undefined when they are not what changePayload writes (then they are read back). */
function carriedResults(json: string): StoredResult[] | undefined {
  try {
    const rs = JSON.parse(json) as unknown;
    const ok = Array.isArray(rs) && rs.every((r: Partial<StoredResult> | null) => typeof r?.table === 'string' && Number.isSafeInteger(r.fromSeq)
      && Number.isSafeInteger(r.toSeq) && typeof r.traveller === 'object' && r.traveller !== null && Number.isSafeInteger(r.traveller.board));
    return ok ? rs as StoredResult[] : undefined;
  } catch {
    return undefined;
  }
}

/** eventsInsert's SQL text by dialect and row count (at most 2 × EVENTS_PER_STATEMENT texts). */
const eventsSql = new Map<string, string>();

/** The queries, on the database or inside a transaction. */
export class StoreOps {
  constructor(protected readonly q: Kysely<DirectorDb> | Transaction<DirectorDb>, protected readonly postgres = false) {}

  /**
   * Tell the other director instances, on commit, that this transaction stored what they read back (PostgreSQL's
   * NOTIFY is delivered when the transaction commits, and not at all if it rolls back).
   */
  async notifyChange(session: string, instance: string, note?: ChangeNote): Promise<void> {
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${changePayload(session, instance, note)})`.execute(this.q);
  }

  /**
   * Store many tables' events in as few statements as the engine allows (a group commit's events); an event already
   * there (a redelivery) is left as it is.
   */
  async insertEvents(session: string, rows: readonly StoredEvent[], received: string): Promise<void> {
    // Kysely builds and compiles the INSERT once per row count, not for every group: building it each time was about
    // 8% of the club bench director's CPU (issue 18, profile of 2026-12-06).
    for (const part of chunks([...rows], EVENTS_PER_STATEMENT)) {
      const key = `${this.postgres ? 'pg' : 'sqlite'}:${part.length}`;
      let text = eventsSql.get(key);
      if (text === undefined) eventsSql.set(key, text = this.eventsInsert(session, part, received).compile().sql);
      // The values in eventsInsert's column order, row by row, as its compiled SQL takes them.
      const params: unknown[] = [];
      for (const r of part) params.push(session, r.table, r.seq, JSON.stringify(r.event), received);
      await this.q.executeQuery(CompiledQuery.raw(text, params));
    }
  }

  /** The INSERT of some events (at most EVENTS_PER_STATEMENT), not yet run: a group commit runs it with others. */
  protected eventsInsert(session: string, rows: readonly StoredEvent[], received: string) {
    return this.q.insertInto('events').values(rows.map((r) => ({ session, table_id: r.table, seq: r.seq, json: JSON.stringify(r.event), received })))
      .onConflict((oc) => oc.columns(['session', 'table_id', 'seq']).doNothing());
  }

  /** Remember the first seq of a table's journal session (learnt from a request/events answer from the start). */
  async setFirstSeq(session: string, table: string, firstSeq: number): Promise<void> {
    await this.q.insertInto('table_state').values({ session, table_id: table, first_seq: firstSeq })
      .onConflict((oc) => oc.columns(['session', 'table_id']).doUpdateSet({ first_seq: firstSeq })).execute();
  }

  /** Insert or replace the result of (board, table, round). */
  async putResult(session: string, r: StoredResult): Promise<void> {
    const t = r.traveller;
    const row = { ns: t.ns, ew: t.ew, json: JSON.stringify(t), from_seq: r.fromSeq, to_seq: r.toSeq };
    await this.q.insertInto('results').values({ session, board: t.board, table_id: r.table, round: t.round ?? 0, ...row })
      .onConflict((oc) => oc.columns(['session', 'board', 'table_id', 'round']).doUpdateSet(row)).execute();
  }

  /** Store a tray record revision; false when that (board, rev) exists already. */
  async putTray(session: string, rec: TrayRecord): Promise<boolean> {
    const r = await this.q.insertInto('trays').values({ session, board: rec.board, rev: rec.rev, json: JSON.stringify(rec), source: rec.source.kind, at: rec.source.at })
      .onConflict((oc) => oc.columns(['session', 'board', 'rev']).doNothing()).executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Store a tray's first record; when another was stored first (another instance's), call `taken` instead. */
  async putFirstTray(session: string, rec: TrayRecord, taken: (tx: StoreOps) => Promise<void>): Promise<void> {
    if (!(await this.putTray(session, rec))) await taken(this);
  }

  /** Store an alert under its id; false when it was raised before (a replay raises the same id). */
  async putAlert(session: string, id: string, alert: ClubAlert): Promise<boolean> {
    const r = await this.q.insertInto('alerts').values({ session, id, kind: alert.kind, json: JSON.stringify(alert), at: alert.at })
      .onConflict((oc) => oc.columns(['session', 'id']).doNothing()).executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Journal a decision with its response; false when the transaction id is taken. */
  async putDecision(session: string, d: StoredDecision): Promise<boolean> {
    const r = await this.q.insertInto('decisions').values({
      session, transaction_id: d.transaction, cmd: d.cmd, digest: d.digest, request: JSON.stringify(d.request), response: JSON.stringify(d.response), at: d.at,
    }).onConflict((oc) => oc.columns(['session', 'transaction_id']).doNothing()).executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Store a table's assignment for a round (the latest round is the one in force). */
  async putAssignment(session: string, a: RoundAssignment): Promise<void> {
    const row = { json: JSON.stringify(a), at: a.at };
    await this.q.insertInto('assignments').values({ session, table_id: a.table, round: a.round, ...row })
      .onConflict((oc) => oc.columns(['session', 'table_id', 'round']).doUpdateSet(row)).execute();
  }

  /** The session's events in (table, seq) order. */
  async events(session: string, table?: string): Promise<StoredEvent[]> {
    let q = this.q.selectFrom('events').select(['table_id', 'seq', 'json']).where('session', '=', session);
    if (table !== undefined) q = q.where('table_id', '=', table);
    const rows = await q.orderBy('table_id').orderBy('seq').execute();
    return rows.map((r) => ({ table: r.table_id, seq: num(r.seq), event: JSON.parse(r.json) as TableEvent }));
  }

  /** The stored events of one table at the given seqs, by seq (to tell a redelivery from a reused seq). */
  async eventsAt(session: string, table: string, seqs: number[]): Promise<Map<number, TableEvent>> {
    if (seqs.length === 0) return new Map();
    const rows = await this.q.selectFrom('events').select(['seq', 'json']).where('session', '=', session).where('table_id', '=', table)
      .where('seq', 'in', seqs).execute();
    return new Map(rows.map((r) => [num(r.seq), JSON.parse(r.json) as TableEvent]));
  }

  /** First seq per table, where known. */
  async firstSeqs(session: string): Promise<Map<string, number>> {
    const rows = await this.q.selectFrom('table_state').select(['table_id', 'first_seq']).where('session', '=', session).execute();
    return new Map(rows.map((r) => [r.table_id, num(r.first_seq)]));
  }

  /** Every tray record revision, by board then rev. */
  async trays(session: string): Promise<TrayRecord[]> {
    const rows = await this.q.selectFrom('trays').select('json').where('session', '=', session).orderBy('board').orderBy('rev').execute();
    return rows.map((r) => JSON.parse(r.json) as TrayRecord);
  }

  /** Every result, by board, table and round. */
  async results(session: string): Promise<StoredResult[]> {
    const rows = await this.q.selectFrom('results').select(['table_id', 'json', 'from_seq', 'to_seq']).where('session', '=', session)
      .orderBy('board').orderBy('table_id').orderBy('round').execute();
    return rows.map((r) => ({ table: r.table_id, traveller: JSON.parse(r.json) as Traveller, fromSeq: num(r.from_seq), toSeq: num(r.to_seq) }));
  }

  /** Every alert, in the order raised. */
  async alerts(session: string): Promise<{ id: string; alert: ClubAlert }[]> {
    const rows = await this.q.selectFrom('alerts').select(['id', 'json']).where('session', '=', session).orderBy('at').orderBy('id').execute();
    return rows.map((r) => ({ id: r.id, alert: JSON.parse(r.json) as ClubAlert }));
  }

  /** One decision by transaction id. */
  async decision(session: string, transaction: string): Promise<StoredDecision | undefined> {
    const r = await this.q.selectFrom('decisions').selectAll().where('session', '=', session).where('transaction_id', '=', transaction).executeTakeFirst();
    return r && { transaction: r.transaction_id, cmd: r.cmd, digest: r.digest, request: JSON.parse(r.request), response: JSON.parse(r.response), at: r.at };
  }

  /** Every decision, in the order taken. */
  async decisions(session: string): Promise<StoredDecision[]> {
    const rows = await this.q.selectFrom('decisions').selectAll().where('session', '=', session).orderBy('at').orderBy('transaction_id').execute();
    return rows.map((r) => ({ transaction: r.transaction_id, cmd: r.cmd, digest: r.digest, request: JSON.parse(r.request), response: JSON.parse(r.response), at: r.at }));
  }

  /** The latest revision of one board's record, if any. */
  async tray(session: string, board: number): Promise<TrayRecord | undefined> {
    const r = await this.q.selectFrom('trays').select('json').where('session', '=', session).where('board', '=', board).orderBy('rev', 'desc').executeTakeFirst();
    return r && (JSON.parse(r.json) as TrayRecord);
  }

  /** Every assignment, by table then round. */
  async assignments(session: string): Promise<RoundAssignment[]> {
    const rows = await this.q.selectFrom('assignments').select('json').where('session', '=', session).orderBy('table_id').orderBy('round').execute();
    return rows.map((r) => JSON.parse(r.json) as RoundAssignment);
  }

  // What a cluster instance reads back every SYNC_MS (cluster.ts): the keys first, the bodies only of what it lacks,
  // rather than every row's JSON each time.

  /** Each table's latest assignment's key and time, without its body. */
  async assignmentHeads(session: string): Promise<{ table: string; round: number; at: string }[]> {
    const rows = await this.q.selectFrom('assignments').select(['table_id', 'round', 'at']).where('session', '=', session).execute();
    return rows.map((r) => ({ table: r.table_id, round: num(r.round), at: r.at }));
  }

  /** The assignments at these keys (table, round). */
  async assignmentsAt(session: string, keys: { table: string; round: number }[]): Promise<RoundAssignment[]> {
    const out: RoundAssignment[] = [];
    for (const part of chunks(keys, 200)) {
      const rows = await this.q.selectFrom('assignments').select('json').where('session', '=', session)
        .where((eb) => eb.or(part.map((k) => eb.and([eb('table_id', '=', k.table), eb('round', '=', k.round)])))).execute();
      for (const r of rows) out.push(JSON.parse(r.json) as RoundAssignment);
    }
    return out;
  }

  /** Each result's key and seqs, without its traveller. */
  async resultHeads(session: string): Promise<{ table: string; board: number; round: number; fromSeq: number; toSeq: number }[]> {
    const rows = await this.q.selectFrom('results').select(['table_id', 'board', 'round', 'from_seq', 'to_seq']).where('session', '=', session).execute();
    return rows.map((r) => ({ table: r.table_id, board: num(r.board), round: num(r.round ?? 0), fromSeq: num(r.from_seq), toSeq: num(r.to_seq) }));
  }

  /** The results of these tables, by board, table and round (within each piece of 500 tables). */
  async resultsOf(session: string, tables: string[]): Promise<StoredResult[]> {
    const out: StoredResult[] = [];
    for (const part of chunks(tables)) {
      const rows = await this.q.selectFrom('results').select(['table_id', 'json', 'from_seq', 'to_seq']).where('session', '=', session)
        .where('table_id', 'in', part).orderBy('board').orderBy('table_id').orderBy('round').execute();
      for (const r of rows) out.push({ table: r.table_id, traveller: JSON.parse(r.json) as Traveller, fromSeq: num(r.from_seq), toSeq: num(r.to_seq) });
    }
    return out;
  }

  /** The ids of the alerts. */
  async alertIds(session: string): Promise<string[]> {
    return (await this.q.selectFrom('alerts').select('id').where('session', '=', session).execute()).map((r) => r.id);
  }

  /** These alerts, in the order raised (within each piece of 500). */
  async alertsAt(session: string, ids: string[]): Promise<{ id: string; alert: ClubAlert }[]> {
    const out: { id: string; alert: ClubAlert }[] = [];
    for (const part of chunks(ids)) {
      const rows = await this.q.selectFrom('alerts').select(['id', 'json']).where('session', '=', session).where('id', 'in', part).orderBy('at').orderBy('id').execute();
      for (const r of rows) out.push({ id: r.id, alert: JSON.parse(r.json) as ClubAlert });
    }
    return out;
  }

  /** The transaction ids of the decisions. */
  async decisionIds(session: string): Promise<string[]> {
    return (await this.q.selectFrom('decisions').select('transaction_id').where('session', '=', session).execute()).map((r) => r.transaction_id);
  }

  /** These decisions, in the order taken (within each piece of 500). */
  async decisionsAt(session: string, ids: string[]): Promise<StoredDecision[]> {
    const out: StoredDecision[] = [];
    for (const part of chunks(ids)) {
      const rows = await this.q.selectFrom('decisions').selectAll().where('session', '=', session).where('transaction_id', 'in', part)
        .orderBy('at').orderBy('transaction_id').execute();
      for (const r of rows) out.push({ transaction: r.transaction_id, cmd: r.cmd, digest: r.digest, request: JSON.parse(r.request), response: JSON.parse(r.response), at: r.at });
    }
    return out;
  }

  /** Each board's latest record revision. */
  async trayRevs(session: string): Promise<Map<number, number>> {
    const rows = await this.q.selectFrom('trays').select(['board', (eb) => eb.fn.max('rev').as('rev')]).where('session', '=', session).groupBy('board').execute();
    return new Map(rows.map((r) => [num(r.board), num(r.rev)]));
  }
}

/** The queries of the partition leases (src/club/director/leases.ts), each one statement, outside any transaction. */
export class LeaseOps {
  constructor(private readonly q: Kysely<DirectorDb>) {}

  /** Say that `instance` is alive at `nowMs`. */
  async heartbeat(session: string, instance: string, nowMs: number): Promise<void> {
    await this.q.insertInto('instances').values({ session, instance, seen_ms: nowMs })
      .onConflict((oc) => oc.columns(['session', 'instance']).doUpdateSet({ seen_ms: nowMs })).execute();
  }

  /** The instances seen since `sinceMs`, by name. */
  async liveInstances(session: string, sinceMs: number): Promise<string[]> {
    const rows = await this.q.selectFrom('instances').select('instance').where('session', '=', session).where('seen_ms', '>', sinceMs).orderBy('instance').execute();
    return rows.map((r) => r.instance);
  }

  /** Forget an instance (it stopped cleanly). */
  async forget(session: string, instance: string): Promise<void> {
    await this.q.deleteFrom('instances').where('session', '=', session).where('instance', '=', instance).execute();
  }

  /** Make the lease rows 0..n-1 that do not exist yet (free, expired). */
  async ensureLeases(session: string, n: number): Promise<void> {
    const values = Array.from({ length: n }, (_, part) => ({ session, part, holder: null, expires_ms: 0, epoch: 0 }));
    await this.q.insertInto('leases').values(values).onConflict((oc) => oc.columns(['session', 'part']).doNothing()).execute();
  }

  /** Every lease, by partition. */
  async leases(session: string): Promise<LeaseRow[]> {
    const rows = await this.q.selectFrom('leases').selectAll().where('session', '=', session).orderBy('part').execute();
    return rows.map((r) => ({ part: num(r.part), holder: r.holder, expiresMs: num(r.expires_ms), epoch: num(r.epoch) }));
  }

  /** Take a partition that is free, expired or already ours; true when it is now ours until `untilMs`. */
  async acquire(session: string, part: number, instance: string, nowMs: number, untilMs: number): Promise<boolean> {
    // One conditional UPDATE: of two instances racing for the same expired lease, the database lets one win.
    const r = await this.q.updateTable('leases').set((eb) => ({ holder: instance, expires_ms: untilMs, epoch: eb('epoch', '+', 1) }))
      .where('session', '=', session).where('part', '=', part)
      .where((eb) => eb.or([eb('holder', 'is', null), eb('holder', '=', instance), eb('expires_ms', '<', nowMs)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Extend a lease we hold; false when it is no longer ours (it expired and another instance took it). */
  async renew(session: string, part: number, instance: string, untilMs: number): Promise<boolean> {
    const r = await this.q.updateTable('leases').set({ expires_ms: untilMs })
      .where('session', '=', session).where('part', '=', part).where('holder', '=', instance).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Give a lease up at once, so another instance need not wait for it to expire. */
  async release(session: string, part: number, instance: string): Promise<void> {
    await this.q.updateTable('leases').set({ holder: null, expires_ms: 0 })
      .where('session', '=', session).where('part', '=', part).where('holder', '=', instance).execute();
  }
}
