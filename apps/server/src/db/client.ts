import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** One type for both drivers: repos only see the PostgreSQL dialect. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A repo function accepts the database or a transaction. */
export type DbOrTx = Db | Tx;

export type Database = { db: Db; kind: 'pglite' | 'postgres'; close: () => Promise<void> };

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 7_231_001;

export type DbOptions = {
  databaseUrl: string;
  /** PGlite data directory; `memory://` for a throw-away database. */
  pgliteDir: string;
};

/** Opens the database (PGlite when no URL is set) and applies the committed migrations. */
export const openDatabase = async (opts: DbOptions): Promise<Database> => {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 20 });
    // An idle client dropped by the server (restart, admin termination, dropped test database)
    // must not crash the process: pg-pool re-emits it here, and the next checkout reconnects.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const client = await pool.connect();
    try {
      // Several instances may start together: one migrates, the others wait.
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  if (!opts.pgliteDir.startsWith('memory://')) fs.mkdirSync(path.dirname(opts.pgliteDir), { recursive: true });
  const client = new PGlite(opts.pgliteDir);
  const pdb = drizzlePglite(client, { schema });
  await migratePglite(pdb, { migrationsFolder });
  return { db: pdb as unknown as Db, kind: 'pglite', close: () => client.close() };
};

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export const queryRows = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
};
