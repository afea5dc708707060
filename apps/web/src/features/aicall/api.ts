import type {
  AicallCallRow,
  AicallCallsBody,
  AicallCreateBody,
  AicallEditBody,
  AicallInfo,
  AicallReport,
  AicallRow,
  AicallSpeech,
  CalltaskListBody,
  FlowRow,
  ListData,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import type { TaskMove } from '../calltasks/components/taskMoves';

// AI外呼任务 (issue 16, menu 300): AI tasks (call tasks of mode 2 worked by the voice bot), their
// report and AI calls, and the AI call detail that AI接待 and the customer's follow list open too.
// The keys follow the seat tasks' shape (root, 'list', 'detail'), so useTaskProgress serves both.

const BASE = '/api/frontend/aicall';

export const aicallKeys = {
  all: ['aicall'] as const,
  manage: ['aicall', 'tasks'] as const,
  list: (q: Partial<CalltaskListBody>) => [...aicallKeys.manage, 'list', q] as const,
  detail: (cmStid: number) => [...aicallKeys.manage, 'detail', cmStid] as const,
  report: (cmStid: number) => [...aicallKeys.manage, 'report', cmStid] as const,
  calls: (q: Partial<AicallCallsBody>) => [...aicallKeys.all, 'calls', q] as const,
  info: (id: number) => [...aicallKeys.all, 'info', id] as const,
  flows: ['aicall', 'flows'] as const,
};

/** Whether the bot can speak on this server (found once at its start): AI外呼 and AI接待 warn when not. */
export const useAicallSpeech = () =>
  useQuery({
    queryKey: [...aicallKeys.all, 'speech'] as const,
    queryFn: () => http.get<AicallSpeech>(`${BASE}/speech`),
    staleTime: 60_000,
  });

/** Bots call on their own: the list refreshes often while a task runs (the socket's frames come between). */
export const AI_POLL_MS = 5_000;

export const useAicallList = (q: Partial<CalltaskListBody> & { page: number; limit: number }) =>
  useQuery({
    queryKey: aicallKeys.list(q),
    queryFn: () => http.post<ListData<AicallRow>>(`${BASE}/list`, q),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some((r) => r.status === 1) ? AI_POLL_MS : AI_POLL_MS * 3),
  });

/** One AI task (the drawer): its row, kept live by msg_type 7 frames (useTaskProgress) and polling. */
export const useAicallDetail = (cmStid: number | null) =>
  useQuery({
    queryKey: aicallKeys.detail(cmStid ?? 0),
    queryFn: () => http.get<AicallRow>(`${BASE}/detail`, { cmStid }),
    enabled: cmStid !== null,
    refetchInterval: (query) => (query.state.data?.status === 1 ? AI_POLL_MS : false),
  });

export const useAicallReport = (cmStid: number | null, isLive: boolean) =>
  useQuery({
    queryKey: aicallKeys.report(cmStid ?? 0),
    queryFn: () => http.get<AicallReport>(`${BASE}/report`, { cmStid }),
    enabled: cmStid !== null,
    refetchInterval: isLive ? AI_POLL_MS : false,
  });

export const useAicallCalls = (q: Partial<AicallCallsBody> & { page: number; limit: number }, isLive = false) =>
  useQuery({
    queryKey: aicallKeys.calls(q),
    queryFn: () => http.post<ListData<AicallCallRow>>(`${BASE}/calls`, q),
    placeholderData: keepPreviousData,
    refetchInterval: isLive ? AI_POLL_MS : false,
  });

/** SPEC §3 AI call info: the detail dialog. */
export const useAicallInfo = (id: number | null) =>
  useQuery({
    queryKey: aicallKeys.info(id ?? 0),
    queryFn: () => http.get<AicallInfo>(`${BASE}/info`, { id }),
    enabled: id !== null && id > 0,
  });

/** The published 话术 a task can call with (a flow never published has version 0). */
export const usePublishedFlows = (isEnabled = true) =>
  useQuery({
    queryKey: aicallKeys.flows,
    queryFn: () => http.get<ListData<FlowRow>>('/api/frontend/aibot/flow/list', { page: 1, limit: 100 }),
    select: (data) => data.list.filter((f) => f.version > 0),
    enabled: isEnabled,
    staleTime: 30_000,
  });

const useTaskMutation = <B, R = null>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: aicallKeys.all }),
  });
};

export const useCreateAicall = () => useTaskMutation<AicallCreateBody, { cmStid: number }>('create');
export const useEditAicall = () => useTaskMutation<AicallEditBody, { cmStid: number }>('edit');
export const useDeleteAicall = () => useTaskMutation<{ cmStid: number; confirm: 1 }>('del');

export const useMoveAicall = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ cmStid, move }: { cmStid: number; move: TaskMove }) => http.post<null>(`${BASE}/${move}`, { cmStid }),
    onSuccess: () => client.invalidateQueries({ queryKey: aicallKeys.all }),
  });
};

/** 导出: a task's AI calls as .xlsx by a background job (its progress: customer/job). */
export const useStartAicallExport = () =>
  useMutation({ mutationFn: (cmStid: number) => http.post<{ jobId: string }>(`${BASE}/export`, { cmStid }) });
