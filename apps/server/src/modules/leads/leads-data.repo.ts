/** SQL of lead search's own tables besides the registry: settings, templates, lookups, cache, conversions, batch rows, lists. */
import { and, asc, count, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  leadBatchRows,
  leadConversions,
  leadLists,
  leadLookups,
  leadSearchCache,
  leadSettings,
  leadTemplates,
} from '../../db/schema';

// ---------- settings ----------

export const findSettings = async (db: DbOrTx, tenantId: number) =>
  (await db.select().from(leadSettings).where(eq(leadSettings.tenantId, tenantId)))[0];

export const saveSettings = (db: DbOrTx, tenantId: number, values: Partial<typeof leadSettings.$inferInsert>) =>
  db
    .insert(leadSettings)
    .values({ tenantId, ...values, updatedAt: new Date() })
    .onConflictDoUpdate({ target: leadSettings.tenantId, set: { ...values, updatedAt: new Date() } });

// ---------- templates ----------

export type TemplateRow = typeof leadTemplates.$inferSelect;

export const listTemplates = (db: DbOrTx, tenantId: number) =>
  db
    .select()
    .from(leadTemplates)
    .where(or(isNull(leadTemplates.tenantId), eq(leadTemplates.tenantId, tenantId)))
    .orderBy(sql`${leadTemplates.tenantId} is not null`, asc(leadTemplates.id));

export const findTemplate = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(leadTemplates)
      .where(and(eq(leadTemplates.id, id), or(isNull(leadTemplates.tenantId), eq(leadTemplates.tenantId, tenantId))))
  )[0];

export const countOwnTemplates = async (db: DbOrTx, tenantId: number) =>
  (await db.select({ n: count() }).from(leadTemplates).where(eq(leadTemplates.tenantId, tenantId)))[0]?.n ?? 0;

export const findTemplateByName = async (db: DbOrTx, tenantId: number, name: string) =>
  (
    await db
      .select()
      .from(leadTemplates)
      .where(and(eq(leadTemplates.tenantId, tenantId), eq(leadTemplates.name, name)))
  )[0];

export const insertTemplate = async (db: DbOrTx, values: typeof leadTemplates.$inferInsert) =>
  (await db.insert(leadTemplates).values(values).returning({ id: leadTemplates.id }))[0]?.id as number;

export const updateTemplate = (
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: { name: string; filters: Record<string, unknown> },
) =>
  db
    .update(leadTemplates)
    .set(values)
    .where(and(eq(leadTemplates.tenantId, tenantId), eq(leadTemplates.id, id)));

export const deleteTemplate = (db: DbOrTx, tenantId: number, id: number) =>
  db.delete(leadTemplates).where(and(eq(leadTemplates.tenantId, tenantId), eq(leadTemplates.id, id)));

/** The starter set (tenant_id null), written once; an existing name is left as it is. */
export const ensureStarterTemplates = (db: DbOrTx, starters: { name: string; filters: Record<string, unknown> }[]) =>
  db
    .insert(leadTemplates)
    .values(starters.map((s) => ({ ...s, tenantId: null })))
    .onConflictDoNothing();

// ---------- lookups (the paid calls) and the search cache ----------

export const insertLookup = (db: DbOrTx, values: typeof leadLookups.$inferInsert) => db.insert(leadLookups).values(values);

export const lookupCounts = async (db: DbOrTx, tenantId: number, since: Date) => {
  const [row] = await db
    .select({
      total: count(),
      today: sql<number>`count(*) filter (where ${leadLookups.createdAt} >= ${since.toISOString()}::timestamptz)::int`,
    })
    .from(leadLookups)
    .where(and(eq(leadLookups.tenantId, tenantId), eq(leadLookups.isOk, true)));
  return { total: Number(row?.total ?? 0), today: Number(row?.today ?? 0) };
};

export const findCachedSearch = async (db: DbOrTx, queryNorm: string, freshSince: Date) =>
  (
    await db
      .select()
      .from(leadSearchCache)
      .where(and(eq(leadSearchCache.queryNorm, queryNorm), gte(leadSearchCache.fetchedAt, freshSince)))
  )[0];

export const saveCachedSearch = (db: DbOrTx, queryNorm: string, companyIds: number[], at: Date) =>
  db
    .insert(leadSearchCache)
    .values({ queryNorm, companyIds, fetchedAt: at })
    .onConflictDoUpdate({ target: leadSearchCache.queryNorm, set: { companyIds, fetchedAt: at } });

// ---------- conversions (quota and the lead → customer link) ----------

export const conversionsOn = async (db: DbOrTx, tenantId: number, staffId: number, day: string) =>
  (
    await db
      .select({ n: count() })
      .from(leadConversions)
      .where(and(eq(leadConversions.tenantId, tenantId), eq(leadConversions.staffId, staffId), eq(leadConversions.day, day)))
  )[0]?.n ?? 0;

export const insertConversion = (db: DbOrTx, values: typeof leadConversions.$inferInsert) =>
  db.insert(leadConversions).values(values);

export const conversionsOf = (db: DbOrTx, tenantId: number, companyIds: number[]) =>
  companyIds.length === 0
    ? Promise.resolve([])
    : db
        .select({ companyId: leadConversions.companyId, customerId: leadConversions.customerId })
        .from(leadConversions)
        .where(and(eq(leadConversions.tenantId, tenantId), inArray(leadConversions.companyId, companyIds)));

// ---------- batch rows ----------

export const insertBatchRows = async (db: DbOrTx, rows: (typeof leadBatchRows.$inferInsert)[]) => {
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insert(leadBatchRows)
      .values(rows.slice(i, i + 1000))
      .onConflictDoNothing();
};

export const batchRows = (
  db: DbOrTx,
  tenantId: number,
  jobId: string,
  match: string | undefined,
  limit: number,
  offset: number,
) =>
  db
    .select()
    .from(leadBatchRows)
    .where(
      and(
        eq(leadBatchRows.tenantId, tenantId),
        eq(leadBatchRows.jobId, jobId),
        match ? eq(leadBatchRows.match, match) : undefined,
      ),
    )
    .orderBy(asc(leadBatchRows.row))
    .limit(limit)
    .offset(offset);

/** The export's keyset read: rows after `afterRow`, in order. */
export const batchRowsAfter = (
  db: DbOrTx,
  tenantId: number,
  jobId: string,
  match: string | undefined,
  afterRow: number,
  limit: number,
) =>
  db
    .select()
    .from(leadBatchRows)
    .where(
      and(
        eq(leadBatchRows.tenantId, tenantId),
        eq(leadBatchRows.jobId, jobId),
        match ? eq(leadBatchRows.match, match) : undefined,
        sql`${leadBatchRows.row} > ${afterRow}`,
      ),
    )
    .orderBy(asc(leadBatchRows.row))
    .limit(limit);

export const batchSummary = async (db: DbOrTx, tenantId: number, jobId: string) => {
  const rows = await db
    .select({ match: leadBatchRows.match, n: count() })
    .from(leadBatchRows)
    .where(and(eq(leadBatchRows.tenantId, tenantId), eq(leadBatchRows.jobId, jobId)))
    .groupBy(leadBatchRows.match);
  const by = Object.fromEntries(rows.map((r) => [r.match, Number(r.n)]));
  return { exact: by.exact ?? 0, fuzzy: by.fuzzy ?? 0, none: by.none ?? 0 };
};

// ---------- own lists ----------

export const insertList = async (db: DbOrTx, values: typeof leadLists.$inferInsert) =>
  (await db.insert(leadLists).values(values).returning({ id: leadLists.id }))[0]?.id as number;

export const setListCount = (db: DbOrTx, tenantId: number, id: number, rowCount: number) =>
  db
    .update(leadLists)
    .set({ rowCount })
    .where(and(eq(leadLists.tenantId, tenantId), eq(leadLists.id, id)));

export const listLists = (db: DbOrTx, tenantId: number, limit: number, offset: number) =>
  db
    .select()
    .from(leadLists)
    .where(eq(leadLists.tenantId, tenantId))
    .orderBy(sql`${leadLists.createdAt} desc`)
    .limit(limit)
    .offset(offset);

export const countLists = async (db: DbOrTx, tenantId: number) =>
  (await db.select({ n: count() }).from(leadLists).where(eq(leadLists.tenantId, tenantId)))[0]?.n ?? 0;

export const findList = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(leadLists)
      .where(and(eq(leadLists.tenantId, tenantId), eq(leadLists.id, id)))
  )[0];

export const deleteList = (db: DbOrTx, tenantId: number, id: number) =>
  db.delete(leadLists).where(and(eq(leadLists.tenantId, tenantId), eq(leadLists.id, id)));
