import type {
  LeadAdvancedQuery,
  LeadBatchResult,
  LeadConvertBody,
  LeadConvertResult,
  LeadExistingCustomer,
  LeadFilters,
  LeadInfo,
  LeadMapResult,
  LeadSearchResult,
  LeadTaskAddBody,
  LeadTemplate,
  LeadTemplateCreateBody,
  LeadTemplateEditBody,
  ListData,
  PoolOption,
  UploadResult,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customer/kqhk';

export const leadKeys = {
  all: ['leads'] as const,
  company: (q: object) => ['leads', 'company', q] as const,
  info: (id: number) => ['leads', 'info', id] as const,
  templates: ['leads', 'templates'] as const,
  advanced: (q: object) => ['leads', 'advanced', q] as const,
  map: (q: object) => ['leads', 'map', q] as const,
  batch: (q: object) => ['leads', 'batch', q] as const,
  quota: ['leads', 'quota'] as const,
};

/** The filters as the query string carries them (statuses comma separated). */
export const filtersToQuery = (f: LeadFilters): Record<string, unknown> => {
  const { statuses, hasPhone, hasMobile, ...rest } = f;
  return {
    ...rest,
    statuses: statuses && statuses.length > 0 ? statuses.join(',') : undefined,
    hasPhone: hasPhone ? 1 : undefined,
    hasMobile: hasMobile ? 1 : undefined,
  };
};

export type CompanyLookup = { keyword: string; isRemote: boolean; page: number; limit: number };

/** 查企业: the registry (and, asked for, the data provider) by name. */
export const useCompanyLookup = (q: CompanyLookup | null) =>
  useQuery({
    queryKey: leadKeys.company(q ?? {}),
    queryFn: () =>
      http.get<LeadSearchResult>(`${BASE}/company`, {
        keyword: q?.keyword,
        isRemote: q?.isRemote ? 1 : undefined,
        page: q?.page,
        limit: q?.limit,
      }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });

/** The company card. */
export const useLeadInfo = (id: number | null) =>
  useQuery({
    queryKey: leadKeys.info(id ?? 0),
    queryFn: () => http.get<LeadInfo>(`${BASE}/company/info`, { id }),
    enabled: id !== null,
  });

export type AdvancedQuery = LeadFilters & Pick<LeadAdvancedQuery, 'orderBy' | 'orderSort'> & { page: number; limit: number };

/** 找线索. `null` until the first search. */
export const useAdvancedSearch = (q: AdvancedQuery | null) =>
  useQuery({
    queryKey: leadKeys.advanced(q ?? {}),
    queryFn: () => {
      const { orderBy, orderSort, page, limit, ...filters } = q as AdvancedQuery;
      return http.get<LeadSearchResult>(`${BASE}/advanced`, { ...filtersToQuery(filters), orderBy, orderSort, page, limit });
    },
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });

export type MapQuery = LeadFilters & { lat?: number; lng?: number; radiusKm?: number; polygon?: [number, number][] };

/** 地图搜索: a circle (centre + radius) or a drawn polygon. */
export const useMapSearch = (q: MapQuery | null) =>
  useQuery({
    queryKey: leadKeys.map(q ?? {}),
    queryFn: () => {
      const { lat, lng, radiusKm, polygon, ...filters } = q as MapQuery;
      return http.get<LeadMapResult>(`${BASE}/map`, {
        ...filtersToQuery(filters),
        lat,
        lng,
        radiusKm,
        polygon: polygon ? JSON.stringify(polygon) : undefined,
      });
    },
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });

// ---------- industry templates ----------

export const useLeadTemplates = () =>
  useQuery({
    queryKey: leadKeys.templates,
    queryFn: async () => (await http.get<{ templates: LeadTemplate[] }>(`${BASE}/industry`)).templates,
  });

const useTemplateMutation = <B>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<unknown>(`${BASE}/industry/${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: leadKeys.templates }),
  });
};
export const useCreateTemplate = () => useTemplateMutation<LeadTemplateCreateBody>('create');
export const useEditTemplate = () => useTemplateMutation<LeadTemplateEditBody>('edit');
export const useDeleteTemplate = () => useTemplateMutation<{ id: number }>('del');

// ---------- batch lookup ----------

/** Starts a batch lookup of pasted names or an uploaded .xlsx (first column). */
export const useStartBatch = () =>
  useMutation({
    mutationFn: (body: { names?: string[]; fileId?: number }) => http.post<{ jobId: string }>(`${BASE}/batch/company`, body),
  });

export const uploadFile = async (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return http.upload<UploadResult>('/api/frontend/upload/file', form);
};

export type BatchQuery = { jobId: string; match?: 'exact' | 'fuzzy' | 'none'; page: number; limit: number };

/** A batch job's progress and rows, polled each second while it runs. */
export const useBatchResult = (q: BatchQuery | null) =>
  useQuery({
    queryKey: leadKeys.batch(q ?? {}),
    queryFn: () => http.get<LeadBatchResult>(`${BASE}/batch/company`, q ?? undefined),
    enabled: q !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
  });

export const useStartBatchExport = () =>
  useMutation({
    mutationFn: (body: { jobId: string; match?: string }) => http.post<{ jobId: string }>(`${BASE}/batch/company/export`, body),
  });

// ---------- into the CRM ----------

export type LeadDuplicate = { id: number; name: string; existing: LeadExistingCustomer[] };

/** What the chosen leads already are among the company's customers (before 转为客户). */
export const useConvertCheck = (ids: number[], enabled: boolean) =>
  useQuery({
    queryKey: ['leads', 'convert-check', ids],
    queryFn: () => http.post<{ list: LeadDuplicate[]; quotaLeft?: number }>(`${BASE}/convert/check`, { ids }),
    enabled: enabled && ids.length > 0,
    staleTime: 0,
  });

export const useConvertLeads = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LeadConvertBody) => http.post<LeadConvertResult>(`${BASE}/convert`, body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: leadKeys.all });
      void client.invalidateQueries({ queryKey: ['customers'] });
    },
  });
};

export const useAddToTask = () =>
  useMutation({
    mutationFn: (body: LeadTaskAddBody) =>
      http.post<{ added: number; noPhone: number; skipped: number }>(`${BASE}/task/add`, body),
  });

/** The pools the caller may send customers to. */
export const useVisiblePoolOptions = (enabled: boolean) =>
  useQuery({
    queryKey: ['leads', 'pools'],
    queryFn: async () => (await http.get<ListData<PoolOption>>('/api/frontend/customerset/highseasvisiblelist')).list,
    enabled,
  });

export type TaskKind = 'seat' | 'group' | 'ai';
const TASK_LIST: Record<TaskKind, string> = {
  seat: '/api/frontend/calltask/list',
  group: '/api/frontend/groupcall/list',
  ai: '/api/frontend/aicall/list',
};

/** The tasks of one kind to add numbers to, by name. */
export const useTaskOptions = (kind: TaskKind, name: string, enabled: boolean) =>
  useQuery({
    queryKey: ['leads', 'tasks', kind, name],
    queryFn: async () =>
      (
        await http.post<ListData<{ cmStid: number; name: string; statusName: string }>>(TASK_LIST[kind], {
          page: 1,
          limit: 50,
          name,
        })
      ).list,
    enabled,
  });
