import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

NProgress.configure({ showSpinner: false });

/** Suspense fallback of lazy pages: the loading bar runs while a page's code arrives (SPEC §2). */
export const PageLoading = () => {
  useEffect(() => {
    NProgress.start();
    return () => {
      NProgress.done();
    };
  }, []);
  return null;
};

/** A short progress pulse on every navigation, and the page scrolls back to top (SPEC §2). */
export const useNavigationEffects = () => {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect is meant to run on every navigation
  useEffect(() => {
    NProgress.start();
    window.scrollTo(0, 0);
    const t = window.setTimeout(() => NProgress.done(), 150);
    return () => window.clearTimeout(t);
  }, [pathname]);
};
