import { and, count, desc, eq, gte, ilike, inArray, isNull, like, lte, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { blackFiles, blackNumbers } from '../../db/schema';

export type BlackFileRecord = typeof blackFiles.$inferSelect;

const likeOf = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Numbers in force: manual entries (file 0) and those of live files switched on. */
const inForce = (tenantId: number): SQL | undefined =>
  and(
    eq(blackNumbers.tenantId, tenantId),
    or(
      eq(blackNumbers.fileId, 0),
      sql`exists (select 1 from ${blackFiles} f where f.id = ${blackNumbers.fileId} and f.dm_state = 0 and f.deleted_at is null)`,
    ),
  );

/** Which of these normalised numbers are blacklisted for the company. */
export const blacklistedAmong = async (db: DbOrTx, tenantId: number, phones: string[]): Promise<Set<string>> => {
  const found = new Set<string>();
  for (let i = 0; i < phones.length; i += 5000) {
    const chunk = phones.slice(i, i + 5000);
    const rows = await db
      .selectDistinct({ phone: blackNumbers.phone })
      .from(blackNumbers)
      .where(and(inForce(tenantId), inArray(blackNumbers.phone, chunk)));
    for (const r of rows) found.add(r.phone);
  }
  return found;
};

export type FileFilter = { tenantId: number; name?: string; dmState?: number; from?: Date; to?: Date };

const fileWhere = (f: FileFilter) => {
  const c: (SQL | undefined)[] = [eq(blackFiles.tenantId, f.tenantId), isNull(blackFiles.deletedAt)];
  if (f.name) c.push(ilike(blackFiles.name, likeOf(f.name)));
  if (f.dmState !== undefined) c.push(eq(blackFiles.dmState, f.dmState));
  if (f.from) c.push(gte(blackFiles.createdAt, f.from));
  if (f.to) c.push(lte(blackFiles.createdAt, f.to));
  return and(...c);
};

export const listFiles = (db: DbOrTx, f: FileFilter, limit: number, offset: number) =>
  db
    .select({ file: blackFiles })
    .from(blackFiles)
    .where(fileWhere(f))
    .orderBy(desc(blackFiles.createdAt), desc(blackFiles.id))
    .limit(limit)
    .offset(offset);

export const countFiles = async (db: DbOrTx, f: FileFilter) => {
  const rows = await db.select({ n: count() }).from(blackFiles).where(fileWhere(f));
  return rows[0]?.n ?? 0;
};

export const findFile = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(blackFiles)
    .where(and(eq(blackFiles.tenantId, tenantId), eq(blackFiles.id, id), isNull(blackFiles.deletedAt)))
    .limit(1);
  return rows[0];
};

export const insertFile = async (db: DbOrTx, row: typeof blackFiles.$inferInsert) => {
  const [created] = await db.insert(blackFiles).values(row).returning({ id: blackFiles.id });
  return created.id;
};

export const updateFile = (db: DbOrTx, tenantId: number, id: number, patch: Partial<typeof blackFiles.$inferInsert>) =>
  db
    .update(blackFiles)
    .set(patch)
    .where(and(eq(blackFiles.tenantId, tenantId), eq(blackFiles.id, id)));

export const deleteFileNumbers = (db: DbOrTx, tenantId: number, fileId: number) =>
  db.delete(blackNumbers).where(and(eq(blackNumbers.tenantId, tenantId), eq(blackNumbers.fileId, fileId)));

/** Inserts numbers (already unique within the list), in chunks. */
export const insertNumbers = async (
  db: DbOrTx,
  rows: { tenantId: number; fileId: number; phone: string; remark: string; staffId: number; createdAt: Date }[],
) => {
  for (let i = 0; i < rows.length; i += 2000) {
    await db
      .insert(blackNumbers)
      .values(rows.slice(i, i + 2000))
      .onConflictDoNothing();
  }
};

export type NumberFilter = { tenantId: number; fileId: number; phone?: string };

const numberWhere = (f: NumberFilter) =>
  and(
    eq(blackNumbers.tenantId, f.tenantId),
    eq(blackNumbers.fileId, f.fileId),
    f.phone ? like(blackNumbers.phone, likeOf(f.phone)) : undefined,
  );

export const listNumbers = (db: DbOrTx, f: NumberFilter, limit: number, offset: number) =>
  db
    .select({ n: blackNumbers })
    .from(blackNumbers)
    .where(numberWhere(f))
    .orderBy(desc(blackNumbers.id))
    .limit(limit)
    .offset(offset);

export const countNumbers = async (db: DbOrTx, f: NumberFilter) => {
  const rows = await db.select({ n: count() }).from(blackNumbers).where(numberWhere(f));
  return rows[0]?.n ?? 0;
};

export const manualNumberExists = async (db: DbOrTx, tenantId: number, phone: string) => {
  const rows = await db
    .select({ id: blackNumbers.id })
    .from(blackNumbers)
    .where(and(eq(blackNumbers.tenantId, tenantId), eq(blackNumbers.fileId, 0), eq(blackNumbers.phone, phone)))
    .limit(1);
  return rows.length > 0;
};

/** Deletes numbers by id; returns how many went and the file ids touched (to recount them). */
export const deleteNumbers = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  const rows = await db
    .delete(blackNumbers)
    .where(and(eq(blackNumbers.tenantId, tenantId), inArray(blackNumbers.id, ids)))
    .returning({ fileId: blackNumbers.fileId });
  return { count: rows.length, fileIds: [...new Set(rows.map((r) => r.fileId))] };
};

export const recountFile = (db: DbOrTx, tenantId: number, fileId: number) =>
  db
    .update(blackFiles)
    .set({
      numberCount: sql`(select count(*) from ${blackNumbers} n where n.tenant_id = ${tenantId} and n.file_id = ${fileId})::int`,
    })
    .where(and(eq(blackFiles.tenantId, tenantId), eq(blackFiles.id, fileId)));
