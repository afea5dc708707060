import type { FastifyBaseLogger } from 'fastify';
import { type AiDeps, runAiTick } from '../modules/aicall/aicall-runner';
import { settleEnded } from '../modules/calltasks/calltasks-outcome';
import { everyInCluster } from './cluster-tick';
import { dialerActivityOf } from './dialer-activity';
import type { JobQueue } from './queue';

export const AICALL_QUEUE = 'aicall-tick';
/** How often the AI task runner settles ended calls and fills the tasks' free lines. */
const TICK_EVERY_MS = 1_000;

/**
 * The AI task runner (issue 16) as a once-per-cluster tick each second (cluster-tick.ts), as the
 * seat tasks' and group calls' ticks (skipped when nothing can be due, the settlement shared:
 * dialer-activity.ts). Returns the stop of this instance's part.
 */
export const scheduleAicallRunner = async (queue: JobQueue, deps: AiDeps, log: FastifyBaseLogger) => {
  const activity = dialerActivityOf(deps.rt);
  return everyInCluster(
    queue,
    AICALL_QUEUE,
    TICK_EVERY_MS,
    async () => {
      try {
        if (!(await activity.isBusy())) return;
        await runAiTick(deps, () => activity.settleShared(() => settleEnded(deps.rt.db)));
      } catch (err) {
        log.error({ err }, 'AI task tick failed');
      }
    },
    log,
  );
};
