import { and, count, desc, eq, ilike, inArray, isNull, ne, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { aibotFlows, aibotFlowVersions, aibotSettings, staff } from '../../db/schema';

export type FlowRecord = typeof aibotFlows.$inferSelect & { creatorName: string | null };
export type VersionRecord = typeof aibotFlowVersions.$inferSelect & { publisherName: string | null };
export type SettingsRecord = typeof aibotSettings.$inferSelect;

const live = (tenantId: number) => and(eq(aibotFlows.tenantId, tenantId), isNull(aibotFlows.deletedAt));
const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const whereOf = (tenantId: number, name: string): SQL | undefined =>
  name ? and(live(tenantId), ilike(aibotFlows.name, escapeLike(name))) : live(tenantId);

const flowColumns = { flow: aibotFlows, creatorName: staff.name };
const toFlow = (r: { flow: typeof aibotFlows.$inferSelect; creatorName: string | null }): FlowRecord => ({
  ...r.flow,
  creatorName: r.creatorName,
});

export const listFlows = async (db: DbOrTx, tenantId: number, name: string, limit: number, offset: number) =>
  (
    await db
      .select(flowColumns)
      .from(aibotFlows)
      .leftJoin(staff, and(eq(staff.id, aibotFlows.creatorId), eq(staff.tenantId, tenantId)))
      .where(whereOf(tenantId, name))
      .orderBy(desc(aibotFlows.id))
      .limit(limit)
      .offset(offset)
  ).map(toFlow);

export const countFlows = async (db: DbOrTx, tenantId: number, name: string) =>
  (await db.select({ n: count() }).from(aibotFlows).where(whereOf(tenantId, name)))[0].n;

export const findFlow = async (db: DbOrTx, tenantId: number, id: number): Promise<FlowRecord | undefined> => {
  const rows = await db
    .select(flowColumns)
    .from(aibotFlows)
    .leftJoin(staff, and(eq(staff.id, aibotFlows.creatorId), eq(staff.tenantId, tenantId)))
    .where(and(live(tenantId), eq(aibotFlows.id, id)))
    .limit(1);
  return rows[0] && toFlow(rows[0]);
};

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

const versionColumns = { version: aibotFlowVersions, publisherName: staff.name };

export const listVersions = async (db: DbOrTx, tenantId: number, flowId: number): Promise<VersionRecord[]> =>
  (
    await db
      .select(versionColumns)
      .from(aibotFlowVersions)
      .leftJoin(staff, and(eq(staff.id, aibotFlowVersions.publisherId), eq(staff.tenantId, tenantId)))
      .where(and(eq(aibotFlowVersions.tenantId, tenantId), eq(aibotFlowVersions.flowId, flowId)))
      .orderBy(desc(aibotFlowVersions.version))
  ).map((r) => ({ ...r.version, publisherName: r.publisherName }));

export const findVersion = async (
  db: DbOrTx,
  tenantId: number,
  flowId: number,
  version: number,
): Promise<VersionRecord | undefined> => {
  const rows = await db
    .select(versionColumns)
    .from(aibotFlowVersions)
    .leftJoin(staff, and(eq(staff.id, aibotFlowVersions.publisherId), eq(staff.tenantId, tenantId)))
    .where(
      and(eq(aibotFlowVersions.tenantId, tenantId), eq(aibotFlowVersions.flowId, flowId), eq(aibotFlowVersions.version, version)),
    )
    .limit(1);
  return rows[0] && { ...rows[0].version, publisherName: rows[0].publisherName };
};

export const findSettings = async (db: DbOrTx, tenantId: number): Promise<SettingsRecord | undefined> =>
  (await db.select().from(aibotSettings).where(eq(aibotSettings.tenantId, tenantId)).limit(1))[0];

export const saveSettings = async (db: DbOrTx, row: typeof aibotSettings.$inferInsert) => {
  const { tenantId: _, ...set } = row;
  await db.insert(aibotSettings).values(row).onConflictDoUpdate({ target: aibotSettings.tenantId, set });
};
