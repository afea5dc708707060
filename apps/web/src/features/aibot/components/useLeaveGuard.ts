import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/** Asks before leaving the designer with unsaved changes: in-app navigation and closing the tab. */
export const useLeaveGuard = (isDirty: boolean) => {
  const { modal } = App.useApp();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => isDirty && currentLocation.pathname !== nextLocation.pathname,
  );
  const latest = useRef(blocker);
  latest.current = blocker;
  // one dialog per blocked navigation (the blocker object changes on every render)
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: '离开提示',
      content: '话术有未保存的修改，离开后修改将丢失，确定离开？',
      okText: '离开',
      cancelText: '留下',
      okButtonProps: { danger: true },
      onOk: () => latest.current.proceed?.(),
      onCancel: () => latest.current.reset?.(),
    });
  }, [blocker.state, modal]);
  useEffect(() => {
    if (!isDirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isDirty]);
};
