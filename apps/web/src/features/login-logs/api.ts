import type { ListData, LoginLog, LoginLogQuery } from '@crm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/http';

export type LoginLogFilters = Partial<Omit<LoginLogQuery, 'page' | 'limit'>>;

export const loginLogKeys = {
  all: ['login-logs'] as const,
  list: (query: LoginLogFilters & { page: number; limit: number }) => [...loginLogKeys.all, 'list', query] as const,
};

/** Login attempts within the caller's data scope (a 销售 sees his own, an admin everyone's). */
export const useLoginLogs = (query: LoginLogFilters & { page: number; limit: number }) =>
  useQuery({
    queryKey: loginLogKeys.list(query),
    queryFn: () => http.get<ListData<LoginLog>>('/api/frontend/user/loginlog', query),
    placeholderData: keepPreviousData,
  });
