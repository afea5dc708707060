/** The phone_reveals table: one row per full number a masked viewer revealed (the daily decryptPhoneNum count). */
import { and, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { phoneReveals } from '../../db/schema';

export const countReveals = async (db: DbOrTx, tenantId: number, staffId: number, day: string) => {
  const rows = await db
    .select({ n: count() })
    .from(phoneReveals)
    .where(and(eq(phoneReveals.tenantId, tenantId), eq(phoneReveals.staffId, staffId), eq(phoneReveals.day, day)));
  return rows[0]?.n ?? 0;
};

export const insertReveal = async (db: DbOrTx, row: typeof phoneReveals.$inferInsert) => {
  await db.insert(phoneReveals).values(row);
};
