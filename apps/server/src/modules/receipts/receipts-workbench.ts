import type { WorkbenchReceipts } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './receipts.repo';
import { addDays, businessToday } from './receipts.service';

/** The workbench's receipt figures. */

/** Workbench: received this month, open plans due in the next 30 days and overdue ones (data scope). */
export const receiptWorkbench = async (db: Db, actor: Actor): Promise<WorkbenchReceipts> => {
  const today = businessToday();
  const r = await repo.receiptFigures(
    db,
    actor.tenantId,
    await scopeStaffIds(db, actor),
    `${today.slice(0, 7)}-01`,
    today,
    addDays(today, 30),
  );
  return { monthReceived: r.received, dueIn30Days: r.due, overdue: r.overdue };
};
