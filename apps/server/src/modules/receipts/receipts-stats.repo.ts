import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';

/** 回款管理 figures: one statement per figure; money in 1/1000 yuan, summed as bigint. */

export type StatsFilter = {
  tenantId: number;
  /** owners in the caller's data scope (null = all) */
  ownerIds: number[] | null;
  staffId?: number;
};

const intArray = (ids: readonly number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;
/** Receipts that count as received: no approval needed (-1) or approved (1). */
const COUNTED = sql`(r.verify_status = -1 or r.verify_status = 1)`;

const ownerConds = (f: StatsFilter, alias: SQL): SQL[] => {
  const conds: SQL[] = [sql`${alias}.tenant_id = ${f.tenantId}`];
  if (f.ownerIds) conds.push(sql`${alias}.owner_id = any(${intArray(f.ownerIds)})`);
  if (f.staffId) conds.push(sql`${alias}.owner_id = ${f.staffId}`);
  return conds;
};

/** Counted receipts per month (YYYY-MM) of repayment_at in [from, toExclusive). */
export const receivedByMonth = (db: DbOrTx, f: StatsFilter, from: string, toExclusive: string) =>
  queryRows<{ month: string; amount: string }>(
    db,
    sql`select to_char(r.repayment_at, 'YYYY-MM') as month, sum(r.amount)::bigint::text as amount
        from receipts r
        where ${sql.join(ownerConds(f, sql`r`), sql` and `)} and ${COUNTED}
          and r.repayment_at >= ${from}::date and r.repayment_at < ${toExclusive}::date
        group by 1 order by 1`,
  );

/** Counted receipts per owner in [from, toExclusive): the top `top` owners, then the rest as staff 0. */
export const receivedByStaff = (db: DbOrTx, f: StatsFilter, from: string, toExclusive: string, top: number) =>
  queryRows<{ staff_id: number; name: string | null; amount: string }>(
    db,
    sql`with per as (
          select r.owner_id, sum(r.amount)::bigint as amount from receipts r
          where ${sql.join(ownerConds(f, sql`r`), sql` and `)} and ${COUNTED}
            and r.repayment_at >= ${from}::date and r.repayment_at < ${toExclusive}::date
          group by r.owner_id
        ), ranked as (
          select per.*, row_number() over (order by per.amount desc, per.owner_id) as rn from per
        )
        select case when rn <= ${top} then ranked.owner_id else 0 end as staff_id,
               max(s.name) filter (where rn <= ${top}) as name,
               sum(ranked.amount)::bigint::text as amount, min(rn) as rank
        from ranked left join staff s on s.id = ranked.owner_id and s.tenant_id = ${f.tenantId}
        group by 1 order by min(rn)`,
  );

/** Open plans (stored received sum < amount) due on each day of [today, last]: what they still expect, and how many. */
export const dueByDay = (db: DbOrTx, f: StatsFilter, today: string, last: string) =>
  queryRows<{ day: string; amount: string; count: number }>(
    db,
    sql`with open as (
          select p.plan_at, p.amount - p.repaid_amount as left_amount
          from receipt_plans p
          where ${sql.join(ownerConds(f, sql`p`), sql` and `)} and p.repaid_amount < p.amount
            and p.plan_at >= ${today}::date and p.plan_at <= ${last}::date
        )
        select to_char(plan_at, 'YYYY-MM-DD') as day, sum(left_amount)::bigint::text as amount, count(*)::int as count
        from open group by 1 order by 1`,
  );
