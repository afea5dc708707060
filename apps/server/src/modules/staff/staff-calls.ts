/** What the calling modules (calls, extensions) read and keep of staff: the member behind a call or an extension, when he last saw his missed calls. */
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { staff } from '../../db/schema';

/** When the staff last opened his missed calls (null: never); undefined when he is no staff of the tenant. */
export const missedCallsSeenAt = async (db: DbOrTx, tenantId: number, staffId: number): Promise<Date | null | undefined> => {
  const rows = await db
    .select({ at: staff.missedCallsSeenAt })
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), eq(staff.id, staffId)))
    .limit(1);
  return rows[0]?.at;
};

/** The staff has seen his missed calls up to `at`. */
export const setMissedCallsSeenAt = async (db: DbOrTx, tenantId: number, staffId: number, at: Date) => {
  await db
    .update(staff)
    .set({ missedCallsSeenAt: at })
    .where(and(eq(staff.tenantId, tenantId), eq(staff.id, staffId)));
};

/** A live (not deleted) staff of the tenant: his name, account type (merchantType 2: a bound phone) and department. */
export const findLiveStaffMember = async (db: DbOrTx, tenantId: number, staffId: number) => {
  const rows = await db
    .select({ id: staff.id, name: staff.name, merchantType: staff.merchantType, departmentId: staff.departmentId })
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), eq(staff.id, staffId), eq(staff.isDeleted, false)))
    .limit(1);
  return rows[0];
};

export type StaffAccount = { name: string; merchantType: number };

/** Staff of the tenant by id (deleted ones too): name and account type, as the extensions bound to them show. */
export const staffAccountsByIds = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<number, StaffAccount>();
  const rows = await db
    .select({ id: staff.id, name: staff.name, merchantType: staff.merchantType })
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), inArray(staff.id, unique)));
  return new Map<number, StaffAccount>(rows.map((r) => [r.id, { name: r.name, merchantType: r.merchantType }]));
};
