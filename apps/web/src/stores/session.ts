import type { MenuList, Permissions, SessionData, UserInfo } from '@crm/contracts';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

const TOKEN_COOKIE = 'token';

/** The token lives in a 1-day cookie (SPEC §9), so file links (<img>, <audio>) carry it too. */
export const readToken = (): string => {
  const m = /(?:^|;\s*)token=([^;]+)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : '';
};
const writeToken = (token: string) => {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the token cookie must ride along with <img>/<audio> file links
  document.cookie = token
    ? `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=86400; Path=/; SameSite=Strict${secure}`
    : `${TOKEN_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict${secure}`;
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
