import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, stages } from '../../db/schema';

export const listStages = (db: DbOrTx, tenantId: number, actionState?: number) =>
  db
    .select({
      stage: stages,
      customerNum: sql<number>`(select count(*)::int from customers c where c.stage_id = "stages"."id" and c.deleted_at is null)`,
    })
    .from(stages)
    .where(
      actionState === undefined
        ? eq(stages.tenantId, tenantId)
        : and(eq(stages.tenantId, tenantId), eq(stages.actionState, actionState)),
    )
    .orderBy(asc(stages.sortNum), asc(stages.id));

export const findStage = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(stages)
    .where(and(eq(stages.tenantId, tenantId), eq(stages.id, id)))
    .limit(1);
  return rows[0];
};

export const nameTaken = async (db: DbOrTx, tenantId: number, name: string, exceptId = 0) => {
  const rows = await db
    .select({ id: stages.id })
    .from(stages)
    .where(and(eq(stages.tenantId, tenantId), eq(stages.name, name), ne(stages.id, exceptId)))
    .limit(1);
  return rows.length > 0;
};

export const countCustomers = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.stageId, id), isNull(customers.deletedAt)));
  return rows[0]?.n ?? 0;
};

export const insertStage = async (db: DbOrTx, row: { tenantId: number; name: string; sortNum: number }) => {
  const [created] = await db.insert(stages).values(row).returning({ id: stages.id });
  return created.id;
};

export const updateStage = async (
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: { name: string; sortNum: number; actionState: number },
) => {
  await db
    .update(stages)
    .set(values)
    .where(and(eq(stages.tenantId, tenantId), eq(stages.id, id)));
};

export const deleteStage = async (db: DbOrTx, tenantId: number, id: number) => {
  // Soft-deleted customers may still point at it: detach them, they keep their history.
  await db
    .update(customers)
    .set({ stageId: null })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.stageId, id)));
  await db.delete(stages).where(and(eq(stages.tenantId, tenantId), eq(stages.id, id)));
};

/** The stage of that name (the 成交 stage an approved order moves its customer to). */
export const findStageByName = async (db: DbOrTx, tenantId: number, name: string) =>
  (
    await db
      .select()
      .from(stages)
      .where(and(eq(stages.tenantId, tenantId), eq(stages.name, name)))
      .limit(1)
  )[0];
