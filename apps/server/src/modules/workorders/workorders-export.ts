import { WORK_ORDER_LIMITS, WORK_PRIORITY_LABEL, WORK_STATUS_LABEL, type WorkOrderListQuery } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { defineExportJob, pagedRows } from '../jobs/xlsx-export';
import { listWorkOrders, workFilter } from './workorders-lists';

const BATCH = 2000;

const startExport = defineExportJob<{ query: WorkOrderListQuery }>('workorder-export', async (db, actor, { query }) => ({
  title: '工单',
  sheet: '工单',
  columns: [
    { header: '工单编号', key: 'id', width: 10 },
    { header: '工单名称', key: 'name', width: 28 },
    { header: '客户名称', key: 'customer', width: 28 },
    { header: '工单类型', key: 'type', width: 14 },
    { header: '当前阶段', key: 'stage', width: 12 },
    { header: '状态', key: 'status', width: 10 },
    { header: '优先级', key: 'priority', width: 8 },
    { header: '处理人', key: 'handler', width: 10 },
    { header: '创建人', key: 'creator', width: 10 },
    { header: '截止时间', key: 'due', width: 20 },
    { header: '是否超时', key: 'overdue', width: 10 },
    { header: '创建时间', key: 'created', width: 20 },
    { header: '最后更新', key: 'last', width: 20 },
  ],
  total: Math.min((await listWorkOrders(db, actor, { ...query, page: 1, limit: 1 })).count, WORK_ORDER_LIMITS.exportRows),
  rows: pagedRows(
    { batch: BATCH, max: WORK_ORDER_LIMITS.exportRows },
    (page, limit) => listWorkOrders(db, actor, { ...query, page, limit }).then((r) => r.list),
    (r) => ({
      id: r.id,
      name: r.workOrderName,
      customer: r.customer_name,
      type: r.type_name,
      stage: r.node_name,
      status: WORK_STATUS_LABEL[r.status] ?? '',
      priority: WORK_PRIORITY_LABEL[r.priority] ?? '',
      handler: r.follow_staff_id_name,
      creator: r.creator_name,
      due: r.due_at,
      overdue: r.overdue ? '是' : '否',
      created: r.created_at,
      last: r.last_time,
    }),
  ),
}));

/** workorder/export: 工单管理's tab and filters as .xlsx, a durable job like the receipt export. */
export const startWorkOrderExport = async (db: Db, actor: Actor, query: WorkOrderListQuery) => {
  await workFilter(db, actor, query, now());
  return startExport(db, actor, { query });
};
