import { randomUUID } from 'node:crypto';
import type { ImportResult, JobInfo } from '@crm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import { queueOf } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { fileInfosByIds } from '../uploads/uploads.service';
import * as repo from './jobs.repo';

export type JobKind = JobInfo['kind'];

/** What a job handler gets from the process that runs it. */
export type JobEnv = { db: Db; log: FastifyBaseLogger; dataDir: string };

/** What a running job may report. Progress writes are throttled to keep the database quiet. */
export type JobContext = {
  /** the job's id (a kind that writes rows of its own keys them by it) */
  jobId: string;
  setTotal: (total: number) => Promise<void>;
  progress: (processed: number) => Promise<void>;
  /**
   * Committed progress of a resumable job: call it in the transaction that commits the work
   * (or with `db` when the step committed nothing), so the count and the partial result in the
   * jobs row are exactly what the database holds when the process dies.
   */
  checkpoint: (db: DbOrTx, processed: number, result: unknown) => Promise<void>;
  /** What the attempt before this one committed; null on the first attempt. */
  resume: { processed: number; result: unknown } | null;
};

/** `result` is the kind's own summary (ImportResult for imports, BatchAllotResult for batch allocation). */
type JobOutcome = { fileId?: number | null; result?: ImportResult | Record<string, unknown> | null };

/** A kind run through the durable queue from a JSON payload, by whichever instance picks it up. */
type DurableKind = {
  run: (env: JobEnv, ctx: JobContext, payload: unknown) => Promise<JobOutcome>;
  /** After a crash: `resume` runs the kind again from its last checkpoint; `fail` ends it honestly. */
  onCrash: 'resume' | 'fail';
};

const PROGRESS_EVERY_MS = 500;
/** A runner writes its heartbeat this often… */
export const HEARTBEAT_MS = 5_000;
/** …and a running job whose heartbeat is older than this has lost its runner. */
export const STALE_SECONDS = 30;
/** Durable jobs one instance runs at once. */
const WORKERS_PER_INSTANCE = 4;
/** Attempts of a resumable job before a crash ends it as failed. */
const MAX_ATTEMPTS = 3;
/** The queue that carries durable jobs ({ jobId, attempt }). */
export const JOB_QUEUE = 'crm-job';
/** The queue of the once-per-cluster sweep that resumes or fails jobs whose runner died. */
export const RECOVER_QUEUE = 'crm-job-recover';

const kinds = new Map<string, DurableKind>();

/** Registers the handler of a durable kind (at module load, like a route). */
export const defineJob = <P>(
  kind: JobKind,
  def: { onCrash: DurableKind['onCrash']; run: (env: JobEnv, ctx: JobContext, payload: P) => Promise<JobOutcome> },
) => {
  kinds.set(kind, { onCrash: def.onCrash, run: (env, ctx, payload) => def.run(env, ctx, payload as P) });
};

const interruptedMessage = (processed: number) => `任务因服务重启中断，已处理${processed}条，请核对后重新发起剩余部分`;

/** A runner whose attempt was handed to a newer one (it looked dead): it stops without writing. */
class JobSuperseded extends Error {}

const failedMessage = (err: unknown) => (err instanceof AppError ? err.message : '任务执行失败，请稍后重试');

/** Runs a job body with heartbeat and progress, then records done/failed on the row. */
const execute = async (
  db: Db,
  log: FastifyBaseLogger,
  job: repo.JobKey,
  attempt: number,
  kind: string,
  resume: JobContext['resume'],
  run: (ctx: JobContext) => Promise<JobOutcome>,
) => {
  const { id } = job;
  let lastWrite = 0;
  let isCheckpointed = false;
  const ctx: JobContext = {
    jobId: id,
    setTotal: async (total) => {
      await repo.updateAttempt(db, job, attempt, { total });
    },
    progress: async (processed) => {
      // a checkpointing job writes its count with its commits only
      if (isCheckpointed) return;
      const now = Date.now();
      if (now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      await repo.updateAttempt(db, job, attempt, { processed });
    },
    checkpoint: async (tx, processed, result) => {
      isCheckpointed = true;
      // superseded: throwing rolls the unit of work back, so only the newer attempt commits
      if (!(await repo.updateAttempt(tx, job, attempt, { processed, result: result as Record<string, unknown> })))
        throw new JobSuperseded();
    },
    resume,
  };
  const heartbeat = setInterval(() => {
    repo.touchJob(db, job, attempt).catch((err) => log.warn({ err, jobId: id }, 'job heartbeat failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const outcome = await run(ctx);
    const row = await repo.findJobById(db, id);
    await repo.updateAttempt(db, job, attempt, {
      status: 'done',
      processed: row?.total ?? 0,
      fileId: outcome.fileId ?? null,
      result: outcome.result ?? null,
      finishedAt: new Date(),
    });
  } catch (err) {
    if (err instanceof JobSuperseded) {
      log.warn({ jobId: id, kind, attempt }, 'job attempt superseded by a newer one; stopped');
      return;
    }
    log.error({ err, jobId: id, kind }, 'job failed');
    await repo
      .updateAttempt(db, job, attempt, { status: 'failed', error: failedMessage(err), finishedAt: new Date() })
      .catch((writeErr) => log.error({ err: writeErr, jobId: id, kind }, 'job failure could not be recorded'));
  } finally {
    clearInterval(heartbeat);
  }
};

/**
 * Starts a job of a durable kind: the row and its payload are written, the queue carries it to
 * a worker on any instance, and a crash resumes it from its last checkpoint (or fails it
 * honestly). Returns the id at once; the web polls `jobInfo`.
 */
export const enqueueJob = async (db: Db, actor: Actor, kind: JobKind, payload: unknown): Promise<string> => {
  if (!kinds.has(kind)) throw new Error(`job kind ${kind} has no handler`);
  const id = randomUUID();
  await repo.insertJob(db, { id, tenantId: actor.tenantId, staffId: actor.staffId, kind, total: 0, payload: payload ?? {} });
  try {
    await queueOf(db).send(JOB_QUEUE, { jobId: id, attempt: 1 }, { singletonKey: `${id}:1` });
  } catch (err) {
    await repo.updateJob(db, actor.tenantId, id, { status: 'failed', error: '任务提交失败，请稍后重试', finishedAt: new Date() });
    throw err;
  }
  return id;
};

/** A queue delivery: claims the attempt (once only) and runs the kind's handler. */
export const runQueuedJob = async (env: JobEnv, data: { jobId: string; attempt: number }) => {
  const row = await repo.claimJob(env.db, data.jobId, data.attempt);
  if (!row) return;
  const def = kinds.get(row.kind);
  if (!def || row.payload === null) {
    await repo.updateRunningJob(env.db, row.tenantId, row.id, {
      status: 'failed',
      error: '任务类型不受支持',
      finishedAt: new Date(),
    });
    return;
  }
  const resume = data.attempt > 1 ? { processed: row.processed, result: row.result } : null;
  await execute(env.db, env.log, row, data.attempt, row.kind, resume, (ctx) => def.run(env, ctx, row.payload));
};

/**
 * The recovery sweep (once per cluster, through the queue): a running job whose heartbeat
 * stopped lost its process. A resumable kind is handed to the queue again for its next attempt
 * (the worker resumes from the committed checkpoint); any other job, or one out of attempts,
 * ends as failed with the count it had committed.
 */
export const recoverJobs = async (env: JobEnv, staleSeconds = STALE_SECONDS): Promise<number> => {
  const stale = await repo.staleRunningJobs(env.db, staleSeconds);
  for (const job of stale) {
    const def = kinds.get(job.kind);
    if (def?.onCrash === 'resume' && job.has_payload && job.attempt < MAX_ATTEMPTS) {
      const attempt = job.attempt + 1;
      await repo.refreshStaleJob(env.db, job, job.attempt);
      await queueOf(env.db).send(JOB_QUEUE, { jobId: job.id, attempt }, { singletonKey: `${job.id}:${attempt}` });
      env.log.warn({ jobId: job.id, kind: job.kind, attempt }, 'job resumed after its runner stopped');
    } else {
      await repo.updateAttempt(env.db, job, job.attempt, {
        status: 'failed',
        error: interruptedMessage(job.processed),
        finishedAt: new Date(),
      });
      env.log.warn({ jobId: job.id, kind: job.kind, processed: job.processed }, 'job failed after its runner stopped');
    }
  }
  return stale.length;
};

/** Starts this instance's job workers and the once-per-cluster recovery schedule. */
export const startJobWorkers = async (env: JobEnv) => {
  const q = queueOf(env.db);
  // several at once per instance (one user's long import does not hold another's back); the
  // queue's own expiry stays out of the way: a job's liveness is its heartbeat in `jobs`
  await q.work<{ jobId: string; attempt: number }>(
    JOB_QUEUE,
    { pollingIntervalSeconds: 10, concurrency: WORKERS_PER_INSTANCE, expireInHours: 23 },
    (data) => runQueuedJob(env, data),
  );
  await q.work(RECOVER_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
    await recoverJobs(env);
  });
  await q.schedule(RECOVER_QUEUE, '* * * * *');
  // a restart more than STALE_SECONDS after a crash need not wait for the next minute
  void recoverJobs(env).catch((err) => env.log.error({ err }, 'job recovery failed'));
};

/** A job of the caller's own. */
export const jobInfo = async (db: Db, actor: Actor, id: string): Promise<JobInfo> => {
  const job = await repo.findJob(db, actor.tenantId, actor.staffId, id);
  if (!job) throw new AppError('JOB_NOT_FOUND');
  const file = job.fileId === null ? undefined : (await fileInfosByIds(db, actor.tenantId, [job.fileId])).get(job.fileId);
  return {
    jobId: job.id,
    kind: job.kind as JobKind,
    status: job.status as JobInfo['status'],
    processed: job.processed,
    total: job.total,
    fileUrl: file?.url ?? '',
    fileName: file?.name ?? '',
    // a running job's checkpoint is its own business; the result shows once it ends
    result: job.status === 'running' ? null : ((job.result as ImportResult | null) ?? null),
    error: job.error,
    createTime: formatDateTime(job.createdAt),
  };
};

/** The caller as a job payload stores it (the permission sets as lists), and back. */
export type StoredActor = Omit<Actor, 'menuIds' | 'actions'> & { menuIds: number[]; actions: string[] };
export const storeActor = (a: Actor): StoredActor => ({ ...a, menuIds: [...a.menuIds], actions: [...a.actions] });
export const restoreActor = (a: StoredActor): Actor => ({ ...a, menuIds: new Set(a.menuIds), actions: new Set(a.actions) });

/** What GET /metrics shows of the jobs: queue jobs waiting or active per queue, CRM jobs running per kind. */
export const jobFigures = async (db: Db) => {
  const [queue, running] = await Promise.all([repo.queueStateCounts(db), repo.runningJobCounts(db)]);
  return {
    queue: queue.map((r) => ({ queue: r.name, state: r.state, count: Number(r.n) })),
    running: running.map((r) => ({ kind: r.kind, count: Number(r.n) })),
  };
};
