import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { files, jobs } from '../../db/schema';

export const insertJob = async (
  db: DbOrTx,
  row: { id: string; tenantId: number; staffId: number; kind: string; total: number },
) => {
  await db.insert(jobs).values(row);
};

export const updateJob = async (db: DbOrTx, id: string, values: Partial<typeof jobs.$inferInsert>) => {
  await db.update(jobs).set(values).where(eq(jobs.id, id));
};

export const findJob = async (db: DbOrTx, tenantId: number, staffId: number, id: string) => {
  const rows = await db
    .select({ job: jobs, storedName: files.storedName, fileName: files.originalName })
    .from(jobs)
    .leftJoin(files, eq(files.id, jobs.fileId))
    .where(and(eq(jobs.id, id), eq(jobs.tenantId, tenantId), eq(jobs.staffId, staffId)))
    .limit(1);
  return rows[0];
};
