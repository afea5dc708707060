import type { ChangePasswordBody, DemoInfo, LoginBody, LoginResult, PersonalEditBody, SessionData } from '@crm/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../api/http';
import { readToken, useSession } from '../../stores/session';

export const useDemoInfo = () =>
  useQuery({
    queryKey: ['demo-info'],
    queryFn: () => http.get<DemoInfo>('/api/frontend/demo/info', undefined, { silent: true }),
  });

export const useLogin = () =>
  useMutation({
    mutationFn: (body: LoginBody) => http.post<LoginResult>('/api/frontend/login', body),
    onSuccess: (data) => useSession.getState().setSession(data),
  });

/** Re-reads userInfo, menus and permissions (after a role or profile change). */
export const refreshSession = async () => {
  const data = await http.get<SessionData>('/api/frontend/user/info');
  useSession.getState().setSession(data);
  return data;
};

export const useChangePassword = () =>
  useMutation({ mutationFn: (body: ChangePasswordBody) => http.post<null>('/api/frontend/user/password', body) });

export const useEditPersonal = () =>
  useMutation({
    mutationFn: (body: PersonalEditBody) => http.post<SessionData>('/api/frontend/user/edit', body),
    onSuccess: (data) => useSession.getState().setSession(data),
  });

/**
 * SPEC §2: entering /login unregisters the extension. The page may hold nothing of the phone
 * (a fresh tab on /login), so the server is told: the session still held is logged out there,
 * which takes its default extension offline. (Here, not with the phone: the login page
 * does not download the phone's code.) A plain keepalive request: it must not wait, nor
 * set off the expired-session handling when the token is already gone.
 */
export const logoutOnLoginPage = () => {
  const token = readToken();
  if (!token) return;
  void fetch('/api/frontend/logout', {
    method: 'POST',
    keepalive: true,
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: '{}',
  }).catch(() => undefined);
};
