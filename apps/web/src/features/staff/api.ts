import type { ListData, Staff, StaffCreateBody, StaffEditBody, StaffListQuery, StaffOption } from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import { useSession } from '../../stores/session';
import { refreshSession } from '../auth/api';

export type StaffFilters = Partial<Omit<StaffListQuery, 'page' | 'limit'>>;

export const staffKeys = {
  all: ['staff'] as const,
  list: (query: StaffFilters & { page: number; limit: number }) => [...staffKeys.all, 'list', query] as const,
  options: (linkman: string) => [...staffKeys.all, 'options', linkman] as const,
};

export const useStaffList = (query: StaffFilters & { page: number; limit: number }) =>
  useQuery({
    queryKey: staffKeys.list(query),
    queryFn: () => http.get<ListData<Staff>>('/api/frontend/staff/list', query),
    placeholderData: keepPreviousData,
  });

/** Staff picker within the caller's data scope (at most 100, filtered by name). */
export const useStaffOptions = (linkman: string, enabled = true) =>
  useQuery({
    queryKey: staffKeys.options(linkman),
    queryFn: async () => (await http.get<ListData<StaffOption>>('/api/frontend/staff/options', { linkman })).list,
    enabled,
    placeholderData: keepPreviousData,
  });

/** Staff changes move the staff counts of departments and roles too (their root keys). */
const useInvalidate = () => {
  const client = useQueryClient();
  return () => Promise.all([staffKeys.all, ['departments'], ['roles']].map((queryKey) => client.invalidateQueries({ queryKey })));
};

export const useCreateStaff = () => {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: StaffCreateBody) => http.post<{ cmSid: number }>('/api/frontend/staff/create', body),
    onSuccess: invalidate,
  });
};

export const useEditStaff = () => {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: StaffEditBody) => http.post<null>('/api/frontend/staff/edit', body),
    onSuccess: async (_, body) => {
      // Editing oneself changes the header name, department and role at once.
      if (body.cmSid === useSession.getState().userInfo?.cmSid) await refreshSession().catch(() => undefined);
      await invalidate();
    },
  });
};

export const useSetStaffState = () => {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { cmSid: number; actionState: 0 | 1 }) => http.post<null>('/api/frontend/staff/state', body),
    onSuccess: invalidate,
  });
};

export const useResetStaffPassword = () =>
  useMutation({
    mutationFn: (body: { cmSid: number; password: string }) => http.post<null>('/api/frontend/staff/resetpwd', body),
  });

export const useDeleteStaff = () => {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => http.post<null>('/api/frontend/staff/del', { id }), onSuccess: invalidate });
};
