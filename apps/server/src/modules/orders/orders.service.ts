import type { OrderListData, OrderListQuery, OrderStoreBody } from '@crm/contracts';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { requireModuleOn } from '../company/company-modules';
import { requireDetailFlag, requireVisibleCustomer } from '../customers/customer-access';
import { searchActiveStaff } from '../staff/staff-lookup';
import * as repo from './orders.repo';
import { orderFilter } from './orders-filters';
import { readAttrs, requireOrderImages } from './orders-form';
import { presentRows } from './orders-presenter';
import { priceLines } from './orders-pricing';

export { canReadOrder, requireReadableOrder } from './orders-access';
export { ORDER_MENU, orderFilter } from './orders-filters';
export { presentRows } from './orders-presenter';

export type OrderRecord = repo.OrderRow;

/** order/store: the order, 待提交 until templatecreate starts its approval. */
export const storeOrder = async (db: Db, actor: Actor, body: OrderStoreBody): Promise<number> => {
  requireDetailFlag(actor, 'cOrder');
  await requireModuleOn(db, actor.tenantId, 'order');
  const customer = await requireVisibleCustomer(db, actor, body.customer_id);
  if (body.product.length === 0) throw new AppError('PRODUCT_REQUIRED');
  if (!body.contact_phone.trim()) throw new AppError('CONTACT_PHONE_REQUIRED');
  const { attr, dealAt, startAt, endAt } = readAttrs(body.attr);
  const imageIds = await requireOrderImages(db, actor, body.images);
  const { lines, amount } = await priceLines(db, actor.tenantId, body.product);
  const at = now();
  return db.transaction((tx) =>
    repo.insertOrder(
      tx,
      {
        tenantId: actor.tenantId,
        customerId: customer.id,
        ownerId: actor.staffId,
        creatorId: actor.staffId,
        contactPhone: body.contact_phone.trim(),
        attr,
        amount,
        isBelowMin: lines.some((l) => l.isBelowMin === 1) ? 1 : 0,
        remark: body.remark.trim(),
        imageIds,
        productNames: [...new Set(lines.map((l) => l.productName))].join('、').slice(0, 500),
        verifyStatus: -1,
        dealAt: dealAt ?? at,
        startAt,
        endAt,
        createdAt: at,
      },
      lines,
    ),
  );
};

/**
 * Orders are counted exactly up to this many; past it the pager shows the planner's estimate ("约 N
 * 条"), so a filter matching every order of a big company costs no more than its page (issue 25: the
 * exact count of a keyword matching all 100,000 orders took 60-70 ms).
 */
export const ORDER_COUNT_CAP = 10_000;

/** The pager's count of a filter: exact below `cap`, else the planner's estimate (never below `cap`). */
export const countOrderMatches = async (db: Db, f: repo.OrderFilter, cap = ORDER_COUNT_CAP) => {
  const n = await repo.countOrdersUpTo(db, f, cap);
  if (n < cap) return { count: n, isCountEstimated: false };
  return { count: Math.max(cap, await repo.estimateOrders(db, f)), isCountEstimated: true };
};

export const listOrders = async (db: Db, actor: Actor, q: OrderListQuery): Promise<OrderListData> => {
  await requireModuleOn(db, actor.tenantId, 'order');
  const f = await orderFilter(db, actor, q);
  const [rows, counted] = await Promise.all([repo.listOrders(db, f, q.limit, (q.page - 1) * q.limit), countOrderMatches(db, f)]);
  return { count: counted.count, isCountEstimated: counted.isCountEstimated, list: await presentRows(db, rows) };
};

/** staff/search (SPEC §7): the company's active staff by name, for approvers, collaborators and owners. */
export const searchStaff = (db: Db, actor: Actor, linkman: string) => searchActiveStaff(db, actor.tenantId, linkman.trim());

/** An order of the tenant by id (no read check: the caller checks what it needs). */
export const findOrderRecord = (db: DbOrTx, tenantId: number, id: number) => repo.findOrder(db, tenantId, id);

/** The order row, locked for the rest of the caller's transaction (receipt plans are capped under it). */
export const lockOrderRecord = (tx: Tx, tenantId: number, id: number) => repo.lockOrder(tx, tenantId, id);
