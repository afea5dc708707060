import {
  CALLTASK_STATUS,
  type CalltaskDetail,
  type CalltaskListBody,
  type CalltaskOutcomeBody,
  type CalltaskRow,
  type ListData,
} from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../api/http';
import { postWork } from './rejoinWork';

const BASE = '/api/frontend/calltask';

/** Under ['calltasks']: the managers' pages refresh these too when a task changes. */
export const workKeys = {
  all: ['calltasks', 'work'] as const,
  mine: (status: number | undefined) => [...workKeys.all, 'mine', status ?? 'all'] as const,
  detail: (cmStid: number) => [...workKeys.all, 'detail', cmStid] as const,
  working: (staffId: number) => [...workKeys.all, 'working', staffId] as const,
};

/** The polling fallback when no msg_type 7 frame comes (socket down). */
export const WORK_POLL_MS = 10_000;
export const WORKING_POLL_MS = 5_000;

/** The tasks the agent works (isMine 1), newest first. */
export const useMyTasks = (status: number | undefined) =>
  useQuery({
    queryKey: workKeys.mine(status),
    queryFn: () =>
      http.post<ListData<CalltaskRow>>(`${BASE}/list`, {
        page: 1,
        limit: 20,
        isMine: 1,
        ...(status === undefined ? {} : { status }),
      } satisfies Partial<CalltaskListBody>),
    refetchInterval: WORK_POLL_MS,
  });

/** One task with its per-agent figures (is the agent still working it?). */
export const useTaskDetail = (cmStid: number | null) =>
  useQuery({
    queryKey: workKeys.detail(cmStid ?? 0),
    queryFn: () => http.get<CalltaskDetail>(`${BASE}/detail`, { cmStid }),
    enabled: cmStid !== null,
    refetchInterval: WORKING_POLL_MS,
  });

/**
 * The running task the server has the agent working (after a reload the page knows nothing of
 * it): read once from the details of his running tasks.
 */
export const useServerWorking = (staffId: number, isEnabled: boolean) =>
  useQuery({
    queryKey: workKeys.working(staffId),
    queryFn: async () => {
      const { list } = await http.post<ListData<CalltaskRow>>(`${BASE}/list`, {
        page: 1,
        limit: 20,
        isMine: 1,
        status: CALLTASK_STATUS.running,
      });
      for (const row of list) {
        const detail = await http.get<CalltaskDetail>(`${BASE}/detail`, { cmStid: row.cmStid });
        if (detail.agents.some((a) => a.cmSid === staffId && a.isWorking === 1)) return row.cmStid;
      }
      return 0;
    },
    enabled: isEnabled && staffId > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });

const useRefresh = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: workKeys.all });
};

/** 开始工作 (also 立即下一个 in the wrap-up: the server dials at once when the agent is free). */
export const useWork = () => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (cmStid: number) => postWork<{ isDialled: number }>(`${BASE}/work`, cmStid),
    onSuccess: refresh,
  });
};

export const useUnwork = () => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (cmStid: number) => http.post<null>(`${BASE}/unwork`, { cmStid }),
    onSuccess: refresh,
  });
};

export const useOutcome = () => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CalltaskOutcomeBody) => http.post<null>(`${BASE}/outcome`, body),
    onSuccess: refresh,
  });
};
