import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { customerDeals, customers, poolEntries } from '../../db/schema';

/**
 * 回收站 reads (deleted customers within the caller's scope, with their owner's or pool's name) and
 * the pool facts of purged customers. (Allowed exception: the page reads customers joined with
 * staff and pool names in one statement; the writes go through customers-for-pools.)
 */

export type DeletedRow = {
  id: number;
  name: string;
  deleted_at: Date | string;
  owner_name: string | null;
  pool_name: string | null;
};

/** 回收站: a page of customers in `scope` deleted at or after `since`, newest first, and their count. */
export const deletedPage = async (
  tx: DbOrTx,
  p: { tenantId: number; scope: SQL; since: Date; name?: string; limit: number; offset: number },
) => {
  const where = sql`c.tenant_id = ${p.tenantId} and c.deleted_at >= ${p.since} and ${p.scope}
    ${p.name ? sql`and c.name ilike ${`%${p.name.replace(/[\\%_]/g, (x) => `\\${x}`)}%`}` : sql``}`;
  const [rows, counted] = await Promise.all([
    queryRows<DeletedRow>(
      tx,
      sql`select c.id, c.name, c.deleted_at, s.name as owner_name, pl.name as pool_name
          from ${customers} c left join staff s on s.id = c.owner_id left join pools pl on pl.id = c.pool_id
          where ${where} order by c.deleted_at desc, c.id desc limit ${p.limit} offset ${p.offset}`,
    ),
    queryRows<{ n: number }>(tx, sql`select count(*)::int as n from ${customers} c where ${where}`),
  ]);
  return { rows, count: Number(counted[0]?.n ?? 0) };
};

/** Deleted customers among `ids` within `scope`, with when they were deleted. */
export const deletedAmong = (tx: DbOrTx, tenantId: number, ids: number[], scope: SQL) =>
  queryRows<{ id: number; deleted_at: Date | string }>(
    tx,
    sql`select c.id, c.deleted_at from ${customers} c
        where c.tenant_id = ${tenantId} and c.id = any(${intArray(ids)}) and c.deleted_at is not null and ${scope}`,
  );

/** Purged customers (every company: the nightly sweep) lose their pool entries and deal facts. */
export const dropFactsOf = async (tx: DbOrTx, customerIds: readonly number[]) => {
  if (customerIds.length === 0) return;
  await tx.execute(sql`delete from ${poolEntries} where customer_id = any(${intArray(customerIds)})`);
  await tx.execute(sql`delete from ${customerDeals} where customer_id = any(${intArray(customerIds)})`);
};
