import { and, asc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { staff } from '../../db/schema';
import * as repo from './staff.repo';

/** General staff lookups other modules use (names by id, who can act, the active-staff picker), tenant-scoped. */

/** The names of staff of the tenant by id (unknown ids are left out). */
export const staffNames = (db: DbOrTx, tenantId: number, ids: number[]) => repo.staffNames(db, tenantId, ids);

/** Staff of the tenant who can act: not deleted, not disabled. */
export const activeStaffIds = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? []
    : (
        await db
          .select({ id: staff.id })
          .from(staff)
          .where(and(eq(staff.tenantId, tenantId), inArray(staff.id, ids), eq(staff.isDeleted, false), eq(staff.actionState, 0)))
      ).map((r) => r.id);

/** The tenant's active staff whose name contains `linkman` (all when empty), first 100 by id. */
export const searchActiveStaff = (db: DbOrTx, tenantId: number, linkman: string) => {
  const conds: SQL[] = [eq(staff.tenantId, tenantId), eq(staff.isDeleted, false), eq(staff.actionState, 0)];
  if (linkman) conds.push(ilike(staff.name, `%${linkman.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  return db
    .select({ staff_id: staff.id, linkman: staff.name })
    .from(staff)
    .where(and(...conds))
    .orderBy(asc(staff.id))
    .limit(100);
};

/** The tenant's active staff holding one of these roles (billing's low-balance notice goes to the admins). */
export const activeStaffOfRoles = async (db: DbOrTx, tenantId: number, roleIds: number[]) =>
  roleIds.length === 0
    ? []
    : (
        await db
          .select({ id: staff.id })
          .from(staff)
          .where(
            and(
              eq(staff.tenantId, tenantId),
              inArray(staff.roleId, roleIds),
              eq(staff.isDeleted, false),
              eq(staff.actionState, 0),
            ),
          )
      ).map((r) => r.id);
