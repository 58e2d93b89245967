// The SQLite store's prepared statements, kept. Kysely's SQLite driver prepares every query anew; the director runs
// the same few dozen (an event insert for each group size, a result, a tray record) thousands of times a session,
// and preparing them was a third of its store's time on the event loop (issue 18, club bench profile).
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct statements are kept: the group insert's sizes (1-200 rows) and the other queries fit. */
export const STATEMENT_CACHE_SIZE = 512;

interface Database extends SqliteDatabase {
  prepare(sql: string): SqliteStatement;
}

/** `db` with its prepared statements kept by SQL text, the least recently used dropped beyond `size`. */
export function withStatementCache(db: Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare: (sql) => {
      let stmt = cache.get(sql);
      if (stmt) cache.delete(sql);
      else {
        stmt = db.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}
