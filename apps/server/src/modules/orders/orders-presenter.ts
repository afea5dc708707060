import { ORDER_ATTR, type OrderRow, VERIFY_STATUS_LABEL } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import { formatDateTime } from '../../lib/time';
import { customerNamesOf } from '../customers/customers-for-sales';
import { staffNames } from '../staff/staff-lookup';
import * as repo from './orders.repo';

/** An order as a list row (the order page, the customer's order tab, the export). */

const attrText = (o: repo.OrderRow, id: number) => {
  const v = o.attr[String(id)];
  return Array.isArray(v) ? v.join('、') : v === null || v === undefined ? '' : String(v);
};

type Cooperator = { orderId: number; staffId: number };

/** Collaborators with their names; one whose staff record is gone is left out. */
const named = (coop: Cooperator[], names: Map<number, string>) =>
  coop.flatMap((c) => {
    const name = names.get(c.staffId);
    return name === undefined ? [] : [{ ...c, name }];
  });

/** The collaborators (协同人) of orders with their names, by staff id. */
export const cooperatorsWithNames = async (db: DbOrTx, tenantId: number, orderIds: number[]) => {
  const coop = await repo.cooperatorsOf(db, tenantId, orderIds);
  return named(
    coop,
    await staffNames(
      db,
      tenantId,
      coop.map((c) => c.staffId),
    ),
  );
};

/** List rows of orders of one tenant (each with its collaborators' ids): customer and owner names, collaborators. */
export const presentRows = async (db: DbOrTx, rows: { order: repo.OrderRow; cooperatorIds: number[] }[]): Promise<OrderRow[]> => {
  const tenantId = rows[0]?.order.tenantId ?? 0;
  const coopIds = rows.flatMap((r) => r.cooperatorIds.map((staffId) => ({ orderId: r.order.id, staffId: Number(staffId) })));
  // the owners' and the collaborators' names in one look-up
  const [customers, names] = await Promise.all([
    customerNamesOf(
      db,
      tenantId,
      rows.map((r) => r.order.customerId),
    ),
    staffNames(db, tenantId, [...rows.map((r) => r.order.ownerId), ...coopIds.map((c) => c.staffId)]),
  ]);
  const coop = named(coopIds, names);
  return rows.map(({ order: o }) => ({
    id: o.id,
    customer_id: o.customerId,
    customer_name: customers.get(o.customerId) ?? '',
    product_names: o.productNames,
    start_time: attrText(o, ORDER_ATTR.startDate),
    end_time: attrText(o, ORDER_ATTR.endDate),
    cost_price: o.amount,
    deal_time: formatDateTime(o.dealAt).slice(0, 10),
    owner: names.get(o.ownerId) ?? '',
    owner_id: o.ownerId,
    cooperators: coop.filter((c) => c.orderId === o.id).map((c) => ({ staff_id: c.staffId, linkman: c.name })),
    created_at: formatDateTime(o.createdAt),
    verify_status: o.verifyStatus,
    verify_status_name: VERIFY_STATUS_LABEL[o.verifyStatus] ?? '',
    is_below_min: o.isBelowMin,
    instance_id: o.instanceId ?? 0,
  }));
};
