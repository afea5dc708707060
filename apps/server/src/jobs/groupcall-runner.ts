import type { FastifyBaseLogger } from 'fastify';
import type { GroupDeps } from '../modules/groupcall/groupcall-connect';
import { runGroupTick } from '../modules/groupcall/groupcall-runner';
import type { JobQueue } from './queue';

export const GROUPCALL_QUEUE = 'groupcall-tick';
/** How often the group dialer settles ended calls and dials for the free agents. */
const TICK_EVERY_MS = 1_000;

/**
 * The group dialer (issue 15) as a durable queue job, once per cluster each second (singleton), as
 * the seat tasks' tick. `onTick` gets the tasks it looked at (their boards go out). Returns the stop.
 */
export const scheduleGroupcallRunner = async (
  queue: JobQueue,
  deps: GroupDeps,
  log: FastifyBaseLogger,
  onTick: (changed: Map<number, number>) => Promise<void>,
) => {
  await queue.work(GROUPCALL_QUEUE, { pollingIntervalSeconds: 0.5, policy: 'singleton' }, async () => {
    try {
      await onTick(await runGroupTick(deps));
    } catch (err) {
      log.error({ err }, 'group call tick failed');
    }
  });
  const timer = setInterval(() => {
    queue
      .send(GROUPCALL_QUEUE, {}, { singletonKey: GROUPCALL_QUEUE, singletonSeconds: 1, retryLimit: 0 })
      .catch((err) => log.error({ err }, 'group call tick failed'));
  }, TICK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
};
