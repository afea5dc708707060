import type { FastifyBaseLogger } from 'fastify';
import type { CallRuntime } from '../modules/calls/call-bus';
import { runTick } from '../modules/calltasks/calltasks-runner';
import { everyInCluster } from './cluster-tick';
import type { JobQueue } from './queue';

export const CALLTASK_QUEUE = 'calltasks-tick';
/** How often the power dialer looks for ended task calls and agents due their next call. */
const TICK_EVERY_MS = 1_000;

/**
 * The seat tasks' power dialer (issue 15) as a once-per-cluster tick of the durable queue: the
 * instance holding the queue's lease ticks each second, so the cluster dials once
 * (cluster-tick.ts). Returns the stop of this instance's part.
 */
export const scheduleCalltaskRunner = async (queue: JobQueue, rt: CallRuntime, log: FastifyBaseLogger) =>
  everyInCluster(
    queue,
    CALLTASK_QUEUE,
    TICK_EVERY_MS,
    async () => {
      try {
        await runTick(rt);
      } catch (err) {
        log.error({ err }, 'seat task tick failed');
      }
    },
    log,
  );
