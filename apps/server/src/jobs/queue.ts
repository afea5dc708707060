import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database, Db } from '../db/client';

/**
 * The durable job queue (DESIGN §1): pg-boss on the app's own database. On PostgreSQL it shares
 * the app's pg.Pool; on the embedded PGlite default it runs its SQL through PGlite (one session,
 * statements serialised, so its `BEGIN; advisory lock; …; COMMIT;` texts run as one unit). Jobs,
 * schedules and retries live in the `pgboss` schema, so they survive a restart and every server
 * instance shares them: a cron schedule fires once per cluster, a job runs on one instance.
 */
export type JobQueue = {
  boss: PgBoss;
  /** Runs `handler` for each job of `name` on this instance (created on first use). */
  work: <T extends object>(name: string, opts: WorkOptions, handler: (data: T) => Promise<void>) => Promise<void>;
  send: (name: string, data: object, opts?: PgBoss.SendOptions) => Promise<string | null>;
  /** A cron schedule kept in the database: fires once per cluster, whichever instance runs its clock. */
  schedule: (name: string, cron: string) => Promise<void>;
  stop: () => Promise<void>;
};

type Policy = 'standard' | 'singleton';
export type WorkOptions = {
  pollingIntervalSeconds?: number;
  retryLimit?: number;
  policy?: Policy;
  /** jobs of this queue this instance runs at once (one worker each) */
  concurrency?: number;
  /** a job still active after this long is failed by the queue's maintenance (default 15 min) */
  expireInHours?: number;
  /**
   * the same in seconds, for short singleton work (the call sweep): a job its instance died holding
   * would otherwise block the queue until it expires; set on an existing queue too
   */
  expireInSeconds?: number;
};

/** The queue of each open database (the job service reaches it through the `db` it is given). */
const byDb = new WeakMap<Db, JobQueue>();

export const queueOf = (db: Db): JobQueue => {
  const q = byDb.get(db);
  if (!q) throw new Error('job queue not started for this database');
  return q;
};

export const startJobQueue = async (database: Database, log: FastifyBaseLogger): Promise<JobQueue> => {
  const stopped = { value: false };
  const boss = new PgBoss({
    db: {
      // pg-boss does not await a job's completion write: one that lands after the app closed the
      // database is dropped (the job then expires and the jobs recovery settles it), not thrown
      // as an unhandled rejection (a handler still running when stop's grace ends is failed so)
      executeSql: async (text: string, values?: unknown[]) => {
        try {
          return await database.sql(text, values);
        } catch (err) {
          // complete/fail/cancel read `rows[0].count` of their `SELECT COUNT(*) FROM results`
          if (stopped.value) return { rows: /select count\(\*\) from results/i.test(text) ? [{ count: '0' }] : [] };
          throw err;
        }
      },
    },
    // archive finished jobs after 15 minutes, drop archived ones after a day: the call sweep alone
    // sends one job a second, and a job's own state lives in the `jobs` table, not here
    archiveCompletedAfterSeconds: 15 * 60,
    deleteAfterDays: 1,
    // maintenance (once per cluster) also fails expired jobs: a singleton job whose instance died
    // (kill -9) frees its queue within expireInSeconds + this (issue 25, deploy/test/two-instances.ts)
    maintenanceIntervalSeconds: 20,
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();
  const created = new Set<string>();
  const ensure = async (name: string, opts: WorkOptions = {}) => {
    if (created.has(name)) return;
    // createQueue is idempotent (insert … on conflict do nothing); `singleton`: one job active at a time
    const options: PgBoss.Queue = {
      name,
      policy: opts.policy ?? 'standard',
      retryLimit: opts.retryLimit ?? 0,
      retryDelay: 5,
      retryBackoff: true,
      ...(opts.expireInHours ? { expireInHours: opts.expireInHours } : {}),
      ...(opts.expireInSeconds ? { expireInSeconds: opts.expireInSeconds } : {}),
    };
    await boss.createQueue(name, options);
    // a queue made by an older version keeps its expiry unless told (updateQueue sets every field given)
    if (opts.expireInSeconds) await boss.updateQueue(name, options);
    created.add(name);
  };
  const q: JobQueue = {
    boss,
    work: async (name, opts, handler) => {
      await ensure(name, opts);
      for (let i = 0; i < (opts.concurrency ?? 1); i++) {
        await boss.work(name, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1 }, async (jobs) => {
          for (const job of jobs) await handler(job.data as never);
        });
      }
    },
    send: async (name, data, opts) => {
      await ensure(name);
      return boss.send(name, data, opts ?? {});
    },
    schedule: async (name, cron) => {
      await ensure(name);
      await boss.schedule(name, cron, {}, { tz: 'Asia/Shanghai' });
    },
    stop: async () => {
      if (stopped.value) return;
      stopped.value = true;
      byDb.delete(database.db);
      // graceful: handlers still running get a few seconds to finish before pg-boss fails them
      await boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false });
    },
  };
  byDb.set(database.db, q);
  return q;
};
