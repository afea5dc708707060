import type { FastifyBaseLogger } from 'fastify';
import type { CallRuntime } from '../modules/calls/call-bus';
import { runTick } from '../modules/calltasks/calltasks-runner';
import type { JobQueue } from './queue';

export const CALLTASK_QUEUE = 'calltasks-tick';
/** How often the power dialer looks for ended task calls and agents due their next call. */
const TICK_EVERY_MS = 1_000;

/**
 * The seat tasks' power dialer (issue 15) as a durable queue job: every instance offers a tick each
 * second, the queue keeps one per second (singletonSeconds) and runs one at a time (singleton
 * policy) on whichever instance, so the cluster dials once. Returns the stop of the offers.
 */
export const scheduleCalltaskRunner = async (queue: JobQueue, rt: CallRuntime, log: FastifyBaseLogger) => {
  await queue.work(CALLTASK_QUEUE, { pollingIntervalSeconds: 0.5, policy: 'singleton' }, async () => {
    try {
      await runTick(rt);
    } catch (err) {
      log.error({ err }, 'seat task tick failed');
    }
  });
  const timer = setInterval(() => {
    queue
      .send(CALLTASK_QUEUE, {}, { singletonKey: CALLTASK_QUEUE, singletonSeconds: 1, retryLimit: 0 })
      .catch((err) => log.error({ err }, 'seat task tick failed'));
  }, TICK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
};
