import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { workOverdueSql } from './workorders-overdue';

/**
 * The list reads of work orders (工单管理's tabs, a customer's tab, the detail row, the counts), one
 * statement each. A row joins its handler, creator, stage, type and customer names in the same
 * statement (a page of 20–100 rows read at once, keyword search over customer names included).
 */

export type WorkFilter = {
  tenantId: number;
  /** handler or creator among these staff (null = anyone) */
  scope: number[] | null;
  customerId?: number;
  orderId?: number;
  creatorId?: number;
  handlerId?: number;
  /** open and due before this time */
  overdueAt?: Date;
  typeId?: number;
  stageId?: number;
  status?: number;
  priority?: number;
  keyword?: string;
};

const whereOf = (f: WorkFilter): SQL => {
  const conds: SQL[] = [sql`w.tenant_id = ${f.tenantId}`];
  if (f.scope) conds.push(sql`(w.handler_id = any(${intArray(f.scope)}) or w.creator_id = any(${intArray(f.scope)}))`);
  if (f.customerId) conds.push(sql`w.customer_id = ${f.customerId}`);
  if (f.orderId) conds.push(sql`w.order_id = ${f.orderId}`);
  if (f.creatorId) conds.push(sql`w.creator_id = ${f.creatorId}`);
  if (f.handlerId) conds.push(sql`w.handler_id = ${f.handlerId}`);
  if (f.overdueAt) conds.push(workOverdueSql(sql`w`, f.overdueAt));
  if (f.typeId) conds.push(sql`w.type_id = ${f.typeId}`);
  if (f.stageId) conds.push(sql`w.stage_id = ${f.stageId}`);
  if (f.status !== undefined) conds.push(sql`w.status = ${f.status}`);
  if (f.priority) conds.push(sql`w.priority = ${f.priority}`);
  if (f.keyword) {
    const like = `%${f.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(sql`(w.name ilike ${like} or exists (select 1 from customers c where c.id = w.customer_id
                    and c.tenant_id = w.tenant_id and c.name ilike ${like}))`);
  }
  return sql.join(conds, sql` and `);
};

export type WorkListRow = {
  id: number;
  name: string;
  handler_id: number;
  handler_name: string | null;
  stage_id: number;
  stage_name: string | null;
  created_at: string;
  last_time: string;
  customer_id: number;
  customer_name: string | null;
  order_id: number | null;
  type_id: number;
  type_name: string | null;
  priority: number;
  status: number;
  due_at: string;
  creator_id: number;
  creator_name: string | null;
  description: string;
};

const ROW_SELECT = sql`w.id, w.name, w.handler_id, h.name as handler_name, w.stage_id, st.name as stage_name,
  w.created_at::text as created_at, w.last_time::text as last_time, w.customer_id, c.name as customer_name, w.order_id,
  w.type_id, t.name as type_name, w.priority, w.status, w.due_at::text as due_at, w.creator_id, cr.name as creator_name,
  w.description`;
const ROW_JOINS = sql`left join staff h on h.id = w.handler_id and h.tenant_id = w.tenant_id
  left join staff cr on cr.id = w.creator_id and cr.tenant_id = w.tenant_id
  left join work_order_stages st on st.id = w.stage_id and st.tenant_id = w.tenant_id
  left join work_order_types t on t.id = w.type_id and t.tenant_id = w.tenant_id
  left join customers c on c.id = w.customer_id and c.tenant_id = w.tenant_id`;

/** A page of the filter, newest first, and the count of every matching work order. */
export const listWorkOrders = async (db: DbOrTx, f: WorkFilter, limit: number, offset: number) => {
  const where = whereOf(f);
  const [rows, [{ n }]] = await Promise.all([
    queryRows<WorkListRow>(
      db,
      sql`with page as (select * from work_orders w where ${where} order by w.created_at desc, w.id desc
                        limit ${limit} offset ${offset})
          select ${ROW_SELECT} from page w ${ROW_JOINS} order by w.created_at desc, w.id desc`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from work_orders w where ${where}`),
  ]);
  return { rows, count: n };
};

export const workOrderRow = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await queryRows<WorkListRow>(
      db,
      sql`select ${ROW_SELECT} from work_orders w ${ROW_JOINS} where w.tenant_id = ${tenantId} and w.id = ${id}`,
    )
  )[0];

/** Open work orders per tab: created by me, handled by me, overdue in scope, all in scope. */
export const countTabs = async (db: DbOrTx, tenantId: number, staffId: number, scope: number[] | null, at: Date) => {
  const inScope = scope ? sql`(w.handler_id = any(${intArray(scope)}) or w.creator_id = any(${intArray(scope)}))` : sql`true`;
  const [row] = await queryRows<{ mine: number; assigned: number; overdue: number; all: number }>(
    db,
    sql`select count(*) filter (where w.creator_id = ${staffId})::int as mine,
               count(*) filter (where w.handler_id = ${staffId})::int as assigned,
               count(*) filter (where ${inScope} and ${workOverdueSql(sql`w`, at)})::int as overdue,
               count(*) filter (where ${inScope})::int as "all"
        from work_orders w where w.tenant_id = ${tenantId} and w.status = 0`,
  );
  return row;
};
