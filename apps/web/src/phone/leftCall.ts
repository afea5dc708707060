/**
 * A call this tab had on screen when the page was left (reload, close): remembered in the tab's
 * session storage so the next page can say 离开页面时的通话已由系统挂断 (SPEC §4), for a minute at most.
 */
export type LeftCallStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const KEY = 'crm.leftCall';
export const LEFT_CALL_NOTICE_MS = 60_000;

type LeftCall = { uuid: string; at: number };

const read = (storage: LeftCallStorage): LeftCall | null => {
  try {
    const left = JSON.parse(storage.getItem(KEY) ?? 'null') as Partial<LeftCall> | null;
    return typeof left?.uuid === 'string' && typeof left.at === 'number' ? { uuid: left.uuid, at: left.at } : null;
  } catch {
    return null;
  }
};

export const rememberLeftCall = (storage: LeftCallStorage, uuid: string, at: number) => {
  try {
    storage.setItem(KEY, JSON.stringify({ uuid, at }));
  } catch {
    // storage unavailable: the next page only misses the notice
  }
};

/** The uuid of the call left less than a minute ago, still waiting for its notice. */
export const pendingLeftCall = (storage: LeftCallStorage, now: number): string | null => {
  const left = read(storage);
  return left && now - left.at <= LEFT_CALL_NOTICE_MS ? left.uuid : null;
};

/** True once for the call left less than a minute ago (the notice is then shown). */
export const takeLeftCall = (storage: LeftCallStorage, uuid: string, now: number): boolean => {
  if (pendingLeftCall(storage, now) !== uuid) return false;
  try {
    storage.removeItem(KEY);
  } catch {
    // nothing to clean
  }
  return true;
};

export const leftCallNotice = (billsec = 0) => `离开页面时的通话已由系统挂断${billsec > 0 ? `，通话时长 ${billsec} 秒` : ''}`;
