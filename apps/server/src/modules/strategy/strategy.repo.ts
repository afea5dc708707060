import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { strategies } from '../../db/schema';

export const findStrategy = async (db: DbOrTx, tenantId: number) => {
  const rows = await db.select().from(strategies).where(eq(strategies.tenantId, tenantId)).limit(1);
  return rows[0];
};

export const upsertStrategy = async (db: DbOrTx, tenantId: number, values: Omit<typeof strategies.$inferInsert, 'tenantId'>) => {
  await db
    .insert(strategies)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({ target: strategies.tenantId, set: { ...values, updatedAt: new Date() } });
};
