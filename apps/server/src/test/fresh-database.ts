import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, migrationsFolder, openDatabase } from '../db/client';

// A fresh, migrated database per test file. Creating one the plain way costs seconds (PGlite's
// initdb and 20-odd migrations in WebAssembly; on PostgreSQL the migrations and a DROP DATABASE
// that waits for a checkpoint), which was most of the API suite's time. So the migrated database is
// made once per set of migrations and copied: on PGlite from a tarball of it (`dump`) kept in the
// temp directory, on PostgreSQL with CREATE DATABASE … TEMPLATE. Both are keyed by the migration
// files (and PGlite's version), so a changed migration makes a new one.

/** A short hash of the migration files and the PGlite package. */
const imageKey = () => {
  const hash = createHash('sha256');
  // the package's exports hide its package.json: read it next to the entry's dist folder
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json')));
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(fs.readFileSync(file));
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
};

let image: Promise<Blob> | undefined;
/** The migrated PGlite database as a tarball; workers racing to make it each write their own file and rename it into place. */
const migratedImage = () => {
  image ??= (async () => {
    const file = path.join(os.tmpdir(), `crm-pglite-${imageKey()}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const database = await openDatabase({ databaseUrl: '', pgliteDir: 'memory://' });
    const blob = (await database.dump?.()) as Blob;
    await database.close();
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(partial, file);
    return blob;
  })();
  return image;
};

const TEMPLATE_LOCK = 7_231_002;
/** Test databases left by a process that was killed are dropped once this old. */
const STALE_MS = 3 * 3600_000;

const withAdmin = async <T>(databaseUrl: string, work: (c: pg.Client) => Promise<T>) => {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
};

const urlOf = (databaseUrl: string, name: string) => {
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

let template: Promise<string> | undefined;
/** The migrated template database on DATABASE_URL's server (made once, under a lock, by whichever worker comes first). */
const migratedTemplate = (databaseUrl: string) => {
  template ??= withAdmin(databaseUrl, async (admin) => {
    const name = `crm_tpl_${imageKey()}`;
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'crm\\_t%'`);
      const names = rows.map((r) => r.datname);
      if (!names.includes(name)) {
        // older templates (other migrations), and half-made ones
        for (const old of names.filter((n) => n.startsWith('crm_tpl_')))
          await admin.query(`drop database if exists ${old} with (force)`);
        const building = `${name}_building`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
        const database = await openDatabase({ databaseUrl: urlOf(databaseUrl, building), pgliteDir: '' });
        await database.close();
        await admin.query(`alter database ${building} rename to ${name}`);
      }
      // databases of test processes that died before dropping theirs (named crm_test_<ms>_…)
      for (const n of names) {
        const at = Number(/^crm_test_(\d+)_/.exec(n)?.[1] ?? Number.NaN);
        if (Date.now() - at > STALE_MS) await admin.query(`drop database if exists ${n} with (force)`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
    return name;
  });
  return template;
};

/** What every test database holds besides the migrations (the harness's demo companies). */
export type Seed = (database: Database) => Promise<void>;

/**
 * `make(seed)` once per seed in this worker process; every file the worker runs reuses it (like the
 * migrated template, on the first DATABASE_URL it was asked for: a run has one).
 */
const oncePerSeed = <T>(make: (seed: Seed, databaseUrl: string) => Promise<T>) => {
  const made = new Map<Seed, Promise<T>>();
  return (seed: Seed, databaseUrl = '') => {
    const known = made.get(seed);
    if (known) return known;
    const fresh = make(seed, databaseUrl);
    made.set(seed, fresh);
    return fresh;
  };
};

/** The migrated PGlite image with the seed applied. */
const seededImage = oncePerSeed(async (seed) => {
  const database = await openDatabase({ databaseUrl: '', pgliteDir: 'memory://', pgliteImage: await migratedImage() });
  await seed(database);
  const blob = (await database.dump?.()) as Blob;
  await database.close();
  return blob;
});

/**
 * The migrated template with the seed applied. Named like a test database (crm_test_<ms>_…) so
 * that a later run drops it once stale.
 */
const seededTemplate = oncePerSeed(async (seed, databaseUrl) => {
  const tpl = await migratedTemplate(databaseUrl);
  const name = `crm_test_${Date.now()}_seed_${randomBytes(4).toString('hex')}`;
  await withAdmin(databaseUrl, (admin) => admin.query(`create database ${name} template ${tpl}`));
  const database = await openDatabase({ databaseUrl: urlOf(databaseUrl, name), pgliteDir: '' });
  try {
    await seed(database);
  } finally {
    await database.close();
  }
  return name;
});

/**
 * A fresh database for one test file, a copy of one seeded once per worker process (the demo seed
 * costs about a second on PGlite, and a worker runs many files): in-memory PGlite, or a new
 * database on DATABASE_URL's server.
 */
export const freshDatabase = async (
  databaseUrl: string,
  seed: Seed,
): Promise<{ database: Database; drop: () => Promise<void> }> => {
  if (!databaseUrl) {
    const database = await openDatabase({ databaseUrl: '', pgliteDir: 'memory://', pgliteImage: await seededImage(seed) });
    return { database, drop: async () => undefined };
  }
  const tpl = await seededTemplate(seed, databaseUrl);
  const name = `crm_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withAdmin(databaseUrl, (admin) => admin.query(`create database ${name} template ${tpl}`));
  const database = await openDatabase({ databaseUrl: urlOf(databaseUrl, name), pgliteDir: '' });
  return {
    database,
    // DROP DATABASE waits for a checkpoint (seconds): it goes on while the next file starts; one
    // cut off by the end of the run is dropped by a later run once stale
    drop: async () => {
      void withAdmin(databaseUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`)).catch(() => undefined);
    },
  };
};
