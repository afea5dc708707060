import type {
  CalltaskCreateBody,
  CalltaskDetail,
  CalltaskEditBody,
  CalltaskHours,
  CalltaskListBody,
  CalltaskNumberRow,
  CalltaskNumbersBody,
  CalltaskRow,
  ListData,
  UploadResult,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import type { TaskMove } from './components/taskMoves';

// 坐席任务 for the managers (issue 15, menu 250): the list, the detail with per-agent figures, the
// numbers, and create / edit / delete / start / pause / resume / stop. The agents' work panel
// (work/) keeps its own queries under the same root key, so a change refreshes both.

const BASE = '/api/frontend/calltask';

export const calltaskKeys = {
  all: ['calltasks'] as const,
  manage: ['calltasks', 'manage'] as const,
  list: (q: Partial<CalltaskListBody>) => [...calltaskKeys.manage, 'list', q] as const,
  detail: (id: number) => [...calltaskKeys.manage, 'detail', id] as const,
  numbers: (q: Partial<CalltaskNumbersBody>) => [...calltaskKeys.manage, 'numbers', q] as const,
  hours: () => [...calltaskKeys.manage, 'hours'] as const,
};

/** The polling fallback when no msg_type 7 frame comes (socket down). */
export const TASK_POLL_MS = 15_000;

export const useCalltaskList = (q: Partial<CalltaskListBody> & { page: number; limit: number }) =>
  useQuery({
    queryKey: calltaskKeys.list(q),
    queryFn: () => http.post<ListData<CalltaskRow>>(`${BASE}/list`, q),
    placeholderData: keepPreviousData,
    refetchInterval: TASK_POLL_MS,
  });

export const useCalltaskDetail = (id: number | null) =>
  useQuery({
    queryKey: calltaskKeys.detail(id ?? 0),
    queryFn: () => http.get<CalltaskDetail>(`${BASE}/detail`, { cmStid: id }),
    enabled: id !== null,
    refetchInterval: TASK_POLL_MS,
  });

export const useCalltaskNumbers = (q: CalltaskNumbersBody, isEnabled: boolean) =>
  useQuery({
    queryKey: calltaskKeys.numbers(q),
    queryFn: () => http.post<ListData<CalltaskNumberRow>>(`${BASE}/numbers`, q),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    refetchInterval: TASK_POLL_MS,
  });

/** The company's calling hours (外呼设置): the form's hint and check. */
export const useCompanyHours = () =>
  useQuery({
    queryKey: calltaskKeys.hours(),
    queryFn: () => http.get<CalltaskHours>(`${BASE}/hours`, undefined, { silent: true }),
    staleTime: 60_000,
  });

const useTaskMutation = <B, R = null>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: calltaskKeys.all }),
  });
};

export const useCreateCalltask = () => useTaskMutation<CalltaskCreateBody, { cmStid: number }>('create');
export const useEditCalltask = () => useTaskMutation<CalltaskEditBody, { cmStid: number }>('edit');
export const useDeleteCalltask = () => useTaskMutation<{ cmStid: number; confirm: 1 }>('del');

export const useMoveCalltask = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ cmStid, move }: { cmStid: number; move: TaskMove }) => http.post<null>(`${BASE}/${move}`, { cmStid }),
    onSuccess: () => client.invalidateQueries({ queryKey: calltaskKeys.all }),
  });
};

/** 导入号码 from an .xlsx: uploaded, then read by the server (every cell of the first sheet, in order). */
export const readNumberFile = async (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  const stored = await http.upload<UploadResult>('/api/frontend/upload/file', form);
  const { lines } = await http.post<{ lines: string[] }>('/api/frontend/calltask/numberfile', { fileId: stored.id });
  return lines;
};
