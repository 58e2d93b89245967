// The director's store: one schema and one set of queries (Kysely) on SQLite (better-sqlite3, the default) or
// PostgreSQL (pg, the championship's), migrated at start by the versioned migrations of store-migrations.ts.
//
// The events table is the truth: every table event the director has received, keyed by (session, table, seq), so a
// redelivery inserts nothing. What the director derives from them (travellers, tray records, alerts) is stored in the
// same transaction as the event that produced it, keyed so that deriving it again after a restart changes nothing.
import { randomUUID } from 'node:crypto';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import { migrationProvider } from './store-migrations.js';
import { WalSync } from './wal-sync.js';
import { withStatementCache } from './sqlite-statements.js';

export { MIGRATIONS, migrationProvider } from './store-migrations.js';
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

const num = (v: unknown): number => Number(v);

/** A list cut into pieces small enough for one `in (...)` on either engine (SQLite's and pg's limits on parameters). */
function chunks<T>(xs: T[], n = 500): T[][] {
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

/** The PostgreSQL channel on which director instances say that they stored results, records, alerts or decisions. */
export const CHANGE_CHANNEL = 'tenace_director_changes';

/** The queries, on the database or inside a transaction. */
export class StoreOps {
  constructor(protected readonly q: Kysely<DirectorDb> | Transaction<DirectorDb>) {}

  /**
   * Tell the other director instances, on commit, that this transaction stored what they read back (PostgreSQL's
   * NOTIFY is delivered when the transaction commits, and not at all if it rolls back).
   */
  async notifyChange(session: string, instance: string): Promise<void> {
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${`${session}\t${instance}`})`.execute(this.q);
  }

  /**
   * Store many tables' events in as few statements as the engine allows (a group commit's events); an event already
   * there (a redelivery) is left as it is.
   */
  async insertEvents(session: string, rows: readonly StoredEvent[], received: string): Promise<void> {
    for (const part of chunks([...rows], 200)) {
      await this.q.insertInto('events').values(part.map((r) => ({ session, table_id: r.table, seq: r.seq, json: JSON.stringify(r.event), received })))
        .onConflict((oc) => oc.columns(['session', 'table_id', 'seq']).doNothing()).execute();
    }
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

/**
 * A group commit's queries (commit.ts): the results and round assignments its deals make are gathered and written one
 * statement each once the group's writes are done (flush), not one round trip each; the last write of a key wins,
 * as it would have one statement at a time. Nothing in a group reads them back before its commit.
 */
export class GroupOps extends StoreOps {
  private readonly pendingResults = new Map<string, StoredResult>();
  private readonly pendingAssignments = new Map<string, RoundAssignment>();
  private readonly pendingTrays: { rec: TrayRecord; taken: (tx: StoreOps) => Promise<void> }[] = [];
  private session: string | null = null;

  override async putResult(session: string, r: StoredResult): Promise<void> {
    this.own(session);
    this.pendingResults.set(`${r.traveller.board}\t${r.table}\t${r.traveller.round ?? 0}`, r);
  }

  override async putAssignment(session: string, a: RoundAssignment): Promise<void> {
    this.own(session);
    this.pendingAssignments.set(`${a.table}\t${a.round}`, a);
  }

  override async putFirstTray(session: string, rec: TrayRecord, taken: (tx: StoreOps) => Promise<void>): Promise<void> {
    this.own(session);
    this.pendingTrays.push({ rec, taken });
  }

  /** Write what was gathered; then, for each first record another got in before, its `taken`. */
  async flush(): Promise<void> {
    const session = this.session;
    if (session === null) return;
    const trays = this.pendingTrays.splice(0);
    const stored = new Set<string>();
    for (const part of chunks(trays, 200)) {
      const rows = await this.q.insertInto('trays').values(part.map(({ rec }) => ({ session, board: rec.board, rev: rec.rev, json: JSON.stringify(rec), source: rec.source.kind, at: rec.source.at })))
        .onConflict((oc) => oc.columns(['session', 'board', 'rev']).doNothing()).returning(['board', 'rev']).execute();
      for (const r of rows) stored.add(`${num(r.board)}:${num(r.rev)}`);
    }
    // One group may hold two first records of a tray (two tables finished it together): the first stands.
    const seen = new Set<string>();
    for (const { rec, taken } of trays) {
      const k = `${rec.board}:${rec.rev}`;
      if (!stored.has(k) || seen.has(k)) await taken(this);
      seen.add(k);
    }
    for (const part of chunks([...this.pendingResults.values()], 200)) {
      await this.q.insertInto('results').values(part.map((r) => ({
        session, board: r.traveller.board, table_id: r.table, round: r.traveller.round ?? 0, ns: r.traveller.ns, ew: r.traveller.ew,
        json: JSON.stringify(r.traveller), from_seq: r.fromSeq, to_seq: r.toSeq,
      }))).onConflict((oc) => oc.columns(['session', 'board', 'table_id', 'round']).doUpdateSet((eb) => ({
        ns: eb.ref('excluded.ns'), ew: eb.ref('excluded.ew'), json: eb.ref('excluded.json'), from_seq: eb.ref('excluded.from_seq'), to_seq: eb.ref('excluded.to_seq'),
      }))).execute();
    }
    for (const part of chunks([...this.pendingAssignments.values()], 200)) {
      await this.q.insertInto('assignments').values(part.map((a) => ({ session, table_id: a.table, round: a.round, json: JSON.stringify(a), at: a.at })))
        .onConflict((oc) => oc.columns(['session', 'table_id', 'round']).doUpdateSet((eb) => ({ json: eb.ref('excluded.json'), at: eb.ref('excluded.at') }))).execute();
    }
    this.pendingResults.clear();
    this.pendingAssignments.clear();
  }

  /** A director writes one session; gathering two in one statement would need a session per row. */
  private own(session: string): void {
    if (this.session !== null && this.session !== session) throw new Error(`store: one group commit wrote sessions ${this.session} and ${session}`);
    this.session = session;
  }
}

/** The director's store: the queries, transactions, and closing. */
export class DirectorStore extends StoreOps {
  /** The PostgreSQL connection string (LISTEN needs a connection of its own); undefined on SQLite. */
  private pgUrl?: string;
  /** SQLite in WAL mode: commits are made durable by sync(), off the event loop. */
  private wal: WalSync | null = null;

  private constructor(readonly db: Kysely<DirectorDb>, readonly engine: 'sqlite' | 'postgres', readonly where: string) {
    super(db);
    this.leaseOps = new LeaseOps(db);
  }

  /** The partition leases' queries. */
  readonly leaseOps: LeaseOps;

  /** Open (creating a SQLite file if needed) and migrate to the latest schema; `url` is `sqlite:PATH` or `postgres://...`. */
  static async open(url: string): Promise<DirectorStore> {
    let store: DirectorStore;
    if (url.startsWith('sqlite:')) {
      const path = url.slice('sqlite:'.length);
      // Only the driver in use is loaded: pg is 13 MB of heap a SQLite director never needs, and the other way round.
      const { default: Database } = await import('better-sqlite3');
      const sqlite = new Database(path);
      // WAL: readers do not block the writer. A commit must be on disk before the PUBACK that follows it, or a power
      // cut could lose an acknowledged event. synchronous=FULL did that inside COMMIT, blocking the event loop for the
      // fsync; with NORMAL the WAL is fdatasynced after COMMIT on the thread pool instead (wal-sync.ts, sync()), and
      // the group commit acknowledges nothing before it. A database that cannot be in WAL mode (":memory:") keeps FULL.
      const wal = String(sqlite.pragma('journal_mode = WAL', { simple: true })).toLowerCase() === 'wal';
      sqlite.pragma(wal ? 'synchronous = NORMAL' : 'synchronous = FULL');
      sqlite.pragma('busy_timeout = 5000');
      store = new DirectorStore(new Kysely<DirectorDb>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }), 'sqlite', path);
      if (wal) store.wal = new WalSync(path);
    } else if (/^postgres(ql)?:\/\//.test(url)) {
      const { default: pg } = await import('pg');
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      // A restart of PostgreSQL ends the idle connections with an 'error' event, which would kill the process if no
      // one listened: the next query opens a new connection, or fails and the director waits for the database.
      pool.on('error', () => undefined);
      // The same for a connection in use (pg-pool listens only on idle ones): its query fails, which is what counts.
      pool.on('connect', (client) => client.on('error', () => undefined));
      store = new DirectorStore(new Kysely<DirectorDb>({ dialect: new PostgresDialect({ pool }) }), 'postgres', url.replace(/\/\/[^@/]*@/, '//'));
      store.pgUrl = url;
    } else {
      throw new Error(`store.url: "${url}" is not a store; use "sqlite:PATH" or "postgres://user@host:5432/database"`);
    }
    try {
      await store.migrate();
    } catch (e) {
      await store.close().catch(() => undefined);
      throw e;
    }
    return store;
  }

  /** Run the migrations not yet applied; throws with the failing migration's name. */
  async migrate(): Promise<string[]> {
    const migrator = new Migrator({ db: this.db, provider: migrationProvider });
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      throw new Error(`store: migration ${failed ?? '?'} failed: ${(error as Error).message ?? String(error)}`);
    }
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }

  /** The names of the migrations applied. */
  async applied(): Promise<string[]> {
    const migrator = new Migrator({ db: this.db, provider: migrationProvider });
    return (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
  }

  /**
   * Run `fn` in one transaction: everything it writes is committed together, or nothing is, and is on disk when the
   * promise resolves. `grouped` (a group commit's) gathers its results and assignments into one statement each
   * (GroupOps).
   */
  async transaction<T>(fn: (tx: StoreOps) => Promise<T>, grouped = false): Promise<T> {
    const out = await this.transactionUnsynced(fn, grouped);
    await this.sync();
    return out;
  }

  /** As transaction(), but on SQLite the commit may not yet be on disk: the caller calls sync() before it tells anyone. */
  async transactionUnsynced<T>(fn: (tx: StoreOps) => Promise<T>, grouped = false): Promise<T> {
    const trx = await this.db.startTransaction().execute();
    try {
      const ops = grouped ? new GroupOps(trx) : new StoreOps(trx);
      const out = await fn(ops);
      if (ops instanceof GroupOps) await ops.flush();
      await trx.commit().execute();
      return out;
    } catch (err) {
      // SQLite rolls back by itself on a full disk or an I/O error, and then ROLLBACK fails ("cannot rollback - no
      // transaction is active"): that must not hide the cause, which says what to fix.
      await trx.rollback().execute().catch(() => undefined);
      throw err;
    }
  }

  /** Whether a commit is on disk when it returns (PostgreSQL; SQLite not in WAL mode); else sync() makes it so. */
  get durableOnCommit(): boolean {
    return this.wal === null;
  }

  /** Every commit made so far is on disk when this resolves (SQLite's WAL fdatasynced off the event loop). */
  sync(): Promise<void> {
    return this.wal ? this.wal.sync() : Promise.resolve();
  }

  /** This database's id, made at its first use: the same after every restart, another for another database. */
  instanceId(): Promise<string> {
    return this.metaValue('instance', randomUUID);
  }

  /** A value kept in the database's meta table, made by `make` at its first use (the same after every restart). */
  async metaValue(key: string, make: () => string): Promise<string> {
    await this.db.insertInto('meta').values({ key, value: make() }).onConflict((oc) => oc.column('key').doNothing()).execute();
    const r = await this.db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return r.value;
  }

  /**
   * On PostgreSQL, call `fn(session, instance)` for each change another instance notifies (notifyChange), on a
   * connection of its own (LISTEN holds it), opened again a second after it is lost; null on SQLite. Returns the stop.
   */
  async listenChanges(fn: (session: string, instance: string) => void, onLost: (err: Error) => void): Promise<(() => Promise<void>) | null> {
    if (this.engine !== 'postgres' || !this.pgUrl) return null;
    const { default: pg } = await import('pg');
    let client: InstanceType<typeof pg.Client> | null = null;
    let stopped = false;
    let timer: NodeJS.Timeout | null = null;
    const open = async (): Promise<void> => {
      const c = new pg.Client({ connectionString: this.pgUrl });
      const lost = (err: Error) => {
        if (stopped || client !== c) return;
        client = null;
        onLost(err);
        void c.end().catch(() => undefined);
        timer = setTimeout(() => { void open().catch((e: Error) => lost(e)); }, 1000);
      };
      client = c;
      c.on('error', lost);
      c.on('end', () => lost(new Error('the LISTEN connection ended')));
      c.on('notification', (n) => {
        const [session, instance] = (n.payload ?? '').split('\t');
        if (n.channel === CHANGE_CHANNEL && session !== undefined && instance !== undefined) fn(session, instance);
      });
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
    };
    await open();
    return async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    };
  }

  /** A cheap round trip, to tell that the database answers. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
    await this.wal?.close();
  }
}
