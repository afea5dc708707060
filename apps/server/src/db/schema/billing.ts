import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// Billing (issue 27). Money is an integer in 1/10,000 yuan (bigint, read as a JS number: the
// largest balance a company can reach stays far below 2^53). No float column anywhere.

/**
 * A company's balance: the sum of its ledger, kept in the same transaction as every ledger row
 * under this row's lock. `reserved` is credit held by calls in progress (reserved at dial, settled
 * at hang-up); a dial is refused when `balance - reserved` cannot pay the call's first block.
 */
export const billingBalances = pgTable('billing_balances', {
  tenantId: integer('tenant_id').primaryKey(),
  balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  reserved: bigint('reserved', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The append-only ledger: one row per money movement, never updated or deleted (a correction is a
 * new row). `idemKey` is unique per company: a source (a call, a recharge reference, a re-rating
 * of a call) is booked at most once, whatever retries. `amount` is signed (debits negative).
 */
export const billingLedger = pgTable(
  'billing_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    /** LEDGER_TYPES: recharge call rental storage esign leads adjust */
    type: text('type').notNull(),
    /** CHARGE_KINDS of a debit (a call's kind, or the ledger type); '' for a recharge */
    chargeKind: text('charge_kind').notNull().default(''),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    /** call, recharge, rerate, adjust, … */
    sourceKind: text('source_kind').notNull(),
    sourceId: text('source_id').notNull(),
    idemKey: text('idem_key').notNull(),
    /** the staff the movement is his (a call's agent); null for company-level rows */
    staffId: integer('staff_id'),
    /** the platform operator who booked it (recharges, adjustments, re-ratings) */
    operator: text('operator').notNull().default(''),
    remark: text('remark').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_ledger_idem_uq').on(t.tenantId, t.idemKey),
    index('billing_ledger_tenant_at_idx').on(t.tenantId, t.createdAt),
    index('billing_ledger_staff_at_idx').on(t.tenantId, t.staffId, t.createdAt),
  ],
);

/** The platform's rate plans; `rates` holds one RatePart per CALL_KINDS (see contracts/billing.ts). */
export const billingRatePlans = pgTable(
  'billing_rate_plans',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    rates: jsonb('rates').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('billing_rate_plans_name_uq').on(t.name)],
);

/** A plan assigned to a company from `effectiveFrom` until `effectiveTo` (null: open). */
export const billingPlanAssignments = pgTable(
  'billing_plan_assignments',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    planId: integer('plan_id').notNull(),
    effectiveFrom: timestamp('effective_from', { withTimezone: true }).notNull(),
    effectiveTo: timestamp('effective_to', { withTimezone: true }),
    operator: text('operator').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_plan_assignments_tenant_idx').on(t.tenantId, t.effectiveFrom)],
);

/** Credit held by a call from its dial until its rating (one per call). */
export const billingReservations = pgTable(
  'billing_reservations',
  {
    callUuid: text('call_uuid').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    planId: integer('plan_id').notNull(),
    /** the longest talk the reservation pays for (seconds from answer) */
    maxSeconds: integer('max_seconds').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_reservations_tenant_idx').on(t.tenantId)],
);

/**
 * The rating of a call, keyed by its uuid: written `pending` from the call record when the call
 * ends (the call.ended event), rated once by the rating job (status 1, the ledger row's id). The
 * call's billed seconds and cost are read here (the call list asks billing, never the reverse).
 */
export const billingCallUsage = pgTable(
  'billing_call_usage',
  {
    callUuid: text('call_uuid').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    /** 0 pending, 1 rated */
    status: smallint('status').notNull().default(0),
    kind: text('kind').notNull(),
    staffId: integer('staff_id'),
    departmentId: integer('department_id'),
    taskId: integer('task_id').notNull().default(0),
    customerId: integer('customer_id'),
    callType: smallint('call_type').notNull(),
    caller: text('caller').notNull().default(''),
    callee: text('callee').notNull().default(''),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    answerAt: timestamp('answer_at', { withTimezone: true }),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    duration: integer('duration').notNull().default(0),
    billedSeconds: integer('billed_seconds').notNull().default(0),
    firstBlock: integer('first_block').notNull().default(0),
    increment: integer('increment').notNull().default(0),
    rate: bigint('rate', { mode: 'number' }).notNull().default(0),
    connectFee: bigint('connect_fee', { mode: 'number' }).notNull().default(0),
    cost: bigint('cost', { mode: 'number' }).notNull().default(0),
    /** what the ledger took (cost, capped by the credit the call could use) */
    amount: bigint('amount', { mode: 'number' }).notNull().default(0),
    planId: integer('plan_id'),
    ledgerId: bigint('ledger_id', { mode: 'number' }),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the rating job takes a company's oldest pending calls: in index order, `limit` rows read
    index('billing_call_usage_pending_idx').on(t.tenantId, t.createdAt).where(sql`${t.status} = 0`),
    index('billing_call_usage_tenant_end_idx').on(t.tenantId, t.endAt),
  ],
);

/** A recharge the platform operator recorded (no payment gateway); unique per company and reference. */
export const billingRecharges = pgTable(
  'billing_recharges',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    channel: text('channel').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    bonus: bigint('bonus', { mode: 'number' }).notNull().default(0),
    operator: text('operator').notNull(),
    ref: text('ref').notNull(),
    status: smallint('status').notNull().default(1),
    remark: text('remark').notNull().default(''),
    ledgerId: bigint('ledger_id', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_recharges_ref_uq').on(t.tenantId, t.ref),
    index('billing_recharges_tenant_idx').on(t.tenantId, t.createdAt),
  ],
);

/** A company's low-balance thresholds (descending, 1/10,000 yuan). */
export const billingSettings = pgTable('billing_settings', {
  tenantId: integer('tenant_id').primaryKey(),
  thresholds: jsonb('thresholds').$type<number[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A low-balance notice: one per downward crossing of a threshold (the header's badge reads them). */
export const billingAlerts = pgTable(
  'billing_alerts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    threshold: bigint('threshold', { mode: 'number' }).notNull(),
    balance: bigint('balance', { mode: 'number' }).notNull(),
    ledgerId: bigint('ledger_id', { mode: 'number' }).notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_alerts_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** The audit of a re-rating (operator, reason, range, what it changed). */
export const billingRerates = pgTable(
  'billing_rerates',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    toAt: timestamp('to_at', { withTimezone: true }).notNull(),
    operator: text('operator').notNull(),
    reason: text('reason').notNull(),
    calls: integer('calls').notNull(),
    adjusted: integer('adjusted').notNull(),
    delta: bigint('delta', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_rerates_tenant_idx').on(t.tenantId)],
);
