import { moneyToYuan, type PaymentTerm } from '@crm/contracts';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime, parseDateTime } from '../../lib/time';
import { createPlan } from '../receipts/receipts.service';
import * as repo from './contract.repo';
import { appendAudit } from './contract-audit';

/**
 * A contract's payment terms (付款条款, 分期) and the order's receipt plans (回款计划) they become when the
 * contract is archived (issue 26: "the receipt plan can be created from the contract's payment terms").
 * The plans are made by the receipts module's own service (its rules: the order approved and readable,
 * 金额 permission, receipts switched on, plans never above the order's amount); this module never
 * touches the receipts tables.
 */

/** At create: each day real, the instalments together at most the order's amount. */
export const checkPaymentTerms = (terms: PaymentTerm[], orderAmount: number) => {
  terms.forEach((t, i) => {
    const at = parseDateTime(t.plan_at);
    if (!at || formatDateTime(at).slice(0, 10) !== t.plan_at) throw new AppError('VALIDATION', `第${i + 1}期的日期不正确`);
  });
  const total = terms.reduce((s, t) => s + t.amount, 0);
  if (total > orderAmount) {
    throw new AppError('VALIDATION', `分期金额合计 ¥${moneyToYuan(total)} 超过订单金额 ¥${moneyToYuan(orderAmount)}`);
  }
};

type ArchivedContract = {
  id: number;
  tenantId: number;
  orderId: number;
  contractNo: string;
  paymentTerms: PaymentTerm[];
  receiptPlanIds: number[] | null;
};

/**
 * Inside the archive's transaction, the contract row locked: each instalment becomes a receipt plan of
 * the order, all or none (a savepoint). Made once: the plan ids are written on the contract in the same
 * transaction, so a second archive, a retried request or a racing one finds them (or finds the contract
 * archived) and makes nothing. When the receipts service refuses (no 金额 permission, receipts off,
 * the order's plans already cover its amount…) the archive still stands: the reason goes to the audit
 * trail and the answer, the ids stay null.
 */
export const plansFromTerms = async (tx: Tx, actor: Actor, c: ArchivedContract) => {
  if (c.receiptPlanIds !== null) return { count: c.receiptPlanIds.length, msg: '' };
  if (c.paymentTerms.length === 0) return { count: 0, msg: '' };
  const n = c.paymentTerms.length;
  try {
    const ids = await tx.transaction(async (sp) => {
      const made: number[] = [];
      for (const [i, t] of c.paymentTerms.entries()) {
        const remark = `合同${c.contractNo} 第${i + 1}/${n}期${t.remark ? ` ${t.remark}` : ''}`.slice(0, 50);
        // the receipts service takes a Db; this savepoint is one (its own transaction nests inside)
        made.push(
          await createPlan(sp as unknown as Db, actor, { order_id: c.orderId, amount: t.amount, plan_at: t.plan_at, remark }),
        );
      }
      return made;
    });
    await repo.updateContract(tx, c.tenantId, c.id, { receiptPlanIds: ids });
    await appendAudit(tx, {
      tenantId: c.tenantId,
      contractId: c.id,
      action: 'receipt_plan',
      actorName: actor.name,
      detail: `付款条款生成回款计划 ${ids.length} 期`,
    });
    return { count: ids.length, msg: '' };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const msg = `回款计划未生成：${err.message}`;
    await appendAudit(tx, { tenantId: c.tenantId, contractId: c.id, action: 'receipt_plan', actorName: actor.name, detail: msg });
    return { count: 0, msg };
  }
};
