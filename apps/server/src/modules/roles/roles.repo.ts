import { and, asc, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { roles } from '../../db/schema';
import { namesCache, sessionActorsVersion } from '../../lib/settings-cache';

/** The company's role names by id, kept by the settings cache (the workbench, the staff list); each write below drops them. */
const roleNamesOf = namesCache('role-names', (db: DbOrTx, tenantId: number) =>
  db.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.tenantId, tenantId)),
);

export const listRoles = (db: DbOrTx, tenantId: number) =>
  db.select().from(roles).where(eq(roles.tenantId, tenantId)).orderBy(asc(roles.id));

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

type RoleValues = { name: string; remark: string; dataScope: number; menuIds: number[]; actions: string[] };

export const insertRole = async (db: DbOrTx, row: RoleValues & { tenantId: number; isSystem?: boolean }) => {
  const [created] = await db.insert(roles).values(row).returning({ id: roles.id });
  roleNamesOf.invalidate(row.tenantId);
  return created.id;
};

export const updateRole = async (db: DbOrTx, tenantId: number, id: number, values: RoleValues) => {
  await db
    .update(roles)
    .set(values)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.id, id)));
  roleNamesOf.invalidate(tenantId);
  sessionActorsVersion.invalidate(tenantId);
};

export const deleteRole = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(roles).where(and(eq(roles.tenantId, tenantId), eq(roles.id, id)));
  roleNamesOf.invalidate(tenantId);
  sessionActorsVersion.invalidate(tenantId);
};

/** Names of the company's roles by id (unknown ids are left out). */
export const roleNames = roleNamesOf.names;

/** The ids of the tenant's system roles (the company's super admin role). */
export const systemRoleIds = async (db: DbOrTx, tenantId: number) =>
  (
    await db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.tenantId, tenantId), eq(roles.isSystem, true)))
  ).map((r) => r.id);
