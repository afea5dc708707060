import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { roles, staff } from '../../db/schema';

export const listRoles = (db: DbOrTx, tenantId: number) =>
  db
    .select({
      role: roles,
      // Qualified by hand: drizzle leaves columns bare in a one-table select, which would bind to staff.
      staffNum: sql<number>`(select count(*)::int from staff s where s.role_id = "roles"."id" and s.is_deleted = false)`,
    })
    .from(roles)
    .where(eq(roles.tenantId, tenantId))
    .orderBy(asc(roles.id));

export const findRole = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.id, id)))
    .limit(1);
  return rows[0];
};

export const nameTaken = async (db: DbOrTx, tenantId: number, name: string, exceptId = 0) => {
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.name, name), ne(roles.id, exceptId)))
    .limit(1);
  return rows.length > 0;
};

export const countStaff = async (db: DbOrTx, tenantId: number, roleId: number) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), eq(staff.roleId, roleId), eq(staff.isDeleted, false)));
  return rows[0]?.n ?? 0;
};

type RoleValues = { name: string; remark: string; dataScope: number; menuIds: number[]; actions: string[] };

export const insertRole = async (db: DbOrTx, row: RoleValues & { tenantId: number; isSystem?: boolean }) => {
  const [created] = await db.insert(roles).values(row).returning({ id: roles.id });
  return created.id;
};

export const updateRole = async (db: DbOrTx, tenantId: number, id: number, values: RoleValues) => {
  await db
    .update(roles)
    .set(values)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.id, id)));
};

export const deleteRole = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(roles).where(and(eq(roles.tenantId, tenantId), eq(roles.id, id)));
};
