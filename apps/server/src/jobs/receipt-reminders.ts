import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { Notifier } from '../modules/approvals/approval-notify';
import { runReceiptReminders } from '../modules/receipts/receipts-remind';
import type { JobQueue } from './queue';

export const RECEIPT_REMIND_QUEUE = 'receipts-remind';
/** Every 30 minutes: a plan is told at most once per business day (the claim marks it), so later firings catch new plans. */
export const RECEIPT_REMIND_CRON = '*/30 * * * *';

/** Receipt-plan reminders as a cron schedule of the durable queue: the schedule fires once per cluster. */
export const scheduleReceiptReminders = async (queue: JobQueue, db: Db, bus: Notifier | undefined, log: FastifyBaseLogger) => {
  await queue.work(RECEIPT_REMIND_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
    const told = await runReceiptReminders(db, bus);
    if (told > 0) log.info({ told }, 'receipt plan reminders');
  });
  await queue.schedule(RECEIPT_REMIND_QUEUE, RECEIPT_REMIND_CRON);
};
