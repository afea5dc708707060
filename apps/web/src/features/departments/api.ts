import type { DepartmentBody, DepartmentEditBody, DepartmentNode } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

export const departmentKeys = {
  all: ['departments'] as const,
  tree: () => [...departmentKeys.all, 'tree'] as const,
};

/** The department tree; also read by the staff page and every department picker. */
export const useDepartmentTree = () =>
  useQuery({
    queryKey: departmentKeys.tree(),
    queryFn: async () => (await http.get<{ list: DepartmentNode[] }>('/api/frontend/department/list')).list,
  });

/** Department changes also change the department names shown on staff rows. */
const useInvalidate = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: departmentKeys.all }), client.invalidateQueries({ queryKey: ['staff'] })]);
};

export const useCreateDepartment = () => {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (body: DepartmentBody) => http.post<{ cmDid: number }>('/api/frontend/department/create', body),
    onSuccess,
  });
};

export const useEditDepartment = () => {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (body: DepartmentEditBody) => http.post<null>('/api/frontend/department/edit', body),
    onSuccess,
  });
};

export const useDeleteDepartment = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (id: number) => http.post<null>('/api/frontend/department/del', { id }), onSuccess });
};
