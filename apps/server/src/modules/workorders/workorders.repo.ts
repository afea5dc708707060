import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { workOrderEvents, workOrderFiles, workOrderStages, workOrders, workOrderTypes } from '../../db/schema';
import { workOverdueSql } from './workorders-overdue';

export type WorkTypeRecord = typeof workOrderTypes.$inferSelect;
export type WorkStageRecord = typeof workOrderStages.$inferSelect;
export type WorkOrderRecord = typeof workOrders.$inferSelect;

// ---------- types and stages ----------

export const listTypes = (db: DbOrTx, tenantId: number) =>
  queryRows<{
    id: number;
    name: string;
    default_handler_id: number;
    default_handler_name: string | null;
    sla_hours: number;
    created_at: string;
    used: number;
  }>(
    db,
    sql`select t.id, t.name, t.default_handler_id, s.name as default_handler_name, t.sla_hours, t.created_at::text as created_at,
               (select count(*) from work_orders w where w.tenant_id = t.tenant_id and w.type_id = t.id)::int as used
        from work_order_types t
        left join staff s on s.id = t.default_handler_id and s.tenant_id = t.tenant_id
        where t.tenant_id = ${tenantId} and t.deleted_at is null
        order by t.id asc`,
  );

export const findType = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(workOrderTypes)
      .where(and(eq(workOrderTypes.tenantId, tenantId), eq(workOrderTypes.id, id), isNull(workOrderTypes.deletedAt)))
      .limit(1)
  )[0];

/**
 * The type row is the lock of its stages: saves of one type take it exclusively and run one after
 * the other; creates and transitions share it, so stages never change under them.
 */
export const lockType = async (tx: DbOrTx, tenantId: number, id: number, mode: 'update' | 'share' = 'update') =>
  (
    await tx
      .select()
      .from(workOrderTypes)
      .where(and(eq(workOrderTypes.tenantId, tenantId), eq(workOrderTypes.id, id), isNull(workOrderTypes.deletedAt)))
      .for(mode)
  )[0];

export const countTypes = async (db: DbOrTx, tenantId: number) =>
  (
    await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from work_order_types where tenant_id = ${tenantId} and deleted_at is null`,
    )
  )[0].n;

export const typeNameTaken = async (db: DbOrTx, tenantId: number, name: string, exceptId = 0) =>
  (
    await queryRows<{ id: number }>(
      db,
      sql`select id from work_order_types
          where tenant_id = ${tenantId} and name = ${name} and deleted_at is null and id <> ${exceptId} limit 1`,
    )
  ).length > 0;

export const insertType = async (tx: DbOrTx, row: typeof workOrderTypes.$inferInsert) =>
  (await tx.insert(workOrderTypes).values(row).returning({ id: workOrderTypes.id }))[0].id;

export const updateType = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof workOrderTypes.$inferInsert>) =>
  tx
    .update(workOrderTypes)
    .set(set)
    .where(and(eq(workOrderTypes.tenantId, tenantId), eq(workOrderTypes.id, id)));

/** The live stages of types, in order (removed stages keep their rows for old work orders and events). */
export const stagesOfTypes = (db: DbOrTx, tenantId: number, typeIds: number[]) =>
  typeIds.length === 0
    ? Promise.resolve([] as WorkStageRecord[])
    : db
        .select()
        .from(workOrderStages)
        .where(
          and(
            eq(workOrderStages.tenantId, tenantId),
            sql`${workOrderStages.typeId} = any(${intArray(typeIds)})`,
            isNull(workOrderStages.deletedAt),
          ),
        )
        .orderBy(asc(workOrderStages.sort), asc(workOrderStages.id));

export const insertStage = async (tx: DbOrTx, row: typeof workOrderStages.$inferInsert) =>
  (await tx.insert(workOrderStages).values(row).returning({ id: workOrderStages.id }))[0].id;

export const updateStage = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof workOrderStages.$inferInsert>) =>
  tx
    .update(workOrderStages)
    .set(set)
    .where(and(eq(workOrderStages.tenantId, tenantId), eq(workOrderStages.id, id)));

export const removeStages = (tx: DbOrTx, tenantId: number, ids: number[], at: Date) =>
  ids.length === 0
    ? Promise.resolve()
    : tx
        .update(workOrderStages)
        .set({ deletedAt: at })
        .where(and(eq(workOrderStages.tenantId, tenantId), sql`${workOrderStages.id} = any(${intArray(ids)})`));

/** Open work orders of a type, or standing in some of its stages. */
export const countOpen = async (db: DbOrTx, tenantId: number, f: { typeId?: number; stageIds?: number[] }) => {
  if (f.stageIds && f.stageIds.length === 0) return 0;
  const cond = f.stageIds ? sql`stage_id = any(${intArray(f.stageIds)})` : sql`type_id = ${f.typeId ?? 0}`;
  return (
    await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from work_orders where tenant_id = ${tenantId} and status = 0 and ${cond}`,
    )
  )[0].n;
};

// ---------- work orders ----------

export const insertWorkOrder = async (tx: DbOrTx, row: typeof workOrders.$inferInsert) =>
  (await tx.insert(workOrders).values(row).returning({ id: workOrders.id }))[0].id;

export const findWorkOrder = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(workOrders)
      .where(and(eq(workOrders.tenantId, tenantId), eq(workOrders.id, id)))
      .limit(1)
  )[0];

/** The work-order row is the lock of its changes: two transitions run one after the other. */
export const lockWorkOrder = async (tx: DbOrTx, tenantId: number, id: number) =>
  (
    await tx
      .select()
      .from(workOrders)
      .where(and(eq(workOrders.tenantId, tenantId), eq(workOrders.id, id)))
      .for('update')
  )[0];

export const updateWorkOrder = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof workOrders.$inferInsert>) =>
  tx
    .update(workOrders)
    .set(set)
    .where(and(eq(workOrders.tenantId, tenantId), eq(workOrders.id, id)));

/** Stage rows by id, removed ones included (a work order or an event may name a stage removed since). */
export const stagesByIds = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? []
    : db
        .select()
        .from(workOrderStages)
        .where(and(eq(workOrderStages.tenantId, tenantId), sql`${workOrderStages.id} = any(${intArray(ids)})`));

// ---------- events and attachments ----------

export const insertEvent = async (tx: DbOrTx, row: typeof workOrderEvents.$inferInsert) =>
  (await tx.insert(workOrderEvents).values(row).returning({ id: workOrderEvents.id }))[0].id;

export const insertFiles = (tx: DbOrTx, rows: (typeof workOrderFiles.$inferInsert)[]) =>
  rows.length === 0 ? Promise.resolve() : tx.insert(workOrderFiles).values(rows);

export const eventsOf = (db: DbOrTx, tenantId: number, workOrderId: number) =>
  queryRows<{
    id: number;
    kind: string;
    staff_id: number;
    staff_name: string | null;
    content: string;
    from_name: string;
    to_name: string;
    created_at: string;
  }>(
    db,
    sql`select e.id, e.kind, e.staff_id, s.name as staff_name, e.content, e.from_name, e.to_name, e.created_at::text as created_at
        from work_order_events e
        left join staff s on s.id = e.staff_id and s.tenant_id = e.tenant_id
        where e.tenant_id = ${tenantId} and e.work_order_id = ${workOrderId}
        order by e.id asc`,
  );

export const filesOf = (db: DbOrTx, tenantId: number, workOrderId: number) =>
  queryRows<{ event_id: number; id: number; stored_name: string; original_name: string; size: number }>(
    db,
    sql`select wf.event_id, f.id, f.stored_name, f.original_name, f.size
        from work_order_files wf join files f on f.id = wf.upload_id and f.tenant_id = wf.tenant_id
        where wf.tenant_id = ${tenantId} and wf.work_order_id = ${workOrderId}
        order by wf.id asc`,
  );

/** Work orders holding an uploaded file as an attachment (file access). */
export const workOrdersOfFile = (db: DbOrTx, tenantId: number, uploadId: number) =>
  queryRows<{ id: number; customer_id: number; handler_id: number; creator_id: number }>(
    db,
    sql`select distinct w.id, w.customer_id, w.handler_id, w.creator_id
        from work_order_files wf join work_orders w on w.id = wf.work_order_id and w.tenant_id = wf.tenant_id
        where wf.tenant_id = ${tenantId} and wf.upload_id = ${uploadId}`,
  );

// ---------- SLA reminders ----------

/**
 * Claims the open work orders past due and not yet reminded, across companies: marks them, appends
 * their `overdue` event and moves last_time in one statement, so each is told once however many
 * instances run the job.
 */
export const claimOverdue = (db: DbOrTx, at: Date, limit: number) => {
  const ts = sql`${at.toISOString()}::timestamptz`;
  return queryRows<{ id: number; tenant_id: number; handler_id: number; customer_id: number; name: string; due_at: string }>(
    db,
    sql`with due as (
          select w.id from work_orders w
          where ${workOverdueSql(sql`w`, at)} and w.overdue_reminded_at is null
          order by w.due_at asc limit ${limit} for update skip locked
        ), claimed as (
          update work_orders w set overdue_reminded_at = ${ts}, last_time = ${ts}
          from due where w.id = due.id
          returning w.id, w.tenant_id, w.handler_id, w.customer_id, w.name, w.due_at
        ), ev as (
          insert into work_order_events (tenant_id, work_order_id, kind, staff_id, content, created_at)
          select tenant_id, id, 'overdue', 0, '工单已超过截止时间', ${ts} from claimed
          returning id
        )
        select id, tenant_id, handler_id, customer_id, name, due_at::text as due_at from claimed`,
  );
};
