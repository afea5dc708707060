import type { Application, ListData, Role, RoleBody, RoleEditBody } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import { useSession } from '../../stores/session';
import { refreshSession } from '../auth/api';

export type RoleMenus = { applications: Application[]; actions: { key: string; name: string }[] };

export const roleKeys = {
  all: ['roles'] as const,
  list: () => [...roleKeys.all, 'list'] as const,
  menus: () => [...roleKeys.all, 'menus'] as const,
};

export const useRoles = () =>
  useQuery({ queryKey: roleKeys.list(), queryFn: () => http.get<ListData<Role>>('/api/frontend/role/list') });

/** The assignable catalogue is fixed per release, so it is read once. */
export const useRoleMenus = (enabled = true) =>
  useQuery({
    queryKey: roleKeys.menus(),
    queryFn: () => http.get<RoleMenus>('/api/frontend/role/menus'),
    staleTime: Infinity,
    enabled,
  });

/** Role changes also rename roles on staff rows (['staff'] is the staff feature's root key). */
const useInvalidate = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: roleKeys.all }), client.invalidateQueries({ queryKey: ['staff'] })]);
};

export const useCreateRole = () => {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RoleBody) => http.post<{ cmArid: number }>('/api/frontend/role/create', body),
    onSuccess: invalidate,
  });
};

export const useEditRole = () => {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RoleEditBody) => http.post<null>('/api/frontend/role/edit', body),
    onSuccess: async (_, body) => {
      // Editing one's own role changes one's own menus and permissions at once.
      if (body.cmArid === useSession.getState().userInfo?.cmArid) await refreshSession().catch(() => undefined);
      await invalidate();
    },
  });
};

export const useDeleteRole = () => {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => http.post<null>('/api/frontend/role/del', { id }), onSuccess: invalidate });
};
