import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { withChunkTimeout } from './chunkLoad';

type PageModule = Record<string, ComponentType>;
/** Lazy page from a module's named export (STYLE: named exports everywhere), failing after the chunk timeout (SPEC §9). */
const page = (load: () => Promise<PageModule>, name: string): LazyExoticComponent<ComponentType> => {
  const loadInTime = withChunkTimeout(load);
  return lazy(async () => ({ default: (await loadInTime())[name] }));
};

export type AppRoute = { path: string; title: string; Page: LazyExoticComponent<ComponentType> };

/**
 * The one route table of the signed-in area. The side menu only shows menu entries whose
 * route is here, so a capability appears in the menu the day its page exists.
 */
export const ROUTES: AppRoute[] = [
  {
    path: '/home/Index',
    title: '工作台',
    Page: page(() => import('../features/workbench/pages/WorkbenchPage'), 'WorkbenchPage'),
  },
  {
    path: '/jingxiansuo/company',
    title: '查企业',
    Page: page(() => import('../features/leads/pages/CompanyLookupPage'), 'CompanyLookupPage'),
  },
  {
    path: '/jingxiansuo/industry',
    title: '行业模板',
    Page: page(() => import('../features/leads/pages/IndustryTemplatesPage'), 'IndustryTemplatesPage'),
  },
  {
    path: '/jingxiansuo/advanced',
    title: '找线索',
    Page: page(() => import('../features/leads/pages/AdvancedSearchPage'), 'AdvancedSearchPage'),
  },
  {
    path: '/jingxiansuo/map',
    title: '地图搜索',
    Page: page(() => import('../features/leads/pages/MapSearchPage'), 'MapSearchPage'),
  },
  {
    path: '/jingxiansuo/batchCompany',
    title: '批量查企业',
    Page: page(() => import('../features/leads/pages/BatchLookupPage'), 'BatchLookupPage'),
  },
  {
    path: '/jingxiansuo/settings',
    title: '拓客设置',
    Page: page(() => import('../features/leads/pages/LeadSettingsPage'), 'LeadSettingsPage'),
  },
  {
    path: '/manage/mycustomer',
    title: '我的客户',
    Page: page(() => import('../features/customers/pages/MyCustomersPage'), 'MyCustomersPage'),
  },
  {
    path: '/manage/allot',
    title: '分配管理',
    Page: page(() => import('../features/customers/pages/AllotCustomersPage'), 'AllotCustomersPage'),
  },
  {
    path: '/manage/subscribe',
    title: '今日预约',
    Page: page(() => import('../features/customers/pages/SubscribeCustomersPage'), 'SubscribeCustomersPage'),
  },
  {
    path: '/manage/nevermentioned',
    title: '从未联系',
    Page: page(() => import('../features/customers/pages/NeverContactedPage'), 'NeverContactedPage'),
  },
  {
    path: '/manage/seascustomer',
    title: '公海客户',
    Page: page(() => import('../features/pools/pages/SeasCustomersPage'), 'SeasCustomersPage'),
  },
  {
    path: '/client/clienttemplate',
    title: '模板设置',
    Page: page(() => import('../features/customers/pages/TemplateDesignerPage'), 'TemplateDesignerPage'),
  },
  { path: '/seats/Index', title: '坐席工作台', Page: page(() => import('../features/seats/pages/SeatsPage'), 'SeatsPage') },
  {
    path: '/call/record',
    title: '通话记录',
    Page: page(() => import('../features/calls/pages/CallRecordPage'), 'CallRecordPage'),
  },
  {
    path: '/set/strategy',
    title: '策略设置',
    Page: page(() => import('../features/strategy/pages/StrategyPage'), 'StrategyPage'),
  },
  { path: '/set/highseas', title: '公海设置', Page: page(() => import('../features/pools/pages/PoolsPage'), 'PoolsPage') },
  {
    path: '/set/discard',
    title: '丢弃理由',
    Page: page(() => import('../features/pools/pages/DiscardReasonsPage'), 'DiscardReasonsPage'),
  },
  { path: '/call/mysip', title: '我的分机', Page: page(() => import('../features/extensions/pages/MySipPage'), 'MySipPage') },
  { path: '/call/sip', title: '分机管理', Page: page(() => import('../features/extensions/pages/SipPage'), 'SipPage') },
  {
    path: '/call/setting',
    title: '外呼设置',
    Page: page(() => import('../features/call-settings/pages/CallSettingsPage'), 'CallSettingsPage'),
  },
  {
    path: '/call/blackcheck',
    title: '黑名单检测',
    Page: page(() => import('../features/blacklist/pages/BlackCheckPage'), 'BlackCheckPage'),
  },
  {
    path: '/blacklist/Index',
    title: '黑名单号码',
    Page: page(() => import('../features/blacklist/pages/BlacklistPage'), 'BlacklistPage'),
  },
  {
    path: '/blacklist/dnc',
    title: '禁拨名单',
    Page: page(() => import('../features/compliance/pages/DncPage'), 'DncPage'),
  },
  {
    path: '/blacklist/refusals',
    title: '外呼拦截记录',
    Page: page(() => import('../features/compliance/pages/DialRefusalsPage'), 'DialRefusalsPage'),
  },
  {
    path: '/calltask/tasklist',
    title: '坐席任务',
    Page: page(() => import('../features/calltasks/pages/CalltasksPage'), 'CalltasksPage'),
  },
  {
    path: '/set/product',
    title: '产品管理',
    Page: page(() => import('../features/products/pages/ProductsPage'), 'ProductsPage'),
  },
  {
    path: '/set/approval',
    title: '审批设置',
    Page: page(() => import('../features/approvals/pages/ApprovalSettingsPage'), 'ApprovalSettingsPage'),
  },
  { path: '/order/list', title: '订单管理', Page: page(() => import('../features/orders/pages/OrdersPage'), 'OrdersPage') },
  {
    path: '/order/receipt',
    title: '回款管理',
    Page: page(() => import('../features/receipts/pages/ReceiptsPage'), 'ReceiptsPage'),
  },
  {
    path: '/order/approval',
    title: '我的审批',
    Page: page(() => import('../features/approvals/pages/MyApprovalsPage'), 'MyApprovalsPage'),
  },
  {
    path: '/set/workorder',
    title: '工单设置',
    Page: page(() => import('../features/workorders/pages/WorkTypesPage'), 'WorkTypesPage'),
  },
  {
    path: '/workorder/list',
    title: '工单管理',
    Page: page(() => import('../features/workorders/pages/WorkOrdersPage'), 'WorkOrdersPage'),
  },
  {
    path: '/contract/list',
    title: '合同列表',
    Page: page(() => import('../features/contract/pages/ContractsPage'), 'ContractsPage'),
  },
  {
    path: '/contract/setting',
    title: '合同设置',
    Page: page(() => import('../features/contract/pages/ContractSettingsPage'), 'ContractSettingsPage'),
  },
  { path: '/set/label', title: '标签设置', Page: page(() => import('../features/labels/pages/LabelsPage'), 'LabelsPage') },
  { path: '/set/node', title: '阶段设置', Page: page(() => import('../features/stages/pages/StagesPage'), 'StagesPage') },
  { path: '/account/info', title: '企业资料', Page: page(() => import('../features/company/pages/CompanyPage'), 'CompanyPage') },
  {
    path: '/account/expensedetails',
    title: '消费明细',
    Page: page(() => import('../features/billing/pages/ExpenseDetailsPage'), 'ExpenseDetailsPage'),
  },
  { path: '/account/rolemanager', title: '角色管理', Page: page(() => import('../features/roles/pages/RolesPage'), 'RolesPage') },
  {
    path: '/account/divisional',
    title: '部门管理',
    Page: page(() => import('../features/departments/pages/DepartmentsPage'), 'DepartmentsPage'),
  },
  { path: '/account/staff', title: '员工管理', Page: page(() => import('../features/staff/pages/StaffPage'), 'StaffPage') },
  {
    path: '/system/personal',
    title: '个人资料',
    Page: page(() => import('../features/auth/pages/PersonalPage'), 'PersonalPage'),
  },
  {
    path: '/system/modifyPaw',
    title: '修改密码',
    Page: page(() => import('../features/auth/pages/ModifyPasswordPage'), 'ModifyPasswordPage'),
  },
  {
    path: '/groupcall/Index',
    title: '群呼任务',
    Page: page(() => import('../features/groupcall/pages/GroupCallPage'), 'GroupCallPage'),
  },
  { path: '/aicall/Index', title: 'AI外呼任务', Page: page(() => import('../features/aicall/pages/AicallPage'), 'AicallPage') },
  {
    path: '/aireception/Index',
    title: 'AI接待记录',
    Page: page(() => import('../features/aireception/pages/AireceptionPage'), 'AireceptionPage'),
  },
  { path: '/aicall/flow', title: '话术管理', Page: page(() => import('../features/aibot/pages/FlowsPage'), 'FlowsPage') },
  {
    path: '/aicall/flow/:id',
    title: '话术设计',
    Page: page(() => import('../features/aibot/pages/FlowDesignerPage'), 'FlowDesignerPage'),
  },
  {
    path: '/system/loginlog',
    title: '登录日志',
    Page: page(() => import('../features/login-logs/pages/LoginLogPage'), 'LoginLogPage'),
  },
];

/** Pages without login and outside the app layout (a customer signs a contract, anyone verifies one), as /login. */
export const PUBLIC_ROUTES: AppRoute[] = [
  {
    path: '/sign/:token',
    title: '合同签署',
    Page: page(() => import('../features/contract/pages/ContractSignPage'), 'ContractSignPage'),
  },
  {
    path: '/verify',
    title: '合同验证',
    Page: page(() => import('../features/contract/pages/ContractVerifyPage'), 'ContractVerifyPage'),
  },
];

export const IMPLEMENTED_ROUTES: ReadonlySet<string> = new Set(ROUTES.map((r) => r.path));
