import type { ListData, Stage, StageBody, StageEditBody } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customerset';

/**
 * ['stages'] is the root of every stage query, the customer lists' stage options
 * (customers/api.ts useStageOptions) included, so a change here refreshes those too.
 */
export const stageKeys = {
  all: ['stages'] as const,
  list: () => [...stageKeys.all, 'list'] as const,
};

/** Every stage, enabled or not, in the server's order (sortNum, then creation). */
export const useStages = () =>
  useQuery({ queryKey: stageKeys.list(), queryFn: () => http.get<ListData<Stage>>(`${BASE}/nodelist`) });

/** Stage names show on customer rows, so a rename or delete refreshes the customer lists as well. */
const useInvalidate = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: stageKeys.all }), client.invalidateQueries({ queryKey: ['customers'] })]);
};

export const useCreateStage = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (body: StageBody) => http.post<{ cmNid: number }>(`${BASE}/nodecreate`, body), onSuccess });
};

/** Edit and the 可用/禁用 switch: the server takes the whole stage every time. */
export const useEditStage = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (body: StageEditBody) => http.post<null>(`${BASE}/nodeedit`, body), onSuccess });
};

export const useDeleteStage = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (id: number) => http.post<null>(`${BASE}/nodedel`, { id }), onSuccess });
};
