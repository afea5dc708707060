/** Customers as the users of stages (stages/stage-usage): how many sit in a stage, and detaching a deleted stage. */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers } from '../../db/schema';
import type { Usage } from '../../lib/usage-registry';

/** Live customers per stage of the company (stages without any are absent). */
export const customerCountsByStage = async (db: DbOrTx, tenantId: number): Promise<Map<number, number>> => {
  const rows = await db
    .select({ stageId: customers.stageId, n: sql<number>`count(*)::int` })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), isNotNull(customers.stageId), isNull(customers.deletedAt)))
    .groupBy(customers.stageId);
  return new Map(rows.map((r) => [Number(r.stageId), Number(r.n)]));
};

/** Live customers in one stage. */
export const countCustomersInStage = async (db: DbOrTx, tenantId: number, stageId: number) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.stageId, stageId), isNull(customers.deletedAt)));
  return rows[0]?.n ?? 0;
};

/** A stage is being deleted: customers still pointing at it (soft-deleted ones) lose it and keep their history. */
export const detachStage = async (db: DbOrTx, tenantId: number, stageId: number) => {
  await db
    .update(customers)
    .set({ stageId: null })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.stageId, stageId)));
};

/** Registered by registerCustomersEvents. */
export const customerStageUse: Usage = {
  countsBy: customerCountsByStage,
  countIn: countCustomersInStage,
  detach: detachStage,
};
