import {
  type ListData,
  type PlanListQuery,
  type PlanRow,
  planStatusOf,
  type ReceiptListQuery,
  type ReceiptRow,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { requireModuleOn } from '../company/company-modules';
import { requireDetailFlag, requireVisibleCustomer } from '../customers/customer-access';
import { requireReadableOrder } from '../orders/orders.service';
import { scopeStaffIds } from '../staff/staff.service';
import { businessToday, presentReceipt, statusName } from './receipts.service';
import * as lists from './receipts-lists.repo';

/** The lists of plans and receipts (回款管理, an order's or a customer's): who sees which, their filters and rows. */

/**
 * Who sees which plans and receipts: an order's (order_id) if he may read the order, a customer's
 * (customer_id) if he may see the customer; else 回款管理: the owners of his data scope, like orders.
 */
export const scopeOf = async (db: Db, actor: Actor, q: { order_id?: number; customer_id?: number }) => {
  await requireModuleOn(db, actor.tenantId, 'receipt');
  if (q.order_id) await requireReadableOrder(db, actor, q.order_id);
  if (q.customer_id) {
    requireDetailFlag(actor, 'receipt');
    await requireVisibleCustomer(db, actor, q.customer_id);
  }
  return q.order_id || q.customer_id ? null : scopeStaffIds(db, actor);
};

export const presentPlan = (p: lists.PlanAgg, today: string): PlanRow => {
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

export const planFilter = async (db: Db, actor: Actor, q: PlanListQuery): Promise<lists.PlanFilter> => ({
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
  const page = await lists.listPlansPage(db, f, q.limit, (q.page - 1) * q.limit);
  return { count: page.count, list: page.rows.map((r) => presentPlan(r, f.today)) };
};

export const receiptFilter = async (db: Db, actor: Actor, q: ReceiptListQuery): Promise<lists.ReceiptFilter> => ({
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
  const rows = await lists.listReceipts(db, f, q.limit, (q.page - 1) * q.limit);
  const count = rows[0]?.total_rows ?? (q.page > 1 ? ((await lists.listReceipts(db, f, 1, 0))[0]?.total_rows ?? 0) : 0);
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
