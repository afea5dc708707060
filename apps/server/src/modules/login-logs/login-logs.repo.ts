import { and, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loginLogs } from '../../db/schema';

export type LoginLogFilter = {
  tenantId: number;
  staffIds: number[] | null;
  staffId?: number;
  isSuccess?: boolean;
  from?: Date | null;
  to?: Date | null;
};

export const listLoginLogs = async (db: DbOrTx, f: LoginLogFilter, page: number, limit: number) => {
  const conds: SQL[] = [eq(loginLogs.tenantId, f.tenantId)];
  if (f.staffIds) conds.push(inArray(loginLogs.staffId, f.staffIds));
  if (f.staffId !== undefined) conds.push(eq(loginLogs.staffId, f.staffId));
  if (f.isSuccess !== undefined) conds.push(eq(loginLogs.isSuccess, f.isSuccess));
  if (f.from) conds.push(gte(loginLogs.createdAt, f.from));
  if (f.to) conds.push(lte(loginLogs.createdAt, f.to));
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(loginLogs)
      .where(where)
      .orderBy(desc(loginLogs.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: sql<number>`count(*)::int` }).from(loginLogs).where(where),
  ]);
  return { rows, count: total[0]?.n ?? 0 };
};

/** The successful logins of one staff member, newest first. */
export const recentSuccesses = (db: DbOrTx, staffId: number, n: number) =>
  db
    .select({ ip: loginLogs.ip, createdAt: loginLogs.createdAt })
    .from(loginLogs)
    .where(and(eq(loginLogs.staffId, staffId), eq(loginLogs.isSuccess, true)))
    .orderBy(desc(loginLogs.id))
    .limit(n);

export const countTenantLoginsSince = async (db: DbOrTx, tenantId: number, since: Date) => {
  const rows = await db
    .select({ n: sql<number>`count(distinct ${loginLogs.staffId})::int` })
    .from(loginLogs)
    .where(and(eq(loginLogs.tenantId, tenantId), eq(loginLogs.isSuccess, true), gte(loginLogs.createdAt, since)));
  return rows[0]?.n ?? 0;
};

/** Failed logins against one account from any address, whether its name or phone was typed. */
export const countAccountFailures = async (
  db: DbOrTx,
  username: string,
  staffId: number | null,
  since: Date,
): Promise<number> => {
  const who =
    staffId === null
      ? sql`lower(${loginLogs.username}) = lower(${username})`
      : or(sql`lower(${loginLogs.username}) = lower(${username})`, eq(loginLogs.staffId, staffId));
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginLogs)
    .where(and(who, eq(loginLogs.isSuccess, false), gte(loginLogs.createdAt, since)));
  return rows[0]?.n ?? 0;
};

/** Failed logins from one address across every account (password spraying). */
export const countAddressFailures = async (db: DbOrTx, ip: string, since: Date): Promise<number> => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginLogs)
    .where(and(eq(loginLogs.ip, ip), eq(loginLogs.isSuccess, false), gte(loginLogs.createdAt, since)));
  return rows[0]?.n ?? 0;
};

export type LoginAttempt = {
  tenantId: number | null;
  staffId: number | null;
  username: string;
  ip: string;
  userAgent: string;
  isSuccess: boolean;
  reason: string;
};

export const insertLoginLog = async (db: DbOrTx, row: LoginAttempt) => {
  await db.insert(loginLogs).values(row);
};
