import type { FastifyBaseLogger } from 'fastify';
import type { GroupDeps } from '../modules/groupcall/groupcall-connect';
import { runGroupTick } from '../modules/groupcall/groupcall-runner';
import { everyInCluster } from './cluster-tick';
import type { JobQueue } from './queue';

export const GROUPCALL_QUEUE = 'groupcall-tick';
/** How often the group dialer settles ended calls and dials for the free agents. */
const TICK_EVERY_MS = 1_000;

/**
 * The group dialer (issue 15) as a once-per-cluster tick each second (cluster-tick.ts), as the
 * seat tasks' tick. `onTick` gets the tasks it looked at (their boards go out). Returns the stop.
 */
export const scheduleGroupcallRunner = async (
  queue: JobQueue,
  deps: GroupDeps,
  log: FastifyBaseLogger,
  onTick: (changed: Map<number, number>) => Promise<void>,
) =>
  everyInCluster(
    queue,
    GROUPCALL_QUEUE,
    TICK_EVERY_MS,
    async () => {
      try {
        await onTick(await runGroupTick(deps));
      } catch (err) {
        log.error({ err }, 'group call tick failed');
      }
    },
    log,
  );
