import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { purgeExpiredSessions } from '../modules/auth/auth.service';
import type { JobQueue } from './queue';

export const SESSION_PURGE_QUEUE = 'sessions-purge';
/** Every hour: sessions idle for a day or older than the maximum age (issue 11 hole 12). */
export const SESSION_PURGE_CRON = '41 * * * *';

/** The session purge as a cron schedule of the durable queue: once per cluster. */
export const scheduleSessionPurge = async (queue: JobQueue, db: Db, log: FastifyBaseLogger) => {
  await queue.work(SESSION_PURGE_QUEUE, { pollingIntervalSeconds: 60 }, async () => {
    const purged = await purgeExpiredSessions(db);
    if (purged > 0) log.info({ purged }, 'purged expired sessions');
  });
  await queue.schedule(SESSION_PURGE_QUEUE, SESSION_PURGE_CRON);
};
