import type {
  AllotBody,
  BatchAllotBody,
  DelAllBody,
  DeletedCustomer,
  DeletedListQuery,
  DiscardReason,
  DiscardReasonBody,
  DiscardReasonEditBody,
  FollowDownBody,
  ListData,
  MoveResult,
  Pool,
  PoolBody,
  PoolEditBody,
  PoolOption,
  RecycleResult,
  RecycleSoon,
} from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const SET = '/api/frontend/customerset';
const CUSTOMER = '/api/frontend/customer';

/** ['pools'] roots every pool and discard-reason query, so a settings change refreshes the dialog options too. */
export const poolKeys = {
  all: ['pools'] as const,
  reasons: () => [...poolKeys.all, 'reasons'] as const,
  baseReasons: () => [...poolKeys.all, 'reasons', 'base'] as const,
  pools: () => [...poolKeys.all, 'list'] as const,
  visible: () => [...poolKeys.all, 'visible'] as const,
  soon: () => [...poolKeys.all, 'soon'] as const,
  deleted: (q: DeletedListQuery) => [...poolKeys.all, 'deleted', q] as const,
};

const useInvalidate = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: poolKeys.all }),
      client.invalidateQueries({ queryKey: ['customers'] }),
      client.invalidateQueries({ queryKey: ['customer'] }),
    ]);
};

// ---------- discard reasons ----------

export const useDiscardReasons = () =>
  useQuery({
    queryKey: poolKeys.reasons(),
    queryFn: () => http.get<ListData<DiscardReason>>(`${SET}/discardlist`, { page: 1, limit: 500 }),
  });
/** The enabled reasons the discard dialog offers. */
export const useBaseDiscardReasons = (enabled = true) =>
  useQuery({
    queryKey: poolKeys.baseReasons(),
    queryFn: () => http.get<ListData<DiscardReason>>(`${SET}/discardbaselist`),
    enabled,
  });

export const useCreateReason = () => {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (body: DiscardReasonBody) => http.post<{ cmCdid: number }>(`${SET}/discardcreate`, body),
    onSuccess,
  });
};
export const useEditReason = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (body: DiscardReasonEditBody) => http.post<null>(`${SET}/discardedit`, body), onSuccess });
};
export const useDeleteReason = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (id: number) => http.post<null>(`${SET}/discarddel`, { id }), onSuccess });
};

// ---------- pools ----------

export const usePools = () =>
  useQuery({
    queryKey: poolKeys.pools(),
    queryFn: () => http.get<ListData<Pool>>(`${SET}/highseaslist`, { page: 1, limit: 500 }),
  });
/** The enabled pools the caller may use (discard dialog step 0, pool filter). */
export const useVisiblePools = (enabled = true) =>
  useQuery({
    queryKey: poolKeys.visible(),
    queryFn: () => http.get<ListData<PoolOption>>(`${SET}/highseasvisiblelist`),
    enabled,
  });

export const useCreatePool = () => {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (body: PoolBody) => http.post<{ cmHsid: number }>(`${SET}/highseasdcreate`, body),
    onSuccess,
  });
};
export const useEditPool = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (body: PoolEditBody) => http.post<null>(`${SET}/highseasedit`, body), onSuccess });
};
export const useDeletePool = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (id: number) => http.post<null>(`${SET}/highseasdel`, { id }), onSuccess });
};

// ---------- moves ----------

/** followdown: the server's message (丢弃成功！) is returned for the caller to show. */
export const useDiscard = () => {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (body: FollowDownBody) => http.post<{ count: number }>(`${CUSTOMER}/followdown`, body),
    onSuccess,
  });
};
export const useClaim = () => {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (cmCtids: number[]) => http.post<MoveResult>(`${CUSTOMER}/followup`, { cmCtids }),
    onSuccess,
  });
};
export const useAllot = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (body: AllotBody) => http.post<MoveResult>(`${CUSTOMER}/allot`, body), onSuccess });
};
export const useBatchAllot = () =>
  useMutation({ mutationFn: (body: BatchAllotBody) => http.post<{ jobId: string }>(`${CUSTOMER}/batchallot`, body) });
export const useDeleteAll = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (body: DelAllBody) => http.post<{ count: number }>(`${CUSTOMER}/delall`, body), onSuccess });
};
export const useRunRecycle = () => {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: () => http.post<RecycleResult>(`${CUSTOMER}/recyclerun`, {}), onSuccess });
};
/** 即将回收: my customers the sweep takes within recycleRemind days. */
export const useRecycleSoon = () =>
  useQuery({
    queryKey: poolKeys.soon(),
    queryFn: () => http.get<{ list: RecycleSoon[]; count: number; days: number }>(`${CUSTOMER}/recyclesoon`),
  });

/** 回收站: customers deleted within the last 30 days. */
export const useDeletedCustomers = (query: DeletedListQuery, enabled: boolean) =>
  useQuery({
    queryKey: poolKeys.deleted(query),
    queryFn: () => http.get<ListData<DeletedCustomer>>(`${CUSTOMER}/deletedlist`, query),
    enabled,
  });
export const useRestoreCustomers = () => {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (cmCtids: number[]) => http.post<{ count: number }>(`${CUSTOMER}/restore`, { cmCtids }),
    onSuccess,
  });
};
