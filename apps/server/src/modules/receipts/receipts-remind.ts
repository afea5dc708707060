import { moneyToYuan, RECEIPT_REMIND_MSG_TYPE } from '@crm/contracts';
import type { Db } from '../../db/client';
import { now } from '../../lib/clock';
import { staffChannel } from '../../lib/pubsub';
import type { Notifier } from '../approvals/approval-notify';
import { isPlanOverdue } from './plan-overdue';
import * as repo from './receipts.repo';
import { businessToday } from './receipts.service';

/** The socket frame of a reminder: msg_type RECEIPT_REMIND_MSG_TYPE (21; approvals use 20). */
export type ReceiptRemind = {
  planId: number;
  orderId: number;
  customerId: number;
  amount: number;
  repaid: number;
  plan_at: string;
  overdue: number;
};

/**
 * Reminders of open receipt plans due within the company's lead days (default 3) or overdue: each
 * plan's owner is told over his socket channel. The claim marks the plans in the same statement, so
 * a plan is told at most once per business day, whichever instance runs the job and however often.
 * The workbench shows the same plans as figures (due in 30 days, overdue) without the socket.
 */
export const runReceiptReminders = async (db: Db, bus: Notifier | undefined) => {
  const today = businessToday(now());
  const due = await repo.claimDueReminders(db, today);
  for (const p of due) {
    const repaid = Number(p.repaid);
    const overdue = isPlanOverdue(p.plan_at, today) ? 1 : 0;
    const data: ReceiptRemind = {
      planId: p.id,
      orderId: p.order_id,
      customerId: p.customer_id,
      amount: p.amount,
      repaid,
      plan_at: p.plan_at,
      overdue,
    };
    const left = moneyToYuan(p.amount - repaid);
    const msg = overdue ? `回款计划已逾期（${p.plan_at}），待回款 ¥${left}` : `回款计划将于${p.plan_at}到期，待回款 ¥${left}`;
    await bus
      ?.publish(staffChannel(p.owner_id), { kind: 'frame', frame: { code: 0, msg_type: RECEIPT_REMIND_MSG_TYPE, msg, data } })
      .catch(() => undefined);
  }
  return due.length;
};
