import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { files } from '../../db/schema';

export const insertFile = async (
  db: DbOrTx,
  row: { tenantId: number; staffId: number; originalName: string; storedName: string; mime: string; size: number; scene: string },
) => {
  const [created] = await db.insert(files).values(row).returning({ id: files.id });
  return created.id;
};

export const findFileByStoredName = async (db: DbOrTx, storedName: string) => {
  const rows = await db.select().from(files).where(eq(files.storedName, storedName)).limit(1);
  return rows[0];
};

export const findTenantFile = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.tenantId, tenantId)))
    .limit(1);
  return rows[0];
};

export const findTenantFiles = (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(files)
        .where(and(eq(files.tenantId, tenantId), inArray(files.id, ids)));

export const deleteTenantFile = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(files).where(and(eq(files.id, id), eq(files.tenantId, tenantId)));
};
