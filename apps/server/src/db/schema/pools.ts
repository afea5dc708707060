import type { PoolRules } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** Discard reason (cmCdid), /set/discard. */
export const discardReasons = pgTable(
  'discard_reasons',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    sortNum: integer('sort_num').notNull().default(0),
    actionState: smallint('action_state').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('discard_reasons_tenant_idx').on(t.tenantId, t.sortNum)],
);

/** Shared pool (公海, cmHsid), /set/highseas: who may use it and its recycle/claim rules. */
export const pools = pgTable(
  'pools',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    /** 1 统一设置, 2 标签设置 */
    dmType: smallint('dm_type').notNull().default(1),
    /** departments whose staff may use it; empty = every department */
    useDepartmentIds: integer('use_department_ids').array().notNull().default(sql`'{}'::integer[]`),
    rules: jsonb('rules').$type<PoolRules>().notNull(),
    sortNum: integer('sort_num').notNull().default(0),
    actionState: smallint('action_state').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pools_tenant_idx').on(t.tenantId, t.sortNum)],
);

/**
 * Why and when a customer now in a pool got there (one row per pooled customer; removed on
 * claim or allocation). `lastOwnerId` + `pooledAt` drive the previous-owner cooldown.
 */
export const poolEntries = pgTable(
  'pool_entries',
  {
    customerId: integer('customer_id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    poolId: integer('pool_id').notNull(),
    /** the chosen reason (cmCdid); 0 = 其他 (typed text) or 系统回收 */
    reasonId: integer('reason_id').notNull().default(0),
    reason: text('reason').notNull().default(''),
    /** who discarded it; null = the recycling job */
    discardedBy: integer('discarded_by'),
    lastOwnerId: integer('last_owner_id'),
    pooledAt: timestamp('pooled_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('pool_entries_pool_idx').on(t.tenantId, t.poolId, t.pooledAt),
    index('pool_entries_reason_idx').on(t.tenantId, t.reasonId),
  ],
);

/** Claims per staff, pool and Asia/Shanghai day: the daily cap is checked and counted in one statement. */
export const poolClaimCounts = pgTable(
  'pool_claim_counts',
  {
    tenantId: integer('tenant_id').notNull(),
    staffId: integer('staff_id').notNull(),
    poolId: integer('pool_id').notNull(),
    day: text('day').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.staffId, t.poolId, t.day] })],
);

/**
 * Deal facts of a customer read by the recycling rules. HOOK for the Orders issue: it keeps
 * these current through pools.service `recordCustomerDeal` / `setPendingOrders` (an approved
 * order sets lastDealAt; pending orders exempt the customer from recycling). Until orders exist
 * no row exists, so "no deal" counts from the time the customer was received.
 */
export const customerDeals = pgTable('customer_deals', {
  customerId: integer('customer_id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lastDealAt: timestamp('last_deal_at', { withTimezone: true }),
  pendingOrders: integer('pending_orders').notNull().default(0),
});
