import { and, count, desc, eq, gt, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { dialRefusals, doNotCall } from '../../db/schema';

// Calling compliance (issue 15): all the SQL of the 禁拨 list, the refusal log and the per-number caps.

export type DncRecord = typeof doNotCall.$inferSelect;
export type DncInsert = typeof doNotCall.$inferInsert;
export type RefusalInsert = typeof dialRefusals.$inferInsert;

/** An entry in force at `at` (not expired). */
const inForceAt = (at: Date) => or(isNull(doNotCall.expiresAt), gt(doNotCall.expiresAt, at));

export const findDncInForce = async (db: DbOrTx, tenantId: number, phone: string, at: Date) => {
  const rows = await db
    .select()
    .from(doNotCall)
    .where(and(eq(doNotCall.tenantId, tenantId), eq(doNotCall.phone, phone), inForceAt(at)))
    .limit(1);
  return rows[0];
};

/** Adds the number, or renews its entry (a new reason, source and expiry). Returns whether it was in force before. */
export const upsertDnc = async (db: DbOrTx, row: DncInsert & { createdAt: Date }) => {
  const wasInForce = Boolean(await findDncInForce(db, row.tenantId, row.phone, row.createdAt));
  const { tenantId: _t, phone: _p, ...set } = row;
  const rows = await db
    .insert(doNotCall)
    .values(row)
    .onConflictDoUpdate({ target: [doNotCall.tenantId, doNotCall.phone], set })
    .returning({ id: doNotCall.id });
  return { id: rows[0].id, wasInForce };
};

export const deleteDnc = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .delete(doNotCall)
    .where(and(eq(doNotCall.tenantId, tenantId), eq(doNotCall.id, id)))
    .returning({ id: doNotCall.id });
  return rows.length;
};

export type DncFilter = { tenantId: number; phone?: { exact: string } | { part: string } };

const dncWhere = (f: DncFilter) => {
  const c: (SQL | undefined)[] = [eq(doNotCall.tenantId, f.tenantId)];
  if (f.phone && 'exact' in f.phone) c.push(eq(doNotCall.phone, f.phone.exact));
  if (f.phone && 'part' in f.phone) c.push(sql`strpos(${doNotCall.phone}, ${f.phone.part}) > 0`);
  return and(...c);
};

export const listDnc = (db: DbOrTx, f: DncFilter, limit: number, offset: number) =>
  db
    .select({ entry: doNotCall })
    .from(doNotCall)
    .where(dncWhere(f))
    .orderBy(desc(doNotCall.createdAt), desc(doNotCall.id))
    .limit(limit)
    .offset(offset);

export const countDnc = async (db: DbOrTx, f: DncFilter) => {
  const rows = await db.select({ n: count() }).from(doNotCall).where(dncWhere(f));
  return rows[0]?.n ?? 0;
};

// ---------- per-number caps ----------

/**
 * Serialises the dials of one company to one number until the transaction ends, so two dials at
 * once cannot both pass a cap (the count and the insert of the call record share the lock).
 */
export const lockNumber = async (db: DbOrTx, tenantId: number, phone: string) => {
  await db.execute(sql`select pg_advisory_xact_lock(${tenantId}::int, hashtext(${phone}))`);
};

// ---------- the refusal log ----------

export const insertRefusal = async (db: DbOrTx, row: RefusalInsert) => {
  await db.insert(dialRefusals).values(row);
};

export type RefusalFilter = {
  tenantId: number;
  /** staff in the caller's data scope (null: all, server legs included) */
  scope: number[] | null;
  staffId?: number;
  codes?: number[];
  from?: Date;
  to?: Date;
};

const refusalWhere = (f: RefusalFilter) => {
  const c: (SQL | undefined)[] = [eq(dialRefusals.tenantId, f.tenantId)];
  if (f.scope !== null) c.push(f.scope.length ? inArray(dialRefusals.staffId, f.scope) : sql`false`);
  if (f.staffId !== undefined) c.push(eq(dialRefusals.staffId, f.staffId));
  if (f.codes) c.push(inArray(dialRefusals.code, f.codes));
  if (f.from) c.push(gte(dialRefusals.createdAt, f.from));
  if (f.to) c.push(lte(dialRefusals.createdAt, f.to));
  return and(...c);
};

export const listRefusals = (db: DbOrTx, f: RefusalFilter, limit: number, offset: number) =>
  db
    .select({ refusal: dialRefusals })
    .from(dialRefusals)
    .where(refusalWhere(f))
    .orderBy(desc(dialRefusals.createdAt), desc(dialRefusals.id))
    .limit(limit)
    .offset(offset);

export const countRefusals = async (db: DbOrTx, f: RefusalFilter) => {
  const rows = await db.select({ n: count() }).from(dialRefusals).where(refusalWhere(f));
  return rows[0]?.n ?? 0;
};

/** Refusals per Beijing day and code since `from`. */
export const refusalsPerDay = async (db: DbOrTx, f: RefusalFilter) => {
  const day = sql<string>`to_char(${dialRefusals.createdAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
  return db
    .select({ day, code: dialRefusals.code, n: count() })
    .from(dialRefusals)
    .where(refusalWhere(f))
    .groupBy(day, dialRefusals.code);
};
