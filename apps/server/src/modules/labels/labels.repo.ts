import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { customers, labels } from '../../db/schema';

export const listLabels = (db: DbOrTx, tenantId: number, actionState?: number) =>
  db
    .select({
      label: labels,
      customerNum: sql<number>`(select count(*)::int from customers c where c.tenant_id = "labels"."tenant_id" and c.label_ids @> array["labels"."id"] and c.deleted_at is null)`,
    })
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

export const findLabels = (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(labels)
        .where(and(eq(labels.tenantId, tenantId), inArray(labels.id, ids)));

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

/** Live customers carrying the tag, in label_ids or in a tag control's values. */
export const countUse = async (db: DbOrTx, tenantId: number, id: number, tagControlIds: number[]) => {
  const inControls = tagControlIds.map((cid) => sql`or c.vals @> ${JSON.stringify({ [String(cid)]: [String(id)] })}::jsonb`);
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${customers} c where c.tenant_id = ${tenantId} and c.deleted_at is null and (c.label_ids @> array[${id}]::int[] ${sql.join(inControls, sql` `)})`,
  );
  return Number(rows[0]?.n ?? 0);
};

export const insertLabel = async (db: DbOrTx, row: { tenantId: number; pid: number; name: string; sortNum: number }) => {
  const [created] = await db.insert(labels).values(row).returning({ id: labels.id });
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
};

export const deleteLabel = async (db: DbOrTx, tenantId: number, id: number) => {
  // Soft-deleted customers lose the tag too; live ones were checked to hold none.
  await db
    .update(customers)
    .set({ labelIds: sql`array_remove(${customers.labelIds}, ${id})` })
    .where(
      and(
        eq(customers.tenantId, tenantId),
        sql`${customers.labelIds} @> array[${id}]::int[]`,
        sql`${customers.deletedAt} is not null`,
      ),
    );
  await db.delete(labels).where(and(eq(labels.tenantId, tenantId), eq(labels.id, id)));
};
