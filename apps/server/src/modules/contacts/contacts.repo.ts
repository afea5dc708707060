import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customerContacts } from '../../db/schema';

export type ContactInsert = typeof customerContacts.$inferInsert;
export type ContactRecord = typeof customerContacts.$inferSelect;

/** A customer's added numbers, oldest first (a customer has a handful, so the page is cut in the service). */
export const listContacts = (db: DbOrTx, tenantId: number, customerId: number) =>
  db
    .select()
    .from(customerContacts)
    .where(and(eq(customerContacts.tenantId, tenantId), eq(customerContacts.customerId, customerId)))
    .orderBy(asc(customerContacts.id))
    .limit(1000);

export const findContact = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(customerContacts)
    .where(and(eq(customerContacts.tenantId, tenantId), eq(customerContacts.id, id)))
    .limit(1);
  return rows[0];
};

export const insertContact = async (db: DbOrTx, row: ContactInsert) => {
  const [created] = await db.insert(customerContacts).values(row).returning({ id: customerContacts.id });
  return created.id;
};

export const updateContact = async (db: DbOrTx, tenantId: number, id: number, values: Partial<ContactInsert>) => {
  await db
    .update(customerContacts)
    .set(values)
    .where(and(eq(customerContacts.tenantId, tenantId), eq(customerContacts.id, id)));
};

export const deleteContact = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(customerContacts).where(and(eq(customerContacts.tenantId, tenantId), eq(customerContacts.id, id)));
};

/** The customers (ids, deleted ones too) one of whose added numbers is exactly `phone`. */
export const customerIdsWithNumber = async (db: DbOrTx, tenantId: number, phone: string) =>
  (
    await db
      .selectDistinct({ id: customerContacts.customerId })
      .from(customerContacts)
      .where(and(eq(customerContacts.tenantId, tenantId), eq(customerContacts.contactNo, phone)))
  ).map((r) => r.id);
