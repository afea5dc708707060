import type { PoolRules } from '@crm/contracts';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { discardReasons, poolEntries, pools } from '../../db/schema';
import { settingsCache } from '../../lib/settings-cache';
import { dictionaryRepo } from '../../lib/tenant-dictionary';

/** Moved to db/int-array (kept here for callers not yet moved). */
export { intArray };

// ---------- discard reasons: an ordered tenant dictionary (lib/tenant-dictionary) ----------

export const reasonTable = dictionaryRepo(discardReasons);

export const listReasons = reasonTable.list;
export const findReason = reasonTable.find;
export const insertReason = reasonTable.insert;
export const deleteReason = reasonTable.delete;

// ---------- pools ----------

export type PoolRecord = typeof pools.$inferSelect;

/** A company's pools in order (sortNum, id), kept by the settings cache: every customer list reads them. */
const poolsOfTenant = settingsCache('pools', (db: DbOrTx, tenantId: number) =>
  db.select().from(pools).where(eq(pools.tenantId, tenantId)).orderBy(asc(pools.sortNum), asc(pools.id)),
);

export const listPools = async (db: DbOrTx, tenantId: number, actionState?: number): Promise<readonly PoolRecord[]> => {
  const rows = await poolsOfTenant.get(db, tenantId);
  return actionState === undefined ? rows : rows.filter((p) => p.actionState === actionState);
};

export const findPool = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(pools)
    .where(and(eq(pools.tenantId, tenantId), eq(pools.id, id)))
    .limit(1);
  return rows[0];
};

export const findPools = (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(pools)
        .where(and(eq(pools.tenantId, tenantId), inArray(pools.id, ids)));

export const poolNameTaken = async (db: DbOrTx, tenantId: number, name: string, exceptId = 0) => {
  const rows = await db
    .select({ id: pools.id })
    .from(pools)
    .where(and(eq(pools.tenantId, tenantId), eq(pools.name, name), ne(pools.id, exceptId)))
    .limit(1);
  return rows.length > 0;
};

export type PoolValues = { name: string; dmType: number; useDepartmentIds: number[]; rules: PoolRules; sortNum: number };

export const insertPool = async (db: DbOrTx, row: PoolValues & { tenantId: number }) => {
  const [created] = await db.insert(pools).values(row).returning({ id: pools.id });
  poolsOfTenant.invalidate(row.tenantId);
  return created.id;
};

export const updatePool = async (db: DbOrTx, tenantId: number, id: number, values: PoolValues & { actionState: number }) => {
  await db
    .update(pools)
    .set(values)
    .where(and(eq(pools.tenantId, tenantId), eq(pools.id, id)));
  poolsOfTenant.invalidate(tenantId);
};

export const deletePool = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(pools).where(and(eq(pools.tenantId, tenantId), eq(pools.id, id)));
  poolsOfTenant.invalidate(tenantId);
};

/** Enabled pools a staff member of this department may use (empty useDepartmentIds = everyone). */
export const poolIdsForDepartment = async (db: DbOrTx, tenantId: number, departmentId: number | null) =>
  (await listPools(db, tenantId, 0))
    .filter((p) => p.useDepartmentIds.length === 0 || p.useDepartmentIds.includes(departmentId ?? 0))
    .map((p) => p.id);

// ---------- pool facts of listed customers ----------

export type EntryRow = {
  customer_id: number;
  pool_id: number;
  pool_name: string | null;
  reason_id: number;
  reason: string;
  pooled_at: Date | string;
  last_owner_id: number | null;
};

export const entriesOf = (db: DbOrTx, tenantId: number, customerIds: number[]) =>
  customerIds.length === 0
    ? Promise.resolve([])
    : queryRows<EntryRow>(
        db,
        sql`select e.customer_id, e.pool_id, p.name as pool_name, e.reason_id, e.reason, e.pooled_at, e.last_owner_id
            from ${poolEntries} e
            left join ${pools} p on p.id = e.pool_id
            where e.tenant_id = ${tenantId} and e.customer_id = any(${intArray(customerIds)})`,
      );
