import type { FastifyBaseLogger } from 'fastify';
import { type AiDeps, runAiTick } from '../modules/aicall/aicall-runner';
import type { JobQueue } from './queue';

export const AICALL_QUEUE = 'aicall-tick';
/** How often the AI task runner settles ended calls and fills the tasks' free lines. */
const TICK_EVERY_MS = 1_000;

/**
 * The AI task runner (issue 16) as a durable queue job, once per cluster each second (singleton),
 * as the seat tasks' and group calls' ticks. Returns the stop of the offers.
 */
export const scheduleAicallRunner = async (queue: JobQueue, deps: AiDeps, log: FastifyBaseLogger) => {
  await queue.work(AICALL_QUEUE, { pollingIntervalSeconds: 0.5, policy: 'singleton' }, async () => {
    try {
      await runAiTick(deps);
    } catch (err) {
      log.error({ err }, 'AI task tick failed');
    }
  });
  const timer = setInterval(() => {
    queue
      .send(AICALL_QUEUE, {}, { singletonKey: AICALL_QUEUE, singletonSeconds: 1, retryLimit: 0 })
      .catch((err) => log.error({ err }, 'AI task tick failed'));
  }, TICK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
};
