import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { aireceptionSettings } from '../../db/schema';

// SQL of the AI reception numbers (issue 16).

export type ReceptionRow = typeof aireceptionSettings.$inferSelect;
export type ReceptionInsert = typeof aireceptionSettings.$inferInsert;

export const listSettings = (db: DbOrTx, tenantId: number) =>
  db.select().from(aireceptionSettings).where(eq(aireceptionSettings.tenantId, tenantId)).orderBy(desc(aireceptionSettings.id));

export const findSetting = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(aireceptionSettings)
      .where(and(eq(aireceptionSettings.tenantId, tenantId), eq(aireceptionSettings.id, id)))
  )[0];

/** The setting of a called number (any company: a number belongs to one). */
export const findByNumber = async (db: DbOrTx, number: string) =>
  (await db.select().from(aireceptionSettings).where(eq(aireceptionSettings.number, number)))[0];

export const isNumberTaken = async (db: DbOrTx, number: string, exceptId: number) => {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(aireceptionSettings)
    .where(and(eq(aireceptionSettings.number, number), ne(aireceptionSettings.id, exceptId)));
  return r.n > 0;
};

export const insertSetting = async (db: DbOrTx, row: ReceptionInsert) => {
  const [r] = await db.insert(aireceptionSettings).values(row).returning({ id: aireceptionSettings.id });
  return r.id;
};

export const updateSetting = (db: DbOrTx, tenantId: number, id: number, patch: Partial<ReceptionInsert>) =>
  db
    .update(aireceptionSettings)
    .set(patch)
    .where(and(eq(aireceptionSettings.tenantId, tenantId), eq(aireceptionSettings.id, id)));

export const deleteSetting = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .delete(aireceptionSettings)
      .where(and(eq(aireceptionSettings.tenantId, tenantId), eq(aireceptionSettings.id, id)))
      .returning({ id: aireceptionSettings.id })
  ).length > 0;
