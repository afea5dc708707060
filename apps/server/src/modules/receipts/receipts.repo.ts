import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { receiptPlans, receiptSettings, receipts } from '../../db/schema';
import { planOverdueSql } from './plan-overdue';

export type PlanRecord = typeof receiptPlans.$inferSelect;
export type ReceiptRecord = typeof receipts.$inferSelect;

/** Receipts that count as received: no approval needed (-1) or approved (1). */
const COUNTED = sql`(r.verify_status = -1 or r.verify_status = 1)`;
/** Receipts that hold a plan's amount: counted ones and those waiting for approval (0). */
const HELD = sql`r.verify_status in (-1, 0, 1)`;

// ---------- settings ----------

export const findSettings = async (db: DbOrTx, tenantId: number) =>
  (await db.select().from(receiptSettings).where(eq(receiptSettings.tenantId, tenantId)).limit(1))[0];

export const saveSettings = (db: DbOrTx, tenantId: number, remindDays: number, approvalTemplateId: number | null) =>
  db
    .insert(receiptSettings)
    .values({ tenantId, remindDays, approvalTemplateId, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: receiptSettings.tenantId,
      set: { remindDays, approvalTemplateId, updatedAt: new Date() },
    });

// ---------- plans ----------

export const insertPlan = async (tx: DbOrTx, row: typeof receiptPlans.$inferInsert) =>
  (await tx.insert(receiptPlans).values(row).returning({ id: receiptPlans.id }))[0].id;

export const findPlan = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(receiptPlans)
      .where(and(eq(receiptPlans.tenantId, tenantId), eq(receiptPlans.id, id)))
      .limit(1)
  )[0];

/** The plan row is the lock of its receipts: two receipts racing for its last amount run one after the other. */
export const lockPlan = async (tx: DbOrTx, tenantId: number, id: number) =>
  (
    await tx
      .select()
      .from(receiptPlans)
      .where(and(eq(receiptPlans.tenantId, tenantId), eq(receiptPlans.id, id)))
      .for('update')
  )[0];

export const updatePlan = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof receiptPlans.$inferInsert>) =>
  tx
    .update(receiptPlans)
    .set(set)
    .where(and(eq(receiptPlans.tenantId, tenantId), eq(receiptPlans.id, id)));

export const deletePlan = (tx: DbOrTx, tenantId: number, id: number) =>
  tx.delete(receiptPlans).where(and(eq(receiptPlans.tenantId, tenantId), eq(receiptPlans.id, id)));

/** Sum of an order's plans (without one being edited). */
export const plannedOfOrder = async (tx: DbOrTx, tenantId: number, orderId: number, exceptPlanId = 0) =>
  Number(
    (
      await queryRows<{ s: string }>(
        tx,
        sql`select coalesce(sum(amount), 0)::bigint as s from receipt_plans
            where tenant_id = ${tenantId} and order_id = ${orderId} and id <> ${exceptPlanId}`,
      )
    )[0].s,
  );

/** What a plan holds (counted and pending receipts), without one being edited; and how many receipts it has. */
export const heldOfPlan = async (tx: DbOrTx, tenantId: number, planId: number, exceptReceiptId = 0) => {
  const [row] = await queryRows<{ held: string; counted: string; n: number }>(
    tx,
    sql`select coalesce(sum(r.amount) filter (where ${HELD} and r.id <> ${exceptReceiptId}), 0)::bigint as held,
               coalesce(sum(r.amount) filter (where ${COUNTED}), 0)::bigint as counted,
               count(*)::int as n
        from receipts r where r.tenant_id = ${tenantId} and r.plan_id = ${planId}`,
  );
  return { held: Number(row.held), counted: Number(row.counted), count: row.n };
};

/**
 * Recomputes a plan's stored received sum from its counted receipts. Called under the plan's row lock
 * in the transaction of every change of what counts (receipt create/edit/delete, approval result).
 */
export const refreshRepaid = (tx: DbOrTx, tenantId: number, planId: number) =>
  tx.execute(
    sql`update receipt_plans p set repaid_amount = coalesce((select sum(r.amount) from receipts r
          where r.tenant_id = p.tenant_id and r.plan_id = p.id and ${COUNTED}), 0)
        where p.tenant_id = ${tenantId} and p.id = ${planId}`,
  );

// ---------- receipts ----------

export const insertReceipt = async (tx: DbOrTx, row: typeof receipts.$inferInsert) =>
  (await tx.insert(receipts).values(row).returning({ id: receipts.id }))[0].id;

export const findReceipt = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(receipts)
      .where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, id)))
      .limit(1)
  )[0];

export const lockReceipt = async (tx: DbOrTx, tenantId: number, id: number) =>
  (
    await tx
      .select()
      .from(receipts)
      .where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, id)))
      .for('update')
  )[0];

export const updateReceipt = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof receipts.$inferInsert>) =>
  tx
    .update(receipts)
    .set(set)
    .where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, id)));

export const deleteReceipt = (tx: DbOrTx, tenantId: number, id: number) =>
  tx.delete(receipts).where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, id)));

export const receiptsOfPlans = (db: DbOrTx, tenantId: number, planIds: number[]) =>
  planIds.length === 0
    ? Promise.resolve([] as ReceiptRecord[])
    : db
        .select()
        .from(receipts)
        .where(and(eq(receipts.tenantId, tenantId), sql`${receipts.planId} = any(${intArray(planIds)})`))
        .orderBy(receipts.repaymentAt, receipts.id);

// ---------- figures and reminders ----------

/** Workbench: received since `monthStart`, open plans due in the next 30 days, overdue open plans (owners in scope). */
export const receiptFigures = async (
  db: DbOrTx,
  tenantId: number,
  ownerIds: number[] | null,
  monthStart: string,
  today: string,
  in30: string,
) => {
  const scope = ownerIds ? sql`and p.owner_id = any(${intArray(ownerIds)})` : sql``;
  const rscope = ownerIds ? sql`and r.owner_id = any(${intArray(ownerIds)})` : sql``;
  const [row] = await queryRows<{ received: string; due: number; overdue: number }>(
    db,
    sql`with open as (
          select p.plan_at from receipt_plans p
          where p.tenant_id = ${tenantId} ${scope} and p.plan_at <= ${in30}::date
            and p.repaid_amount < p.amount
        )
        select (select coalesce(sum(r.amount), 0) from receipts r
                where r.tenant_id = ${tenantId} ${rscope} and ${COUNTED} and r.repayment_at >= ${monthStart}::date)::text as received,
               (select count(*) from open where not (${planOverdueSql(sql`plan_at`, today)}))::int as due,
               (select count(*) from open where ${planOverdueSql(sql`plan_at`, today)})::int as overdue`,
  );
  return { received: Number(row.received), due: row.due, overdue: row.overdue };
};

/**
 * Claims today's reminders across companies: open plans due within each company's lead days or
 * overdue, not reminded today. The update marks them in the same statement, so a plan is told at most
 * once a day however many times the job fires.
 */
export const claimDueReminders = (db: DbOrTx, today: string) =>
  queryRows<{
    id: number;
    tenant_id: number;
    owner_id: number;
    order_id: number;
    customer_id: number;
    amount: number;
    plan_at: string;
    repaid: string;
  }>(
    db,
    sql`with due as (
          select p.id, p.repaid_amount as repaid
          from receipt_plans p
          left join receipt_settings st on st.tenant_id = p.tenant_id
          where p.plan_at <= ${today}::date + coalesce(st.remind_days, 3)
            and (p.reminded_on is null or p.reminded_on < ${today}::date)
        )
        update receipt_plans p set reminded_on = ${today}::date
        from due where p.id = due.id and due.repaid < p.amount
          and (p.reminded_on is null or p.reminded_on < ${today}::date)
        returning p.id, p.tenant_id, p.owner_id, p.order_id, p.customer_id, p.amount,
                  to_char(p.plan_at, 'YYYY-MM-DD') as plan_at, due.repaid::text as repaid`,
  );
