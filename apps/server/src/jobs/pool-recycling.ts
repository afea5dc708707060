import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { runRecycle } from '../modules/pools/pools-recycle';

/** How often the sweep runs. Several instances may schedule it; the advisory lock lets one run at a time. */
export const RECYCLE_EVERY_MS = 5 * 60_000;

/** Starts the in-process recycling schedule (DESIGN §1 background jobs); returns the stop function. */
export const startPoolRecycling = (db: Db, log: FastifyBaseLogger, everyMs = RECYCLE_EVERY_MS): (() => void) => {
  let isRunning = false;
  const tick = async () => {
    if (isRunning) return;
    isRunning = true;
    try {
      const r = await runRecycle(db);
      if (r.recycled > 0) log.info({ recycled: r.recycled }, 'pool recycling');
    } catch (err) {
      log.error({ err }, 'pool recycling failed');
    } finally {
      isRunning = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
};
