import {
  DOC_LINK_DM_TYPE,
  moneyToYuan,
  PAY_TYPE_LABEL,
  PLAN_STATUS_LABEL,
  type PlanCreateBody,
  type PlanUpdateBody,
  RECEIPT_APPROVAL,
  type ReceiptCreateBody,
  type ReceiptUpdateBody,
  VERIFY_STATUS,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError, asAppError, onlyRefusal } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, parseDateTime } from '../../lib/time';
import type { Notifier } from '../approvals/approval-notify';
import { requireTemplate } from '../approvals/approval-templates.service';
import { flushOutbox, newOutbox, startInstanceIn } from '../approvals/approvals.service';
import { requireModuleOn } from '../company/company-modules';
import { requireDetailFlag } from '../customers/customer-access';
import { lockOrderRecord, requireReadableOrder } from '../orders/orders.service';
import * as repo from './receipts.repo';

/** Templates serving receipts carry isOrder 2 (1 serves orders). */
export const RECEIPT_TEMPLATE_KIND = 2;

/** The business day (Asia/Shanghai) of the business clock, YYYY-MM-DD. */
export const businessToday = (at: Date = now()) => formatDateTime(at).slice(0, 10);

/** The day `n` days after a YYYY-MM-DD day. */
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const realDay = (s: string) => {
  if (!parseDateTime(s) || formatDateTime(parseDateTime(s)).slice(0, 10) !== s) throw new AppError('VALIDATION', '请选择日期');
  return s;
};

/**
 * Plans and receipts hang on an order the caller may read (owner in his data scope, collaborator,
 * approval participant, or one who may see the customer) that is approved (已通过): money is planned
 * and received only for a deal that stands. The order decides the owner and customer of its plans.
 */
const requireApprovedOrder = async (db: Db, actor: Actor, orderId: number) => {
  const order = await requireReadableOrder(db, actor, orderId);
  if (order.verifyStatus !== VERIFY_STATUS.approved) throw new AppError('RECEIPT_ORDER_NOT_APPROVED');
  return order;
};

const requirePlan = async (db: Db, actor: Actor, id: number) => {
  const plan = await repo.findPlan(db, actor.tenantId, id);
  if (!plan) throw new AppError('PLAN_NOT_FOUND');
  await requireReadableOrder(db, actor, plan.orderId).catch(asAppError('PLAN_NOT_FOUND'));
  return plan;
};

const overOrder = (left: number) =>
  new AppError('PLAN_OVER_ORDER', `超出订单剩余可计划金额，剩余 ¥${moneyToYuan(Math.max(left, 0))}`);
const overPlan = (left: number) =>
  new AppError('RECEIPT_OVER_PLAN', `超出回款计划剩余应回金额，剩余 ¥${moneyToYuan(Math.max(left, 0))}`);

/** plancreate: the order's plans never add up to more than its amount (the order row is the lock). */
export const createPlan = async (db: Db, actor: Actor, body: PlanCreateBody) => {
  requireDetailFlag(actor, 'cMoney');
  await requireModuleOn(db, actor.tenantId, 'receipt');
  const order = await requireApprovedOrder(db, actor, body.order_id);
  const planAt = realDay(body.plan_at);
  return db.transaction(async (tx) => {
    const locked = await lockOrderRecord(tx, actor.tenantId, order.id);
    if (!locked) throw new AppError('ORDER_NOT_FOUND');
    const left = locked.amount - (await repo.plannedOfOrder(tx, actor.tenantId, order.id));
    if (body.amount > left) throw overOrder(left);
    return repo.insertPlan(tx, {
      tenantId: actor.tenantId,
      orderId: order.id,
      customerId: locked.customerId,
      ownerId: locked.ownerId,
      creatorId: actor.staffId,
      amount: body.amount,
      planAt,
      remark: body.remark,
      createdAt: now(),
    });
  });
};

/** planupdate: within the order's amount, and never below what its receipts already hold. */
export const updatePlan = async (db: Db, actor: Actor, body: PlanUpdateBody) => {
  requireDetailFlag(actor, 'cMoney');
  const plan = await requirePlan(db, actor, body.id);
  const planAt = realDay(body.plan_at);
  await db.transaction(async (tx) => {
    const order = await lockOrderRecord(tx, actor.tenantId, plan.orderId);
    if (!order) throw new AppError('PLAN_NOT_FOUND');
    await repo.lockPlan(tx, actor.tenantId, plan.id);
    const left = order.amount - (await repo.plannedOfOrder(tx, actor.tenantId, order.id, plan.id));
    if (body.amount > left) throw overOrder(left);
    const { held } = await repo.heldOfPlan(tx, actor.tenantId, plan.id);
    if (body.amount < held) throw new AppError('PLAN_BELOW_RECEIVED', `计划金额不能小于已回款金额 ¥${moneyToYuan(held)}`);
    await repo.updatePlan(tx, actor.tenantId, plan.id, { amount: body.amount, planAt, remark: body.remark });
  });
};

/** plandel: only a plan without receipts (delete them first). */
export const deletePlan = async (db: Db, actor: Actor, id: number) => {
  requireDetailFlag(actor, 'cMoney');
  const plan = await requirePlan(db, actor, id);
  await db.transaction(async (tx) => {
    await repo.lockPlan(tx, actor.tenantId, plan.id);
    if ((await repo.heldOfPlan(tx, actor.tenantId, plan.id)).count > 0) throw new AppError('PLAN_HAS_RECEIPTS');
    await repo.deletePlan(tx, actor.tenantId, plan.id);
  });
};

/** The company's receipt flow, or undefined when receipts count at once. */
const receiptFlow = async (db: Db, tenantId: number) => {
  const id = (await repo.findSettings(db, tenantId))?.approvalTemplateId;
  if (!id) return undefined;
  const t = await requireTemplate(db, tenantId, id).catch(onlyRefusal(undefined));
  if (t?.template.actionState !== 0) throw new AppError('RECEIPT_TEMPLATE_INVALID', '回款审批流程已停用或删除，请联系管理员');
  return t;
};

/**
 * create: a receipt never takes more than its plan still expects (the plan row is the lock, so two
 * receipts racing for its last amount run one after the other and the second is refused). With a
 * company receipt flow it waits for approval (held against the plan, not yet received) and the
 * engine's instance starts in the same transaction: a flow that cannot start leaves no receipt.
 */
export const createReceipt = async (db: Db, bus: Notifier | undefined, actor: Actor, body: ReceiptCreateBody) => {
  requireDetailFlag(actor, 'cReceipt');
  await requireModuleOn(db, actor.tenantId, 'receipt');
  const order = await requireApprovedOrder(db, actor, body.order_id);
  const plan = await repo.findPlan(db, actor.tenantId, body.order_repayment_plan_id);
  if (!plan || plan.orderId !== order.id) throw new AppError('RECEIPT_PLAN_MISMATCH');
  const repaymentAt = realDay(body.repayment_at);
  const flow = await receiptFlow(db, actor.tenantId);
  const out = newOutbox();
  const result = await db.transaction(async (tx) => {
    const locked = await repo.lockPlan(tx, actor.tenantId, plan.id);
    if (!locked) throw new AppError('RECEIPT_PLAN_MISMATCH');
    const left = locked.amount - (await repo.heldOfPlan(tx, actor.tenantId, plan.id)).held;
    if (body.amount > left) throw overPlan(left);
    const id = await repo.insertReceipt(tx, {
      tenantId: actor.tenantId,
      orderId: order.id,
      planId: plan.id,
      customerId: locked.customerId,
      ownerId: locked.ownerId,
      creatorId: actor.staffId,
      amount: body.amount,
      repaymentAt,
      payType: body.pay_type,
      remark: body.remark,
      verifyStatus: flow ? VERIFY_STATUS.pending : RECEIPT_APPROVAL.none,
      createdAt: now(),
    });
    await repo.refreshRepaid(tx, actor.tenantId, plan.id);
    if (!flow) return { id, verify_status: RECEIPT_APPROVAL.none };
    const link = flow.version.controls.find((c) => c.dmType === DOC_LINK_DM_TYPE);
    const r = await startInstanceIn(tx, out, actor, {
      isSave: 2,
      coMatid: flow.template.id,
      templateControls: link ? [{ coTacid: link.coTacid, dmValue: [String(id)] }] : [],
      staffApproveNode: body.staffApproveNode.map((n) => ({ nodeId: n.nodeId, staffS: n.staffS })),
    } as Parameters<typeof startInstanceIn>[3]);
    return { id, verify_status: r.verify_status };
  });
  await flushOutbox(db, bus, out);
  return result;
};

const requireReceipt = async (db: Db, actor: Actor, id: number) => {
  const r = await repo.findReceipt(db, actor.tenantId, id);
  if (!r) throw new AppError('RECEIPT_NOT_FOUND');
  await requireReadableOrder(db, actor, r.orderId).catch(asAppError('RECEIPT_NOT_FOUND'));
  return r;
};

/** update: a receipt waiting for approval or approved by the flow is not edited; the plan cap holds. */
export const updateReceipt = async (db: Db, actor: Actor, body: ReceiptUpdateBody) => {
  requireDetailFlag(actor, 'cReceipt');
  const r = await requireReceipt(db, actor, body.id);
  const repaymentAt = realDay(body.repayment_at);
  await db.transaction(async (tx) => {
    const plan = await repo.lockPlan(tx, actor.tenantId, r.planId);
    const cur = await repo.lockReceipt(tx, actor.tenantId, r.id);
    if (!plan || !cur) throw new AppError('RECEIPT_NOT_FOUND');
    if (cur.verifyStatus === VERIFY_STATUS.pending) throw new AppError('RECEIPT_IN_APPROVAL');
    if (cur.verifyStatus === VERIFY_STATUS.approved) throw new AppError('RECEIPT_APPROVED');
    const left = plan.amount - (await repo.heldOfPlan(tx, actor.tenantId, plan.id, r.id)).held;
    if (cur.verifyStatus === -1 && body.amount > left) throw overPlan(left);
    await repo.updateReceipt(tx, actor.tenantId, r.id, {
      amount: body.amount,
      repaymentAt,
      payType: body.pay_type,
      remark: body.remark,
    });
    await repo.refreshRepaid(tx, actor.tenantId, plan.id);
  });
};

/** del: any receipt but one waiting for approval (withdraw it first). */
export const deleteReceipt = async (db: Db, actor: Actor, id: number) => {
  requireDetailFlag(actor, 'cReceipt');
  const r = await requireReceipt(db, actor, id);
  await db.transaction(async (tx) => {
    await repo.lockPlan(tx, actor.tenantId, r.planId);
    const cur = await repo.lockReceipt(tx, actor.tenantId, r.id);
    if (!cur) throw new AppError('RECEIPT_NOT_FOUND');
    if (cur.verifyStatus === VERIFY_STATUS.pending) throw new AppError('RECEIPT_IN_APPROVAL');
    await repo.deleteReceipt(tx, actor.tenantId, r.id);
    await repo.refreshRepaid(tx, actor.tenantId, r.planId);
  });
};

export const presentReceipt = (r: {
  id: number;
  amount: number;
  repayment_at: string;
  created_at: string | Date;
  remark: string;
  pay_type: number;
  plan_id: number;
  order_id: number;
  verify_status: number;
  instance_id: number | null;
}) => ({
  id: r.id,
  amount: r.amount,
  repayment_at: r.repayment_at,
  created_at: formatDateTime(r.created_at),
  remark: r.remark,
  pay_type: r.pay_type,
  pay_type_name: PAY_TYPE_LABEL[r.pay_type] ?? '',
  order_repayment_plan_id: r.plan_id,
  order_id: r.order_id,
  verify_status: r.verify_status,
  instance_id: r.instance_id ?? 0,
});

export const statusName = (s: number) => PLAN_STATUS_LABEL[s] ?? '';
