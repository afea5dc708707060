import { DATA_SCOPE, type DemoInfo } from '@crm/contracts';
import type { Config } from '../../config';
import type { Actor } from '../../lib/auth-context';
import { hashPassword } from '../../lib/password';
import { upsertCallSettings } from '../../modules/calls/calls.repo';
import { findDemoCompany } from '../../modules/company/company.service';
import { seedDemoContract } from '../../modules/contract/contract-demo';
import { createDepartment } from '../../modules/departments/departments.service';
import { seedDemoExtensions } from '../../modules/extensions/extensions.service';
import { DEMO_REGISTRY_COMPANIES, seedDemoRegistry } from '../../modules/leads/leads-registry';
import { seedDemoPools } from '../../modules/pools/pools.service';
import { registerPoolRulesWithCustomers } from '../../modules/pools/pools-for-customers';
import { insertRole } from '../../modules/roles/roles.service';
import { insertStaffRow } from '../../modules/staff/staff.service';
import type { Db } from '../client';
import { seedDemoAibot } from './demo-aibot';
import { seedDemoAicall, seedDemoReception } from './demo-aicall';
import { seedDemoCustomers } from './demo-customers';
import { seedDemoOrders } from './demo-orders';
import { seedDemoWorkOrders } from './demo-workorders';
import { provisionCompany } from './provision';

/** Demo accounts (issue 2; tests and later issues rely on them). */
export const DEMO_ACCOUNTS = [
  { username: 'admin', name: '系统管理员', roleName: '超级管理员' },
  { username: 'zhangsan', name: '张三', roleName: '销售主管' },
  { username: 'lisi', name: '李四', roleName: '销售' },
  { username: 'wangwu', name: '王五', roleName: '销售' },
  { username: 'zhaoliu', name: '赵六', roleName: '销售' },
] as const;

export const DEMO_COMPANY = '演示科技有限公司';

// 精线索's five search pages (111–115), not the group 110: a group grants its whole subtree, and
// 拓客设置 (116: provider key, quota, own lists) is an administrator's setting.
const LEAD_SEARCH_MENUS = [111, 112, 113, 114, 115];
// 销售主管: the customer work, settings he needs daily and the seats area.
const SUPERVISOR_MENUS = [100, ...LEAD_SEARCH_MENUS, 120, 133, 135, 150, 160, 170, 180, 200, 210, 220, 230, 250, 500];
const DETAIL_ACTIONS = [
  'frontend/customer/detail/basic',
  'frontend/customer/detail/phone',
  'frontend/customer/detail/follow',
  'frontend/customer/detail/edit',
  'frontend/customer/detail/discard',
  'frontend/customer/detail/cOrder',
  'frontend/customer/detail/order',
  'frontend/customer/detail/cMoney',
  'frontend/customer/detail/cReceipt',
  'frontend/customer/detail/receipt',
  'frontend/customer/detail/work',
];
const SUPERVISOR_ACTIONS = [
  ...DETAIL_ACTIONS,
  'frontend/customer/followdel',
  'frontend/customer/export',
  'frontend/customer/allot',
  'frontend/order/export',
  'frontend/order/transfer',
  'frontend/workorder/export',
];
// 销售: his own customers, the shared pool and his calls.
const SALES_MENUS = [100, ...LEAD_SEARCH_MENUS, 122, 123, 124, 125, 150, 161, 162, 163, 171, 181, 200, 210, 220, 500];

/** Seeds the demo company once; a second start finds it and does nothing. */
export const seedDemo = async (db: Db, password: string): Promise<boolean> => {
  if (await findDemoCompany(db)) return false;
  // the seed creates customers through their service, which may run before any app is built
  registerPoolRulesWithCustomers();
  const { tenantId, adminId, adminRoleId } = await provisionCompany(db, {
    companyName: DEMO_COMPANY,
    adminUsername: 'admin',
    adminName: '系统管理员',
    adminPhone: '13800000000',
    password,
    isDemo: true,
  });
  const actor: Actor = {
    sessionId: 0,
    staffId: adminId,
    tenantId,
    departmentId: null,
    roleId: adminRoleId,
    dataScope: DATA_SCOPE.all,
    isSystemRole: true,
    menuIds: new Set(),
    actions: new Set(),
    name: '系统管理员',
  };
  const dept1 = await createDepartment(db, actor, { pid: 0, name: '销售一部', sortNum: 1 });
  const dept2 = await createDepartment(db, actor, { pid: 0, name: '销售二部', sortNum: 2 });
  const supervisorRole = await insertRole(db, {
    tenantId,
    name: '销售主管',
    remark: '管理本部门及下级部门的客户与员工',
    dataScope: DATA_SCOPE.departmentTree,
    menuIds: SUPERVISOR_MENUS,
    actions: SUPERVISOR_ACTIONS,
  });
  const salesRole = await insertRole(db, {
    tenantId,
    name: '销售',
    remark: '跟进自己的客户',
    dataScope: DATA_SCOPE.own,
    menuIds: SALES_MENUS,
    actions: DETAIL_ACTIONS,
  });
  const passwordHash = await hashPassword(password);
  const people = [
    {
      username: 'zhangsan',
      name: '张三',
      phone: '13800000001',
      workNumber: 'S001',
      sex: 1,
      departmentId: dept1,
      roleId: supervisorRole,
      merchantType: 1,
    },
    {
      username: 'lisi',
      name: '李四',
      phone: '13800000002',
      workNumber: 'S002',
      sex: 1,
      departmentId: dept1,
      roleId: salesRole,
      merchantType: 1,
    },
    {
      username: 'wangwu',
      name: '王五',
      phone: '13800000003',
      workNumber: 'S003',
      sex: 1,
      departmentId: dept1,
      roleId: salesRole,
      merchantType: 1,
    },
    {
      username: 'zhaoliu',
      name: '赵六',
      phone: '13800000004',
      workNumber: 'S004',
      sex: 2,
      departmentId: dept2,
      roleId: salesRole,
      merchantType: 2,
    },
  ];
  const owners: Actor[] = [];
  for (const p of people) {
    const staffId = await insertStaffRow(db, { tenantId, passwordHash, email: '', actionState: 0, expireAt: null, ...p });
    owners.push({
      ...actor,
      staffId,
      departmentId: p.departmentId,
      roleId: p.roleId,
      dataScope: DATA_SCOPE.own,
      isSystemRole: false,
      name: p.name,
    });
  }
  await seedDemoCustomers(db, tenantId, owners);
  await seedDemoExtensions(db, tenantId, {
    admin: adminId,
    ...Object.fromEntries(people.map((p, i) => [p.username, owners[i].staffId])),
  });
  await seedDemoPools(db, tenantId, { dept2 });
  await seedDemoOrders(db, actor, owners[0].staffId);
  await seedDemoWorkOrders(db, actor, owners[0].staffId);
  // contracts (issue 26): the e-sign account, a seal and a template, so 生成合同 works at once
  await seedDemoContract(db, tenantId, adminId, DEMO_COMPANY);
  const flowId = await seedDemoAibot(db, actor);
  // The demo company is shown at any hour: its calling hours are the whole day (a new company gets
  // 08:00–21:00, issue 15); every other calling rule keeps the product's defaults.
  await upsertCallSettings(db, tenantId, { callerNumber: '', callHoursFrom: '00:00', callHoursTo: '24:00' });
  await seedDemoAicall(db, actor, flowId);
  await seedDemoReception(db, actor, flowId);
  // lead search: a registry of fictional companies so the 精线索 pages are not empty (issue 28)
  await seedDemoRegistry(db, DEMO_REGISTRY_COMPANIES);
  return true;
};

/** What the login page shows: the demo accounts, only while the demo company exists. */
export const demoInfo = async (db: Db, config: Config): Promise<DemoInfo> => {
  const isDemo = config.seedDemo && Boolean(await findDemoCompany(db));
  return {
    isDemo,
    accounts: isDemo ? DEMO_ACCOUNTS.map((a) => ({ ...a })) : [],
    password: isDemo ? config.demoPassword : '',
  };
};
