import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../db/client';

/**
 * A change log of companies' rows, for guard rails that must prove a request left another company's
 * data alone. Each audited table gets an AFTER row trigger that writes (table, tenant) to
 * `row_changes.log` when a row is inserted, deleted or updated to different values. Asking "did
 * company B change since mark M" is then one indexed query, where comparing a snapshot of every
 * table's rows cost seconds per request on PGlite. The log lives in its own schema, so catalogue
 * reads of `public` tables with a tenant_id do not see it.
 */

export type RowChanges = {
  /** the newest log id: changes after it are what comes next */
  mark: () => Promise<number>;
  /** tables where rows of the tenant changed after the mark */
  changedSince: (tenantId: number, mark: number) => Promise<string[]>;
};

const q = (name: string) => sql.identifier(name);

/**
 * Installs the triggers. `tables` maps each table to the column that names its company
 * (`tenant_id`, or `id` for the tenants table itself).
 */
export const trackRowChanges = async (db: DbOrTx, tables: Record<string, string>): Promise<RowChanges> => {
  await db.execute(sql`create schema if not exists row_changes`);
  await db.execute(sql`create table if not exists row_changes.log (id bigserial primary key, tbl text not null, tenant bigint)`);
  await db.execute(sql`create index if not exists log_tenant on row_changes.log (tenant, id)`);
  await db.execute(
    sql.raw(`create or replace function row_changes.note() returns trigger language plpgsql as $fn$
declare col text := TG_ARGV[0];
begin
  if TG_OP = 'INSERT' then
    insert into row_changes.log (tbl, tenant) values (TG_TABLE_NAME, (to_jsonb(NEW) ->> col)::bigint);
  elsif TG_OP = 'DELETE' then
    insert into row_changes.log (tbl, tenant) values (TG_TABLE_NAME, (to_jsonb(OLD) ->> col)::bigint);
  elsif to_jsonb(OLD) is distinct from to_jsonb(NEW) then
    insert into row_changes.log (tbl, tenant) values (TG_TABLE_NAME, (to_jsonb(OLD) ->> col)::bigint);
    if (to_jsonb(NEW) ->> col) is distinct from (to_jsonb(OLD) ->> col) then
      insert into row_changes.log (tbl, tenant) values (TG_TABLE_NAME, (to_jsonb(NEW) ->> col)::bigint);
    end if;
  end if;
  return null;
end $fn$`),
  );
  for (const [table, column] of Object.entries(tables)) {
    const trigger = q(`row_changes_${table}`);
    await db.execute(sql`drop trigger if exists ${trigger} on ${q(table)}`);
    await db.execute(
      sql`create trigger ${trigger} after insert or update or delete on ${q(table)} for each row execute function row_changes.note(${sql.raw(`'${column.replace(/'/g, '')}'`)})`,
    );
  }
  return {
    mark: async () =>
      Number((await queryRows<{ id: string | null }>(db, sql`select max(id)::text as id from row_changes.log`))[0]?.id ?? 0),
    changedSince: async (tenantId, mark) =>
      (
        await queryRows<{ tbl: string }>(
          db,
          sql`select distinct tbl from row_changes.log where tenant = ${tenantId} and id > ${mark} order by tbl`,
        )
      ).map((r) => r.tbl),
  };
};
