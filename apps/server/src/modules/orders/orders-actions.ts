import { ORDER_ATTRS, type OrderDetail, VERIFY_STATUS, VERIFY_STATUS_LABEL } from '@crm/contracts';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { type Actor, canDoAction } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import type { Notifier } from '../approvals/approval-notify';
import { act, withdraw } from '../approvals/approvals.service';
import { instanceViewOf } from '../approvals/approvals-lists';
import { isMaskedFor, showPhone, viewerOf } from '../customers/customer-access';
import { findCustomerRecord } from '../customers/customers.service';
import { scopeStaffIds } from '../staff/staff.service';
import { activeStaffIds, staffNames } from '../staff/staff-lookup';
import { fileInfosByIds } from '../uploads/uploads.service';
import * as repo from './orders.repo';
import { requireReadableOrder } from './orders-access';
import { cooperatorsWithNames } from './orders-presenter';

/** auditdetail (SPEC §3 order detail): lines with total_price and the approval trail. Numbers follow customer-access. */
export const orderDetail = async (db: Db, actor: Actor, orderId: number): Promise<OrderDetail> => {
  const o = await requireReadableOrder(db, actor, orderId);
  const [lines, customer, coop, files] = await Promise.all([
    repo.linesOf(db, o.id),
    findCustomerRecord(db, actor.tenantId, o.customerId),
    cooperatorsWithNames(db, actor.tenantId, [o.id]),
    fileInfosByIds(db, actor.tenantId, o.imageIds),
  ]);
  const names = await staffNames(db, actor.tenantId, [o.ownerId, o.creatorId]);
  const viewer = await viewerOf(db, actor);
  const masked = !customer || isMaskedFor(viewer, customer);
  const approval = await instanceViewOf(db, actor, o.instanceId);
  const canSubmit =
    o.ownerId === actor.staffId &&
    ([VERIFY_STATUS.draft, VERIFY_STATUS.rejected, VERIFY_STATUS.withdrawn] as number[]).includes(o.verifyStatus);
  const base = ORDER_ATTRS.map((a) => {
    const v = o.attr[String(a.id)];
    return { key: a.name, value: Array.isArray(v) ? v.join('、') : v === null || v === undefined ? '' : String(v) };
  });
  return {
    order_id: o.id,
    customer_id: o.customerId,
    customer: {
      name: customer?.name ?? '',
      contact_name: customer?.contactName ?? '',
      contact_phone: showPhone(masked, o.contactPhone),
      cost_price: o.amount,
      deal_time: formatDateTime(o.dealAt).slice(0, 10),
      created_at: formatDateTime(o.createdAt),
      create_user: { linkman: names.get(o.creatorId) ?? '' },
    },
    owner: { staff_id: o.ownerId, linkman: names.get(o.ownerId) ?? '' },
    cooperators: coop.map((c) => ({ staff_id: c.staffId, linkman: c.name })),
    verify_status: o.verifyStatus,
    verify_status_name: VERIFY_STATUS_LABEL[o.verifyStatus] ?? '',
    is_below_min: o.isBelowMin,
    remark: o.remark,
    base: [...base, { key: '备注', value: o.remark }],
    images: o.imageIds.flatMap((id) => {
      const f = files.get(id);
      return f ? [{ id, url: f.url, name: f.name }] : [];
    }),
    product: lines.map((l) => ({
      product_id: l.productId,
      product_name: l.productName,
      spec_name: l.specName,
      cost_price: l.dealPrice,
      cost: l.cost,
      stand_price: l.minimumPrice,
      num: l.qty,
      total_price: l.total,
      is_below_min: l.isBelowMin,
    })),
    total_price: o.amount,
    approval,
    can_verify: approval?.canAct ?? 0,
    can_withdraw: approval?.canWithdraw ?? 0,
    can_submit: canSubmit ? 1 : 0,
  };
};

/** The order's running instance (its latest), or 该审批已处理 when none is pending. */
const pendingInstanceOf = async (db: Db, actor: Actor, orderId: number) => {
  const o = await repo.findOrder(db, actor.tenantId, orderId);
  if (!o) throw new AppError('ORDER_NOT_FOUND');
  if (!o.instanceId) throw new AppError('APPROVAL_DONE', '该订单尚未提交审批');
  return o.instanceId;
};

/**
 * order/verify: the current approver approves (1) or rejects (2) the node he names (node_id); an
 * instance_id that is no longer the order's (it was resubmitted since) is 该审批已处理.
 */
export const verifyOrder = async (
  db: Db,
  bus: Notifier | undefined,
  actor: Actor,
  body: { order_id: number; node_id: number; instance_id?: number; status: 1 | 2; remark: string },
) => {
  const instanceId = await pendingInstanceOf(db, actor, body.order_id);
  if (body.instance_id !== undefined && body.instance_id !== instanceId) throw new AppError('APPROVAL_DONE');
  return act(db, bus, actor, instanceId, body.node_id, body.status, body.remark);
};

/** order/withdraw: the submitter takes a pending order back (已撤回). */
export const withdrawOrder = async (db: Db, bus: Notifier | undefined, actor: Actor, orderId: number) =>
  withdraw(db, bus, actor, await pendingInstanceOf(db, actor, orderId));

/**
 * Orders the caller manages (owner in his data scope; collaborating is not enough to hand an order on),
 * read and locked inside the caller's transaction: a concurrent transfer or approval of the same
 * orders waits, and the change is made on what the rows hold now (no lost update).
 */
const lockManagedOrders = async (tx: Tx, actor: Actor, ids: number[], scope: number[] | null) => {
  const unique = [...new Set(ids)];
  const rows = await repo.lockOrders(tx, actor.tenantId, unique);
  if (rows.length !== unique.length || rows.some((o) => scope !== null && !scope.includes(o.ownerId)))
    throw new AppError('ORDER_NOT_FOUND');
  return rows;
};

const requireTransferAction = (actor: Actor) => {
  if (!canDoAction(actor, 'frontend/order/transfer')) throw new AppError('FORBIDDEN_ACTION');
};

/** order/cooperators: sets the collaborators (协同人) of the orders. */
export const setCooperators = async (db: Db, actor: Actor, orderIds: number[], staffIds: number[]) => {
  requireTransferAction(actor);
  const scope = await scopeStaffIds(db, actor);
  const ids = [...new Set(staffIds)];
  const allActive = (await activeStaffIds(db, actor.tenantId, ids)).length === ids.length;
  return db.transaction(async (tx) => {
    const rows = await lockManagedOrders(tx, actor, orderIds, scope);
    if (!allActive) throw new AppError('COOPERATOR_INVALID');
    for (const o of rows)
      await repo.replaceCooperators(
        tx,
        actor.tenantId,
        o.id,
        ids.filter((id) => id !== o.ownerId),
      );
    return rows.length;
  });
};

/** order/transfer: a new owner in the caller's scope; optionally the former owner stays as collaborator. */
export const transferOrders = async (db: Db, actor: Actor, orderIds: number[], toStaffId: number, setCooperator: 0 | 1) => {
  requireTransferAction(actor);
  const scope = await scopeStaffIds(db, actor);
  const isActive = (await activeStaffIds(db, actor.tenantId, [toStaffId])).length === 1;
  return db.transaction(async (tx) => {
    const rows = await lockManagedOrders(tx, actor, orderIds, scope);
    if (!isActive || (scope !== null && !scope.includes(toStaffId))) throw new AppError('ALLOT_TARGET_INVALID');
    for (const o of rows) {
      if (o.ownerId === toStaffId) continue;
      await repo.updateOrder(tx, actor.tenantId, o.id, { ownerId: toStaffId });
      await repo.removeCooperator(tx, actor.tenantId, o.id, toStaffId);
      if (setCooperator === 1) await repo.addCooperator(tx, actor.tenantId, o.id, o.ownerId);
    }
    return rows.length;
  });
};
