import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { jobs } from '../../db/schema';

export type JobRow = typeof jobs.$inferSelect;
/** A job as its writes name it: its id within its tenant. */
export type JobKey = { id: string; tenantId: number };

export const insertJob = async (
  db: DbOrTx,
  row: { id: string; tenantId: number; staffId: number; kind: string; total: number; payload?: unknown },
) => {
  await db.insert(jobs).values({ ...row, heartbeatAt: sql`now()` });
};

export const updateJob = async (db: DbOrTx, tenantId: number, id: string, values: Partial<typeof jobs.$inferInsert>) => {
  await db
    .update(jobs)
    .set(values)
    .where(and(eq(jobs.id, id), eq(jobs.tenantId, tenantId)));
};

/** Progress of a job still running (a late write never overwrites a finished job). */
export const updateRunningJob = async (db: DbOrTx, tenantId: number, id: string, values: Partial<typeof jobs.$inferInsert>) => {
  await db
    .update(jobs)
    .set(values)
    .where(and(eq(jobs.id, id), eq(jobs.tenantId, tenantId), eq(jobs.status, 'running')));
};

/**
 * Writes a running job for attempt `attempt` only (the fencing token): once the recovery sweep
 * handed the job to a newer attempt, the older runner's writes match nothing. True when written.
 */
export const updateAttempt = async (db: DbOrTx, job: JobKey, attempt: number, values: Partial<typeof jobs.$inferInsert>) => {
  const rows = await db
    .update(jobs)
    .set(values)
    .where(and(eq(jobs.id, job.id), eq(jobs.tenantId, job.tenantId), eq(jobs.status, 'running'), eq(jobs.attempt, attempt)))
    .returning({ id: jobs.id });
  return rows.length > 0;
};

export const findJob = async (db: DbOrTx, tenantId: number, staffId: number, id: string): Promise<JobRow | undefined> => {
  const rows = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.tenantId, tenantId), eq(jobs.staffId, staffId)))
    .limit(1);
  return rows[0];
};

export const findJobById = async (db: DbOrTx, id: string): Promise<JobRow | undefined> => {
  const rows = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
  return rows[0];
};

/**
 * Claims a running job for attempt `attempt` (a queue delivery for an older attempt, or a second
 * delivery of the same one, finds nothing). Returns the row as the previous attempt left it. A
 * queue delivery names the job by its random id only: the claim is what learns its tenant.
 */
export const claimJob = async (db: DbOrTx, id: string, attempt: number): Promise<JobRow | undefined> => {
  const rows = await db
    .update(jobs)
    .set({ attempt, heartbeatAt: sql`now()` })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.attempt, attempt - 1)))
    .returning();
  return rows[0];
};

export const touchJob = async (db: DbOrTx, job: JobKey, attempt: number) => {
  await db
    .update(jobs)
    .set({ heartbeatAt: sql`now()` })
    .where(and(eq(jobs.id, job.id), eq(jobs.tenantId, job.tenantId), eq(jobs.status, 'running'), eq(jobs.attempt, attempt)));
};

/** Running jobs whose runner stopped writing its heartbeat `staleSeconds` ago (database clock). */
export const staleRunningJobs = (db: DbOrTx, staleSeconds: number) =>
  queryRows<{ id: string; tenantId: number; kind: string; attempt: number; processed: number; has_payload: boolean }>(
    db,
    sql`select id, tenant_id as "tenantId", kind, attempt, processed, payload is not null as has_payload from jobs
        where status = 'running' and coalesce(heartbeat_at, created_at) < now() - make_interval(secs => ${staleSeconds})
        order by created_at limit 100`,
  );

/** Marks a stale job as being handed to a new attempt, so the next sweep does not hand it again. */
export const refreshStaleJob = async (db: DbOrTx, job: JobKey, attempt: number) => {
  await db
    .update(jobs)
    .set({ heartbeatAt: sql`now()` })
    .where(and(eq(jobs.id, job.id), eq(jobs.tenantId, job.tenantId), eq(jobs.status, 'running'), eq(jobs.attempt, attempt)));
};

/** The durable queue's jobs not yet finished, per pg-boss queue and state (created, retry, active). */
export const queueStateCounts = (db: DbOrTx) =>
  queryRows<{ name: string; state: string; n: number }>(
    db,
    sql`select name, state::text as state, count(*)::int as n from pgboss.job where state < 'completed' group by name, state`,
  );

/** The CRM jobs (imports, exports, batch work) running now, per kind. */
export const runningJobCounts = (db: DbOrTx) =>
  db.select({ kind: jobs.kind, n: sql<number>`count(*)::int` }).from(jobs).where(eq(jobs.status, 'running')).groupBy(jobs.kind);
