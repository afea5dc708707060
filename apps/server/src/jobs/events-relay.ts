import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { deliver, purgeDelivered } from '../lib/events/events';
import type { JobQueue } from './queue';

export const RELAY_QUEUE = 'events-relay';
/** Every minute, once per cluster: events whose publisher died before delivering them, and retries. */
export const RELAY_CRON = '* * * * *';
/** Delivered events are kept a week (to look into), then purged by the relay. */
const KEEP_DAYS = 7;

export const startEventRelay = async (queue: JobQueue, db: Db, log: FastifyBaseLogger) => {
  await queue.work(RELAY_QUEUE, { pollingIntervalSeconds: 30, policy: 'singleton' }, async () => {
    const r = await deliver(db);
    if (r.delivered + r.failed > 0) log.warn(r, 'events relay delivered pending events');
    await purgeDelivered(db, KEEP_DAYS);
  });
  await queue.schedule(RELAY_QUEUE, RELAY_CRON);
};
