/** Copies every table of the embedded database (PGlite) into an empty PostgreSQL database. */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase, queryRows } from './client';

export const TARGET_NOT_EMPTY = '目标数据库已有数据，未写入任何内容：请指定一个新建的空数据库';

export type TableCount = { table: string; source: number; target: number };

export type MoveOptions = {
  /** the embedded database, opened (and migrated) by the caller */
  source: Database;
  targetUrl: string;
  /** rows per read and per insert (bounded memory) */
  batchSize?: number;
  log?: (line: string) => void;
};

export class MoveRefused extends Error {}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One statement, answering its rows (placeholders `$1`…). */
type Exec = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

/** `$1`, `$2`… placeholders of a text bound as drizzle parameters. */
const bound = (text: string, values: unknown[]) => {
  const parts = text.split(/\$(\d+)/);
  const chunks = [sql.raw(parts[0])];
  for (let i = 1; i < parts.length; i += 2) chunks.push(sql`${values[Number(parts[i]) - 1]}`, sql.raw(parts[i + 1]));
  return sql.join(chunks);
};

const execOf =
  (database: Database): Exec =>
  (text, values = []) =>
    queryRows(database.db, bound(text, values));

const execOfClient =
  (client: pg.Client): Exec =>
  async (text, values) =>
    (await client.query(text, values)).rows;

/** The app's tables (schema public), parents before children (foreign keys); self-references ignored. */
const tablesInForeignKeyOrder = async (exec: Exec): Promise<string[]> => {
  const tables = (
    await exec(`select table_name as name from information_schema.tables
                where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`)
  ).map((r) => String(r.name));
  const edges = await exec(
    `select c.relname as child, p.relname as parent from pg_constraint f
     join pg_class c on c.oid = f.conrelid join pg_class p on p.oid = f.confrelid
     join pg_namespace n on n.oid = f.connamespace where f.contype = 'f' and n.nspname = 'public'`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent) parents.get(String(e.child))?.add(String(e.parent));
  const order: string[] = [];
  const done = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (done.has(t) || path.has(t)) return;
    path.add(t);
    for (const p of parents.get(t) ?? []) visit(p, path);
    path.delete(t);
    done.add(t);
    order.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return order;
};

const regclass = (table: string) => `public.${ident(table)}`;

/** Columns a row can be given (generated columns are computed by the target). */
const insertableColumns = async (exec: Exec, table: string) =>
  (
    await exec(
      `select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0
       and not attisdropped and attgenerated = '' order by attnum`,
      [regclass(table)],
    )
  ).map((r) => String(r.name));

const primaryKey = async (exec: Exec, table: string) =>
  (
    await exec(
      `select a.attname as name from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
       where i.indrelid = $1::regclass and i.indisprimary`,
      [regclass(table)],
    )
  ).map((r) => String(r.name));

const countRows = async (exec: Exec, table: string) => Number((await exec(`select count(*) as n from ${regclass(table)}`))[0].n);

/** The first of `tables` that holds a row, if any. */
const firstNonEmpty = async (exec: Exec, tables: string[]) => {
  for (const t of tables) if ((await exec(`select 1 from ${regclass(t)} limit 1`)).length > 0) return t;
  return undefined;
};

/** Copies one table in batches through a cursor; rows travel as JSON text so every type round-trips. */
const copyTable = async (source: Exec, target: Exec, table: string, batchSize: number) => {
  const list = (await insertableColumns(target, table)).map(ident).join(', ');
  const pk = await primaryKey(source, table);
  const orderBy = pk.length > 0 ? ` order by ${pk.map(ident).join(', ')}` : '';
  await source(
    `declare move_rows no scroll cursor for
     select row_to_json(t)::text as j from (select ${list} from ${regclass(table)}${orderBy}) t`,
  );
  let copied = 0;
  for (;;) {
    const rows = await source(`fetch ${batchSize} from move_rows`);
    if (rows.length === 0) break;
    await target(
      `insert into ${regclass(table)} (${list}) overriding system value
       select ${list} from json_populate_recordset(null::${regclass(table)}, $1::json)`,
      [`[${rows.map((r) => r.j).join(',')}]`],
    );
    copied += rows.length;
  }
  await source('close move_rows');
  return copied;
};

/** Sets every serial/identity sequence of the app's tables to its column's max (the next insert follows it). */
const resetSequences = async (target: Exec) => {
  const owned = await target(
    `select s.oid::regclass::text as seq, t.relname as tbl, a.attname as col
     from pg_class s join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i')
     join pg_class t on t.oid = d.refobjid join pg_namespace n on n.oid = t.relnamespace
     join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
     where s.relkind = 'S' and n.nspname = 'public'`,
  );
  for (const o of owned) {
    const col = ident(String(o.col));
    await target(
      `select setval($1::regclass, coalesce(max(${col}), 1), max(${col}) is not null) from ${regclass(String(o.tbl))}`,
      [o.seq],
    );
  }
  return owned.length;
};

/**
 * Migrates the target, refuses it when any of the app's tables holds a row, copies every table in
 * foreign-key order (one transaction on each side: a failure leaves the target empty), resets the
 * sequences, and answers the row counts of both sides (a mismatch throws).
 */
export const moveToPostgres = async (opts: MoveOptions): Promise<TableCount[]> => {
  const { source: database, targetUrl, batchSize = 1000, log = () => undefined } = opts;
  if (database.kind !== 'pglite') throw new MoveRefused('源数据库不是内置数据库 (PGlite)');
  // the same migrations as the app runs at start
  await (await openDatabase({ databaseUrl: targetUrl, pgliteDir: '' })).close();
  const client = new pg.Client({ connectionString: targetUrl });
  await client.connect();
  const source = execOf(database);
  const target = execOfClient(client);
  try {
    const tables = await tablesInForeignKeyOrder(source);
    const busy = await firstNonEmpty(target, tables);
    if (busy) throw new MoveRefused(`${TARGET_NOT_EMPTY}（表 ${busy} 非空）`);
    await source('begin isolation level repeatable read');
    await target('begin');
    try {
      for (const t of tables) log(`${t}: ${await copyTable(source, target, t, batchSize)}`);
      await resetSequences(target);
      await target('commit');
    } catch (err) {
      await target('rollback').catch(() => undefined);
      throw err;
    } finally {
      await source('commit');
    }
    const counts: TableCount[] = [];
    for (const t of tables) counts.push({ table: t, source: await countRows(source, t), target: await countRows(target, t) });
    const wrong = counts.filter((c) => c.source !== c.target);
    if (wrong.length > 0) throw new Error(`行数不一致: ${wrong.map((c) => `${c.table} ${c.source}≠${c.target}`).join(', ')}`);
    return counts;
  } finally {
    await client.end();
  }
};

/** The counts as a text table for the console. */
export const formatCounts = (counts: TableCount[]) => {
  const width = Math.max(5, ...counts.map((c) => c.table.length));
  const lines = [`${'表'.padEnd(width)}  源行数  目标行数`];
  for (const c of counts)
    lines.push(`${c.table.padEnd(width)}  ${String(c.source).padStart(6)}  ${String(c.target).padStart(8)}`);
  return lines.join('\n');
};
