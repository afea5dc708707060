import {
  type CalltaskListBody,
  GROUPCALL_MSG_TYPE,
  type GroupcallBoard,
  type GroupcallCreateBody,
  type GroupcallRow,
  type ListData,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { callSocket } from '../../api/callSocket';
import { http } from '../../api/http';
import { postWork } from '../calltasks/work/rejoinWork';

const BASE = '/api/frontend/groupcall';

export const groupKeys = {
  all: ['groupcall'] as const,
  list: (q: Partial<CalltaskListBody>) => [...groupKeys.all, 'list', q] as const,
  board: (cmStid: number) => [...groupKeys.all, 'board', cmStid] as const,
};

/** The polling fallback when no msg_type 8 frame comes (socket down). */
const BOARD_POLL_MS = 5_000;

export const useGroupTasks = (q: Partial<CalltaskListBody>) =>
  useQuery({
    queryKey: groupKeys.list(q),
    queryFn: () => http.post<ListData<GroupcallRow>>(`${BASE}/list`, { page: 1, limit: 20, ...q }),
    placeholderData: keepPreviousData,
    refetchInterval: BOARD_POLL_MS * 2,
  });

export const useGroupBoard = (cmStid: number | null) =>
  useQuery({
    queryKey: groupKeys.board(cmStid ?? 0),
    queryFn: () => http.get<GroupcallBoard>(`${BASE}/board`, { cmStid }),
    enabled: cmStid !== null,
    refetchInterval: BOARD_POLL_MS,
  });

/** Live board frames (msg_type 8) go straight into the board on screen. */
export const useBoardFrames = () => {
  const client = useQueryClient();
  useEffect(
    () =>
      callSocket.subscribe((frame) => {
        if (frame.msg_type !== GROUPCALL_MSG_TYPE || !frame.data) return;
        const board = frame.data as GroupcallBoard;
        client.setQueryData(groupKeys.board(board.cmStid), board);
      }),
    [client],
  );
};

const useRefresh = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: groupKeys.all });
};

export const useCreateGroupTask = () => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: GroupcallCreateBody) => http.post<{ cmStid: number }>(`${BASE}/create`, body),
    onSuccess: refresh,
  });
};

export const useDeleteGroupTask = () => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { cmStid: number; confirm: 1 }) => http.post<null>(`${BASE}/del`, body),
    onSuccess: refresh,
  });
};

export type GroupAction = 'start' | 'pause' | 'resume' | 'stop' | 'work' | 'unwork';

export const useGroupAction = () => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ action, cmStid }: { action: GroupAction; cmStid: number }) =>
      // work waits for the call socket when the server does not see it yet (issue 22)
      action === 'work' ? postWork<null>(`${BASE}/work`, cmStid) : http.post<null>(`${BASE}/${action}`, { cmStid }),
    onSuccess: refresh,
  });
};
