import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { purgeDeleted, runRecycle } from '../modules/pools/pools-recycle';
import type { JobQueue } from './queue';

export const RECYCLE_QUEUE = 'pools-recycle';
export const PURGE_QUEUE = 'customers-purge';
/** Every 5 minutes (pool recycling) and every hour (customers deleted more than 30 days ago). */
export const RECYCLE_CRON = '*/5 * * * *';
export const PURGE_CRON = '17 * * * *';

/**
 * Pool recycling and the purge as cron schedules of the durable queue (DESIGN §1): the schedule
 * lives in the database and fires once per cluster; one instance's worker runs each firing
 * (the sweep's own advisory lock still keeps two firings from overlapping).
 */
export const schedulePoolRecycling = async (queue: JobQueue, db: Db, log: FastifyBaseLogger) => {
  await queue.work(RECYCLE_QUEUE, { pollingIntervalSeconds: 60 }, async () => {
    const r = await runRecycle(db);
    if (r.recycled > 0) log.info({ recycled: r.recycled }, 'pool recycling');
  });
  await queue.work(PURGE_QUEUE, { pollingIntervalSeconds: 60 }, async () => {
    const purged = await purgeDeleted(db);
    if (purged > 0) log.info({ purged }, 'purged deleted customers');
  });
  await queue.schedule(RECYCLE_QUEUE, RECYCLE_CRON);
  await queue.schedule(PURGE_QUEUE, PURGE_CRON);
};
