import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { strategies } from '../../db/schema';
import { settingsCache } from '../../lib/settings-cache';

/** Kept by the settings cache: every customer request reads the strategy. */
const strategyOf = settingsCache('strategy', async (db: DbOrTx, tenantId: number) => {
  const rows = await db.select().from(strategies).where(eq(strategies.tenantId, tenantId)).limit(1);
  return rows[0];
});

export const findStrategy = strategyOf.get;

export const upsertStrategy = async (db: DbOrTx, tenantId: number, values: Omit<typeof strategies.$inferInsert, 'tenantId'>) => {
  await db
    .insert(strategies)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({ target: strategies.tenantId, set: { ...values, updatedAt: new Date() } });
  strategyOf.invalidate(tenantId);
};
