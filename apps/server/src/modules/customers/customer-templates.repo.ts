import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, customerTemplates, templateControls } from '../../db/schema';
import { settingsCache } from '../../lib/settings-cache';

export type ControlRow = typeof templateControls.$inferSelect;
export type ControlValues = Omit<typeof templateControls.$inferInsert, 'id' | 'tenantId' | 'templateId' | 'createdAt'>;

export const findTemplate = async (db: DbOrTx, tenantId: number) => {
  const rows = await db.select().from(customerTemplates).where(eq(customerTemplates.tenantId, tenantId)).limit(1);
  return rows[0];
};

export const insertTemplate = async (db: DbOrTx, tenantId: number) => {
  const [row] = await db.insert(customerTemplates).values({ tenantId }).onConflictDoNothing().returning();
  templateOf.invalidate(tenantId);
  return row ?? (await findTemplate(db, tenantId));
};

export const setMustName = async (db: DbOrTx, tenantId: number, isMustName: number) => {
  await db.update(customerTemplates).set({ isMustName, updatedAt: new Date() }).where(eq(customerTemplates.tenantId, tenantId));
  templateOf.invalidate(tenantId);
};

const listControls = (db: DbOrTx, templateId: number) =>
  db
    .select()
    .from(templateControls)
    .where(eq(templateControls.templateId, templateId))
    .orderBy(asc(templateControls.sortNum), asc(templateControls.id));

/**
 * The company's template row and its controls in order, kept by the settings cache (every customer
 * list and detail reads them); undefined before the template's first use.
 */
const templateOf = settingsCache('template', async (db: DbOrTx, tenantId: number) => {
  const template = await findTemplate(db, tenantId);
  return template && { template, controls: await listControls(db, template.id) };
});

export const findTemplateWithControls = templateOf.get;

export const findControl = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(templateControls)
    .where(and(eq(templateControls.tenantId, tenantId), eq(templateControls.id, id)))
    .limit(1);
  return rows[0];
};

export const insertControl = async (db: DbOrTx, row: ControlValues & { tenantId: number; templateId: number }) => {
  const [created] = await db.insert(templateControls).values(row).returning({ id: templateControls.id });
  templateOf.invalidate(row.tenantId);
  return created.id;
};

export const updateControl = async (db: DbOrTx, tenantId: number, id: number, values: ControlValues) => {
  await db
    .update(templateControls)
    .set(values)
    .where(and(eq(templateControls.tenantId, tenantId), eq(templateControls.id, id)));
  templateOf.invalidate(tenantId);
};

export const setControlOrder = async (db: DbOrTx, tenantId: number, id: number, sortNum: number) => {
  await db
    .update(templateControls)
    .set({ sortNum })
    .where(and(eq(templateControls.tenantId, tenantId), eq(templateControls.id, id)));
  templateOf.invalidate(tenantId);
};

export const deleteControl = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(templateControls).where(and(eq(templateControls.tenantId, tenantId), eq(templateControls.id, id)));
  templateOf.invalidate(tenantId);
};

export const countChildren = async (db: DbOrTx, id: number) => {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(templateControls).where(eq(templateControls.pid, id));
  return rows[0]?.n ?? 0;
};

/** Whether any customer (deleted ones included: they may be restored) holds a value for the control. */
export const isControlUsed = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), sql`${customers.vals} ? ${String(id)}`))
    .limit(1);
  return rows.length > 0;
};
