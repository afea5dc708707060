import {
  type ListData,
  WORK_EVENT_LABEL,
  type WorkEventKind,
  type WorkOrderCounts,
  type WorkOrderDetail,
  type WorkOrderListQuery,
  type WorkOrderRow,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, toDate } from '../../lib/time';
import { canUseMenu } from '../../plugins/auth';
import { requireModuleOn } from '../company/company-modules';
import { requireDetailFlag, requireVisibleCustomer } from '../customers/customer-access';
import { scopeStaffIds } from '../staff/staff.service';
import { fileUrl } from '../uploads/uploads.service';
import * as repo from './workorders.repo';
import { abilitiesOf, requireVisibleWorkOrder } from './workorders-access';
import * as lists from './workorders-lists.repo';
import { isWorkOverdue } from './workorders-overdue';
import { presentStage } from './workorders-types';

/** 工单管理 (menu 171). */
export const WORK_LIST_MENU = '/workorder/list';

export const presentRow = (r: lists.WorkListRow, at: Date): WorkOrderRow => ({
  id: r.id,
  workOrderName: r.name,
  follow_staff_id: r.handler_id,
  follow_staff_id_name: r.handler_name ?? '',
  node_id: r.stage_id,
  node_name: r.stage_name ?? '',
  created_at: formatDateTime(r.created_at),
  last_time: formatDateTime(r.last_time),
  customer_id: r.customer_id,
  customer_name: r.customer_name ?? '',
  order_id: r.order_id ?? 0,
  type_id: r.type_id,
  type_name: r.type_name ?? '',
  priority: r.priority,
  status: r.status,
  due_at: formatDateTime(r.due_at),
  overdue: isWorkOverdue({ status: r.status, dueAt: toDate(r.due_at) }, at),
  creator_id: r.creator_id,
  creator_name: r.creator_name ?? '',
});

/**
 * Which work orders a list shows: a customer's (customer_id: drawer tab, flag `work`, a customer he
 * may see), else 工单管理's tab: all = handler or creator in his data scope, mine = he created,
 * assigned = he handles, overdue = in scope, open and past due. The company's 工单 module must be on.
 */
export const workFilter = async (db: Db, actor: Actor, q: WorkOrderListQuery, at: Date): Promise<lists.WorkFilter> => {
  await requireModuleOn(db, actor.tenantId, 'work');
  const base = {
    tenantId: actor.tenantId,
    orderId: q.order_id,
    typeId: q.type_id,
    stageId: q.stage_id,
    status: q.status,
    priority: q.priority,
    keyword: q.keyword,
  };
  if (q.customer_id) {
    requireDetailFlag(actor, 'work');
    await requireVisibleCustomer(db, actor, q.customer_id);
    return { ...base, scope: null, customerId: q.customer_id };
  }
  if (!canUseMenu(actor, WORK_LIST_MENU)) throw new AppError('FORBIDDEN_MENU');
  if (q.tab === 'mine') return { ...base, scope: null, creatorId: actor.staffId };
  if (q.tab === 'assigned') return { ...base, scope: null, handlerId: actor.staffId };
  const scope = await scopeStaffIds(db, actor);
  return q.tab === 'overdue' ? { ...base, scope, overdueAt: at } : { ...base, scope };
};

export const listWorkOrders = async (db: Db, actor: Actor, q: WorkOrderListQuery): Promise<ListData<WorkOrderRow>> => {
  const at = now();
  const f = await workFilter(db, actor, q, at);
  const { rows, count } = await lists.listWorkOrders(db, f, q.limit, (q.page - 1) * q.limit);
  return { count, list: rows.map((r) => presentRow(r, at)) };
};

/** Open work orders per 工单管理 tab (the badges and the workbench). */
export const workOrderCounts = async (db: Db, actor: Actor): Promise<WorkOrderCounts> =>
  lists.countTabs(db, actor.tenantId, actor.staffId, await scopeStaffIds(db, actor), now());

/** detail: the row, its type's stages, description, the thread oldest first with attachments, and what he may do. */
export const workOrderDetail = async (db: Db, actor: Actor, id: number): Promise<WorkOrderDetail> => {
  const w = await requireVisibleWorkOrder(db, actor, id);
  const at = now();
  const [row, stages, events, files, can] = await Promise.all([
    lists.workOrderRow(db, actor.tenantId, w.id),
    repo.stagesOfTypes(db, actor.tenantId, [w.typeId]),
    repo.eventsOf(db, actor.tenantId, w.id),
    repo.filesOf(db, actor.tenantId, w.id),
    abilitiesOf(db, actor, w),
  ]);
  if (!row) throw new AppError('WORK_ORDER_NOT_FOUND');
  return {
    ...presentRow(row, at),
    description: row.description,
    stages: stages.map(presentStage),
    events: events.map((e) => ({
      id: e.id,
      kind: e.kind,
      kind_name: WORK_EVENT_LABEL[e.kind as WorkEventKind] ?? e.kind,
      staff_id: e.staff_id,
      staff_name: e.staff_id === 0 ? '系统' : (e.staff_name ?? ''),
      content: e.content,
      files: files
        .filter((f) => f.event_id === e.id)
        .map((f) => ({ id: f.id, url: fileUrl(f.stored_name), name: f.original_name, size: f.size })),
      from_name: e.from_name,
      to_name: e.to_name,
      created_at: formatDateTime(e.created_at),
    })),
    can,
  };
};
