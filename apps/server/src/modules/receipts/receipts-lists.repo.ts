import { PLAN_STATUS } from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { planOverdueSql } from './plan-overdue';
import type { ReceiptRecord } from './receipts.repo';

/**
 * The list reads of plans and receipts (回款管理's pages, the summary, the exports), one statement
 * each. They join the customer, owner and order names in the same statement: a page and its totals
 * stay one consistent read, and the summary's totals are window sums of its own rows.
 */

export type PlanFilter = {
  tenantId: number;
  /** owners in the caller's data scope (null = all) */
  ownerIds: number[] | null;
  orderId?: number;
  customerId?: number;
  staffId?: number;
  status?: number;
  planFrom?: string;
  planTo?: string;
  /** the business day YYYY-MM-DD (overdue is before it) */
  today: string;
};

export type PlanAgg = {
  id: number;
  order_id: number;
  customer_id: number;
  owner_id: number;
  amount: number;
  plan_at: string;
  remark: string;
  created_at: string;
  repaid: string;
  customer_name: string | null;
  owner_name: string | null;
  contact_phone: string | null;
  product_names: string | null;
  plan_total: string;
  repaid_total: string;
  total_rows: number;
};

/**
 * A derived status as a condition on the stored received sum and the date (planStatusOf in SQL). The
 * open ones repeat `repaid_amount < amount` so they walk the partial index of open plans.
 */
const planStatusCond = (status: number, today: string): SQL => {
  const overdue = planOverdueSql(sql`p.plan_at`, today);
  if (status === PLAN_STATUS.paid) return sql`p.repaid_amount >= p.amount`;
  if (status === PLAN_STATUS.overdue) return sql`p.repaid_amount < p.amount and ${overdue}`;
  if (status === PLAN_STATUS.partial) return sql`p.repaid_amount > 0 and p.repaid_amount < p.amount and not (${overdue})`;
  return sql`p.repaid_amount = 0 and p.repaid_amount < p.amount and not (${overdue})`;
};

const planWhere = (f: PlanFilter): SQL => {
  const conds: SQL[] = [sql`p.tenant_id = ${f.tenantId}`];
  if (f.ownerIds) conds.push(sql`p.owner_id = any(${intArray(f.ownerIds)})`);
  if (f.orderId) conds.push(sql`p.order_id = ${f.orderId}`);
  if (f.customerId) conds.push(sql`p.customer_id = ${f.customerId}`);
  if (f.staffId) conds.push(sql`p.owner_id = ${f.staffId}`);
  if (f.planFrom) conds.push(sql`p.plan_at >= ${f.planFrom}::date`);
  if (f.planTo) conds.push(sql`p.plan_at <= ${f.planTo}::date`);
  if (f.status !== undefined) conds.push(planStatusCond(f.status, f.today));
  return sql.join(conds, sql` and `);
};

/**
 * Plans of the filter with what each received, and (window sums) the totals of every matching plan:
 * the totals are the sum of the same rows, computed in the same statement.
 */
export const listPlans = (db: DbOrTx, f: PlanFilter, limit: number, offset: number) => {
  return queryRows<PlanAgg>(
    db,
    sql`with hit as (
          select p.id, p.order_id, p.customer_id, p.owner_id, p.amount, p.plan_at, p.remark, p.created_at,
                 p.repaid_amount as repaid
          from receipt_plans p where ${planWhere(f)}
        )
        select hit.id, hit.order_id, hit.customer_id, hit.owner_id, hit.amount, to_char(hit.plan_at, 'YYYY-MM-DD') as plan_at,
               hit.remark, hit.created_at::text as created_at, hit.repaid::text as repaid,
               c.name as customer_name, s.name as owner_name, o.contact_phone, o.product_names,
               (sum(hit.amount) over ())::text as plan_total, (sum(hit.repaid) over ())::text as repaid_total,
               (count(*) over ())::int as total_rows
        from hit
        left join customers c on c.id = hit.customer_id and c.tenant_id = ${f.tenantId}
        left join staff s on s.id = hit.owner_id and s.tenant_id = ${f.tenantId}
        left join orders o on o.id = hit.order_id and o.tenant_id = ${f.tenantId}
        order by hit.plan_at asc, hit.id asc
        limit ${limit} offset ${offset}`,
  );
};

/**
 * 回款管理's page: the page's plans first (walking the plan-date index, or the open-plan index for
 * a status), with their stored received sums, and the count on its own; no totals (lists show none).
 */
export const listPlansPage = async (db: DbOrTx, f: PlanFilter, limit: number, offset: number) => {
  const where = planWhere(f);
  const [rows, [{ n }]] = await Promise.all([
    queryRows<PlanAgg>(
      db,
      sql`with hit as (select * from receipt_plans p where ${where} order by p.plan_at asc, p.id asc limit ${limit} offset ${offset})
          select hit.id, hit.order_id, hit.customer_id, hit.owner_id, hit.amount, to_char(hit.plan_at, 'YYYY-MM-DD') as plan_at,
                 hit.remark, hit.created_at::text as created_at,
                 hit.repaid_amount::text as repaid,
                 c.name as customer_name, s.name as owner_name, o.contact_phone, o.product_names,
                 '0' as plan_total, '0' as repaid_total, 0 as total_rows
          from hit
          left join customers c on c.id = hit.customer_id and c.tenant_id = ${f.tenantId}
          left join staff s on s.id = hit.owner_id and s.tenant_id = ${f.tenantId}
          left join orders o on o.id = hit.order_id and o.tenant_id = ${f.tenantId}
          order by hit.plan_at asc, hit.id asc`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from receipt_plans p where ${where}`),
  ]);
  return { rows, count: n };
};

export type ReceiptFilter = {
  tenantId: number;
  ownerIds: number[] | null;
  orderId?: number;
  customerId?: number;
  staffId?: number;
  payType?: number;
  from?: string;
  to?: string;
};

export type ReceiptAgg = ReceiptRecord & { customerName: string | null; ownerName: string | null; planAt: string | null };

export const listReceipts = async (db: DbOrTx, f: ReceiptFilter, limit: number, offset: number) => {
  const conds: SQL[] = [sql`r.tenant_id = ${f.tenantId}`];
  if (f.ownerIds) conds.push(sql`r.owner_id = any(${intArray(f.ownerIds)})`);
  if (f.orderId) conds.push(sql`r.order_id = ${f.orderId}`);
  if (f.customerId) conds.push(sql`r.customer_id = ${f.customerId}`);
  if (f.staffId) conds.push(sql`r.owner_id = ${f.staffId}`);
  if (f.payType) conds.push(sql`r.pay_type = ${f.payType}`);
  if (f.from) conds.push(sql`r.repayment_at >= ${f.from}::date`);
  if (f.to) conds.push(sql`r.repayment_at <= ${f.to}::date`);
  return queryRows<{
    id: number;
    order_id: number;
    plan_id: number;
    customer_id: number;
    amount: number;
    repayment_at: string;
    pay_type: number;
    remark: string;
    verify_status: number;
    instance_id: number | null;
    created_at: string;
    customer_name: string | null;
    owner_name: string | null;
    plan_at: string | null;
    total_rows: number;
  }>(
    db,
    sql`with page as (select * from receipts r where ${sql.join(conds, sql` and `)}
                      order by r.created_at desc, r.id desc limit ${limit} offset ${offset})
        select r.id, r.order_id, r.plan_id, r.customer_id, r.amount, to_char(r.repayment_at, 'YYYY-MM-DD') as repayment_at,
               r.pay_type, r.remark, r.verify_status, r.instance_id, r.created_at::text as created_at,
               c.name as customer_name, s.name as owner_name, to_char(p.plan_at, 'YYYY-MM-DD') as plan_at,
               (select count(*) from receipts r where ${sql.join(conds, sql` and `)})::int as total_rows
        from page r
        left join customers c on c.id = r.customer_id and c.tenant_id = ${f.tenantId}
        left join staff s on s.id = r.owner_id and s.tenant_id = ${f.tenantId}
        left join receipt_plans p on p.id = r.plan_id and p.tenant_id = ${f.tenantId}
        order by r.created_at desc, r.id desc`,
  );
};
