import { DownOutlined, LockOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { MenuNode } from '@crm/contracts';
import { App, Avatar, Dropdown, Layout, Menu, type MenuProps, Space, Typography } from 'antd';
import { Suspense, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { http } from '../api/http';
import { AiMessageNotices } from '../features/aireception/components/AiMessageNotices';
import { ApprovalBadge } from '../features/approvals/components/ApprovalBadge';
import { LowBalanceBadge } from '../features/billing/components/LowBalanceBadge';
import { stopWorkBeforeLogout } from '../features/calltasks/work/workStore';
import { ContractNotices } from '../features/contract/components/ContractNotices';
import { ForbiddenPage } from '../features/errors/pages/ForbiddenPage';
import { WorkOrderNotices } from '../features/workorders/components/WorkOrderNotices';
import { ExtensionArea } from '../phone/components/ExtensionArea';
import { PhoneDock } from '../phone/components/PhoneDock';
import { endSession, useSession } from '../stores/session';
import styles from './AppLayout.module.css';
import { ErrorBoundary } from './ErrorBoundary';
import { menuIcon } from './icons';
import { applicationOf, firstRoute, parentKeys, selectedRoute, visibleMenus } from './menu-tree';
import { PageLoading, useNavigationEffects } from './RouteProgress';
import { IMPLEMENTED_ROUTES } from './routes';

type MenuItem = Required<MenuProps>['items'][number];

const toItems = (nodes: MenuNode[]): MenuItem[] =>
  nodes.map((n) =>
    n.children.length > 0
      ? { key: String(n.cmMid), icon: menuIcon(n.icon), label: n.name, children: toItems(n.children) }
      : { key: n.frontRoute, icon: menuIcon(n.icon), label: n.name },
  );

/** Header (applications, user menu) + side menu of the active application + the page. */
export const AppLayout = () => {
  useNavigationEffects();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const { userInfo, menulist, permissions } = useSession();
  // SPEC §3: a route is open when its menu permission is granted (routes outside the catalogue are open).
  const isAllowed = permissions[pathname]?.hasPremisson !== 0;

  const apps = useMemo(
    () => menulist.map((a) => ({ ...a, menus: visibleMenus(a.menus, IMPLEMENTED_ROUTES) })).filter((a) => a.menus.length > 0),
    [menulist],
  );
  const active = applicationOf(apps, pathname) ?? apps[0];
  // the header's approval count, for those whose menu holds 我的审批
  const hasApprovals = applicationOf(apps, '/order/approval') !== undefined;
  // a sub-page (/aicall/flow/12) selects the menu entry it belongs to (/aicall/flow)
  const selected = (active && selectedRoute(active.menus, pathname)) ?? pathname;
  const [openKeys, setOpenKeys] = useState<string[]>(() => (active ? (parentKeys(active.menus, selected) ?? []) : []));

  const logout = () =>
    modal.confirm({
      title: '安全退出',
      content: '确定要退出登录吗？',
      okText: '退出',
      cancelText: '取消',
      onOk: async () => {
        // a seat task worked on this page stops first, while the session still holds
        await stopWorkBeforeLogout();
        await http.post('/api/frontend/logout', {}, { silent: true }).catch(() => undefined);
        endSession();
        navigate('/login', { replace: true });
      },
    });

  const userMenu: MenuProps['items'] = [
    { key: '/system/personal', icon: <UserOutlined />, label: '账号设置' },
    { key: '/system/modifyPaw', icon: <LockOutlined />, label: '修改密码' },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: '安全退出', danger: true },
  ];

  return (
    <Layout className={styles.root}>
      <Layout.Header className={styles.header}>
        <a
          className={styles.brand}
          href="/home/Index"
          onClick={(e) => {
            e.preventDefault();
            navigate('/home/Index');
          }}
        >
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>云呼CRM</span>
        </a>
        <Menu
          className={styles.apps}
          mode="horizontal"
          theme="dark"
          selectedKeys={active ? [String(active.cbAid)] : []}
          items={apps.map((a) => ({ key: String(a.cbAid), label: a.name }))}
          onClick={({ key }) => {
            const app = apps.find((a) => String(a.cbAid) === key);
            const to = app && (IMPLEMENTED_ROUTES.has(app.homeRoute) ? app.homeRoute : firstRoute(app.menus));
            if (to) navigate(to);
          }}
        />
        <Space size={20} className={styles.right}>
          {hasApprovals && <ApprovalBadge />}
          <LowBalanceBadge />
          <ExtensionArea />
          <Dropdown
            menu={{
              items: userMenu,
              onClick: ({ key }) => (key === 'logout' ? logout() : navigate(key)),
            }}
          >
            <Space className={styles.user}>
              <Avatar size={30} src={userInfo?.cbAhidUrl || undefined} icon={<UserOutlined />} />
              <Typography.Text className={styles.userName}>{userInfo?.name || '云呼叫用户'}</Typography.Text>
              <DownOutlined style={{ fontSize: 10, color: 'rgba(255,255,255,.65)' }} />
            </Space>
          </Dropdown>
        </Space>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={208} theme="light" className={styles.sider} breakpoint="lg" collapsible>
          <Menu
            mode="inline"
            selectedKeys={[selected]}
            openKeys={openKeys}
            onOpenChange={setOpenKeys}
            items={active ? toItems(active.menus) : []}
            onClick={({ key }) => navigate(key)}
          />
        </Layout.Sider>
        <Layout.Content className={styles.content}>
          <ErrorBoundary>
            <Suspense fallback={<PageLoading />}>{isAllowed ? <Outlet /> : <ForbiddenPage />}</Suspense>
          </ErrorBoundary>
        </Layout.Content>
      </Layout>
      <PhoneDock />
      <WorkOrderNotices />
      <ContractNotices />
      <AiMessageNotices />
    </Layout>
  );
};
