import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useNavigate } from 'react-router';
import { ui } from '../api/ui-bridge';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { NotFoundPage } from '../features/errors/pages/NotFoundPage';
import { withChunkTimeout } from './chunkLoad';
import { registerFeatureCustomerParts } from './customerParts';
import { ErrorBoundary } from './ErrorBoundary';
import { Guard } from './Guard';
import { PageLoading } from './RouteProgress';
import { PUBLIC_ROUTES, ROUTES } from './routes';
import { registerSlots } from './slotFillers';

dayjs.locale('zh-cn');
registerFeatureCustomerParts();
registerSlots();

// The signed-in area (menu, phone, notices and what they import) is its own chunk: the login page
// does not download it (issue 23.3).
const loadLayout = withChunkTimeout(() => import('./AppLayout'));
const AppLayout = lazy(async () => ({ default: (await loadLayout()).AppLayout }));

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 }, mutations: { retry: false } },
});

/** Hands antd's message/modal and the router to the http client (errors shown in one place). */
const UiBridge = ({ children }: { children: ReactNode }) => {
  const { message, modal } = AntApp.useApp();
  const navigate = useNavigate();
  useEffect(() => {
    ui.message = message;
    ui.modal = modal;
    ui.navigate = (to) => navigate(to, { replace: true });
  }, [message, modal, navigate]);
  return <>{children}</>;
};

const Root = () => (
  <UiBridge>
    <ErrorBoundary>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  </UiBridge>
);

const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      { path: '/login', element: <LoginPage /> },
      ...PUBLIC_ROUTES.map(({ path, Page }) => ({ path, element: <Page /> })),
      { path: '/', element: <Navigate to="/home/Index" replace /> },
      { path: '/home', element: <Navigate to="/home/Index" replace /> },
      {
        element: (
          <Guard>
            <AppLayout />
          </Guard>
        ),
        children: ROUTES.map(({ path, Page }) => ({ path, element: <Page /> })),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

// The floating call button (PhoneDock: 40 px, 20 px from the bottom-right corner) stays above drawers,
// so a drawer's last row and its footer's buttons keep clear of that corner (issue 23), as pages do
// (AppLayout .content)
const DRAWER_CLEAR_OF_CALL_BUTTON = { styles: { body: { paddingBottom: 76 }, footer: { paddingInlineEnd: 76 } } };

// Whoever asks the system for less motion (an accessibility setting; the end-to-end browsers ask for it
// too) gets antd's opening and closing motions in 10 ms instead of 0.1-0.3 s, and no click wave. Not 0:
// a motion that never ends sends no animationend, and antd would wait its 0.5 s deadline instead.
const reducedMotion = typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
const THEME = {
  token: {
    colorPrimary: '#1677ff',
    borderRadius: 6,
    ...(reducedMotion ? { motionDurationFast: '0.01s', motionDurationMid: '0.01s', motionDurationSlow: '0.01s' } : {}),
  },
};
const WAVE = { disabled: reducedMotion };

export const App = () => (
  <ConfigProvider locale={zhCN} theme={THEME} wave={WAVE} drawer={DRAWER_CLEAR_OF_CALL_BUTTON}>
    <AntApp>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>
  </ConfigProvider>
);
