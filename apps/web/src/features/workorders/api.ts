import type {
  ListData,
  WorkOrderCommentBody,
  WorkOrderCounts,
  WorkOrderCreateBody,
  WorkOrderDetail,
  WorkOrderEditBody,
  WorkOrderListQuery,
  WorkOrderRow,
  WorkOrderTransferBody,
  WorkOrderTransitionBody,
  WorkType,
  WorkTypeSaveBody,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/workorder';

export type WorkOrderListParams = Partial<WorkOrderListQuery> & { page: number; limit: number };

export const workOrderKeys = {
  all: ['workorders'] as const,
  types: () => [...workOrderKeys.all, 'types'] as const,
  list: (p: WorkOrderListParams) => [...workOrderKeys.all, 'list', p] as const,
  detail: (id: number) => [...workOrderKeys.all, 'detail', id] as const,
  counts: () => [...workOrderKeys.all, 'counts'] as const,
};

/** 工单设置: the tenant's work-order types with their ordered stages. */
export const useWorkTypes = (enabled = true) =>
  useQuery({
    queryKey: workOrderKeys.types(),
    queryFn: async () => (await http.get<{ list: WorkType[] }>(`${BASE}/typelist`)).list,
    enabled,
  });

/** A customer's work orders (drawer tab) or 工单管理's, by tab and filters. */
export const useWorkOrderList = (params: WorkOrderListParams, enabled = true) =>
  useQuery({
    queryKey: workOrderKeys.list(params),
    queryFn: () => http.get<ListData<WorkOrderRow>>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
    enabled,
  });

/**
 * How many work orders of a list (tab and filters) stand in each of the given stages: the list's
 * own count per stage (limit 1), so the figures always agree with what the list shows.
 */
export const useWorkOrderStageCounts = (base: Partial<WorkOrderListQuery>, stageIds: number[]) =>
  useQueries({
    queries: stageIds.map((stage_id) => {
      const params: WorkOrderListParams = { ...base, stage_id, page: 1, limit: 1 };
      return {
        queryKey: workOrderKeys.list(params),
        queryFn: () => http.get<ListData<WorkOrderRow>>(`${BASE}/list`, params),
        placeholderData: keepPreviousData,
      };
    }),
    combine: (results) => ({
      counts: results.map((r) => r.data?.count ?? 0),
      isLoading: results.some((r) => r.isLoading),
    }),
  });

/** The row, its type's stages, the thread (oldest first) and what the caller may do. */
export const useWorkOrderDetail = (id: number | null) =>
  useQuery({
    queryKey: workOrderKeys.detail(id ?? 0),
    queryFn: () => http.get<WorkOrderDetail>(`${BASE}/detail`, { id }),
    enabled: id !== null,
  });

/** Badges of the 工单管理 tabs. */
export const useWorkOrderCounts = () =>
  useQuery({ queryKey: workOrderKeys.counts(), queryFn: () => http.get<WorkOrderCounts>(`${BASE}/counts`) });

/** What a work-order change touches: types (used counts), lists, details, counts, the workbench. */
const useInvalidateWorkOrders = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: workOrderKeys.all }),
      client.invalidateQueries({ queryKey: ['workbench'] }),
    ]);
};

const useWorkOrderPost = <B, R = unknown>(path: string) => {
  const invalidate = useInvalidateWorkOrders();
  return useMutation({ mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body), onSuccess: invalidate });
};

export const useSaveWorkType = () => useWorkOrderPost<WorkTypeSaveBody>('typesave');
export const useDeleteWorkType = () => useWorkOrderPost<{ id: number }>('typedel');
export const useCreateWorkOrder = () => useWorkOrderPost<Partial<WorkOrderCreateBody>, { id: number }>('create');
export const useEditWorkOrder = () => useWorkOrderPost<WorkOrderEditBody>('edit');
export const useTransitionWorkOrder = () => useWorkOrderPost<Partial<WorkOrderTransitionBody>>('transition');
export const useCommentWorkOrder = () => useWorkOrderPost<Partial<WorkOrderCommentBody>>('comment');
export const useTransferWorkOrder = () => useWorkOrderPost<Partial<WorkOrderTransferBody>>('transfer');

/** 导出: a background job of 工单管理's list with its tab and filters (.xlsx). */
export const useStartWorkOrderExport = () =>
  useMutation({
    mutationFn: (filters: Partial<WorkOrderListQuery>) => http.post<{ jobId: string }>(`${BASE}/export`, filters),
  });
