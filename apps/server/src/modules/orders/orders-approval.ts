import { formatYuan, VERIFY_STATUS } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import { publish } from '../../lib/events/events';
import { registerApprovalDoc } from '../approvals/approval-docs';
import { customerNamesOf } from '../customers/customers-for-sales';
import * as repo from './orders.repo';
import { canReadOrder } from './orders-access';

/** What a new instance may start from: 待提交, 已驳回 or 已撤回 (never a second pending flow). */
const SUBMITTABLE: number[] = [VERIFY_STATUS.draft, VERIFY_STATUS.rejected, VERIFY_STATUS.withdrawn];

/** Orders are a document type of the approval engine (doc type 'order', templates with isOrder 1). */
export const registerOrdersApproval = () =>
  registerApprovalDoc('order', {
    label: '订单',
    isOrder: 1,
    lockForSubmit: async (tx, actor, docId) => {
      const order = await repo.lockOrder(tx, actor.tenantId, docId);
      if (!order) throw new AppError('ORDER_NOT_FOUND');
      if (order.ownerId !== actor.staffId) throw new AppError('ORDER_NOT_OWNER');
      if (!SUBMITTABLE.includes(order.verifyStatus)) throw new AppError('ORDER_ALREADY_SUBMITTED');
    },
    onStatus: async (tx, e) => {
      const order = await repo.lockOrder(tx, e.tenantId, e.docId);
      if (!order) return undefined;
      await repo.updateOrder(tx, e.tenantId, order.id, {
        verifyStatus: e.status,
        instanceId: e.instanceId,
        approvedAt: e.status === VERIFY_STATUS.approved ? e.at : null,
      });
      const pendingOrders = await repo.countPendingOfCustomer(tx, e.tenantId, order.customerId);
      return publish(tx, e.tenantId, 'order.status', {
        orderId: order.id,
        customerId: order.customerId,
        ownerId: order.ownerId,
        staffId: e.staffId,
        status: e.status,
        amount: order.amount,
        productNames: order.productNames,
        pendingOrders,
        at: e.at.toISOString(),
      });
    },
    summaries: async (db, tenantId, docIds) => {
      const rows = await repo.orderSummaries(db, tenantId, docIds);
      const names = await customerNamesOf(
        db,
        tenantId,
        rows.map((s) => s.customerId),
      );
      return new Map(
        rows.map((s) => {
          const customerName = names.get(s.customerId) ?? '';
          return [
            s.id,
            {
              title: `订单 · ${customerName} · ¥${formatYuan(s.amount)}`,
              customerId: s.customerId,
              customerName,
              amount: s.amount,
            },
          ];
        }),
      );
    },
    canRead: async (db, actor, docId) => {
      const order = await repo.findOrder(db, actor.tenantId, docId);
      return !!order && (await canReadOrder(db, actor, order));
    },
  });
