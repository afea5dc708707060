import { ORDER_ATTR, type OrderRow, VERIFY_STATUS_LABEL } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import { formatDateTime } from '../../lib/time';
import * as repo from './orders.repo';

/** An order as a list row (the order page, the customer's order tab, the export). */

const attrText = (o: repo.OrderRow, id: number) => {
  const v = o.attr[String(id)];
  return Array.isArray(v) ? v.join('、') : v === null || v === undefined ? '' : String(v);
};

export const presentRows = async (
  db: DbOrTx,
  rows: { order: repo.OrderRow; customerName: string | null; ownerName: string | null }[],
): Promise<OrderRow[]> => {
  const coop = await repo.cooperatorsOf(
    db,
    rows.map((r) => r.order.id),
  );
  return rows.map(({ order: o, customerName, ownerName }) => ({
    id: o.id,
    customer_id: o.customerId,
    customer_name: customerName ?? '',
    product_names: o.productNames,
    start_time: attrText(o, ORDER_ATTR.startDate),
    end_time: attrText(o, ORDER_ATTR.endDate),
    cost_price: o.amount,
    deal_time: formatDateTime(o.dealAt).slice(0, 10),
    owner: ownerName ?? '',
    owner_id: o.ownerId,
    cooperators: coop.filter((c) => c.orderId === o.id).map((c) => ({ staff_id: c.staffId, linkman: c.name })),
    created_at: formatDateTime(o.createdAt),
    verify_status: o.verifyStatus,
    verify_status_name: VERIFY_STATUS_LABEL[o.verifyStatus] ?? '',
    is_below_min: o.isBelowMin,
    instance_id: o.instanceId ?? 0,
  }));
};
