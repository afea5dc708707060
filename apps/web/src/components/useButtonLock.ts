import { LIMITS } from '@crm/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';

/** SPEC §5: a submit button locks for 2 s after a click, whatever the outcome. */
export const useButtonLock = <A extends unknown[]>(fn: (...args: A) => unknown, ms: number = LIMITS.buttonLockMs) => {
  const [isLocked, setLocked] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const run = useCallback(
    (...args: A) => {
      if (timer.current !== undefined) return;
      setLocked(true);
      timer.current = window.setTimeout(() => {
        timer.current = undefined;
        setLocked(false);
      }, ms);
      return fn(...args);
    },
    [fn, ms],
  );
  return [run, isLocked] as const;
};
