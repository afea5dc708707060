import type { Db } from '../../db/client';
import { now } from '../../lib/clock';
import type { Notifier } from '../approvals/approval-notify';
import * as repo from './workorders.repo';
import { notifyWork } from './workorders-access';

/** Work orders claimed per statement; the job loops until none is left. */
const CLAIM = 500;

/**
 * SLA reminders: open work orders past their due time (business clock) and not yet reminded get an
 * `overdue` event and their handler is told (msg_type 22). The claim marks them in the same statement,
 * so each due time is reminded once, whichever instance runs the job and however often; an edit that
 * moves the due time owes a new reminder.
 */
export const runWorkOrderReminders = async (db: Db, bus: Notifier | undefined) => {
  let told = 0;
  for (;;) {
    const due = await repo.claimOverdue(db, now(), CLAIM);
    for (const w of due) {
      await notifyWork(bus, w.handler_id, { kind: 'overdue', workOrderId: w.id, customerId: w.customer_id, name: w.name });
    }
    told += due.length;
    if (due.length < CLAIM) return told;
  }
};
