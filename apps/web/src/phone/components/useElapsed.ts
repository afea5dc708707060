import { useEffect, useState } from 'react';

/** Seconds since `from` (ms), ticking every second while `from` is set. */
export const useElapsed = (from: number | null) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (from === null) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [from]);
  return from === null ? 0 : Math.max(0, Math.floor((now - from) / 1000));
};
