import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A work-order type (工单类型, issue 14): ordered stages, a default handler and an SLA in hours. */
export const workOrderTypes = pgTable(
  'work_order_types',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    defaultHandlerId: integer('default_handler_id').notNull(),
    slaHours: integer('sla_hours').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('work_order_types_name_uq').on(t.tenantId, t.name).where(sql`${t.deletedAt} is null`)],
);

/** A stage of a type; removed stages are soft-deleted so old events and rows keep their names. */
export const workOrderStages = pgTable(
  'work_order_stages',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    typeId: integer('type_id').notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull(),
    /** from this stage the handler may go back to an earlier stage */
    rollback: boolean('rollback').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('work_order_stages_type_idx').on(t.typeId, t.sort)],
);

/** A work order (SPEC §3 Work order). status 0 处理中, 1 已完结 (reached the last stage). */
export const workOrders = pgTable(
  'work_orders',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    customerId: integer('customer_id').notNull(),
    orderId: integer('order_id'),
    typeId: integer('type_id').notNull(),
    stageId: integer('stage_id').notNull(),
    name: text('name').notNull(),
    priority: smallint('priority').notNull().default(2),
    status: smallint('status').notNull().default(0),
    /** the handler (follow_staff_id) */
    handlerId: integer('handler_id').notNull(),
    creatorId: integer('creator_id').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** the last event's time */
    lastTime: timestamp('last_time', { withTimezone: true }).notNull(),
    /** when the SLA reminder for the current due time was sent (null: not yet; cleared when due_at moves) */
    overdueRemindedAt: timestamp('overdue_reminded_at', { withTimezone: true }),
  },
  (t) => [
    index('work_orders_handler_idx').on(t.tenantId, t.handlerId, t.status, t.dueAt),
    index('work_orders_customer_idx').on(t.tenantId, t.customerId, t.createdAt.desc()),
    index('work_orders_creator_idx').on(t.tenantId, t.creatorId, t.createdAt.desc()),
    index('work_orders_tenant_created_idx').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    /** the SLA reminder's scan: open, past due, not yet reminded */
    index('work_orders_overdue_idx').on(t.dueAt).where(sql`${t.status} = 0 and ${t.overdueRemindedAt} is null`),
  ],
);

/** The append-only thread of a work order (created, edited, transition, rollback, comment, transfer, overdue). */
export const workOrderEvents = pgTable(
  'work_order_events',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    workOrderId: integer('work_order_id').notNull(),
    kind: text('kind').notNull(),
    /** 0 for the system (SLA reminder) */
    staffId: integer('staff_id').notNull(),
    content: text('content').notNull().default(''),
    fromId: integer('from_id'),
    toId: integer('to_id'),
    fromName: text('from_name').notNull().default(''),
    toName: text('to_name').notNull().default(''),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('work_order_events_order_idx').on(t.workOrderId, t.id)],
);

/** Attachments of an event (upload ids). */
export const workOrderFiles = pgTable(
  'work_order_files',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    workOrderId: integer('work_order_id').notNull(),
    eventId: integer('event_id').notNull(),
    uploadId: integer('upload_id').notNull(),
  },
  (t) => [index('work_order_files_event_idx').on(t.eventId), index('work_order_files_upload_idx').on(t.uploadId)],
);
