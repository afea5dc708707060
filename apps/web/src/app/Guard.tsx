import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { readToken } from '../stores/session';

/** SPEC §2 guard: with a token any route passes; without one everything goes to /login. */
export const Guard = ({ children }: { children: ReactNode }) => {
  const location = useLocation();
  if (!readToken()) {
    const from = location.pathname + location.search;
    return <Navigate to={from && from !== '/' ? `/login?redirect=${encodeURIComponent(from)}` : '/login'} replace />;
  }
  return <>{children}</>;
};
