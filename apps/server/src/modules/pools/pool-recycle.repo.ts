import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { customerDeals, customers } from '../../db/schema';

/**
 * The recycle rules as SQL over the customers (`c`) and their deal facts (`d`, customer_deals):
 * which private customers a rule covers and when each falls due. The sweep, the 即将回收 reminder and
 * the lists' 预计回收时间 all use these same expressions. Reads only: the sweep's writes go through
 * customers-for-pools. (Allowed exception: set-based reads of customers joined with pool facts.)
 */

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

/** The customers due under the rule at `at`, locked for the sweep (rows another transaction holds are skipped). */
export const lockDue = async (tx: DbOrTx, tenantId: number, r: RecycleRule, at: Date) =>
  (
    await queryRows<{ id: number }>(
      tx,
      sql`select c.id from ${customers} c left join ${customerDeals} d on d.customer_id = c.id
          where ${coveredBy(tenantId, r)} and ${dueAt(r)} <= ${at}
          for update of c skip locked`,
    )
  ).map((row) => Number(row.id));

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
