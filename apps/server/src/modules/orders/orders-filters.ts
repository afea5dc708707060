import type { OrderListQuery } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { parseDateTime } from '../../lib/time';
import { canUseMenu } from '../../plugins/auth';
import { requireDetailFlag, requireVisibleCustomer } from '../customers/customer-access';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './orders.repo';

/** The filter of an order list or export: which orders the caller sees, and the query's conditions. */

export const ORDER_MENU = '/order/list';

const COOPERATED_INLINE = 2_000;
const cooperatedOf = async (db: Db, actor: Actor) => {
  const ids = await repo.cooperatedOrderIds(db, actor.tenantId, actor.staffId, COOPERATED_INLINE + 1);
  return ids.length > COOPERATED_INLINE ? { staffId: actor.staffId } : ids;
};

const dayBound = (s: string, end: boolean) =>
  s ? (parseDateTime(s.length === 10 ? `${s} ${end ? '23:59:59' : '00:00:00'}` : s) ?? undefined) : undefined;

/**
 * The filter of a list: the order page shows the caller's data scope plus the orders he collaborates
 * on; a customer's order tab (customer_id) shows the orders of a customer he may see.
 */
export const orderFilter = async (db: Db, actor: Actor, q: OrderListQuery): Promise<repo.OrderFilter> => {
  let ownerIds: number[] | null;
  if (q.customer_id) {
    requireDetailFlag(actor, 'order');
    await requireVisibleCustomer(db, actor, q.customer_id);
    ownerIds = null;
  } else {
    if (!canUseMenu(actor, ORDER_MENU)) throw new AppError('FORBIDDEN_MENU');
    ownerIds = await scopeStaffIds(db, actor);
  }
  return {
    tenantId: actor.tenantId,
    ownerIds,
    cooperated: ownerIds === null ? undefined : await cooperatedOf(db, actor),
    customerId: q.customer_id,
    keyword: q.keyword.trim(),
    staffId: q.staff_id,
    verifyStatus: q.verify_status,
    dealFrom: dayBound(q.deal_start, false),
    dealTo: dayBound(q.deal_end, true),
    amountMin: q.amount_min,
    amountMax: q.amount_max,
  };
};
