// The SQLite store's statement cache (src/club/director/sqlite-statements.ts): a statement is prepared once and used
// again, the least recently used is dropped beyond the bound, and the store's queries give the same rows with it.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { withStatementCache } from '../../src/club/director/sqlite-statements.js';

describe('the SQLite statement cache', () => {
  it('prepares each SQL text once, keeps at most `size`, and drops the least recently used', () => {
    const raw = new Database(':memory:');
    const prepared: string[] = [];
    const counting = { close: () => raw.close(), prepare: (sql: string) => { prepared.push(sql); return raw.prepare(sql); } };
    const db = withStatementCache(counting, 2);
    db.prepare('create table t (x integer)').run([]);
    const insert = 'insert into t (x) values (?)';
    for (let i = 0; i < 5; i++) db.prepare(insert).run([i]);
    expect(db.prepare('select count(*) as n from t').all([])).toEqual([{ n: 5 }]);
    expect(prepared.filter((s) => s === insert)).toHaveLength(1);
    // The cache holds the insert and the count; a third statement drops the least recently used (the insert).
    db.prepare('select 1 as one').all([]);
    db.prepare(insert).run([5]);
    expect(prepared.filter((s) => s === insert)).toHaveLength(2);
    // A hit refreshes: the insert, older in the cache than the count but used since, stays when another comes.
    db.prepare('select count(*) as n from t').all([]);
    db.prepare(insert).run([6]);
    db.prepare('select 2 as two').all([]);
    db.prepare(insert).run([7]);
    expect(prepared.filter((s) => s === insert)).toHaveLength(2);
    expect(db.prepare('select count(*) as n from t').all([])).toEqual([{ n: 8 }]);
    db.close();
    expect(raw.open).toBe(false);
  });
});
