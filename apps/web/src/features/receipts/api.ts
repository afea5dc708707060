import type {
  ListData,
  PlanCreateBody,
  PlanListQuery,
  PlanRow,
  PlanUpdateBody,
  ReceiptCreateBody,
  ReceiptListQuery,
  ReceiptRow,
  ReceiptSetting,
  ReceiptStats,
  ReceiptStatsQuery,
  ReceiptSummary,
  ReceiptUpdateBody,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/receipt';

export type PlanListParams = Partial<PlanListQuery> & { page: number; limit: number };
export type ReceiptListParams = Partial<ReceiptListQuery> & { page: number; limit: number };

export const receiptKeys = {
  all: ['receipts'] as const,
  summary: (q: { customer_id?: number; order_id?: number }) => [...receiptKeys.all, 'summary', q] as const,
  plans: (p: PlanListParams) => [...receiptKeys.all, 'plans', p] as const,
  list: (p: ReceiptListParams) => [...receiptKeys.all, 'list', p] as const,
  stats: (q: Partial<ReceiptStatsQuery>) => [...receiptKeys.all, 'stats', q] as const,
  setting: () => [...receiptKeys.all, 'setting'] as const,
};

/** SPEC §3 Receipt summary of a customer or an order: totals and each plan with its repayments. */
export const useReceiptSummary = (q: { customer_id?: number; order_id?: number }, enabled = true) =>
  useQuery({
    queryKey: receiptKeys.summary(q),
    queryFn: () => http.get<ReceiptSummary>(`${BASE}/summary`, q),
    enabled,
  });

/** Plans of an order, a customer, or (neither) 回款管理's plans in the caller's scope. */
export const usePlanList = (params: PlanListParams, enabled = true) =>
  useQuery({
    queryKey: receiptKeys.plans(params),
    queryFn: () => http.get<ListData<PlanRow>>(`${BASE}/planlist`, params),
    placeholderData: keepPreviousData,
    enabled,
  });

export const useReceiptList = (params: ReceiptListParams, enabled = true) =>
  useQuery({
    queryKey: receiptKeys.list(params),
    queryFn: () => http.get<ListData<ReceiptRow>>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
    enabled,
  });

/** 回款管理 figures: received by month and by staff, what open plans expect in the next 30 days (caller's scope). */
export const useReceiptStats = (q: Partial<ReceiptStatsQuery> = {}) =>
  useQuery({ queryKey: receiptKeys.stats(q), queryFn: () => http.get<ReceiptStats>(`${BASE}/stats`, q) });

/** The company's receipt settings: reminder days and the receipt approval flow (0 = receipts count at once). */
export const useReceiptSetting = (enabled = true) =>
  useQuery({ queryKey: receiptKeys.setting(), queryFn: () => http.get<ReceiptSetting>(`${BASE}/setting`), enabled });

/** 回款设置 (审批设置 page): reminder days and the company's receipt flow (0 = receipts count at once). */
export const useSaveReceiptSetting = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReceiptSetting) => http.post<null>(`${BASE}/settingsave`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: receiptKeys.setting() }),
  });
};

/** What a receipt change touches: receipt lists and summaries, orders, approvals, the workbench. */
const useInvalidateReceipts = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: receiptKeys.all }),
      client.invalidateQueries({ queryKey: ['orders'] }),
      client.invalidateQueries({ queryKey: ['approvals'] }),
      client.invalidateQueries({ queryKey: ['workbench'] }),
    ]);
};

const useReceiptPost = <B>(path: string) => {
  const invalidate = useInvalidateReceipts();
  return useMutation({ mutationFn: (body: B) => http.post<unknown>(`${BASE}/${path}`, body), onSuccess: invalidate });
};

export const useCreatePlan = () => useReceiptPost<PlanCreateBody>('plancreate');
export const useUpdatePlan = () => useReceiptPost<PlanUpdateBody>('planupdate');
export const useDeletePlan = () => useReceiptPost<{ id: number }>('plandel');
export const useCreateReceipt = () => useReceiptPost<Partial<ReceiptCreateBody>>('create');
export const useUpdateReceipt = () => useReceiptPost<ReceiptUpdateBody>('update');
export const useDeleteReceipt = () => useReceiptPost<{ id: number }>('del');

/** 导出: a background job of the plan list with its filters (.xlsx). */
export const useStartReceiptExport = () =>
  useMutation({ mutationFn: (filters: Partial<PlanListQuery>) => http.post<{ jobId: string }>(`${BASE}/export`, filters) });

/** 导出 of 回款记录: the same kind of job over the receipt list with its filters (.xlsx). */
export const useStartReceiptListExport = () =>
  useMutation({
    mutationFn: (filters: Partial<ReceiptListQuery>) => http.post<{ jobId: string }>(`${BASE}/listexport`, filters),
  });
