/** The staff column the calls module keeps: when a staff last saw his missed incoming calls (SPEC §2 call button badge). */
import { and, eq } from 'drizzle-orm';
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
