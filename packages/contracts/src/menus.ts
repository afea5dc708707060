/**
 * The application and menu catalogue (SPEC §2). Ids (cmMid) are stable: roles store them.
 * Every route of SPEC §2 appears exactly once. Routes with `isMenu: 1` are reachable but
 * not shown in the side menu.
 *
 * A page that does not exist yet is catalogued with `isPlanned: true` (built with `planned`):
 * it keeps its id, but no role is offered, granted or shown it (LIVE_APPLICATIONS). The issue
 * that lands the page turns `planned` into `m` here, and the web adds its route
 * (apps/web/src/app/routes.ts; a web test keeps the two in step).
 */
export type MenuNode = {
  cmMid: number;
  name: string;
  frontRoute: string;
  icon: string;
  isMenu: 0 | 1;
  children: MenuNode[];
  /** catalogued, but its page does not exist yet (never in a menu list or a role) */
  isPlanned?: true;
};

export type Application = { cbAid: number; name: string; homeRoute: string; menus: MenuNode[] };

const m = (cmMid: number, name: string, frontRoute: string, icon: string, children: MenuNode[] = []): MenuNode => ({
  cmMid,
  name,
  frontRoute,
  icon,
  isMenu: 0,
  children,
});

/** A menu whose page does not exist yet: see the note on MenuNode. */
// biome-ignore lint/correctness/noUnusedVariables: every catalogued page exists since issue 28; kept for the next one catalogued before its page
const planned = (cmMid: number, name: string, frontRoute: string, icon: string, children: MenuNode[] = []): MenuNode => ({
  ...m(cmMid, name, frontRoute, icon, children),
  isPlanned: true,
});

export const APPLICATIONS: Application[] = [
  {
    cbAid: 1,
    name: '客户管理',
    homeRoute: '/home/Index',
    menus: [
      m(100, '工作台', '/home/Index', 'DashboardOutlined'),
      m(110, '精线索', '/jingxiansuo', 'AimOutlined', [
        m(111, '查企业', '/jingxiansuo/company', 'BankOutlined'),
        m(112, '行业模板', '/jingxiansuo/industry', 'AppstoreOutlined'),
        m(113, '找线索', '/jingxiansuo/advanced', 'FilterOutlined'),
        m(114, '地图搜索', '/jingxiansuo/map', 'EnvironmentOutlined'),
        m(115, '批量查企业', '/jingxiansuo/batchCompany', 'FileSearchOutlined'),
        m(116, '拓客设置', '/jingxiansuo/settings', 'SettingOutlined'),
      ]),
      m(120, '客户管理', '/manage', 'TeamOutlined', [
        m(121, '分配管理', '/manage/allot', 'ApartmentOutlined'),
        m(122, '我的客户', '/manage/mycustomer', 'UserOutlined'),
        m(123, '今日预约', '/manage/subscribe', 'CalendarOutlined'),
        m(124, '公海客户', '/manage/seascustomer', 'GlobalOutlined'),
        m(125, '从未联系', '/manage/nevermentioned', 'UserDeleteOutlined'),
      ]),
      m(130, '客户设置', '/set', 'SettingOutlined', [
        m(131, '模板设置', '/client/clienttemplate', 'FormOutlined'),
        m(132, '策略设置', '/set/strategy', 'ControlOutlined'),
        m(133, '标签设置', '/set/label', 'TagsOutlined'),
        m(134, '公海设置', '/set/highseas', 'CloudOutlined'),
        m(135, '阶段设置', '/set/node', 'NodeIndexOutlined'),
        m(136, '丢弃理由', '/set/discard', 'DeleteOutlined'),
        m(137, '产品管理', '/set/product', 'ShoppingOutlined'),
        m(138, '审批设置', '/set/approval', 'AuditOutlined'),
        m(139, '工单设置', '/set/workorder', 'ToolOutlined'),
      ]),
      m(160, '订单审批', '/order', 'ShoppingCartOutlined', [
        m(161, '订单管理', '/order/list', 'ProfileOutlined'),
        m(162, '我的审批', '/order/approval', 'CheckSquareOutlined'),
        m(163, '回款管理', '/order/receipt', 'MoneyCollectOutlined'),
      ]),
      m(170, '工单', '/workorder', 'FileDoneOutlined', [m(171, '工单管理', '/workorder/list', 'SolutionOutlined')]),
      m(180, '合同管理', '/contract', 'FileProtectOutlined', [
        m(181, '合同列表', '/contract/list', 'FileTextOutlined'),
        m(182, '合同设置', '/contract/setting', 'SettingOutlined'),
      ]),
      m(140, '账户管理', '/account', 'IdcardOutlined', [
        m(141, '企业资料', '/account/info', 'BankOutlined'),
        m(142, '费用明细', '/account/expensedetails', 'AccountBookOutlined'),
        m(143, '角色管理', '/account/rolemanager', 'SafetyCertificateOutlined'),
        m(144, '部门管理', '/account/divisional', 'ClusterOutlined'),
        m(145, '员工管理', '/account/staff', 'TeamOutlined'),
      ]),
      m(150, '系统设置', '/system', 'ToolOutlined', [
        m(151, '个人资料', '/system/personal', 'UserOutlined'),
        m(152, '修改密码', '/system/modifyPaw', 'LockOutlined'),
        m(153, '登录日志', '/system/loginlog', 'HistoryOutlined'),
      ]),
    ],
  },
  {
    cbAid: 2,
    name: '人工坐席',
    homeRoute: '/seats/Index',
    menus: [
      m(200, '坐席工作台', '/seats/Index', 'DashboardOutlined'),
      m(210, '我的分机', '/call/mysip', 'PhoneOutlined'),
      m(220, '通话记录', '/call/record', 'AudioOutlined'),
      m(230, '黑名单检测', '/call/blackcheck', 'SafetyOutlined'),
      m(240, '分机管理', '/call/sip', 'CustomerServiceOutlined'),
      m(245, '外呼设置', '/call/setting', 'SettingOutlined'),
      m(250, '坐席任务', '/calltask/tasklist', 'ScheduleOutlined'),
    ],
  },
  {
    cbAid: 3,
    name: 'AI外呼',
    homeRoute: '/aicall/Index',
    menus: [m(300, 'AI外呼任务', '/aicall/Index', 'RobotOutlined'), m(301, '话术管理', '/aicall/flow', 'ApartmentOutlined')],
  },
  {
    cbAid: 4,
    name: 'AI接待',
    homeRoute: '/aireception/Index',
    menus: [m(400, 'AI接待记录', '/aireception/Index', 'MessageOutlined')],
  },
  {
    cbAid: 5,
    name: '人工群呼',
    homeRoute: '/groupcall/Index',
    menus: [m(500, '群呼任务', '/groupcall/Index', 'NotificationOutlined')],
  },
  {
    cbAid: 6,
    name: '号码黑名单',
    homeRoute: '/blacklist/Index',
    menus: [
      m(600, '黑名单号码', '/blacklist/Index', 'StopOutlined'),
      m(601, '禁拨名单', '/blacklist/dnc', 'PhoneOutlined'),
      m(602, '外呼拦截记录', '/blacklist/refusals', 'AlertOutlined'),
    ],
  },
];

/** Sections every role may use (SPEC §3: "a few base sections allowed by default"). */
export const BASE_MENU_IDS: readonly number[] = [100, 150, 151, 152, 153];

/** Named action permissions (SPEC §6), granted per role beside the menus. */
export const ACTIONS = [
  { key: 'frontend/customer/followdel', name: '删除跟进记录' },
  { key: 'frontend/customer/del', name: '删除客户' },
  { key: 'frontend/customer/export', name: '导出客户' },
  { key: 'frontend/customer/import', name: '导入客户' },
  { key: 'frontend/customer/allot', name: '分配客户' },
  { key: 'frontend/customer/delall', name: '批量清空客户' },
  { key: 'frontend/customer/decrypt', name: '查看完整号码（号码不打码）' },
  // SPEC §6 detail-drawer flags.
  { key: 'frontend/customer/detail/basic', name: '客户详情：基本信息' },
  { key: 'frontend/customer/detail/phone', name: '客户详情：联系电话' },
  { key: 'frontend/customer/detail/follow', name: '客户详情：跟进记录' },
  { key: 'frontend/customer/detail/edit', name: '客户详情：编辑资料' },
  { key: 'frontend/customer/detail/discard', name: '客户详情：丢入公海' },
  { key: 'frontend/customer/detail/cOrder', name: '客户详情：新建订单' },
  { key: 'frontend/customer/detail/order', name: '客户详情：订单列表' },
  { key: 'frontend/customer/detail/cMoney', name: '客户详情：新建回款计划' },
  { key: 'frontend/customer/detail/cReceipt', name: '客户详情：新建回款' },
  { key: 'frontend/customer/detail/receipt', name: '客户详情：回款记录' },
  { key: 'frontend/customer/detail/work', name: '客户详情：工单（列表与新建）' },
  { key: 'frontend/order/export', name: '导出订单' },
  { key: 'frontend/order/transfer', name: '转移订单、设置协同人' },
  { key: 'frontend/customer/recycle', name: '立即执行公海回收' },
  { key: 'frontend/workorder/export', name: '导出工单' },
] as const;
export type ActionKey = (typeof ACTIONS)[number]['key'];

export const flattenMenus = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flattenMenus(n.children)]);

export const ALL_MENUS: MenuNode[] = APPLICATIONS.flatMap((a) => flattenMenus(a.menus));
export const ALL_MENU_IDS: number[] = ALL_MENUS.map((n) => n.cmMid);

/** The tree without planned pages: a group stays while one of its children exists. */
const liveMenus = (nodes: MenuNode[]): MenuNode[] =>
  nodes.flatMap(({ isPlanned, ...n }) => {
    if (isPlanned) return [];
    if (n.children.length === 0) return [n];
    const children = liveMenus(n.children);
    return children.length > 0 ? [{ ...n, children }] : [];
  });

/**
 * The applications and menus that exist: what the role editor offers, roles keep and menu
 * lists show. An application without a live menu is left out.
 */
export const LIVE_APPLICATIONS: Application[] = APPLICATIONS.map((a) => ({ ...a, menus: liveMenus(a.menus) })).filter(
  (a) => a.menus.length > 0,
);
export const LIVE_MENUS: MenuNode[] = LIVE_APPLICATIONS.flatMap((a) => flattenMenus(a.menus));
export const LIVE_MENU_IDS: number[] = LIVE_MENUS.map((n) => n.cmMid);

/** Menu id that guards a route (child routes inherit their parent's menu, SPEC §3). */
export const menuIdForRoute = (route: string): number | undefined => {
  let best: MenuNode | undefined;
  for (const n of ALL_MENUS) {
    if (route === n.frontRoute || route.startsWith(`${n.frontRoute}/`)) {
      if (!best || n.frontRoute.length > best.frontRoute.length) best = n;
    }
  }
  return best?.cmMid;
};

/** A menu is granted when itself or an ancestor group is granted; a planned page never is. */
export const isMenuGranted = (granted: ReadonlySet<number>, cmMid: number): boolean => {
  if (!LIVE_MENU_IDS.includes(cmMid)) return false;
  if (granted.has(cmMid) || BASE_MENU_IDS.includes(cmMid)) return true;
  for (const app of APPLICATIONS) {
    const path = findPath(app.menus, cmMid);
    if (path) return path.some((id) => granted.has(id));
  }
  return false;
};

const findPath = (nodes: MenuNode[], id: number): number[] | undefined => {
  for (const n of nodes) {
    if (n.cmMid === id) return [n.cmMid];
    const sub = findPath(n.children, id);
    if (sub) return [n.cmMid, ...sub];
  }
  return undefined;
};
