import { and, eq, gte, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { departments, files, loginLogs, roles, sessions, staff, tenants } from '../../db/schema';

export const findStaffForLogin = async (db: DbOrTx, username: string) => {
  const rows = await db
    .select({
      id: staff.id,
      tenantId: staff.tenantId,
      passwordHash: staff.passwordHash,
      actionState: staff.actionState,
      expireAt: staff.expireAt,
      tenantState: tenants.actionState,
    })
    .from(staff)
    .innerJoin(tenants, eq(tenants.id, staff.tenantId))
    .where(and(eq(staff.isDeleted, false), or(sql`lower(${staff.username}) = lower(${username})`, eq(staff.phone, username))))
    .limit(1);
  return rows[0];
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

export const insertLoginLog = async (
  db: DbOrTx,
  row: {
    tenantId: number | null;
    staffId: number | null;
    username: string;
    ip: string;
    userAgent: string;
    isSuccess: boolean;
    reason: string;
  },
) => {
  await db.insert(loginLogs).values(row);
};

export const insertSession = async (
  db: DbOrTx,
  row: { tokenHash: string; staffId: number; tenantId: number; ip: string; userAgent: string },
) => {
  const [created] = await db.insert(sessions).values(row).returning({ id: sessions.id });
  return created.id;
};

export const markLoggedIn = async (db: DbOrTx, staffId: number, ip: string) => {
  await db.update(staff).set({ lastLoginIp: ip, lastLoginAt: new Date() }).where(eq(staff.id, staffId));
};

/** The session with everything the auth hook needs, in one query. */
export const findSessionActor = async (db: DbOrTx, tokenHash: string) => {
  const rows = await db
    .select({
      sessionId: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      staffId: staff.id,
      tenantId: staff.tenantId,
      departmentId: staff.departmentId,
      roleId: staff.roleId,
      name: staff.name,
      actionState: staff.actionState,
      isDeleted: staff.isDeleted,
      expireAt: staff.expireAt,
      dataScope: roles.dataScope,
      isSystem: roles.isSystem,
      menuIds: roles.menuIds,
      actions: roles.actions,
      tenantState: tenants.actionState,
    })
    .from(sessions)
    .innerJoin(staff, eq(staff.id, sessions.staffId))
    .innerJoin(roles, eq(roles.id, staff.roleId))
    .innerJoin(tenants, eq(tenants.id, staff.tenantId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  return rows[0];
};

export const touchSession = async (db: DbOrTx, sessionId: number) => {
  await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, sessionId));
};

export const deleteSession = async (db: DbOrTx, sessionId: number) => {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
};

/** Logs the staff member out everywhere except (optionally) the given session. */
export const deleteStaffSessions = async (db: DbOrTx, staffId: number, keepSessionId?: number) => {
  await db
    .delete(sessions)
    .where(keepSessionId ? and(eq(sessions.staffId, staffId), ne(sessions.id, keepSessionId)) : eq(sessions.staffId, staffId));
};

/** The staff's session ids, except (optionally) one: the sessions a revocation names. */
export const staffSessionIds = async (db: DbOrTx, staffId: number, keepSessionId?: number): Promise<number[]> => {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(keepSessionId ? and(eq(sessions.staffId, staffId), ne(sessions.id, keepSessionId)) : eq(sessions.staffId, staffId));
  return rows.map((r) => r.id);
};

/** Deletes sessions idle since `idleBefore` or created before `createdBefore`; returns how many. */
export const deleteExpiredSessions = async (db: DbOrTx, idleBefore: Date, createdBefore: Date): Promise<number> => {
  const rows = await db
    .delete(sessions)
    .where(or(lt(sessions.lastSeenAt, idleBefore), lt(sessions.createdAt, createdBefore)))
    .returning({ id: sessions.id });
  return rows.length;
};

export const findUserInfoRow = async (db: DbOrTx, staffId: number) => {
  const rows = await db
    .select({
      staff,
      departmentName: departments.name,
      roleName: roles.name,
      dataScope: roles.dataScope,
      isSystem: roles.isSystem,
      menuIds: roles.menuIds,
      actions: roles.actions,
      avatarName: files.storedName,
      companyName: tenants.name,
    })
    .from(staff)
    .innerJoin(roles, eq(roles.id, staff.roleId))
    .innerJoin(tenants, eq(tenants.id, staff.tenantId))
    .leftJoin(departments, eq(departments.id, staff.departmentId))
    .leftJoin(files, eq(files.id, staff.avatarFileId))
    .where(eq(staff.id, staffId))
    .limit(1);
  return rows[0];
};

export const findPasswordHash = async (db: DbOrTx, staffId: number) => {
  const rows = await db.select({ passwordHash: staff.passwordHash }).from(staff).where(eq(staff.id, staffId));
  return rows[0]?.passwordHash;
};

export const updatePasswordHash = async (db: DbOrTx, staffId: number, passwordHash: string) => {
  await db.update(staff).set({ passwordHash }).where(eq(staff.id, staffId));
};

export const updatePersonal = async (
  db: DbOrTx,
  staffId: number,
  values: { name: string; sex: number; email: string; avatarFileId: number | null },
) => {
  await db.update(staff).set(values).where(eq(staff.id, staffId));
};
