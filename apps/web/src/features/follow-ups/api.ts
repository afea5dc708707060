import type { FollowCreateBody, FollowRecord, ListData } from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customer';

export type FollowListParams = {
  cmCtid: number;
  followType: number;
  startTime?: string;
  endTime?: string;
  page: number;
  limit: number;
};

export const followKeys = {
  all: ['follow-ups'] as const,
  customer: (cmCtid: number) => [...followKeys.all, cmCtid] as const,
  list: (p: FollowListParams) => [...followKeys.customer(p.cmCtid), p] as const,
};

/** A customer's follow history (SPEC §7 followlist; sourceType 1 as the drawer sends it). */
export const useFollowList = (params: FollowListParams) =>
  useQuery({
    queryKey: followKeys.list(params),
    queryFn: () => http.get<ListData<FollowRecord>>(`${BASE}/followlist`, { ...params, sourceType: 1 }),
    placeholderData: keepPreviousData,
  });

/** What a follow-up changes: its history, the customer's detail and every customer list. */
const useInvalidateCustomer = () => {
  const client = useQueryClient();
  return (cmCtid: number) =>
    Promise.all([
      client.invalidateQueries({ queryKey: followKeys.customer(cmCtid) }),
      client.invalidateQueries({ queryKey: ['customer', cmCtid] }),
      client.invalidateQueries({ queryKey: ['customers'] }),
    ]);
};

export const useCreateFollow = () => {
  const invalidate = useInvalidateCustomer();
  return useMutation({
    mutationFn: (body: FollowCreateBody) => http.post<{ cmCtfid: number }>(`${BASE}/followcreate`, body),
    onSuccess: (_, body) => invalidate(body.cmCtid),
  });
};

export const useDeleteFollow = (cmCtid: number) => {
  const invalidate = useInvalidateCustomer();
  return useMutation({
    mutationFn: (cmCtfid: number) => http.post<null>(`${BASE}/followdel`, { cmCtfid }),
    onSuccess: () => invalidate(cmCtid),
  });
};

/** The stage bar (recorded in the history). */
export const useChangeStage = () => {
  const invalidate = useInvalidateCustomer();
  return useMutation({
    mutationFn: (body: { cmCtid: number; cmNid: number }) => http.post<null>(`${BASE}/stage`, body),
    onSuccess: (_, body) => invalidate(body.cmCtid),
  });
};
