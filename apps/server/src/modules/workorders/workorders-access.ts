import { DATA_SCOPE, WORK_ORDER_MSG_TYPE, WORK_STATUS } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { staffChannel } from '../../lib/pubsub';
import type { Notifier } from '../approvals/approval-notify';
import { canSee, viewerOf } from '../customers/customer-access';
import { findCustomerRecord } from '../customers/customers.service';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './workorders.repo';

type Parties = { customerId: number; handlerId: number; creatorId: number };

/**
 * Who may see a work order: its handler and creator, staff whose data scope covers one of them (the
 * 工单管理 list shows the same), and whoever may see its customer (customer-access).
 */
export const canSeeWorkOrder = async (db: DbOrTx, actor: Actor, w: Parties) => {
  if (w.handlerId === actor.staffId || w.creatorId === actor.staffId) return true;
  const scope = await scopeStaffIds(db as Db, actor);
  if (scope === null || scope.includes(w.handlerId) || scope.includes(w.creatorId)) return true;
  const customer = await findCustomerRecord(db, actor.tenantId, w.customerId);
  return !!customer && canSee(await viewerOf(db, actor), customer);
};

/** The work order if the caller may see it, else WORK_ORDER_NOT_FOUND (one answer for missing and hidden). */
export const requireVisibleWorkOrder = async (db: Db, actor: Actor, id: number) => {
  const w = await repo.findWorkOrder(db, actor.tenantId, id);
  if (!w || !(await canSeeWorkOrder(db, actor, w))) throw new AppError('WORK_ORDER_NOT_FOUND');
  return w;
};

/**
 * Who may steer a work order besides its handler: a manager (data scope wider than 本人, or the
 * company admin) whose scope covers the handler.
 */
export const canManage = async (db: DbOrTx, actor: Actor, handlerId: number) => {
  if (!actor.isSystemRole && actor.dataScope === DATA_SCOPE.own) return false;
  const scope = await scopeStaffIds(db as Db, actor);
  return scope === null || scope.includes(handlerId);
};

/** What the caller may do with a work order now (the detail's `can`, and the services' checks). */
export const abilitiesOf = async (db: DbOrTx, actor: Actor, w: { handlerId: number; creatorId: number; status: number }) => {
  const open = w.status === WORK_STATUS.open;
  const handler = w.handlerId === actor.staffId;
  const steer = handler || (await canManage(db, actor, w.handlerId));
  const party = steer || w.creatorId === actor.staffId;
  return { edit: open && party, transition: open && steer, comment: true, transfer: open && party };
};

/** A file attached to work orders is served to whoever may see one of them; undefined when none holds it. */
export const workOrderFileAccess = async (db: Db, actor: Actor, uploadId: number) => {
  const holders = await repo.workOrdersOfFile(db, actor.tenantId, uploadId);
  if (holders.length === 0) return undefined;
  for (const h of holders) {
    if (await canSeeWorkOrder(db, actor, { customerId: h.customer_id, handlerId: h.handler_id, creatorId: h.creator_id })) {
      return { isAllowed: true };
    }
  }
  return { isAllowed: false };
};

/** The socket frame of a work-order notice: msg_type WORK_ORDER_MSG_TYPE (22). */
export type WorkOrderNotice = {
  kind: 'assigned' | 'transfer' | 'overdue';
  workOrderId: number;
  customerId: number;
  name: string;
};

const NOTICE_TEXT: Record<WorkOrderNotice['kind'], (name: string) => string> = {
  assigned: (n) => `您有一个新工单：${n}`,
  transfer: (n) => `工单已转交给您：${n}`,
  overdue: (n) => `工单已超时：${n}`,
};

/** Tells a staff over his socket channel (after the commit); a staff without an open socket sees it in 工单管理. */
export const notifyWork = async (bus: Notifier | undefined, staffId: number, data: WorkOrderNotice) => {
  await bus
    ?.publish(staffChannel(staffId), {
      kind: 'frame',
      frame: { code: 0, msg_type: WORK_ORDER_MSG_TYPE, msg: NOTICE_TEXT[data.kind](data.name), data },
    })
    .catch(() => undefined);
};
