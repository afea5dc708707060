import { ACTION_STATE } from '@crm/contracts';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { labels } from '../../db/schema';
import { settingsCache } from '../../lib/settings-cache';

/** The company's labels in order: groups and tags by parent, sortNum, id. */
export const listLabels = (db: DbOrTx, tenantId: number, actionState?: number) =>
  db
    .select()
    .from(labels)
    .where(
      actionState === undefined
        ? eq(labels.tenantId, tenantId)
        : and(eq(labels.tenantId, tenantId), eq(labels.actionState, actionState)),
    )
    .orderBy(asc(labels.pid), asc(labels.sortNum), asc(labels.id));

export const findLabel = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(labels)
    .where(and(eq(labels.tenantId, tenantId), eq(labels.id, id)))
    .limit(1);
  return rows[0];
};

/** Every label of the company, kept by the settings cache: each customer list names its rows' labels. */
const labelsOf = settingsCache('labels', (db: DbOrTx, tenantId: number) => listLabels(db, tenantId));

export const findLabels = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  return (await labelsOf.get(db, tenantId)).filter((l) => wanted.has(l.id));
};

/** The company's enabled labels (groups and tags), id and name. */
export const listEnabledNames = async (db: DbOrTx, tenantId: number) =>
  (await labelsOf.get(db, tenantId))
    .filter((l) => l.actionState === ACTION_STATE.enabled)
    .map((l) => ({ id: l.id, name: l.name }));

export const nameTaken = async (db: DbOrTx, tenantId: number, pid: number, name: string, exceptId = 0) => {
  const rows = await db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.tenantId, tenantId), eq(labels.pid, pid), eq(labels.name, name), ne(labels.id, exceptId)))
    .limit(1);
  return rows.length > 0;
};

export const countChildren = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(labels)
    .where(and(eq(labels.tenantId, tenantId), eq(labels.pid, id)));
  return rows[0]?.n ?? 0;
};

export const insertLabel = async (db: DbOrTx, row: { tenantId: number; pid: number; name: string; sortNum: number }) => {
  const [created] = await db.insert(labels).values(row).returning({ id: labels.id });
  labelsOf.invalidate(row.tenantId);
  return created.id;
};

export const updateLabel = async (
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: { pid: number; name: string; sortNum: number; actionState: number },
) => {
  await db
    .update(labels)
    .set(values)
    .where(and(eq(labels.tenantId, tenantId), eq(labels.id, id)));
  labelsOf.invalidate(tenantId);
};

export const deleteLabel = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(labels).where(and(eq(labels.tenantId, tenantId), eq(labels.id, id)));
  labelsOf.invalidate(tenantId);
};
