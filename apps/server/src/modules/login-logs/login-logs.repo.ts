import { and, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
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
/**
 * The workbench's login figures in one statement: the staff member's two latest successful logins
 * (newest first) and how many of the company's staff logged in since a time.
 */
export const loginFigures = async (db: DbOrTx, tenantId: number, staffId: number, since: Date) => {
  const rows = await queryRows<{ active: number; ip: string | null; created_at: Date | string | null }>(
    db,
    sql`select (select count(distinct l.staff_id)::int from ${loginLogs} l
                where l.tenant_id = ${tenantId} and l.is_success and l.created_at >= ${since}) as active,
               r.ip, r.created_at
        from (select 1) one
        left join lateral (select l.ip, l.created_at from ${loginLogs} l
                           where l.staff_id = ${staffId} and l.is_success order by l.id desc limit 2) r on true`,
  );
  return {
    activeStaff: Number(rows[0]?.active ?? 0),
    recent: rows.flatMap((r) => (r.created_at === null ? [] : [{ ip: r.ip ?? '', createdAt: new Date(r.created_at) }])),
  };
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
