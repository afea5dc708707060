import type {
  DialRefusal,
  DialRefusalListQuery,
  DialRefusalStat,
  DncAddBody,
  DncAddFromCallBody,
  DncEntry,
  DncListQuery,
  ListData,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

// Calling compliance (issue 15): 禁拨名单 and 外呼拦截记录.

const BASE = '/api/frontend/dnc';

export const complianceKeys = {
  all: ['compliance'] as const,
  dnc: (q: Partial<DncListQuery>) => [...complianceKeys.all, 'dnc', q] as const,
  refusals: (q: Partial<DialRefusalListQuery>) => [...complianceKeys.all, 'refusals', q] as const,
  stat: () => [...complianceKeys.all, 'stat'] as const,
};

export const useDncList = (query: Partial<DncListQuery>) =>
  useQuery({
    queryKey: complianceKeys.dnc(query),
    queryFn: () => http.get<ListData<DncEntry>>(`${BASE}/list`, query),
    placeholderData: keepPreviousData,
  });

export const useDialRefusals = (query: Partial<DialRefusalListQuery>) =>
  useQuery({
    queryKey: complianceKeys.refusals(query),
    queryFn: () => http.get<ListData<DialRefusal>>(`${BASE}/refusals`, query),
    placeholderData: keepPreviousData,
  });

export const useRefusalStat = () =>
  useQuery({ queryKey: complianceKeys.stat(), queryFn: () => http.get<DialRefusalStat>(`${BASE}/refusalstat`) });

const useDncMutation = <B, R = null>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: complianceKeys.all }),
  });
};

export const useAddDnc = () => useDncMutation<DncAddBody, { id: number }>('add');
export const useAddDncFromCall = () => useDncMutation<DncAddFromCallBody, { id: number }>('addfromcall');
export const useDeleteDnc = () => useDncMutation<{ id: number }, { count: number }>('del');
