import type { ReceiptSummary } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { requireDetailFlag } from '../customers/customer-access';
import * as repo from './receipts.repo';
import { businessToday, presentReceipt } from './receipts.service';
import { presentPlan, scopeOf } from './receipts-lists';
import * as lists from './receipts-lists.repo';

/** The receipt summary of a customer or an order (SPEC §3): its plans with their receipts and the totals. */

/** Plans of a summary (a customer's or an order's), in one page. */
const SUMMARY_PLANS = 500;

/** SPEC §3 receipt summary of a customer or an order: the totals come from the same statement as the plans. */
export const receiptSummary = async (
  db: Db,
  actor: Actor,
  q: { customer_id?: number; order_id?: number },
): Promise<ReceiptSummary> => {
  requireDetailFlag(actor, 'receipt');
  await scopeOf(db, actor, q);
  const today = businessToday();
  const plans = await lists.listPlans(
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
