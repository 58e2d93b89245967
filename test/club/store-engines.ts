// Test helper: the director's store on both engines. SQLite in a scratch folder; PostgreSQL 15 on 127.0.0.1:5432
// (user postgres, trust) in a database made for this run and dropped after it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A store URL on one engine, and its removal. */
export interface EngineDb { url: string; drop(): Promise<void> }

/** A fresh empty database on the engine. */
export async function freshDb(engine: 'sqlite' | 'postgres'): Promise<EngineDb> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tenace-director-store-'));
    return { url: `sqlite:${join(dir, 'club.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `tenace_director_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export const ENGINES = ['sqlite', 'postgres'] as const;
