import type { ChangePasswordBody, DemoInfo, LoginBody, LoginResult, PersonalEditBody, SessionData } from '@crm/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../api/http';
import { useSession } from '../../stores/session';

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
