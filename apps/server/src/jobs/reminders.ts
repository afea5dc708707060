import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { Notifier } from '../modules/approvals/approval-notify';
import { runReceiptReminders } from '../modules/receipts/receipts-remind';
import { runWorkOrderReminders } from '../modules/workorders/workorders-remind';
import type { JobQueue } from './queue';

type Reminder = {
  queue: string;
  cron: string;
  what: string;
  /** tells whoever is due and answers how many were told */
  run: (db: Db, bus: Notifier | undefined) => Promise<number>;
};

/**
 * The periodic reminders, each a cron schedule of the durable queue (the schedule fires once per
 * cluster). Each run claims what it tells, so a later firing only catches what became due since.
 */
export const REMINDERS: Reminder[] = [
  // a plan is told at most once per business day
  { queue: 'receipts-remind', cron: '*/30 * * * *', what: 'receipt plan reminders', run: runReceiptReminders },
  // each overdue work order is told once
  { queue: 'workorders-remind', cron: '*/5 * * * *', what: 'work order overdue reminders', run: runWorkOrderReminders },
];

export const scheduleReminders = async (queue: JobQueue, db: Db, bus: Notifier | undefined, log: FastifyBaseLogger) => {
  for (const r of REMINDERS) {
    await queue.work(r.queue, { pollingIntervalSeconds: 60 }, async () => {
      const told = await r.run(db, bus);
      if (told > 0) log.info({ told }, r.what);
    });
    await queue.schedule(r.queue, r.cron);
  }
};
