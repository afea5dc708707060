import type { DbOrTx } from '../../db/client';
import * as repo from './staff.repo';

// What AI接待 reads of staff (issue 24: aireception reaches staff through this file, not its table).

/** Which of these ids are the company's staff, not deleted (disabled ones included). */
export const companyStaffIds = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  (await Promise.all(ids.map((id) => repo.findStaff(db, tenantId, id)))).flatMap((s) => (s ? [s.id] : []));
