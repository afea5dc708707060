/**
 * The customer writes of the pools module (discard, claim, allot, batch transfer, recycling, bulk
 * delete, restore, purge): set-based statements over customers only, called inside the pool move's
 * own transaction; the pool facts (entries, claims, deals) are the pools module's own statements.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { customers } from '../../db/schema';
import * as repo from './customers.repo';

/** A customer that went into a pool: who owned it, its stage. */
export type Released = { id: number; owner_id: number; stage_id: number | null };

/**
 * Private customers among `ids` (live, owned; by someone in `ownerScope` when given) leave their
 * owner for pool `poolId`. Rows are locked first; returns those moved.
 */
export const releaseToPool = (
  tx: DbOrTx,
  p: { tenantId: number; ids: number[]; ownerScope: number[] | null; poolId: number; at: Date },
) =>
  queryRows<Released>(
    tx,
    sql`with old as (
          select c.id, c.owner_id, c.stage_id from ${customers} c
          where c.tenant_id = ${p.tenantId} and c.id = any(${intArray(p.ids)}) and c.owner_id is not null and c.deleted_at is null
            ${p.ownerScope === null ? sql`` : sql`and c.owner_id = any(${intArray(p.ownerScope)})`}
          for update
        )
        update ${customers} c set owner_id = null, owner_department_id = null, pool_id = ${p.poolId},
          next_follow_at = null, updated_at = ${p.at}
        from old where c.tenant_id = ${p.tenantId} and c.id = old.id
        returning c.id, old.owner_id, old.stage_id`,
  );

/** A customer that changed owner: its stage after the move, its previous owner and pool. */
export type Assigned = { id: number; stage_id: number | null; old_owner_id: number | null; pool_id: number | null };

/**
 * Gives customers to a staff member: from a pool (claim, `onlyPooled`) or from anyone
 * (allocation). `owner_id is null` is re-checked on the locked row, so when two staff claim the
 * same customer at once the second update finds it taken and moves nothing. By id.
 */
export const assignOwner = (
  tx: DbOrTx,
  p: {
    tenantId: number;
    ids: number[];
    toStaffId: number;
    toDepartmentId: number | null;
    isStageReset: boolean;
    onlyPooled: boolean;
    at: Date;
  },
) =>
  queryRows<Assigned>(
    tx,
    sql`with old as (
          select c.id, c.owner_id, c.pool_id from ${customers} c
          where c.tenant_id = ${p.tenantId} and c.id = any(${intArray(p.ids)}) and c.deleted_at is null
            ${p.onlyPooled ? sql`and c.owner_id is null and c.pool_id is not null` : sql``}
          for update
        ), moved as (
          update ${customers} c set owner_id = ${p.toStaffId}, owner_department_id = ${p.toDepartmentId}, pool_id = null,
            allot_at = ${p.at}, updated_at = ${p.at}
            ${p.isStageReset ? sql`, stage_id = null` : sql``}
          from old where c.tenant_id = ${p.tenantId} and c.id = old.id ${p.onlyPooled ? sql`and c.owner_id is null` : sql``}
          returning c.id, c.stage_id, old.owner_id as old_owner_id, old.pool_id
        )
        select id, stage_id, old_owner_id, pool_id from moved order by id`,
  );

/**
 * One chunk of a batch transfer: the next customers of `fromStaffId` (by id) go to the receivers,
 * receiver i taking rows [lo, hi) of the chunk. Returns each moved customer with its new owner, by id.
 */
export const transferChunk = (
  tx: DbOrTx,
  p: {
    tenantId: number;
    fromStaffId: number;
    ranges: { staffId: number; departmentId: number | null; lo: number; hi: number }[];
    isStageReset: boolean;
    at: Date;
  },
) => {
  const size = p.ranges.reduce((max, r) => Math.max(max, r.hi), 0);
  const targets = sql.join(
    p.ranges.map((r) => sql`(${r.staffId}::int, ${r.departmentId}::int, ${r.lo}::int, ${r.hi}::int)`),
    sql`, `,
  );
  return queryRows<{ id: number; stage_id: number | null; owner_id: number }>(
    tx,
    sql`with src as (
          select c.id from ${customers} c
          where c.tenant_id = ${p.tenantId} and c.owner_id = ${p.fromStaffId} and c.deleted_at is null
          order by c.id limit ${size} for update
        ), numbered as (
          select id, (row_number() over (order by id) - 1)::int as rn from src
        ), targets(staff_id, department_id, lo, hi) as (values ${targets}
        ), moved as (
          update ${customers} c set owner_id = t.staff_id, owner_department_id = t.department_id, allot_at = ${p.at},
            updated_at = ${p.at} ${p.isStageReset ? sql`, stage_id = null` : sql``}
          from numbered n join targets t on n.rn >= t.lo and n.rn < t.hi
          where c.tenant_id = ${p.tenantId} and c.id = n.id
          returning c.id, c.stage_id, c.owner_id
        )
        select id, stage_id, owner_id from moved order by id`,
  );
};

/** How many live customers a staff member owns. */
export const countOwnedBy = (db: DbOrTx, tenantId: number, staffId: number) => repo.countOwned(db, tenantId, staffId);

/** delall: soft-deletes the company's live customers in `scope` (a condition over `c`); returns how many. */
export const softDeleteWhere = async (tx: DbOrTx, tenantId: number, scope: SQL, at: Date) => {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`with gone as (
          update ${customers} c set deleted_at = ${at}, updated_at = ${at}
          where c.tenant_id = ${tenantId} and c.deleted_at is null and ${scope}
          returning 1
        ) select count(*)::int as n from gone`,
  );
  return Number(rows[0]?.n ?? 0);
};

/** Restores soft-deleted customers (deleted at or after `since`); pooled ones return to their pool. */
export const restoreDeleted = async (tx: DbOrTx, tenantId: number, ids: number[], since: Date, at: Date) => {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`with back as (
          update ${customers} c set deleted_at = null, updated_at = ${at}
          where c.tenant_id = ${tenantId} and c.id = any(${intArray(ids)}) and c.deleted_at >= ${since}
          returning 1
        ) select count(*)::int as n from back`,
  );
  return Number(rows[0]?.n ?? 0);
};

/**
 * Purges up to `limit` customers deleted before `before`, of every company (the nightly sweep, so
 * no tenant: it works across them); phones cascade. Returns the purged ids.
 */
export const purgeDeletedBefore = async (tx: DbOrTx, before: Date, limit: number) => {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`delete from ${customers} c
        where c.id in (select id from ${customers} where deleted_at < ${before} order by id limit ${limit})
        returning c.id`,
  );
  return rows.map((r) => Number(r.id));
};

/** Customers waiting in each pool of the company (live, no owner); pools without any are absent. */
export const pooledCounts = async (db: DbOrTx, tenantId: number): Promise<Map<number, number>> => {
  const rows = await queryRows<{ pool_id: number; n: number }>(
    db,
    sql`select c.pool_id, count(*)::int as n from ${customers} c
        where c.tenant_id = ${tenantId} and c.pool_id is not null and c.owner_id is null and c.deleted_at is null
        group by c.pool_id`,
  );
  return new Map(rows.map((r) => [Number(r.pool_id), Number(r.n)]));
};

/** Customers waiting in one pool (live, no owner): a pool that holds any cannot be deleted. */
export const countPooledIn = async (db: DbOrTx, tenantId: number, poolId: number) => {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${customers} c
        where c.tenant_id = ${tenantId} and c.pool_id = ${poolId} and c.owner_id is null and c.deleted_at is null`,
  );
  return Number(rows[0]?.n ?? 0);
};

/** Pool customers among `ids` (live, no owner) that sit in one of `poolIds` (null = any pool), by id. */
export const pooledAmong = (db: DbOrTx, tenantId: number, ids: number[], poolIds: number[] | null) =>
  queryRows<{ id: number; pool_id: number }>(
    db,
    sql`select c.id, c.pool_id from ${customers} c
        where c.tenant_id = ${tenantId} and c.id = any(${intArray(ids)}) and c.owner_id is null
          and c.pool_id is not null and c.deleted_at is null
          ${poolIds === null ? sql`` : sql`and c.pool_id = any(${intArray(poolIds)})`}
        order by c.id`,
  );

export type DeletedRow = { id: number; name: string; deleted_at: Date | string; owner_id: number | null; pool_id: number | null };

/** 回收站: a page of customers in `scope` deleted at or after `since`, newest first, and their count. */
export const deletedPage = async (
  db: DbOrTx,
  p: { tenantId: number; scope: SQL; since: Date; name?: string; limit: number; offset: number },
) => {
  const where = sql`c.tenant_id = ${p.tenantId} and c.deleted_at >= ${p.since} and ${p.scope}
    ${p.name ? sql`and c.name ilike ${`%${p.name.replace(/[\\%_]/g, (x) => `\\${x}`)}%`}` : sql``}`;
  const [rows, counted] = await Promise.all([
    queryRows<DeletedRow>(
      db,
      sql`select c.id, c.name, c.deleted_at, c.owner_id, c.pool_id from ${customers} c
          where ${where} order by c.deleted_at desc, c.id desc limit ${p.limit} offset ${p.offset}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${customers} c where ${where}`),
  ]);
  return { rows, count: Number(counted[0]?.n ?? 0) };
};

/** Deleted customers among `ids` within `scope`, with when they were deleted. */
export const deletedAmong = (db: DbOrTx, tenantId: number, ids: number[], scope: SQL) =>
  queryRows<{ id: number; deleted_at: Date | string }>(
    db,
    sql`select c.id, c.deleted_at from ${customers} c
        where c.tenant_id = ${tenantId} and c.id = any(${intArray(ids)}) and c.deleted_at is not null and ${scope}`,
  );

/** Live customers among `ids` not already owned by `toStaffId` and within `visible` (a condition over `c`), by id. */
export const allotableAmong = async (db: DbOrTx, tenantId: number, ids: number[], toStaffId: number, visible: SQL) =>
  (
    await queryRows<{ id: number }>(
      db,
      sql`select c.id from ${customers} c
          where c.tenant_id = ${tenantId} and c.id = any(${intArray(ids)}) and c.deleted_at is null
            and c.owner_id is distinct from ${toStaffId} and ${visible}
          order by c.id`,
    )
  ).map((r) => Number(r.id));
