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
  /**
   * Runs `handler` for each job of `name` on this instance (created on first use). A job this
   * instance sends starts at once (the send wakes a worker); the polling interval only bounds how
   * late this instance sees jobs sent by another one, cron firings and retries.
   */
  work: <T extends object>(name: string, opts: WorkOptions, handler: (data: T) => Promise<void>) => Promise<void>;
  send: (name: string, data: object, opts?: PgBoss.SendOptions) => Promise<string | null>;
  /** A cron schedule kept in the database: fires once per cluster, whichever instance runs its clock. */
  schedule: (name: string, cron: string) => Promise<void>;
  /** Creates the queue `name` with these options (once; work and send do it on first use). */
  define: (name: string, opts: WorkOptions) => Promise<void>;
  /** Runs `stop` (awaited) when the queue stops, before pg-boss does: loops of this instance that fetch by hand. */
  onStop: (stop: () => Promise<void>) => void;
  stop: () => Promise<void>;
};

type Policy = 'standard' | 'singleton' | 'stately';
export type WorkOptions = {
  pollingIntervalSeconds?: number;
  retryLimit?: number;
  policy?: Policy;
  /**
   * jobs of this queue this instance runs at once (one worker each); only the first worker polls at
   * the interval, the others are woken by sends and by a sibling that took a job
   */
  concurrency?: number;
  /** a job still active after this long is failed by the queue's maintenance (default 15 min) */
  expireInHours?: number;
  /**
   * the same in seconds, for short singleton work (the call sweep): a job its instance died holding
   * would otherwise block the queue until it expires; set on an existing queue too
   */
  expireInSeconds?: number;
};

/** Seconds between polls of a queue whose call site gives none (a send on this instance wakes it anyway). */
const DEFAULT_POLL_SECONDS = 30;
/** The polling of a queue's extra workers (concurrency > 1): woken by sends and siblings, polling is a backstop. */
const SIBLING_POLL_SECONDS = 300;

/** A job that started this long after it was sent (database clock both) says its queue lags: fetch again at once. */
const LAGGING_MS = 1_000;

/** One pg-boss worker of this instance; `busy` while its handler runs. */
type Slot = { id: string; busy: boolean };

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
    // pg-boss moves a due cron firing into its queue through an internal queue polled every 5 s by
    // default; the schedules here are minutes apart, so 15 s (issue 25: idle polling)
    cronWorkerIntervalSeconds: 15,
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
  // this instance's workers of each queue (pg-boss ids), to wake one when this instance sends a job
  const workers = new Map<string, Slot[]>();
  const wake = (name: string) => {
    const slots = workers.get(name);
    if (!slots?.length) return;
    // an idle worker fetches at once; a busy one fetches again as soon as its job ends
    const slot = slots.find((s) => !s.busy) ?? slots[0];
    if (slot?.id) boss.notifyWorker(slot.id);
  };
  const stops: (() => Promise<void>)[] = [];
  const stopping = { value: false };
  const q: JobQueue = {
    boss,
    work: async (name, opts, handler) => {
      await ensure(name, opts);
      const slots = workers.get(name) ?? [];
      workers.set(name, slots);
      // a standard queue may hold a backlog: a worker that ran a job fetches again at once and
      // wakes an idle sibling when it takes one. A singleton queue (one job active at a time) does
      // so only when its job had waited (jobs sent while another instance's was active)
      const drains = (opts.policy ?? 'standard') === 'standard';
      const poll = opts.pollingIntervalSeconds ?? DEFAULT_POLL_SECONDS;
      for (let i = 0; i < (opts.concurrency ?? 1); i++) {
        const slot: Slot = { id: '', busy: false };
        const pollingIntervalSeconds = i === 0 ? poll : Math.max(poll, SIBLING_POLL_SECONDS);
        slot.id = await boss.work(name, { pollingIntervalSeconds, includeMetadata: true }, async (jobs) => {
          slot.busy = true;
          if (drains) wake(name);
          const waited = jobs.some((job) => new Date(job.startedOn).getTime() - new Date(job.createdOn).getTime() > LAGGING_MS);
          try {
            for (const job of jobs) await handler(job.data as never);
          } finally {
            slot.busy = false;
            if ((drains || waited) && slot.id) boss.notifyWorker(slot.id);
          }
        });
        slots.push(slot);
      }
    },
    send: async (name, data, opts) => {
      await ensure(name);
      const id = await boss.send(name, data, opts ?? {});
      // null: a singleton or throttled send that added nothing (another instance's job stands)
      if (id && !opts?.startAfter) wake(name);
      return id;
    },
    define: (name, opts) => ensure(name, opts),
    onStop: (stop) => {
      stops.push(stop);
    },
    schedule: async (name, cron) => {
      await ensure(name);
      await boss.schedule(name, cron, {}, { tz: 'Asia/Shanghai' });
    },
    stop: async () => {
      if (stopping.value) return;
      stopping.value = true;
      await Promise.allSettled(stops.map((stop) => stop()));
      stopped.value = true;
      byDb.delete(database.db);
      // graceful: handlers still running get a few seconds to finish before pg-boss fails them
      await boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false });
    },
  };
  byDb.set(database.db, q);
  return q;
};
