import { and, count, desc, eq, ilike, inArray, isNull, ne, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { aibotFlows, aibotFlowVersions, aibotSettings } from '../../db/schema';

// SQL of the 话术 flows, their published versions and the company's AI settings (issue 16). Staff
// names (creator, publisher) come from the staff module (aibot.service.ts).

export type FlowRecord = typeof aibotFlows.$inferSelect;
export type VersionRecord = typeof aibotFlowVersions.$inferSelect;
export type SettingsRecord = typeof aibotSettings.$inferSelect;

const live = (tenantId: number) => and(eq(aibotFlows.tenantId, tenantId), isNull(aibotFlows.deletedAt));
const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const whereOf = (tenantId: number, name: string): SQL | undefined =>
  name ? and(live(tenantId), ilike(aibotFlows.name, escapeLike(name))) : live(tenantId);

export const listFlows = (db: DbOrTx, tenantId: number, name: string, limit: number, offset: number): Promise<FlowRecord[]> =>
  db.select().from(aibotFlows).where(whereOf(tenantId, name)).orderBy(desc(aibotFlows.id)).limit(limit).offset(offset);

export const countFlows = async (db: DbOrTx, tenantId: number, name: string) =>
  (await db.select({ n: count() }).from(aibotFlows).where(whereOf(tenantId, name)))[0].n;

export const findFlow = async (db: DbOrTx, tenantId: number, id: number): Promise<FlowRecord | undefined> =>
  (
    await db
      .select()
      .from(aibotFlows)
      .where(and(live(tenantId), eq(aibotFlows.id, id)))
      .limit(1)
  )[0];

/** Flow names by id, also of deleted flows (the AI calls that walked them keep their names). */
export const flowNames = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? new Map<number, string>()
    : new Map(
        (
          await db
            .select({ id: aibotFlows.id, name: aibotFlows.name })
            .from(aibotFlows)
            .where(and(eq(aibotFlows.tenantId, tenantId), inArray(aibotFlows.id, [...new Set(ids)])))
        ).map((r) => [r.id, r.name]),
      );

/** The flow, locked for a publish (two publishes at once get consecutive numbers). */
export const lockFlow = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(aibotFlows)
      .where(and(live(tenantId), eq(aibotFlows.id, id)))
      .for('update')
  )[0];

export const isNameTaken = async (db: DbOrTx, tenantId: number, name: string, exceptId: number) =>
  (
    await db
      .select({ id: aibotFlows.id })
      .from(aibotFlows)
      .where(and(live(tenantId), eq(aibotFlows.name, name), ne(aibotFlows.id, exceptId)))
      .limit(1)
  ).length > 0;

export const insertFlow = async (db: DbOrTx, row: typeof aibotFlows.$inferInsert) =>
  (await db.insert(aibotFlows).values(row).returning({ id: aibotFlows.id }))[0].id;

export const updateFlow = async (db: DbOrTx, tenantId: number, id: number, set: Partial<typeof aibotFlows.$inferInsert>) =>
  (
    await db
      .update(aibotFlows)
      .set(set)
      .where(and(live(tenantId), eq(aibotFlows.id, id)))
      .returning({ id: aibotFlows.id })
  ).length;

export const insertVersion = (db: DbOrTx, row: typeof aibotFlowVersions.$inferInsert) => db.insert(aibotFlowVersions).values(row);

export const listVersions = (db: DbOrTx, tenantId: number, flowId: number): Promise<VersionRecord[]> =>
  db
    .select()
    .from(aibotFlowVersions)
    .where(and(eq(aibotFlowVersions.tenantId, tenantId), eq(aibotFlowVersions.flowId, flowId)))
    .orderBy(desc(aibotFlowVersions.version));

export const findVersion = async (
  db: DbOrTx,
  tenantId: number,
  flowId: number,
  version: number,
): Promise<VersionRecord | undefined> =>
  (
    await db
      .select()
      .from(aibotFlowVersions)
      .where(
        and(
          eq(aibotFlowVersions.tenantId, tenantId),
          eq(aibotFlowVersions.flowId, flowId),
          eq(aibotFlowVersions.version, version),
        ),
      )
      .limit(1)
  )[0];

export const findSettings = async (db: DbOrTx, tenantId: number): Promise<SettingsRecord | undefined> =>
  (await db.select().from(aibotSettings).where(eq(aibotSettings.tenantId, tenantId)).limit(1))[0];

export const saveSettings = async (db: DbOrTx, row: typeof aibotSettings.$inferInsert) => {
  const { tenantId: _, ...set } = row;
  await db.insert(aibotSettings).values(row).onConflictDoUpdate({ target: aibotSettings.tenantId, set });
};
