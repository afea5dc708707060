import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { customerPhones, customers } from '../../db/schema';
import { type Viewer, visibleSql } from './customer-access';

// What a new call task reads of customers (issue 24: calltasks reaches customers through this file,
// not their tables): the customers it may take, their first numbers, the customers of numbers.

/** `ids` as one SQL int[] parameter (for `= any(...)`). */
const intArray = (ids: readonly number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;

/** The first number of each customer (its template phone controls, in order). */
export const firstPhones = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  new Map(
    (
      await queryRows<{ customer_id: number; phone: string }>(
        db,
        sql`select distinct on (customer_id) customer_id, phone from ${customerPhones}
            where tenant_id = ${tenantId} and customer_id = any(${intArray(ids)}) order by customer_id, id`,
      )
    ).map((r) => [Number(r.customer_id), r.phone]),
  );

/** How many of the ids are live customers of the company the viewer sees. */
export const countVisible = async (db: DbOrTx, v: Viewer, tenantId: number, ids: number[]) =>
  (
    await queryRows<{ id: number }>(
      db,
      sql`select c.id from ${customers} c where c.tenant_id = ${tenantId} and c.id = any(${intArray(ids)})
            and c.deleted_at is null and ${visibleSql(v).any}`,
    )
  ).length;

/** The first `limit` customer ids (by id) a list condition (customers-filters.ts buildListWhere) finds. */
export const idsWhere = async (db: DbOrTx, cond: SQL, limit: number) =>
  (await queryRows<{ id: number }>(db, sql`select c.id from ${customers} c where ${cond} order by c.id limit ${limit}`)).map(
    (r) => Number(r.id),
  );

/** Live customers of the company by number (the lowest id when several share one). */
export const customersByPhone = async (db: DbOrTx, tenantId: number, phones: string[]) => {
  const found = new Map<string, number>();
  for (let i = 0; i < phones.length; i += 5000) {
    const rows = await queryRows<{ phone: string; customer_id: number }>(
      db,
      sql`select distinct on (p.phone) p.phone, p.customer_id from ${customerPhones} p
          join ${customers} c on c.id = p.customer_id and c.deleted_at is null
          where p.tenant_id = ${tenantId} and p.phone = any(${`{${phones.slice(i, i + 5000).join(',')}}`}::text[])
          order by p.phone, p.customer_id`,
    );
    for (const r of rows) found.set(r.phone, Number(r.customer_id));
  }
  return found;
};
