import {
  WORK_EVENT,
  WORK_PRIORITY_LABEL,
  WORK_STATUS,
  type WorkOrderCommentBody,
  type WorkOrderCreateBody,
  type WorkOrderEditBody,
  type WorkOrderTransferBody,
  type WorkOrderTransitionBody,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, asAppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, parseDateTime } from '../../lib/time';
import type { Notifier } from '../approvals/approval-notify';
import { requireModuleOn } from '../company/company-modules';
import { requireDetailFlag, requireVisibleCustomer } from '../customers/customer-access';
import { findOrderRecord } from '../orders/orders.service';
import { staffNames } from '../staff/staff-lookup';
import { requireOwnFile } from '../uploads/uploads.service';
import * as repo from './workorders.repo';
import { abilitiesOf, notifyWork, requireVisibleWorkOrder } from './workorders-access';
import { requireActiveStaff } from './workorders-types';

/** Files the server writes (exports, imports, recordings) are never attachments: they would reach other staff. */
const SERVER_SCENES = new Set(['import', 'import-report', 'export', 'recording']);

/** Attachments: the caller's own uploads (/api/frontend/upload), each once. */
const requireFiles = async (db: Db, actor: Actor, ids: number[]) => {
  const unique = [...new Set(ids)];
  for (const id of unique) {
    const file = await requireOwnFile(db, actor, id).catch(asAppError('WORK_FILE_INVALID'));
    if (file.staffId !== actor.staffId || SERVER_SCENES.has(file.scene)) throw new AppError('WORK_FILE_INVALID');
  }
  return unique;
};

const dueOf = (s: string) => {
  const d = parseDateTime(s);
  if (!d || formatDateTime(d).slice(0, s.length) !== s) throw new AppError('VALIDATION', '请选择截止时间');
  return d;
};

/** Appends an event (with its attachments) and moves the work order's last_time, inside the caller's transaction. */
const appendEvent = async (
  tx: DbOrTx,
  actor: Actor,
  w: { id: number },
  at: Date,
  e: { kind: string; content?: string; fromId?: number; toId?: number; fromName?: string; toName?: string; data?: object },
  files: number[] = [],
) => {
  const eventId = await repo.insertEvent(tx, {
    tenantId: actor.tenantId,
    workOrderId: w.id,
    kind: e.kind,
    staffId: actor.staffId,
    content: e.content ?? '',
    fromId: e.fromId,
    toId: e.toId,
    fromName: e.fromName ?? '',
    toName: e.toName ?? '',
    data: (e.data ?? {}) as Record<string, unknown>,
    createdAt: at,
  });
  await repo.insertFiles(
    tx,
    files.map((uploadId) => ({ tenantId: actor.tenantId, workOrderId: w.id, eventId, uploadId })),
  );
  await repo.updateWorkOrder(tx, actor.tenantId, w.id, { lastTime: at });
  return eventId;
};

/** Locks the row of a work order the caller may see; a done one refuses everything but comments. */
const lockOpen = async (tx: DbOrTx, actor: Actor, id: number) => {
  const w = await repo.lockWorkOrder(tx, actor.tenantId, id);
  if (!w) throw new AppError('WORK_ORDER_NOT_FOUND');
  if (w.status === WORK_STATUS.done) throw new AppError('WORK_ORDER_DONE');
  return w;
};

/**
 * create (customer drawer, detail flag `work`): on a customer the caller may see, optionally one of
 * that customer's orders. The handler defaults to the type's, the due time to now + its SLA hours
 * (business clock); the work order starts in the type's first stage. The handler is told (msg 22).
 */
export const createWorkOrder = async (db: Db, bus: Notifier | undefined, actor: Actor, body: WorkOrderCreateBody) => {
  requireDetailFlag(actor, 'work');
  await requireModuleOn(db, actor.tenantId, 'work');
  const customer = await requireVisibleCustomer(db, actor, body.customer_id);
  if (body.order_id) {
    const order = await findOrderRecord(db, actor.tenantId, body.order_id);
    if (!order || order.customerId !== customer.id) throw new AppError('WORK_ORDER_ORDER_MISMATCH');
  }
  const type = await repo.findType(db, actor.tenantId, body.type_id);
  if (!type) throw new AppError('WORK_TYPE_NOT_FOUND');
  const handlerId = body.handler_id ?? type.defaultHandlerId;
  await requireActiveStaff(db, actor.tenantId, handlerId);
  const files = await requireFiles(db, actor, body.files);
  const at = now();
  const dueAt = body.due_at ? dueOf(body.due_at) : new Date(at.getTime() + type.slaHours * 3_600_000);
  const id = await db.transaction(async (tx) => {
    // the type row: its stages do not change under a new work order
    if (!(await repo.lockType(tx, actor.tenantId, type.id, 'share'))) throw new AppError('WORK_TYPE_NOT_FOUND');
    const [first] = await repo.stagesOfTypes(tx, actor.tenantId, [type.id]);
    if (!first) throw new AppError('WORK_TYPE_NOT_FOUND');
    const workOrderId = await repo.insertWorkOrder(tx, {
      tenantId: actor.tenantId,
      customerId: customer.id,
      orderId: body.order_id ?? null,
      typeId: type.id,
      stageId: first.id,
      name: body.workOrderName,
      priority: body.priority,
      status: WORK_STATUS.open,
      handlerId,
      creatorId: actor.staffId,
      dueAt,
      description: body.description,
      createdAt: at,
      lastTime: at,
    });
    await appendEvent(
      tx,
      actor,
      { id: workOrderId },
      at,
      { kind: WORK_EVENT.created, toId: first.id, toName: first.name },
      files,
    );
    return workOrderId;
  });
  if (handlerId !== actor.staffId) {
    await notifyWork(bus, handlerId, { kind: 'assigned', workOrderId: id, customerId: customer.id, name: body.workOrderName });
  }
  return id;
};

/** edit: name, priority, due time, description by its handler, creator or a manager; the event lists what changed. */
export const editWorkOrder = async (db: Db, actor: Actor, body: WorkOrderEditBody) => {
  const seen = await requireVisibleWorkOrder(db, actor, body.id);
  const dueAt = dueOf(body.due_at);
  await db.transaction(async (tx) => {
    const w = await lockOpen(tx, actor, seen.id);
    if (!(await abilitiesOf(tx, actor, w)).edit) throw new AppError('WORK_NOT_HANDLER', '只有处理人或创建人可以编辑工单');
    const changes: { field: string; label: string; from: string; to: string }[] = [];
    const diff = (field: string, label: string, from: string, to: string) => {
      if (from !== to) changes.push({ field, label, from, to });
    };
    diff('workOrderName', '工单名称', w.name, body.workOrderName);
    diff('priority', '优先级', WORK_PRIORITY_LABEL[w.priority] ?? '', WORK_PRIORITY_LABEL[body.priority] ?? '');
    diff('due_at', '截止时间', formatDateTime(w.dueAt).slice(0, 16), formatDateTime(dueAt).slice(0, 16));
    diff('description', '描述', w.description, body.description);
    if (changes.length === 0) return;
    const at = now();
    const dueMoved = w.dueAt.getTime() !== dueAt.getTime();
    await repo.updateWorkOrder(tx, actor.tenantId, w.id, {
      name: body.workOrderName,
      priority: body.priority,
      description: body.description,
      dueAt,
      // a new due time may be missed again: its reminder is owed anew
      ...(dueMoved ? { overdueRemindedAt: null } : {}),
    });
    await appendEvent(tx, actor, w, at, {
      kind: WORK_EVENT.edited,
      content: `修改了${changes.map((c) => c.label).join('、')}`,
      data: { changes },
    });
  });
};

/**
 * transition: the handler (or a manager covering him) moves the work order to the NEXT stage, or back
 * to any earlier stage when the current stage allows rollback. Reaching the last stage completes it.
 * The row lock makes two racing transitions run one after the other: the second no longer finds its
 * target next to the current stage.
 */
export const transitionWorkOrder = async (db: Db, actor: Actor, body: WorkOrderTransitionBody) => {
  const seen = await requireVisibleWorkOrder(db, actor, body.id);
  return db.transaction(async (tx) => {
    const w = await lockOpen(tx, actor, seen.id);
    if (!(await abilitiesOf(tx, actor, w)).transition) throw new AppError('WORK_NOT_HANDLER');
    await repo.lockType(tx, actor.tenantId, w.typeId, 'share');
    const stages = await repo.stagesOfTypes(tx, actor.tenantId, [w.typeId]);
    const cur = stages.findIndex((s) => s.id === w.stageId);
    const to = stages.findIndex((s) => s.id === body.stage_id);
    if (cur < 0 || to < 0) throw new AppError('WORK_STAGE_INVALID');
    const isNext = to === cur + 1;
    const isRollback = to < cur && stages[cur].rollback;
    if (!isNext && !isRollback) throw new AppError('WORK_STAGE_INVALID');
    const done = isNext && to === stages.length - 1;
    const at = now();
    await repo.updateWorkOrder(tx, actor.tenantId, w.id, {
      stageId: stages[to].id,
      status: done ? WORK_STATUS.done : WORK_STATUS.open,
    });
    await appendEvent(tx, actor, w, at, {
      kind: isNext ? WORK_EVENT.transition : WORK_EVENT.rollback,
      content: body.remark,
      fromId: stages[cur].id,
      toId: stages[to].id,
      fromName: stages[cur].name,
      toName: stages[to].name,
      data: done ? { done: true } : {},
    });
    return { status: done ? WORK_STATUS.done : WORK_STATUS.open, node_id: stages[to].id, node_name: stages[to].name };
  });
};

/** comment: text and/or attachments by anyone who may see the work order, done ones too. */
export const commentWorkOrder = async (db: Db, actor: Actor, body: WorkOrderCommentBody) => {
  const seen = await requireVisibleWorkOrder(db, actor, body.id);
  const files = await requireFiles(db, actor, body.files);
  await db.transaction(async (tx) => {
    const w = await repo.lockWorkOrder(tx, actor.tenantId, seen.id);
    if (!w) throw new AppError('WORK_ORDER_NOT_FOUND');
    await appendEvent(tx, actor, w, now(), { kind: WORK_EVENT.comment, content: body.content }, files);
  });
};

/** transfer: to another active staff of the company, by the handler, the creator or a manager; the new handler is told. */
export const transferWorkOrder = async (db: Db, bus: Notifier | undefined, actor: Actor, body: WorkOrderTransferBody) => {
  const seen = await requireVisibleWorkOrder(db, actor, body.id);
  await requireActiveStaff(db, actor.tenantId, body.handler_id);
  const w = await db.transaction(async (tx) => {
    const cur = await lockOpen(tx, actor, seen.id);
    if (!(await abilitiesOf(tx, actor, cur)).transfer) throw new AppError('WORK_NOT_HANDLER', '只有处理人或创建人可以转交工单');
    if (cur.handlerId === body.handler_id) throw new AppError('WORK_HANDLER_INVALID', '新处理人与当前处理人相同');
    const names = await staffNames(tx, actor.tenantId, [cur.handlerId, body.handler_id]);
    await repo.updateWorkOrder(tx, actor.tenantId, cur.id, { handlerId: body.handler_id });
    await appendEvent(tx, actor, cur, now(), {
      kind: WORK_EVENT.transfer,
      content: body.remark,
      fromId: cur.handlerId,
      toId: body.handler_id,
      fromName: names.get(cur.handlerId) ?? '',
      toName: names.get(body.handler_id) ?? '',
    });
    return cur;
  });
  if (body.handler_id !== actor.staffId) {
    await notifyWork(bus, body.handler_id, { kind: 'transfer', workOrderId: w.id, customerId: w.customerId, name: w.name });
  }
};
