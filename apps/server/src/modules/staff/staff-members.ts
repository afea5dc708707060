/** One staff member as the pools module checks him (a receiver of customers, the source of a batch transfer). */
import type { DbOrTx } from '../../db/client';
import * as repo from './staff.repo';

/** A staff member of the company (deleted ones too when `isDeletedOk`: a leaver's customers are moved away). */
export const findStaffMember = async (db: DbOrTx, tenantId: number, id: number, isDeletedOk = false) => {
  const s = await repo.findStaffById(db, id);
  if (!s || s.tenantId !== tenantId || (s.isDeleted && !isDeletedOk)) return undefined;
  return { id: s.id, name: s.name, departmentId: s.departmentId, isActive: s.actionState === 0 && !s.isDeleted };
};
