// test/helpers/own-postgres.ts: a private PostgreSQL starts, answers, keeps its data over a restart, and stops.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type OwnPostgres, startOwnPostgres } from '../helpers/own-postgres.js';

describe('own PostgreSQL for a test', () => {
  let db: OwnPostgres | null = null;
  afterAll(async () => { await db?.stop('SIGKILL', true); });

  it('starts, answers a query, keeps committed data over restart(), and stops', async () => {
    db = await startOwnPostgres();
    const url = await db.createDb('own_pg_test');
    const a = new pg.Client({ connectionString: url });
    await a.connect();
    await a.query('CREATE TABLE t (seq int PRIMARY KEY)');
    await a.query('INSERT INTO t VALUES (1), (2)');
    await a.end();

    await db.restart();
    const b = new pg.Client({ connectionString: url });
    await b.connect();
    const r = await b.query<{ seq: number }>('SELECT seq FROM t ORDER BY seq');
    await b.end();
    expect(r.rows.map((x) => x.seq)).toEqual([1, 2]);

    await db.stop();
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => undefined);
    await expect(c.connect()).rejects.toThrow();
  }, 60_000);
});
