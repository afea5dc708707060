import type { WorkbenchSummary } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { startOfTodayShanghai } from '../../lib/time';
import { sessionData } from '../auth/auth.service';
import { customerStats } from '../customers/customers.service';
import { departmentTree } from '../departments/departments.service';
import { countActiveStaffSince, previousLogin } from '../login-logs/login-logs.service';
import { orderWorkbench } from '../orders/orders.service';
import { receiptWorkbench } from '../receipts/receipts-lists';
import { countCompanyStaff } from '../staff/staff.service';

const countNodes = (nodes: { children: unknown[] }[]): number =>
  nodes.reduce((n, d) => n + 1 + countNodes(d.children as { children: unknown[] }[]), 0);

/** Who I am and how the company is doing today (/home/Index). */
export const workbenchSummary = async (db: Db, actor: Actor): Promise<WorkbenchSummary> => {
  const [{ userInfo }, last, staffCount, tree, todayLogins, customers, orders, receipts] = await Promise.all([
    sessionData(db, actor.staffId),
    previousLogin(db, actor.staffId),
    countCompanyStaff(db, actor.tenantId),
    departmentTree(db, actor),
    countActiveStaffSince(db, actor.tenantId, startOfTodayShanghai()),
    customerStats(db, actor),
    orderWorkbench(db, actor),
    receiptWorkbench(db, actor),
  ]);
  return {
    name: userInfo.name,
    companyName: userInfo.companyName,
    cmDidName: userInfo.cmDidName,
    cmAridName: userInfo.cmAridName,
    lastLoginTime: last.time,
    lastLoginIp: last.ip,
    staffCount,
    departmentCount: countNodes(tree),
    todayLogins,
    customers,
    orders,
    receipts,
  };
};
