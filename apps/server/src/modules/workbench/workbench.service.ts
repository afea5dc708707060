import type { WorkbenchSummary } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { startOfTodayShanghai } from '../../lib/time';
import { sessionData } from '../auth/auth.service';
import { companyModules } from '../company/company-modules';
import { customerStats } from '../customers/customers.service';
import { departmentTree } from '../departments/departments.service';
import { countActiveStaffSince, previousLogin } from '../login-logs/login-logs.service';
import { orderWorkbench } from '../orders/orders-workbench';
import { receiptWorkbench } from '../receipts/receipts-workbench';
import { countCompanyStaff } from '../staff/staff.service';
import { workOrderCounts } from '../workorders/workorders-lists';

const countNodes = (nodes: { children: unknown[] }[]): number =>
  nodes.reduce((n, d) => n + 1 + countNodes(d.children as { children: unknown[] }[]), 0);

/** Who I am and how the company is doing today (/home/Index). */
export const workbenchSummary = async (db: Db, actor: Actor): Promise<WorkbenchSummary> => {
  // a switched-off module (企业资料 → 模块开关) shows no figures
  const on = await companyModules(db, actor.tenantId);
  const [{ userInfo }, last, staffCount, tree, todayLogins, customers, orders, receipts, workOrders] = await Promise.all([
    sessionData(db, actor.staffId),
    previousLogin(db, actor.staffId),
    countCompanyStaff(db, actor.tenantId),
    departmentTree(db, actor),
    countActiveStaffSince(db, actor.tenantId, startOfTodayShanghai()),
    customerStats(db, actor),
    on.order ? orderWorkbench(db, actor) : undefined,
    on.receipt ? receiptWorkbench(db, actor) : undefined,
    on.work ? workOrderCounts(db, actor) : undefined,
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
    workOrders,
  };
};
