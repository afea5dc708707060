import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { registerSettingsRoot } from '../lib/settings-cache';
import { SERVER_ROOT } from '../server-root';
import { NamingClient } from './named-statements';
import * as schema from './schema';

export type Schema = typeof schema;
/** One type for both drivers: repos only see the PostgreSQL dialect. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A repo function accepts the database or a transaction. */
export type DbOrTx = Db | Tx;

/**
 * Raw SQL on the same connection(s) as `db`, for libraries that bring their own SQL (the job
 * queue). Without `values` the text may hold several statements (simple protocol on both drivers).
 */
export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  sql: SqlExecutor;
  close: () => Promise<void>;
  /** PostgreSQL only: the pool's connections now (GET /metrics) */
  pool?: () => { total: number; idle: number; waiting: number };
  /** PGlite only: the whole database as a tarball (tests start their fresh databases from one). */
  dump?: () => Promise<Blob>;
};

export const migrationsFolder = path.join(SERVER_ROOT, 'src/db/migrations');
const MIGRATION_LOCK = 7_231_001;

export type DbOptions = {
  databaseUrl: string;
  /** PGlite data directory; `memory://` for a throw-away database. */
  pgliteDir: string;
  /** PGlite: start from this tarball of a database (a `dump`), then apply what migrations it lacks. */
  pgliteImage?: Blob;
};

/**
 * Settings of each of the app's PostgreSQL sessions. No parallel workers: the app's statements are
 * short, many run at once, and starting workers costs more than it saves on a small server. On these
 * 2 cores a count over 25,714 of 100,000 orders took 71–95 ms with 2 workers against 26 ms without
 * (bench/README.md). An `options` parameter in DATABASE_URL replaces these.
 */
const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0';

/** Opens the database (PGlite when no URL is set) and applies the committed migrations. */
export const openDatabase = async (opts: DbOptions): Promise<Database> => {
  if (opts.databaseUrl) {
    // NamingClient: each parameterised statement is parsed once per connection (named-statements.ts)
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      options: SESSION_OPTIONS,
      max: 20,
      Client: NamingClient,
    });
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
    const exec: SqlExecutor = async (text, values) => {
      if (values && values.length > 0) return pool.query(text, values);
      // A failed `BEGIN; …; COMMIT;` text leaves its session in an aborted transaction: end it
      // before the connection goes back to the pool.
      const c = await pool.connect();
      try {
        return await c.query(text);
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        c.release();
      }
    };
    const poolFigures = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    const forget = registerSettingsRoot(db);
    const close = () => {
      forget();
      return pool.end();
    };
    return { db, kind: 'postgres', sql: exec, close, pool: poolFigures };
  }
  if (!opts.pgliteDir.startsWith('memory://')) fs.mkdirSync(path.dirname(opts.pgliteDir), { recursive: true });
  // btree_gin: the customers' GIN index holds the owner next to the name and values (migration 0034)
  const client = new PGlite(opts.pgliteDir, {
    extensions: { btree_gin },
    ...(opts.pgliteImage ? { loadDataDir: opts.pgliteImage } : {}),
  });
  const pdb = drizzlePglite(client, { schema });
  await migratePglite(pdb, { migrationsFolder });
  // PGlite has one session, shared by every query in turn. A multi-statement text (the queue's
  // `BEGIN; advisory lock; …; COMMIT;`) runs inside PGlite's exclusive transaction: nothing else
  // runs in between, and a failure rolls back there instead of leaving the session aborted.
  const exec: SqlExecutor = async (text, values) => {
    if (values && values.length > 0) return client.query<Record<string, unknown>>(text, values);
    const results = await client.transaction((tx) => tx.exec(text));
    return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
  };
  const forget = registerSettingsRoot(pdb);
  return {
    db: pdb as unknown as Db,
    kind: 'pglite',
    sql: exec,
    close: () => {
      forget();
      return client.close();
    },
    // uncompressed: only tests copy databases this way, and gunzip cost every test file's copy CPU time
    dump: () => client.dumpDataDir('none'),
  };
};

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export const queryRows = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
};
