import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { purgeDeleted, runRecycle } from '../modules/pools/pools-recycle';

/** How often the sweep runs. Several instances may schedule it; the advisory lock lets one run at a time. */
export const RECYCLE_EVERY_MS = 5 * 60_000;
/** How often customers deleted more than 30 days ago are purged (runs in the same schedule). */
export const PURGE_EVERY_MS = 60 * 60_000;

/** Starts the in-process recycling schedule (DESIGN §1 background jobs) and the hourly purge; returns the stop function. */
export const startPoolRecycling = (db: Db, log: FastifyBaseLogger, everyMs = RECYCLE_EVERY_MS): (() => void) => {
  let isRunning = false;
  let lastPurge = 0;
  const tick = async () => {
    if (isRunning) return;
    isRunning = true;
    try {
      const r = await runRecycle(db);
      if (r.recycled > 0) log.info({ recycled: r.recycled }, 'pool recycling');
      if (Date.now() - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = Date.now();
        const purged = await purgeDeleted(db);
        if (purged > 0) log.info({ purged }, 'purged deleted customers');
      }
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
