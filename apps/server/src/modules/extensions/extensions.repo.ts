import { and, count, desc, eq, ilike, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sipAccounts } from '../../db/schema';

export type SipRecord = typeof sipAccounts.$inferSelect;
export type SipInsert = typeof sipAccounts.$inferInsert;
/** An extension as the repo hands it out; the service adds its staff's name and account type (SipRow). */
export type SipOnly = { sip: SipRecord };

const live = (tenantId: number) => and(eq(sipAccounts.tenantId, tenantId), isNull(sipAccounts.deletedAt));

const selectRows = (db: DbOrTx) => db.select({ sip: sipAccounts }).from(sipAccounts);

export type SipFilter = { tenantId: number; user?: string; actionState?: number; staffId?: number };

const whereOf = (f: SipFilter): SQL | undefined => {
  const conds: (SQL | undefined)[] = [live(f.tenantId)];
  if (f.user) conds.push(ilike(sipAccounts.user, `%${f.user.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (f.actionState !== undefined) conds.push(eq(sipAccounts.actionState, f.actionState));
  if (f.staffId !== undefined) conds.push(eq(sipAccounts.staffId, f.staffId));
  return and(...conds);
};

export const listSips = (db: DbOrTx, f: SipFilter, limit: number, offset: number): Promise<SipOnly[]> =>
  selectRows(db).where(whereOf(f)).orderBy(desc(sipAccounts.isDefault), sipAccounts.user).limit(limit).offset(offset);

export const countSips = async (db: DbOrTx, f: SipFilter) => {
  const rows = await db.select({ n: count() }).from(sipAccounts).where(whereOf(f));
  return rows[0]?.n ?? 0;
};

export const findSip = async (db: DbOrTx, tenantId: number, id: number): Promise<SipOnly | undefined> => {
  const rows = await selectRows(db)
    .where(and(live(tenantId), eq(sipAccounts.id, id)))
    .limit(1);
  return rows[0];
};

export const findDefaultSip = async (db: DbOrTx, tenantId: number, staffId: number): Promise<SipOnly | undefined> => {
  const rows = await selectRows(db)
    .where(and(live(tenantId), eq(sipAccounts.staffId, staffId), eq(sipAccounts.isDefault, true)))
    .limit(1);
  return rows[0];
};

/** The sip line knows an extension by its SIP user only; the oldest live one wins (users are unique per company). */
export const findSipByUser = async (db: DbOrTx, user: string): Promise<SipOnly | undefined> => {
  const rows = await selectRows(db)
    .where(and(isNull(sipAccounts.deletedAt), sql`lower(${sipAccounts.user}) = ${user.toLowerCase()}`))
    .orderBy(sipAccounts.id)
    .limit(1);
  return rows[0];
};

/** A device logs in by imei alone: imeis are unique across companies. */
export const findSipByImei = async (db: DbOrTx, imei: string): Promise<SipOnly | undefined> => {
  const rows = await selectRows(db)
    .where(and(isNull(sipAccounts.deletedAt), eq(sipAccounts.imei, imei)))
    .limit(1);
  return rows[0];
};

export const userTaken = async (db: DbOrTx, tenantId: number, user: string, exceptId: number) => {
  const rows = await db
    .select({ id: sipAccounts.id })
    .from(sipAccounts)
    .where(and(live(tenantId), sql`lower(${sipAccounts.user}) = ${user.toLowerCase()}`, ne(sipAccounts.id, exceptId)))
    .limit(1);
  return rows.length > 0;
};

export const imeiTaken = async (db: DbOrTx, imei: string, exceptId: number) => {
  const rows = await db
    .select({ id: sipAccounts.id })
    .from(sipAccounts)
    .where(and(isNull(sipAccounts.deletedAt), eq(sipAccounts.imei, imei), ne(sipAccounts.id, exceptId)))
    .limit(1);
  return rows.length > 0;
};

export const insertSip = async (db: DbOrTx, row: SipInsert) => {
  const [created] = await db.insert(sipAccounts).values(row).returning({ id: sipAccounts.id });
  return created.id;
};

export const updateSip = (db: DbOrTx, tenantId: number, id: number, patch: Partial<SipInsert>) =>
  db
    .update(sipAccounts)
    .set(patch)
    .where(and(eq(sipAccounts.tenantId, tenantId), eq(sipAccounts.id, id)));

/** The staff's extensions lose the default mark (before another becomes the default). */
export const clearDefault = (db: DbOrTx, tenantId: number, staffId: number) =>
  db
    .update(sipAccounts)
    .set({ isDefault: false })
    .where(and(eq(sipAccounts.tenantId, tenantId), eq(sipAccounts.staffId, staffId), eq(sipAccounts.isDefault, true)));

/** The staff's oldest extension, to become his default when he has none. */
export const firstSipOf = async (db: DbOrTx, tenantId: number, staffId: number) => {
  const rows = await db
    .select({ id: sipAccounts.id })
    .from(sipAccounts)
    .where(and(live(tenantId), eq(sipAccounts.staffId, staffId)))
    .orderBy(sipAccounts.id)
    .limit(1);
  return rows[0]?.id;
};

export const setDeviceOnline = (db: DbOrTx, tenantId: number, id: number, isOnline: boolean) =>
  db
    .update(sipAccounts)
    .set({ deviceOnline: isOnline ? 1 : 0 })
    .where(and(eq(sipAccounts.tenantId, tenantId), eq(sipAccounts.id, id)));

/** Holds the extension's row until the transaction ends: one dial at a time per extension. */
export const lockSip = async (tx: DbOrTx, id: number) => {
  await tx.select({ id: sipAccounts.id }).from(sipAccounts).where(eq(sipAccounts.id, id)).for('update');
};
