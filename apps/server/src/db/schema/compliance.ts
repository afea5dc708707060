import { index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The 禁拨 list (do-not-call, issue 15): a number the company must not call while the entry is in
 * force (expiresAt in the future, or null: forever). One entry per normalised number; adding it
 * again renews it. source: 1 manual, 2 a task call's refusal, 3 from a call record.
 */
export const doNotCall = pgTable(
  'do_not_call',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    phone: text('phone').notNull(),
    reason: text('reason').notNull().default(''),
    source: smallint('source').notNull().default(1),
    staffId: integer('staff_id'),
    customerId: integer('customer_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('do_not_call_phone_uq').on(t.tenantId, t.phone),
    index('do_not_call_tenant_created_idx').on(t.tenantId, t.createdAt.desc()),
  ],
);

/**
 * A dial the dial policy refused (issue 15): number rules, blacklist, 禁拨, calling hours, caps.
 * Written outside the refused dial's transaction. origin: 0 an agent's dial, 1 a server leg
 * (task, dialer, bot, line test). phone: normalised where it could be (else its digits).
 */
export const dialRefusals = pgTable(
  'dial_refusals',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    origin: smallint('origin').notNull().default(0),
    staffId: integer('staff_id'),
    taskId: integer('task_id').notNull().default(0),
    customerId: integer('customer_id'),
    phone: text('phone').notNull().default(''),
    code: integer('code').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('dial_refusals_tenant_created_idx').on(t.tenantId, t.createdAt.desc()),
    index('dial_refusals_staff_created_idx').on(t.tenantId, t.staffId, t.createdAt.desc()),
  ],
);
