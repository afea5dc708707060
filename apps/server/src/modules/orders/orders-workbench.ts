import type { WorkbenchOrders } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, parseDateTime, startOfTodayShanghai } from '../../lib/time';
import { pendingApprovalCount } from '../approvals/approvals-lists';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './orders.repo';

/** The workbench's order figures. */

/** Workbench figures: orders submitted or approved today and this month (data scope), and approvals waiting for the caller. */
export const orderWorkbench = async (db: Db, actor: Actor): Promise<WorkbenchOrders> => {
  const scope = await scopeStaffIds(db, actor);
  const today = startOfTodayShanghai();
  const month = parseDateTime(`${formatDateTime(now()).slice(0, 7)}-01`) ?? today;
  const [{ today: d, month: m }, pending] = await Promise.all([
    repo.orderFigures(db, actor.tenantId, scope, today, month),
    pendingApprovalCount(db, actor),
  ]);
  return { todayOrders: d.count, todayAmount: d.amount, monthOrders: m.count, monthAmount: m.amount, pendingApprovals: pending };
};
