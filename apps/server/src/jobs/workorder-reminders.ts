import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { Notifier } from '../modules/approvals/approval-notify';
import { runWorkOrderReminders } from '../modules/workorders/workorders-remind';
import type { JobQueue } from './queue';

export const WORK_REMIND_QUEUE = 'workorders-remind';
/** Every 5 minutes: each overdue work order is told once (the claim marks it), so later firings catch new ones. */
export const WORK_REMIND_CRON = '*/5 * * * *';

/** Work-order SLA reminders as a cron schedule of the durable queue: the schedule fires once per cluster. */
export const scheduleWorkOrderReminders = async (queue: JobQueue, db: Db, bus: Notifier | undefined, log: FastifyBaseLogger) => {
  await queue.work(WORK_REMIND_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
    const told = await runWorkOrderReminders(db, bus);
    if (told > 0) log.info({ told }, 'work order overdue reminders');
  });
  await queue.schedule(WORK_REMIND_QUEUE, WORK_REMIND_CRON);
};
