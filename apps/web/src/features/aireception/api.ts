import type { AireceptionSaveBody, AireceptionSetting, AireceptionSimCallBody, ListData } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

// AI接待 (issue 16, menu 400): the numbers given to a 话术 within hours. The reception records are
// AI calls of source 2 (features/aicall: AiCallsTable and the shared detail dialog).

const BASE = '/api/frontend/aireception';

export const aireceptionKeys = { all: ['aireception'] as const, list: ['aireception', 'list'] as const };

export const useReceptionSettings = () =>
  useQuery({
    queryKey: aireceptionKeys.list,
    queryFn: () => http.get<ListData<AireceptionSetting>>(`${BASE}/list`),
  });

const useReceptionMutation = <B>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<unknown>(`${BASE}/${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: aireceptionKeys.all }),
  });
};

/** add (no id) or edit (id) */
export const useSaveReception = () => useReceptionMutation<AireceptionSaveBody>('save');
export const useDeleteReception = () => useReceptionMutation<{ id: number }>('del');
/** 模拟来电 (sim line only): a caller rings the number and the bot answers as for a real call. */
export const useReceptionSimCall = () => useReceptionMutation<AireceptionSimCallBody>('simcall');
