import { formatYuan, VERIFY_STATUS } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import { registerApprovalDoc } from '../approvals/approval-docs';
import { customerNamesOf } from '../customers/customers-for-sales';
import { canReadOrder, findOrderRecord } from '../orders/orders.service';
import * as repo from './receipts.repo';
import { RECEIPT_TEMPLATE_KIND } from './receipts.service';

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
        const name = (await customerNamesOf(db, tenantId, [r.customerId])).get(r.customerId) ?? '';
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
