import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A receipt plan (SPEC §3): an instalment expected on an order. Amount in 1/1000 yuan; its status
 * (未回款/部分回款/已回款/已逾期) is derived from what it received and the business clock, never stored.
 * The plan row is the lock receipts take, so two receipts never both take its last amount; under that
 * lock every change of what counts (a receipt created, edited, deleted, or its approval's result)
 * recomputes `repaid_amount`, the sum of its counted receipts, so lists filter status in SQL.
 */
export const receiptPlans = pgTable(
  'receipt_plans',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    orderId: integer('order_id').notNull(),
    customerId: integer('customer_id').notNull(),
    ownerId: integer('owner_id').notNull(),
    creatorId: integer('creator_id').notNull(),
    amount: integer('amount').notNull(),
    planAt: date('plan_at', { mode: 'string' }).notNull(),
    remark: text('remark').notNull().default(''),
    /** the sum of its counted receipts (approval-free or approved), kept under the plan's row lock */
    repaidAmount: integer('repaid_amount').notNull().default(0),
    /** the business day (YYYY-MM-DD) its owner was last reminded: at most once per plan per day */
    remindedOn: date('reminded_on', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('receipt_plans_order_idx').on(t.orderId, t.planAt),
    index('receipt_plans_customer_idx').on(t.tenantId, t.customerId, t.planAt),
    /** plans due in the next N days / overdue, per owner */
    index('receipt_plans_due_idx').on(t.tenantId, t.planAt, t.ownerId),
    /** open plans (未回款 / 部分回款 / 已逾期) by date: the status filters and the due figures */
    index('receipt_plans_open_idx').on(t.tenantId, t.planAt, t.id).where(sql`repaid_amount < amount`),
  ],
);

/**
 * A receipt (SPEC §3 Receipt / Repayment). verify_status -1 when no approval was needed (it counts at
 * once), else its approval instance's status; only -1 and 1 (已通过) count as received.
 */
export const receipts = pgTable(
  'receipts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    orderId: integer('order_id').notNull(),
    planId: integer('plan_id').notNull(),
    customerId: integer('customer_id').notNull(),
    ownerId: integer('owner_id').notNull(),
    creatorId: integer('creator_id').notNull(),
    amount: integer('amount').notNull(),
    repaymentAt: date('repayment_at', { mode: 'string' }).notNull(),
    payType: smallint('pay_type').notNull(),
    remark: text('remark').notNull().default(''),
    verifyStatus: smallint('verify_status').notNull().default(-1),
    instanceId: integer('instance_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('receipts_plan_idx').on(t.planId, t.verifyStatus),
    index('receipts_order_idx').on(t.orderId),
    index('receipts_tenant_created_idx').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    index('receipts_owner_idx').on(t.tenantId, t.ownerId, t.repaymentAt),
  ],
);

/** Company receipt settings: reminder lead days and the receipt approval flow (null = receipts count at once). */
export const receiptSettings = pgTable('receipt_settings', {
  tenantId: integer('tenant_id').primaryKey(),
  remindDays: integer('remind_days').notNull().default(3),
  approvalTemplateId: integer('approval_template_id'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
