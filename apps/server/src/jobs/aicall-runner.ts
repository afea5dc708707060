import type { FastifyBaseLogger } from 'fastify';
import { type AiDeps, runAiTick } from '../modules/aicall/aicall-runner';
import { everyInCluster } from './cluster-tick';
import type { JobQueue } from './queue';

export const AICALL_QUEUE = 'aicall-tick';
/** How often the AI task runner settles ended calls and fills the tasks' free lines. */
const TICK_EVERY_MS = 1_000;

/**
 * The AI task runner (issue 16) as a once-per-cluster tick each second (cluster-tick.ts), as the
 * seat tasks' and group calls' ticks. Returns the stop of this instance's part.
 */
export const scheduleAicallRunner = async (queue: JobQueue, deps: AiDeps, log: FastifyBaseLogger) =>
  everyInCluster(
    queue,
    AICALL_QUEUE,
    TICK_EVERY_MS,
    async () => {
      try {
        await runAiTick(deps);
      } catch (err) {
        log.error({ err }, 'AI task tick failed');
      }
    },
    log,
  );
