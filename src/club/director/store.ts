// The director's store: one schema and one set of queries (Kysely) on SQLite (better-sqlite3, the default) or
// PostgreSQL (pg, the championship's), migrated at start by the versioned migrations of store-migrations.ts.
//
// The events table is the truth: every table event the director has received, keyed by (session, table, seq), so a
// redelivery inserts nothing. What the director derives from them (travellers, tray records, alerts) is stored in the
// same transaction as the event that produced it, keyed so that deriving it again after a restart changes nothing.
// The schema and queries are in store-ops.ts, a group commit's in store-group.ts.
import { randomUUID } from 'node:crypto';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { migrationProvider } from './store-migrations.js';
import { CHANGE_CHANNEL, type ChangeNote, type DirectorDb, EVENTS_PER_STATEMENT, LeaseOps, StoreOps, type StoredEvent, parseChangePayload } from './store-ops.js';
import { GroupOps, NotGathered } from './store-group.js';
import { WalSync } from './wal-sync.js';
import { withStatementCache } from './sqlite-statements.js';

export { MIGRATIONS, migrationProvider } from './store-migrations.js';
// The queries and types the director's modules read through store.ts; num and chunks stay the store's own.
export {
  CHANGE_CHANNEL, type ChangeNote, type DirectorDb, type LeaseRow, LeaseOps, type StoredDecision, type StoredEvent, type StoredResult,
  StoreOps, changePayload, parseChangePayload, storeFault,
} from './store-ops.js';
export { GroupOps } from './store-group.js';

/** The director's store: the queries, transactions, and closing. */
export class DirectorStore extends StoreOps {
  /** The PostgreSQL connection string (LISTEN needs a connection of its own); undefined on SQLite. */
  private pgUrl?: string;
  /** SQLite in WAL mode: commits are made durable by sync(), off the event loop. */
  private wal: WalSync | null = null;

  private constructor(readonly db: Kysely<DirectorDb>, readonly engine: 'sqlite' | 'postgres', readonly where: string) {
    super(db, engine === 'postgres');
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
      const ops = grouped ? new GroupOps(trx, this.postgres) : new StoreOps(trx, this.postgres);
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

  /**
   * A group commit's writes (commit.ts), as transactionUnsynced(fn, true) would: on PostgreSQL, where they gather into
   * one statement (table events, results, assignments and the NOTIFY), that statement alone, atomic by itself, which
   * saves the BEGIN and COMMIT round trips (issue 18: a group with results took 40-130 ms at a championship's round
   * end, one group at a time per instance); else one transaction. `fn` may then run twice: it must only write.
   */
  async groupUnsynced(fn: (tx: StoreOps) => Promise<void>): Promise<void> {
    if (this.postgres) {
      const ops = new GroupOps(this.db, true);
      const gathered = await fn(ops.gatherOnly()).then(() => ops.oneStatement(), (err: unknown) => {
        if (err instanceof NotGathered) return false;
        throw err;
      });
      if (gathered) return ops.flush();
    }
    await this.transactionUnsynced(fn, true);
  }

  /**
   * Store table events and nothing else, as transactionUnsynced would: in one statement where they fit in one, which
   * is atomic by itself and saves the BEGIN and COMMIT round trips on PostgreSQL; else in one transaction.
   */
  async insertEventsUnsynced(session: string, rows: readonly StoredEvent[], received: string): Promise<void> {
    if (rows.length <= EVENTS_PER_STATEMENT) await this.insertEvents(session, rows, received);
    else await this.transactionUnsynced((tx) => tx.insertEvents(session, rows, received));
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
   * On PostgreSQL, call `fn(session, instance, note)` for each change another instance notifies (notifyChange), on a
   * connection of its own (LISTEN holds it), opened again a second after it is lost; `onOpen` each time it listens,
   * `onLost` each time it is lost. Null on SQLite. Returns the stop.
   */
  async listenChanges(fn: (session: string, instance: string, note?: ChangeNote) => void, onLost: (err: Error) => void, onOpen: () => void = () => undefined): Promise<(() => Promise<void>) | null> {
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
        const change = n.channel === CHANGE_CHANNEL ? parseChangePayload(n.payload ?? '') : null;
        if (change) fn(change.session, change.instance, change.note);
      });
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (!stopped && client === c) onOpen();
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
