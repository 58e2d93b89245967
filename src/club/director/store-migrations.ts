// The director store's schema: versioned migrations, applied at start (store.ts). Append a new one; never edit one
// that has shipped.
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';

/** The migrations, oldest first. Append a new one; never edit one that has shipped. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('events')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('table_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull()).addColumn('json', 'text', (c) => c.notNull())
        .addColumn('received', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('events_pk', ['session', 'table_id', 'seq']).execute();
      await db.schema.createTable('table_state')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('table_id', 'text', (c) => c.notNull())
        .addColumn('first_seq', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('table_state_pk', ['session', 'table_id']).execute();
      await db.schema.createTable('trays')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('board', 'integer', (c) => c.notNull())
        .addColumn('rev', 'integer', (c) => c.notNull()).addColumn('json', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull()).addColumn('at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('trays_pk', ['session', 'board', 'rev']).execute();
      await db.schema.createTable('results')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('board', 'integer', (c) => c.notNull())
        .addColumn('table_id', 'text', (c) => c.notNull()).addColumn('round', 'integer')
        .addColumn('ns', 'text', (c) => c.notNull()).addColumn('ew', 'text', (c) => c.notNull())
        .addColumn('json', 'text', (c) => c.notNull())
        .addColumn('from_seq', 'integer', (c) => c.notNull()).addColumn('to_seq', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('results_pk', ['session', 'board', 'table_id']).execute();
      await db.schema.createTable('alerts')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull()).addColumn('json', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('alerts_pk', ['session', 'id']).execute();
      await db.schema.createTable('decisions')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('transaction_id', 'text', (c) => c.notNull())
        .addColumn('cmd', 'text', (c) => c.notNull()).addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull()).addColumn('response', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('decisions_pk', ['session', 'transaction_id']).execute();
      await db.schema.createTable('assignments')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('table_id', 'text', (c) => c.notNull())
        .addColumn('round', 'integer', (c) => c.notNull()).addColumn('json', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('assignments_pk', ['session', 'table_id', 'round']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['assignments', 'decisions', 'alerts', 'results', 'trays', 'table_state', 'events']) await db.schema.dropTable(t).execute();
    },
  },
  // The store's own identity: the director's MQTT session is named after it, so a new database never inherits the
  // broker's queue of another database's director.
  '0002-meta': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('meta').addColumn('key', 'text', (c) => c.primaryKey()).addColumn('value', 'text', (c) => c.notNull()).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('meta').execute();
    },
  },
  // Several director instances on one database (docs/championship.md): each says it is alive, and holds leases on
  // partitions of the tables. Times are milliseconds since the epoch on the instances' own clocks (NTP-synchronised;
  // a lease lasts seconds, so milliseconds of skew do not matter).
  '0003-cluster': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('instances')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('instance', 'text', (c) => c.notNull())
        .addColumn('seen_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('instances_pk', ['session', 'instance']).execute();
      await db.schema.createTable('leases')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('part', 'integer', (c) => c.notNull())
        .addColumn('holder', 'text').addColumn('expires_ms', 'bigint', (c) => c.notNull())
        .addColumn('epoch', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('leases_pk', ['session', 'part']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('leases').execute();
      await db.schema.dropTable('instances').execute();
    },
  },
  // A table may play a tray in two rounds (a Howell of 4 or 6 pairs, six-pairs): a result is keyed by its round too.
  '0004-result-round': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('results_by_round')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('board', 'integer', (c) => c.notNull())
        .addColumn('table_id', 'text', (c) => c.notNull()).addColumn('round', 'integer', (c) => c.notNull())
        .addColumn('ns', 'text', (c) => c.notNull()).addColumn('ew', 'text', (c) => c.notNull())
        .addColumn('json', 'text', (c) => c.notNull())
        .addColumn('from_seq', 'integer', (c) => c.notNull()).addColumn('to_seq', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('results_by_round_pk', ['session', 'board', 'table_id', 'round']).execute();
      await sql`insert into results_by_round (session, board, table_id, round, ns, ew, json, from_seq, to_seq)
        select session, board, table_id, coalesce(round, 0), ns, ew, json, from_seq, to_seq from results`.execute(db);
      await db.schema.dropTable('results').execute();
      await db.schema.alterTable('results_by_round').renameTo('results').execute();
    },
    async down(db: Kysely<unknown>) {
      // The old key cannot hold two plays of a tray at one table: keep the later of each.
      await db.schema.createTable('results_one')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('board', 'integer', (c) => c.notNull())
        .addColumn('table_id', 'text', (c) => c.notNull()).addColumn('round', 'integer')
        .addColumn('ns', 'text', (c) => c.notNull()).addColumn('ew', 'text', (c) => c.notNull())
        .addColumn('json', 'text', (c) => c.notNull())
        .addColumn('from_seq', 'integer', (c) => c.notNull()).addColumn('to_seq', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('results_pk', ['session', 'board', 'table_id']).execute();
      await sql`insert into results_one (session, board, table_id, round, ns, ew, json, from_seq, to_seq)
        select session, board, table_id, nullif(round, 0), ns, ew, json, from_seq, to_seq from results r
        where round = (select max(round) from results q where q.session = r.session and q.board = r.board and q.table_id = r.table_id)`.execute(db);
      await db.schema.dropTable('results').execute();
      await db.schema.alterTable('results_one').renameTo('results').execute();
    },
  },
  // The club's players list (grown as the director enters names) and who plays in each pair of a session: the
  // director's console (src/club/director/players.ts). The console's password is a row of meta.
  '0005-console-players': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('players')
        .addColumn('id', 'text', (c) => c.primaryKey()).addColumn('name', 'text', (c) => c.notNull())
        .addColumn('member_number', 'text').execute();
      await db.schema.createTable('pair_players')
        .addColumn('session', 'text', (c) => c.notNull()).addColumn('pair', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull()).addColumn('player_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('pair_players_pk', ['session', 'pair', 'position']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('pair_players').execute();
      await db.schema.dropTable('players').execute();
    },
  },
};

/** The in-code migration provider (no migration files to ship or find at run time). */
export const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };
