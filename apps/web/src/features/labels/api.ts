import type { LabelBody, LabelEditBody, LabelGroup, ListData } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customerset';

/**
 * ['labels'] is the root of every tag query, the tag options of the customer forms and
 * filters (components/TemplateForm/useLabelOptions.ts) included, so a change here refreshes those too.
 */
export const labelKeys = {
  all: ['labels'] as const,
  tree: () => [...labelKeys.all, 'tree'] as const,
};

/** Tag groups (pid 0), each with its tags, enabled or not, in the server's order. */
export const useLabelTree = () =>
  useQuery({
    queryKey: labelKeys.tree(),
    queryFn: async () => (await http.get<ListData<LabelGroup>>(`${BASE}/labellist`)).list,
  });

/** Tag names show on customer rows, so a rename or delete refreshes the customer lists as well. */
const useInvalidate = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: labelKeys.all }), client.invalidateQueries({ queryKey: ['customers'] })]);
};

/** A group with pid 0, or a tag in the group `pid`. */
export const useCreateLabel = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (body: LabelBody) => http.post<{ cmClid: number }>(`${BASE}/labelcreate`, body), onSuccess });
};

/** Edit and the 可用/禁用 switch: the server takes the whole label every time. */
export const useEditLabel = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (body: LabelEditBody) => http.post<null>(`${BASE}/labeledit`, body), onSuccess });
};

export const useDeleteLabel = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (id: number) => http.post<null>(`${BASE}/labeldel`, { id }), onSuccess });
};
