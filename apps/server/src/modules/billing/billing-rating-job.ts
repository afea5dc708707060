import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { JobQueue } from '../../jobs/queue';
import { onEvent } from '../../lib/events/events';
import { endedCallForRating } from '../calls/calls-for-billing';
import * as repo from './billing.repo';
import { rateDue } from './billing.service';
import type { Notifier } from './ledger';

export const RATE_QUEUE = 'billing-rate';
/** Every minute, once per cluster: calls whose kick was lost (a crash between the commit and the send). */
const RATE_CRON = '* * * * *';

/**
 * Rating after hang-up (issue 27). calls publishes `call.ended` in the transaction that ends the
 * record; billing's reaction, in the event's delivery transaction, reads the ended record through
 * calls-for-billing.ts and writes it `pending` in its own table (keyed by the call id: a second
 * delivery adds nothing). The durable queue's job `billing-rate` then rates what is pending
 * (rateDue: each call's charge and its `rated` mark in one transaction, rows locked so a second
 * worker or instance skips them). A kill -9 anywhere leaves the call pending or rated, never
 * charged twice: the next run or the minute's schedule picks it up.
 */
export const registerBillingEvents = (kick: () => void) => {
  onEvent('call.ended', 'billing.rating', async (tx, { tenantId, payload }) => {
    const call = await endedCallForRating(tx, tenantId, payload.uuid);
    if (!call) return;
    await repo.insertPendingUsage(tx, {
      callUuid: call.uuid,
      tenantId,
      kind: call.kind,
      staffId: call.staffId,
      departmentId: call.departmentId,
      taskId: call.taskId,
      customerId: call.customerId,
      callType: call.callType,
      caller: call.caller,
      callee: call.callee,
      startAt: call.startAt,
      answerAt: call.answerAt,
      endAt: call.endAt,
      duration: call.answerAt ? call.billsec : 0,
    });
    kick();
  });
};

/** The rating worker on this instance and the minute's schedule; answers the kick (a job sent soon after, coalesced). */
export const startRating = async (queue: JobQueue, db: Db, bus: () => Notifier | undefined, log: FastifyBaseLogger) => {
  await queue.work(RATE_QUEUE, { pollingIntervalSeconds: 30, retryLimit: 5 }, async () => {
    const rated = await rateDue(db, bus());
    if (rated > 0) log.debug({ rated }, 'billing: calls rated');
  });
  await queue.schedule(RATE_QUEUE, RATE_CRON);
  let isQueued = false;
  return () => {
    if (isQueued) return;
    isQueued = true;
    // after the event's transaction commits: a job the queue runs on any instance
    const timer = setTimeout(() => {
      isQueued = false;
      queue.send(RATE_QUEUE, {}).catch((err) => log.warn({ err }, 'billing: rating job not sent (the schedule will rate)'));
    }, 100);
    timer.unref?.();
  };
};
