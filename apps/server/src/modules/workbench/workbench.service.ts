import type { WorkbenchSummary } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { startOfTodayShanghai } from '../../lib/time';
import { companyName } from '../company/company-lookup';
import { companyModules } from '../company/company-modules';
import { customerStats } from '../customers/customers.service';
import { countDepartments, departmentNames } from '../departments/departments.service';
import { loginFigures } from '../login-logs/login-logs.service';
import { orderWorkbench } from '../orders/orders-workbench';
import { receiptWorkbench } from '../receipts/receipts-workbench';
import { roleNames } from '../roles/roles.service';
import { countCompanyStaff } from '../staff/staff.service';
import { workOrderCounts } from '../workorders/workorders-lists';

/**
 * Who I am and how the company is doing today (/home/Index). One statement per figure group (issue 25:
 * 8 in all, from 16): the names come from the session and the settings cache, each domain answers its
 * figures in one query.
 */
export const workbenchSummary = async (db: Db, actor: Actor): Promise<WorkbenchSummary> => {
  // a switched-off module (企业资料 → 模块开关) shows no figures
  const on = await companyModules(db, actor.tenantId);
  const [company, departments, roles, logins, staffCount, departmentCount, customers, orders, receipts, workOrders] =
    await Promise.all([
      companyName(db, actor.tenantId),
      departmentNames(db, actor.tenantId, actor.departmentId === null ? [] : [actor.departmentId]),
      roleNames(db, actor.tenantId, [actor.roleId]),
      loginFigures(db, actor.tenantId, actor.staffId, startOfTodayShanghai()),
      countCompanyStaff(db, actor.tenantId),
      countDepartments(db, actor.tenantId),
      customerStats(db, actor),
      on.order ? orderWorkbench(db, actor) : undefined,
      on.receipt ? receiptWorkbench(db, actor) : undefined,
      on.work ? workOrderCounts(db, actor) : undefined,
    ]);
  return {
    name: actor.name,
    companyName: company ?? '',
    cmDidName: (actor.departmentId !== null && departments.get(actor.departmentId)) || '',
    cmAridName: roles.get(actor.roleId) ?? '',
    lastLoginTime: logins.previous.time,
    lastLoginIp: logins.previous.ip,
    staffCount,
    departmentCount,
    todayLogins: logins.activeStaff,
    customers,
    orders,
    receipts,
    workOrders,
  };
};
