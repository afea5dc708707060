import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { takesPartInApproval } from '../approvals/approvals-lists';
import { canSee, viewerOf } from '../customers/customer-access';
import { findCustomerRecord } from '../customers/customers.service';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './orders.repo';

/** The read policy of orders (who sees an order), used by orders, receipts and the approval engine. */

/** Who sees an order: owner in the caller's data scope, a collaborator, a participant of its approval, or one who may see its customer. */
export const canReadOrder = async (db: Db, actor: Actor, order: repo.OrderRow) => {
  const scope = await scopeStaffIds(db, actor);
  if (scope === null || scope.includes(order.ownerId)) return true;
  if (await repo.isCooperator(db, order.id, actor.staffId)) return true;
  if (await takesPartInApproval(db, actor.tenantId, 'order', order.id, actor.staffId)) return true;
  const customer = await findCustomerRecord(db, actor.tenantId, order.customerId);
  return !!customer && canSee(await viewerOf(db, actor), customer);
};

export const requireReadableOrder = async (db: Db, actor: Actor, id: number) => {
  const order = await repo.findOrder(db, actor.tenantId, id);
  if (!order || !(await canReadOrder(db, actor, order))) throw new AppError('ORDER_NOT_FOUND');
  return order;
};
