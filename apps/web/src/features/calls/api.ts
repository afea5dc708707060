import type { CallListBody, CallRecordRow, ListData } from '@crm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/http';

/** ['calls'] is refreshed by the phone when a call ends (phone/phoneActions.ts). */
export const callKeys = {
  all: ['calls'] as const,
  list: (body: Partial<CallListBody>) => [...callKeys.all, 'list', body] as const,
};

/** POST /api/frontend/call/list (SPEC §7): call records under the role's data scope. */
export const useCallList = (body: Partial<CallListBody>) =>
  useQuery({
    queryKey: callKeys.list(body),
    queryFn: () => http.post<ListData<CallRecordRow>>('/api/frontend/call/list', body),
    placeholderData: keepPreviousData,
  });

/** Talk time as the lists show it: 1分05秒, 45秒, 0. */
export const billsecText = (seconds: number): string => {
  if (seconds <= 0) return '0秒';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h > 0 ? `${h}时` : ''}${h > 0 || m > 0 ? `${m}分` : ''}${s}秒`;
};
