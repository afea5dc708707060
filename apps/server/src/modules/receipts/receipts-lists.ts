import {
  formatYuan,
  type ListData,
  type PlanListQuery,
  type PlanRow,
  planStatusOf,
  type ReceiptListQuery,
  type ReceiptRow,
  type ReceiptSummary,
  VERIFY_STATUS,
  type WorkbenchReceipts,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError, onlyRefusal } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { registerApprovalDoc } from '../approvals/approval-docs';
import { requireTemplate } from '../approvals/approval-templates.service';
import { requireModuleOn } from '../company/company-modules';
import { requireDetailFlag, requireVisibleCustomer } from '../customers/customer-access';
import { canReadOrder, findOrderRecord, requireReadableOrder } from '../orders/orders.service';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './receipts.repo';
import { businessToday, presentReceipt, RECEIPT_TEMPLATE_KIND, statusName } from './receipts.service';

/** Plans of a summary (a customer's or an order's), in one page. */
const SUMMARY_PLANS = 500;

/**
 * Who sees which plans and receipts: an order's (order_id) if he may read the order, a customer's
 * (customer_id) if he may see the customer; else 回款管理: the owners of his data scope, like orders.
 */
const scopeOf = async (db: Db, actor: Actor, q: { order_id?: number; customer_id?: number }) => {
  await requireModuleOn(db, actor.tenantId, 'receipt');
  if (q.order_id) await requireReadableOrder(db, actor, q.order_id);
  if (q.customer_id) {
    requireDetailFlag(actor, 'receipt');
    await requireVisibleCustomer(db, actor, q.customer_id);
  }
  return q.order_id || q.customer_id ? null : scopeStaffIds(db, actor);
};

const presentPlan = (p: repo.PlanAgg, today: string): PlanRow => {
  const repaid = Number(p.repaid);
  const status = planStatusOf(p.amount, repaid, p.plan_at, today);
  return {
    id: p.id,
    order_id: p.order_id,
    customer_id: p.customer_id,
    customer_name: p.customer_name ?? '',
    owner_id: p.owner_id,
    owner: p.owner_name ?? '',
    amount: p.amount,
    repaid_amount_sum: repaid,
    plan_at: p.plan_at,
    remark: p.remark,
    status,
    status_name: statusName(status),
    created_at: formatDateTime(p.created_at),
  };
};

export const planFilter = async (db: Db, actor: Actor, q: PlanListQuery): Promise<repo.PlanFilter> => ({
  tenantId: actor.tenantId,
  ownerIds: await scopeOf(db, actor, q),
  orderId: q.order_id,
  customerId: q.customer_id,
  staffId: q.staff_id,
  status: q.status,
  planFrom: q.plan_start || undefined,
  planTo: q.plan_end || undefined,
  today: businessToday(),
});

export const listPlans = async (db: Db, actor: Actor, q: PlanListQuery): Promise<ListData<PlanRow>> => {
  const f = await planFilter(db, actor, q);
  const page = await repo.listPlansPage(db, f, q.limit, (q.page - 1) * q.limit);
  return { count: page.count, list: page.rows.map((r) => presentPlan(r, f.today)) };
};

export const receiptFilter = async (db: Db, actor: Actor, q: ReceiptListQuery): Promise<repo.ReceiptFilter> => ({
  tenantId: actor.tenantId,
  ownerIds: await scopeOf(db, actor, q),
  orderId: q.order_id,
  customerId: q.customer_id,
  staffId: q.staff_id,
  payType: q.pay_type,
  from: q.start || undefined,
  to: q.end || undefined,
});

export const listReceipts = async (db: Db, actor: Actor, q: ReceiptListQuery): Promise<ListData<ReceiptRow>> => {
  const f = await receiptFilter(db, actor, q);
  const rows = await repo.listReceipts(db, f, q.limit, (q.page - 1) * q.limit);
  const count = rows[0]?.total_rows ?? (q.page > 1 ? ((await repo.listReceipts(db, f, 1, 0))[0]?.total_rows ?? 0) : 0);
  return {
    count,
    list: rows.map((r) => ({
      ...presentReceipt(r),
      customer_id: r.customer_id,
      customer_name: r.customer_name ?? '',
      owner: r.owner_name ?? '',
      plan_at: r.plan_at ?? '',
    })),
  };
};

/** SPEC §3 receipt summary of a customer or an order: the totals come from the same statement as the plans. */
export const receiptSummary = async (
  db: Db,
  actor: Actor,
  q: { customer_id?: number; order_id?: number },
): Promise<ReceiptSummary> => {
  requireDetailFlag(actor, 'receipt');
  await scopeOf(db, actor, q);
  const today = businessToday();
  const plans = await repo.listPlans(
    db,
    { tenantId: actor.tenantId, ownerIds: null, customerId: q.customer_id, orderId: q.order_id, today },
    SUMMARY_PLANS,
    0,
  );
  const receipts = await repo.receiptsOfPlans(
    db,
    actor.tenantId,
    plans.map((p) => p.id),
  );
  return {
    repaid_amount_sum: Number(plans[0]?.repaid_total ?? 0),
    plan_amount_sum: Number(plans[0]?.plan_total ?? 0),
    plan_collection: plans.map((p) => ({
      ...presentPlan(p, today),
      product_order: {
        id: p.order_id,
        name: p.product_names ?? '',
        contact_phone: p.contact_phone ?? '',
        product_order_repayments: receipts
          .filter((r) => r.planId === p.id)
          .map((r) =>
            presentReceipt({
              id: r.id,
              amount: r.amount,
              repayment_at: r.repaymentAt,
              created_at: r.createdAt,
              remark: r.remark,
              pay_type: r.payType,
              plan_id: r.planId,
              order_id: r.orderId,
              verify_status: r.verifyStatus,
              instance_id: r.instanceId,
            }),
          ),
      },
    })),
  };
};

// ---------- settings and workbench ----------

export const receiptSettings = async (db: Db, tenantId: number) => {
  const s = await repo.findSettings(db, tenantId);
  return { remind_days: s?.remindDays ?? 3, approval_template_id: s?.approvalTemplateId ?? 0 };
};

export const saveReceiptSettings = async (db: Db, actor: Actor, body: { remind_days: number; approval_template_id: number }) => {
  if (body.approval_template_id) {
    const t = await requireTemplate(db, actor.tenantId, body.approval_template_id).catch(onlyRefusal(undefined));
    if (t?.template.isOrder !== RECEIPT_TEMPLATE_KIND) throw new AppError('RECEIPT_TEMPLATE_INVALID');
  }
  await repo.saveSettings(db, actor.tenantId, body.remind_days, body.approval_template_id || null);
};

export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Workbench: received this month, open plans due in the next 30 days and overdue ones (data scope). */
export const receiptWorkbench = async (db: Db, actor: Actor): Promise<WorkbenchReceipts> => {
  const today = businessToday();
  const r = await repo.receiptFigures(
    db,
    actor.tenantId,
    await scopeStaffIds(db, actor),
    `${today.slice(0, 7)}-01`,
    today,
    addDays(today, 30),
  );
  return { monthReceived: r.received, dueIn30Days: r.due, overdue: r.overdue };
};

// ---------- approval engine ----------

/** A receipt counts as received without approval (-1) or once approved. */
const counts = (verifyStatus: number) => verifyStatus === -1 || verifyStatus === VERIFY_STATUS.approved;

/**
 * Receipts are a document type of the approval engine (doc type 'receipt', templates with isOrder 2).
 * Its effect: the receipt takes the instance's status; approved (1) it counts as received.
 */
export const registerReceiptsApproval = () =>
  registerApprovalDoc('receipt', {
    label: '回款',
    isOrder: RECEIPT_TEMPLATE_KIND,
    lockForSubmit: async (tx, actor, docId) => {
      const r = await repo.lockReceipt(tx, actor.tenantId, docId);
      if (!r || r.creatorId !== actor.staffId || r.verifyStatus !== VERIFY_STATUS.pending || r.instanceId !== null) {
        throw new AppError('APPROVAL_DOC_INVALID');
      }
    },
    onStatus: async (tx, e) => {
      // when it changes what counts (approved, or an approved one withdrawn): the plan row first (the
      // lock order of create/edit/delete), then the receipt, then the plan's stored received sum
      const r = await repo.findReceipt(tx, e.tenantId, e.docId);
      const recount = !!r && counts(r.verifyStatus) !== counts(e.status);
      if (r && recount) await repo.lockPlan(tx, e.tenantId, r.planId);
      await repo.updateReceipt(tx, e.tenantId, e.docId, { verifyStatus: e.status, instanceId: e.instanceId });
      if (r && recount) await repo.refreshRepaid(tx, e.tenantId, r.planId);
      return undefined;
    },
    summaries: async (db, tenantId, docIds) => {
      const out = new Map<number, { title: string; customerId: number; customerName: string; amount: number }>();
      for (const id of docIds) {
        const r = await repo.findReceipt(db, tenantId, id);
        if (!r) continue;
        const rows = await repo.listReceipts(db, { tenantId, ownerIds: null, orderId: r.orderId }, 1, 0);
        const name = rows[0]?.customer_name ?? '';
        out.set(id, {
          title: `回款 · ${name} · ¥${formatYuan(r.amount)}`,
          customerId: r.customerId,
          customerName: name,
          amount: r.amount,
        });
      }
      return out;
    },
    canRead: async (db, actor, docId) => {
      const r = await repo.findReceipt(db, actor.tenantId, docId);
      const order = r && (await findOrderRecord(db, actor.tenantId, r.orderId));
      return !!order && (await canReadOrder(db, actor, order));
    },
  });
