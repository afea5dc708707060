import { and, eq, lt, ne, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { roles, sessions, staff, tenants } from '../../db/schema';
import { sessionActorsVersion } from '../../lib/settings-cache';

export const insertSession = async (
  db: DbOrTx,
  row: { tokenHash: string; staffId: number; tenantId: number; ip: string; userAgent: string },
) => {
  const [created] = await db.insert(sessions).values(row).returning({ id: sessions.id });
  return created.id;
};

/**
 * The session with everything the auth hook needs, in one query: every request runs it, so it joins
 * the staff member, his role and his company here (an allowed exception to "one owner per table").
 */
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

export const touchSession = async (db: DbOrTx, tenantId: number, sessionId: number) => {
  await db
    .update(sessions)
    .set({ lastSeenAt: new Date() })
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId)));
};

export const deleteSession = async (db: DbOrTx, tenantId: number, sessionId: number) => {
  await db.delete(sessions).where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId)));
  sessionActorsVersion.invalidate(tenantId);
};

/** Which staff: a tenant's staff member, every session of his or all but one. */
const ofStaff = (tenantId: number, staffId: number, keepSessionId?: number) =>
  keepSessionId
    ? and(eq(sessions.tenantId, tenantId), eq(sessions.staffId, staffId), ne(sessions.id, keepSessionId))
    : and(eq(sessions.tenantId, tenantId), eq(sessions.staffId, staffId));

/** Logs the staff member out everywhere except (optionally) the given session. */
export const deleteStaffSessions = async (db: DbOrTx, tenantId: number, staffId: number, keepSessionId?: number) => {
  await db.delete(sessions).where(ofStaff(tenantId, staffId, keepSessionId));
  sessionActorsVersion.invalidate(tenantId);
};

/** The staff's session ids, except (optionally) one: the sessions a revocation names. */
export const staffSessionIds = async (
  db: DbOrTx,
  tenantId: number,
  staffId: number,
  keepSessionId?: number,
): Promise<number[]> => {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(ofStaff(tenantId, staffId, keepSessionId));
  return rows.map((r) => r.id);
};

/**
 * Deletes sessions idle since `idleBefore` or created before `createdBefore`, of every company (the
 * sweep); returns how many. No process's kept sessions are dropped: the auth hook refuses these
 * sessions by the same limits, on a copy at least as old as the database's.
 */
export const deleteExpiredSessions = async (db: DbOrTx, idleBefore: Date, createdBefore: Date): Promise<number> => {
  const rows = await db
    .delete(sessions)
    .where(or(lt(sessions.lastSeenAt, idleBefore), lt(sessions.createdAt, createdBefore)))
    .returning({ id: sessions.id });
  return rows.length;
};
