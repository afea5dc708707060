import { LIMITS, type MenuList, type Permissions, type SessionData, type UserInfo } from '@crm/contracts';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

const TOKEN_KEY = 'crm.token';
/** when the stored token expires (ms since the epoch): with the `token` cookie, 1 day after login (SPEC §9) */
const TOKEN_EXPIRES_KEY = 'crm.token.expiresAt';

/**
 * The token the API and the call socket send (SPEC §7), '' once it has expired (a token stored
 * without its expiry counts as expired). File links (<img>, <audio>, downloads) carry the `token`
 * cookie the server sets at login: HttpOnly, so no script can read it; both last 1 day.
 */
export const readToken = (now = Date.now()): string => {
  try {
    const token = localStorage.getItem(TOKEN_KEY) ?? '';
    const expiresAt = Number(localStorage.getItem(TOKEN_EXPIRES_KEY));
    if (token && Number.isFinite(expiresAt) && expiresAt > now) return token;
    if (token) writeToken('');
    return '';
  } catch {
    return '';
  }
};
const writeToken = (token: string, now = Date.now()) => {
  try {
    if (token) {
      localStorage.setItem(TOKEN_KEY, token);
      localStorage.setItem(TOKEN_EXPIRES_KEY, String(now + LIMITS.tokenCookieSeconds * 1000));
    } else {
      localStorage.removeItem(TOKEN_KEY);
      localStorage.removeItem(TOKEN_EXPIRES_KEY);
    }
  } catch {
    // storage unavailable: the session lasts as long as the page
  }
};

type SessionState = {
  userInfo: UserInfo | null;
  menulist: MenuList;
  permissions: Permissions;
  setSession: (data: SessionData & { token?: string }) => void;
  clear: () => void;
};

export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      userInfo: null,
      menulist: [],
      permissions: {},
      setSession: ({ token, userInfo, menulist, permissions }) => {
        if (token) writeToken(token);
        set({ userInfo, menulist, permissions });
      },
      clear: () => {
        writeToken('');
        set({ userInfo: null, menulist: [], permissions: {} });
      },
    }),
    { name: 'crm-session' },
  ),
);

/** SPEC §3: a permission flag by menu route or action name. */
export const hasPermission = (permissions: Permissions, name: string): boolean => permissions[name]?.hasPremisson === 1;

/**
 * Hooks run when the session ends (logout, 100002, entering /login): the call socket and
 * the extension register themselves here so the session store needs not know them.
 */
const onSessionEnd = new Set<() => void>();
export const registerSessionEndHook = (fn: () => void) => {
  onSessionEnd.add(fn);
  return () => onSessionEnd.delete(fn);
};
export const endSession = () => {
  for (const fn of onSessionEnd) fn();
  useSession.getState().clear();
};
