import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { customerDeals, customers, poolClaimCounts, poolEntries } from '../../db/schema';
import { intArray } from './pools.repo';

/**
 * Set-based moves of customers between owners and pools. Each statement moves the rows and keeps
 * the pool facts together, so 100,000 rows are one round trip; the follow history reacts to the
 * move's event (customers.pooled / customers.moved, lib/events).
 */

/** A customer that changed owner: its stage after the move and its history text (customers.moved). */
export type Moved = { id: number; stage_id: number | null; remark: string };
/** A customer that went into a pool, with its stage (the follow-up history reacts: customers.pooled). */
export type Pooled = { id: number; stage_id: number | null };

/** followdown: private customers (owned by someone in `ownerScope`, null = anyone) go into a pool. */
export const discardToPool = async (
  tx: DbOrTx,
  p: {
    tenantId: number;
    ids: number[];
    ownerScope: number[] | null;
    poolId: number;
    reasonId: number;
    reason: string;
    staffId: number;
    at: Date;
  },
) =>
  queryRows<Pooled>(
    tx,
    sql`with old as (
          select c.id, c.owner_id, c.stage_id from ${customers} c
          where c.tenant_id = ${p.tenantId} and c.id = any(${intArray(p.ids)}) and c.owner_id is not null and c.deleted_at is null
            ${p.ownerScope === null ? sql`` : sql`and c.owner_id = any(${intArray(p.ownerScope)})`}
          for update
        ), moved as (
          update ${customers} c set owner_id = null, owner_department_id = null, pool_id = ${p.poolId},
            next_follow_at = null, updated_at = ${p.at}
          from old where c.id = old.id
          returning c.id, old.owner_id, old.stage_id
        ), entries as (
          insert into ${poolEntries} (customer_id, tenant_id, pool_id, reason_id, reason, discarded_by, last_owner_id, pooled_at)
          select id, ${p.tenantId}, ${p.poolId}, ${p.reasonId}, ${p.reason}, ${p.staffId}, owner_id, ${p.at} from moved
          on conflict (customer_id) do update set pool_id = excluded.pool_id, reason_id = excluded.reason_id,
            reason = excluded.reason, discarded_by = excluded.discarded_by, last_owner_id = excluded.last_owner_id,
            pooled_at = excluded.pooled_at
        )
        select id, stage_id from moved`,
  );

export type ClaimCandidate = { id: number; pool_id: number; last_owner_id: number | null; pooled_at: Date | string | null };

/** Pool customers among `ids` that sit in one of `poolIds` (null = any pool). */
export const claimCandidates = (tx: DbOrTx, tenantId: number, ids: number[], poolIds: number[] | null) =>
  queryRows<ClaimCandidate>(
    tx,
    sql`select c.id, c.pool_id, e.last_owner_id, e.pooled_at
        from ${customers} c left join ${poolEntries} e on e.customer_id = c.id
        where c.tenant_id = ${tenantId} and c.id = any(${intArray(ids)}) and c.owner_id is null
          and c.pool_id is not null and c.deleted_at is null
          ${poolIds === null ? sql`` : sql`and c.pool_id = any(${intArray(poolIds)})`}
        order by c.id`,
  );

/** Today's claims of a staff member per pool. */
export const claimsToday = async (tx: DbOrTx, tenantId: number, staffId: number, day: string) => {
  const rows = await queryRows<{ pool_id: number; n: number }>(
    tx,
    sql`select pool_id, n from ${poolClaimCounts} where tenant_id = ${tenantId} and staff_id = ${staffId} and day = ${day}`,
  );
  return new Map(rows.map((r) => [Number(r.pool_id), Number(r.n)]));
};

export const addClaims = async (tx: DbOrTx, tenantId: number, staffId: number, day: string, perPool: Map<number, number>) => {
  for (const [poolId, n] of perPool) {
    await tx.execute(
      sql`insert into ${poolClaimCounts} (tenant_id, staff_id, pool_id, day, n) values (${tenantId}, ${staffId}, ${poolId}, ${day}, ${n})
          on conflict (tenant_id, staff_id, pool_id, day) do update set n = ${poolClaimCounts}.n + excluded.n`,
    );
  }
};

/**
 * Gives customers to a staff member: from a pool (claim, `onlyPooled`) or from anyone
 * (allocation). `owner_id is null` is re-checked on the locked row, so when two staff claim the
 * same customer at once the second update finds it taken and moves nothing.
 */
export const assignCustomers = (
  tx: DbOrTx,
  p: {
    tenantId: number;
    ids: number[];
    toStaffId: number;
    toDepartmentId: number | null;
    isStageReset: boolean;
    onlyPooled: boolean;
    /** history text of each customer, over `s` (previous owner, staff) and `pl` (previous pool) */
    remark: SQL;
    at: Date;
  },
) =>
  queryRows<Moved & { pool_id: number | null }>(
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
          from old where c.id = old.id ${p.onlyPooled ? sql`and c.owner_id is null` : sql``}
          returning c.id, c.stage_id, old.owner_id as old_owner_id, old.pool_id
        ), cleared as (
          delete from ${poolEntries} e using moved where e.customer_id = moved.id
        )
        select m.id, m.pool_id, m.stage_id, ${p.remark} as remark
        from moved m left join staff s on s.id = m.old_owner_id left join pools pl on pl.id = m.pool_id
        order by m.id`,
  );

/** How many live customers a staff member owns. */
export const countOwned = async (tx: DbOrTx, tenantId: number, staffId: number) => {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${customers} where tenant_id = ${tenantId} and owner_id = ${staffId} and deleted_at is null`,
  );
  return Number(rows[0]?.n ?? 0);
};

/**
 * One chunk of a batch allocation: the next `ranges` customers of `fromStaffId` (by id) go to
 * the receivers, receiver i taking rows [lo, hi) of the chunk.
 */
export const allotChunk = (
  tx: DbOrTx,
  p: {
    tenantId: number;
    fromStaffId: number;
    ranges: { staffId: number; departmentId: number | null; lo: number; hi: number }[];
    isStageReset: boolean;
    fromName: string;
    at: Date;
  },
) => {
  const size = p.ranges.reduce((max, r) => Math.max(max, r.hi), 0);
  const targets = sql.join(
    p.ranges.map((r) => sql`(${r.staffId}::int, ${r.departmentId}::int, ${r.lo}::int, ${r.hi}::int)`),
    sql`, `,
  );
  return queryRows<Moved & { owner_id: number }>(
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
          where c.id = n.id
          returning c.id, c.stage_id, c.owner_id
        )
        select m.id, m.stage_id, m.owner_id, '批量转移：' || ${p.fromName} || ' → ' || s.name as remark
        from moved m join staff s on s.id = m.owner_id
        order by m.id`,
  );
};

// ---------- recycling ----------

export type RecycleRule = {
  poolId: number;
  departmentIds: number[];
  noFollowDays: number;
  noDealDays: number;
  logic: 'and' | 'or';
  stageIds: number[];
  labelIds: number[];
};

/**
 * When a private customer falls due under a rule: days without a follow-up count from the
 * latest of follow-up, call, receipt and creation; days without a deal from the latest of
 * the last approved order (customer_deals, the Orders hook), receipt and creation.
 */
const dueAt = (r: RecycleRule): SQL => {
  const follow = sql`greatest(c.follow_at, c.last_contact_at, c.allot_at, c.created_at) + make_interval(days => ${r.noFollowDays})`;
  const deal = sql`greatest(d.last_deal_at, c.allot_at, c.created_at) + make_interval(days => ${r.noDealDays})`;
  if (r.noFollowDays > 0 && r.noDealDays > 0)
    return r.logic === 'and' ? sql`greatest(${follow}, ${deal})` : sql`least(${follow}, ${deal})`;
  return r.noFollowDays > 0 ? follow : deal;
};

/** Private customers the rule covers: owner's department may use the pool, stage/tag filters, no pending order. */
const coveredBy = (
  tenantId: number,
  r: RecycleRule,
): SQL => sql`c.tenant_id = ${tenantId} and c.owner_id is not null and c.deleted_at is null
  ${r.departmentIds.length > 0 ? sql`and c.owner_department_id = any(${intArray(r.departmentIds)})` : sql``}
  ${r.stageIds.length > 0 ? sql`and c.stage_id = any(${intArray(r.stageIds)})` : sql``}
  ${r.labelIds.length > 0 ? sql`and c.label_ids && ${intArray(r.labelIds)}` : sql``}
  and coalesce(d.pending_orders, 0) = 0`;

/** Moves every customer due under the rule into its pool (reason 系统回收); returns them. Idempotent. */
export const recycleDue = (tx: DbOrTx, tenantId: number, r: RecycleRule, at: Date, reason: string) =>
  queryRows<Pooled>(
    tx,
    sql`with due as (
          select c.id, c.owner_id, c.stage_id from ${customers} c left join ${customerDeals} d on d.customer_id = c.id
          where ${coveredBy(tenantId, r)} and ${dueAt(r)} <= ${at}
          for update of c skip locked
        ), moved as (
          update ${customers} c set owner_id = null, owner_department_id = null, pool_id = ${r.poolId},
            next_follow_at = null, updated_at = ${at}
          from due where c.id = due.id
          returning c.id, due.owner_id, due.stage_id
        ), entries as (
          insert into ${poolEntries} (customer_id, tenant_id, pool_id, reason_id, reason, discarded_by, last_owner_id, pooled_at)
          select id, ${tenantId}, ${r.poolId}, 0, ${reason}, null, owner_id, ${at} from moved
          on conflict (customer_id) do update set pool_id = excluded.pool_id, reason_id = 0, reason = excluded.reason,
            discarded_by = null, last_owner_id = excluded.last_owner_id, pooled_at = excluded.pooled_at
        )
        select id, stage_id from moved`,
  );

export type SoonRow = { id: number; name: string; due_at: Date | string; owner_id: number; pool_id: number };

/** Customers (of one owner, or all) that fall due under the rule before `until` (the reminder window). */
export const dueBefore = (tx: DbOrTx, tenantId: number, r: RecycleRule, until: Date, ownerId: number | null, limit: number) =>
  queryRows<SoonRow>(
    tx,
    sql`select c.id, c.name, ${dueAt(r)} as due_at, c.owner_id, ${r.poolId}::int as pool_id
        from ${customers} c left join ${customerDeals} d on d.customer_id = c.id
        where ${coveredBy(tenantId, r)} ${ownerId === null ? sql`` : sql`and c.owner_id = ${ownerId}`}
          and ${dueAt(r)} <= ${until}
        order by 3 limit ${limit}`,
  );

// ---------- expected recovery time (预计回收时间 on the private lists) ----------

/**
 * The earliest time any of the rules would take customer `c` back, null when none covers it:
 * the sweep's own coveredBy/dueAt per rule. Needs `c` (customers) and `d` (its customer_deals row).
 */
const earliestDue = (tenantId: number, rules: RecycleRule[]): SQL =>
  sql`least(${sql.join(
    rules.map((r) => sql`case when ${coveredBy(tenantId, r)} then ${dueAt(r)} end`),
    sql`, `,
  )})`;

/** 预计回收时间 of the given customers (one page of a list), one query. */
export const dueTimesOf = (tx: DbOrTx, tenantId: number, rules: RecycleRule[], ids: number[]) =>
  queryRows<{ id: number; due_at: Date | string | null }>(
    tx,
    sql`select c.id, ${earliestDue(tenantId, rules)} as due_at
        from ${customers} c left join ${customerDeals} d on d.customer_id = c.id
        where c.tenant_id = ${tenantId} and c.id = any(${intArray(ids)})`,
  );

/** The same time as an expression over a list query's `c` (the list filter on 预计回收时间). */
export const dueTimeOfListed = (tenantId: number, rules: RecycleRule[]): SQL =>
  sql`(select ${earliestDue(tenantId, rules)} from (select 1) as one left join ${customerDeals} d on d.customer_id = c.id)`;

/** Tenants that have at least one enabled pool with recycling on. */
export const tenantsWithRecycling = async (tx: DbOrTx) => {
  const rows = await queryRows<{ tenant_id: number }>(
    tx,
    sql`select distinct tenant_id from pools where action_state = 0 and (rules -> 'recycle' ->> 'isOn') = '1'`,
  );
  return rows.map((r) => Number(r.tenant_id));
};

// ---------- bulk delete ----------

/** delall: soft-deletes a scope of the company's customers (recoverable for 30 days). */
export const softDeleteScope = async (tx: DbOrTx, tenantId: number, scope: SQL, at: Date) => {
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

/** Purges up to `limit` customers deleted before `before` (every company) with their pool facts; phones cascade. */
export const purgeDeletedBefore = async (tx: DbOrTx, before: Date, limit: number) => {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`with gone as (
          delete from ${customers} c
          where c.id in (select id from ${customers} where deleted_at < ${before} order by id limit ${limit})
          returning c.id
        ), entries as (
          delete from ${poolEntries} e using gone where e.customer_id = gone.id
        ), deals as (
          delete from ${customerDeals} x using gone where x.customer_id = gone.id
        )
        select count(*)::int as n from gone`,
  );
  return Number(rows[0]?.n ?? 0);
};
