import { randomUUID } from 'node:crypto';
import type { ImportResult, JobInfo } from '@crm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { fileUrl } from '../uploads/uploads.service';
import * as repo from './jobs.repo';

export type JobKind = JobInfo['kind'];

/** What a running job may report. Progress writes are throttled to keep the database quiet. */
export type JobContext = {
  setTotal: (total: number) => Promise<void>;
  progress: (processed: number) => Promise<void>;
};

/** `result` is the kind's own summary (ImportResult for imports, BatchAllotResult for batch allocation). */
type JobOutcome = { fileId?: number | null; result?: ImportResult | Record<string, unknown> | null };

const PROGRESS_EVERY_MS = 500;

/**
 * Starts a job in this process and returns its id at once; the web polls `jobInfo`.
 * State lives in the database, so any server instance can answer the poll.
 */
export const startJob = async (
  db: Db,
  log: FastifyBaseLogger,
  actor: Actor,
  kind: JobKind,
  run: (ctx: JobContext) => Promise<JobOutcome>,
): Promise<string> => {
  const id = randomUUID();
  await repo.insertJob(db, { id, tenantId: actor.tenantId, staffId: actor.staffId, kind, total: 0 });
  let lastWrite = 0;
  const ctx: JobContext = {
    setTotal: (total) => repo.updateJob(db, id, { total }),
    progress: async (processed) => {
      const now = Date.now();
      if (now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      await repo.updateJob(db, id, { processed });
    },
  };
  void (async () => {
    try {
      const outcome = await run(ctx);
      const job = await repo.findJob(db, actor.tenantId, actor.staffId, id);
      await repo.updateJob(db, id, {
        status: 'done',
        processed: job?.job.total ?? 0,
        fileId: outcome.fileId ?? null,
        result: outcome.result ?? null,
        finishedAt: new Date(),
      });
    } catch (err) {
      log.error({ err, jobId: id, kind }, 'job failed');
      const msg = err instanceof AppError ? err.message : '任务执行失败，请稍后重试';
      await repo.updateJob(db, id, { status: 'failed', error: msg, finishedAt: new Date() }).catch(() => undefined);
    }
  })();
  return id;
};

/** A job of the caller's own. */
export const jobInfo = async (db: Db, actor: Actor, id: string): Promise<JobInfo> => {
  const row = await repo.findJob(db, actor.tenantId, actor.staffId, id);
  if (!row) throw new AppError('JOB_NOT_FOUND');
  const { job } = row;
  return {
    jobId: job.id,
    kind: job.kind as JobKind,
    status: job.status as JobInfo['status'],
    processed: job.processed,
    total: job.total,
    fileUrl: row.storedName ? fileUrl(row.storedName) : '',
    fileName: row.fileName ?? '',
    result: (job.result as ImportResult | null) ?? null,
    error: job.error,
    createTime: formatDateTime(job.createdAt),
  };
};
