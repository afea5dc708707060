import type {
  BillingAlert,
  BillingChargeRow,
  BillingChart,
  BillingFilterQuery,
  BillingGroupBy,
  BillingOverview,
  BillingRechargeRow,
  BillingSettingsBody,
  BillingSummary,
  ListData,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/billing';

/** The filters as the page holds them: only what is chosen (the server fills the rest). */
export type BillingFilters = Partial<BillingFilterQuery>;
export type BillingListParams = BillingFilters & { page: number; limit: number };

export const billingKeys = {
  all: ['billing'] as const,
  overview: () => [...billingKeys.all, 'overview'] as const,
  chart: (f: BillingFilters) => [...billingKeys.all, 'chart', f] as const,
  charges: (p: BillingListParams) => [...billingKeys.all, 'charges', p] as const,
  recharges: (p: BillingListParams) => [...billingKeys.all, 'recharges', p] as const,
  summary: (f: BillingFilters, groupBy: BillingGroupBy) => [...billingKeys.all, 'summary', groupBy, f] as const,
  alerts: () => [...billingKeys.all, 'alerts'] as const,
};

/** 余额, 本月消费, 今日消费, 预计可用天数 (the balance card, the workbench card, the header's low-balance mark). */
export const useBillingOverview = (enabled = true) =>
  useQuery({
    queryKey: billingKeys.overview(),
    queryFn: () => http.get<BillingOverview>(`${BASE}/overview`),
    enabled,
    refetchInterval: 60_000,
  });

/** Consumption per day split by kind. */
export const useBillingChart = (filters: BillingFilters) =>
  useQuery({
    queryKey: billingKeys.chart(filters),
    queryFn: () => http.get<BillingChart>(`${BASE}/chart`, filters),
    placeholderData: keepPreviousData,
  });

/** 消费明细: every charge in the filters, newest first. */
export const useBillingCharges = (params: BillingListParams) =>
  useQuery({
    queryKey: billingKeys.charges(params),
    queryFn: () => http.get<ListData<BillingChargeRow>>(`${BASE}/charges`, params),
    placeholderData: keepPreviousData,
  });

/** 充值记录 (company scope only). */
export const useBillingRecharges = (params: BillingListParams, enabled = true) =>
  useQuery({
    queryKey: billingKeys.recharges(params),
    queryFn: () => http.get<ListData<BillingRechargeRow>>(`${BASE}/recharges`, params),
    placeholderData: keepPreviousData,
    enabled,
  });

/** 汇总 by staff, day, line or kind, with the totals row. */
export const useBillingSummary = (filters: BillingFilters, groupBy: BillingGroupBy) =>
  useQuery({
    queryKey: billingKeys.summary(filters, groupBy),
    queryFn: () => http.get<BillingSummary>(`${BASE}/summary`, { ...filters, group_by: groupBy }),
    placeholderData: keepPreviousData,
  });

/** 导出: a background job of 消费明细 with its filters (.xlsx). */
export const useStartBillingExport = () =>
  useMutation({ mutationFn: (filters: BillingFilters) => http.post<{ jobId: string }>(`${BASE}/export`, filters) });

/** Low-balance notices of the company (admins): the header's mark. */
export const useBillingAlerts = (enabled: boolean) =>
  useQuery({
    queryKey: billingKeys.alerts(),
    queryFn: () => http.get<{ unread: number; list: BillingAlert[] }>(`${BASE}/alerts`),
    enabled,
  });

/** Marks the low-balance notices read (opening 消费明细 from the header). */
export const useReadBillingAlerts = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<null>(`${BASE}/alertsread`, {}),
    onSuccess: () => client.invalidateQueries({ queryKey: billingKeys.alerts() }),
  });
};

/** 余额提醒 thresholds (company scope). */
export const useBillingSettings = (enabled: boolean) =>
  useQuery({
    queryKey: [...billingKeys.all, 'settings'],
    queryFn: () => http.get<{ thresholds: number[] }>(`${BASE}/settings`),
    enabled,
    staleTime: 0,
  });

export const useSaveBillingSettings = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingSettingsBody) => http.post<null>(`${BASE}/settings`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: billingKeys.all }),
  });
};
