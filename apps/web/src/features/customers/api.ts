import {
  type CustomerListBody,
  type CustomerPickRow,
  type CustomerRow,
  type ImportPreview,
  type ImportStartBody,
  LIMITS,
  type ListData,
  type StaffOption,
  type SubmittedControl,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customer';

/** The list pages and their endpoints (SPEC §2, §7). */
export const LIST_ENDPOINTS = {
  mine: { list: 'minelist', export: 'mineexportlist' },
  allot: { list: 'allotlist', export: 'allotexportlist' },
  subscribe: { list: 'subscribelist', export: 'subscribeexportlist' },
  never: { list: 'nevermentionedlist', export: 'nevermentionedexportlist' },
  seas: { list: 'seaslist', export: 'seasexportlist' },
} as const;
export type CustomerListKind = keyof typeof LIST_ENDPOINTS;

/** What a list request sends: the search bar's filters, sort, page and size. */
export type CustomerListQuery = Partial<CustomerListBody> & { page: number; limit: number };
/** The filters alone (export sends these). */
export type CustomerListFilters = Partial<Omit<CustomerListBody, 'page' | 'limit'>>;
export type CustomerListData = ListData<CustomerRow> & { isCountCapped: boolean; isCountEstimated: boolean };

/** A stage of the sales process (SPEC §3 Stage). */
export type StageItem = { cmNid: number; name: string; sortNum?: number; actionState?: number };

export const customerListKeys = {
  /** Shared with templates-api's customerKeys.lists: a saved customer refreshes every list. */
  all: ['customers'] as const,
  list: (kind: CustomerListKind, query: CustomerListQuery) => [...customerListKeys.all, kind, query] as const,
};

export const useCustomerList = (kind: CustomerListKind, query: CustomerListQuery) =>
  useQuery({
    queryKey: customerListKeys.list(kind, query),
    queryFn: () => http.post<CustomerListData>(`${BASE}/${LIST_ENDPOINTS[kind].list}`, query),
    placeholderData: keepPreviousData,
  });

/**
 * Stage options for the stage filter. The stage settings may not exist yet: a failing call
 * gives no options (and the filter hides) instead of an error on every list page.
 */
export const useStageOptions = () =>
  useQuery({
    queryKey: ['stages', 'options'],
    queryFn: async () => {
      try {
        const data = await http.get<ListData<StageItem> | StageItem[]>('/api/frontend/customerset/nodelist', undefined, {
          silent: true,
        });
        const list = Array.isArray(data) ? data : (data?.list ?? []);
        return list.filter((s) => (s.actionState ?? 0) === 0);
      } catch {
        return [];
      }
    },
    staleTime: 60_000,
  });

/** Staff by name within the caller's data scope, for the owner and creator filters. */
export const fetchStaffOptions = async (linkman: string) =>
  (await http.get<ListData<StaffOption>>('/api/frontend/staff/options', { linkman })).list;

const useInvalidateLists = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: customerListKeys.all });
};

export const useBatchEditCustomers = () => {
  const onSuccess = useInvalidateLists();
  return useMutation({
    mutationFn: (body: { cmCtids: number[]; templateControls: SubmittedControl[] }) =>
      http.post<{ count: number }>(`${BASE}/batchedit`, body),
    onSuccess,
  });
};

export const useDeleteCustomers = () => {
  const onSuccess = useInvalidateLists();
  return useMutation({
    mutationFn: (cmCtids: number[]) => http.post<{ count: number }>(`${BASE}/del`, { cmCtids }),
    onSuccess,
  });
};

export const useSetCustomerLabels = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { cmCtids: number[]; cmClids: number[] }) => http.post<unknown>(`${BASE}/label`, body),
    // the lists and any open customer detail show the new tags
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: customerListKeys.all }),
        client.invalidateQueries({ queryKey: ['customer'] }),
      ]),
  });
};

// ---------- background jobs: export and import ----------

/** Starts the export of a list with its filters (page and limit are not sent). */
export const useStartExport = (kind: CustomerListKind) =>
  useMutation({
    mutationFn: (filters: CustomerListFilters) => http.post<{ jobId: string }>(`${BASE}/${LIST_ENDPOINTS[kind].export}`, filters),
  });

/** Polls a job every second while it runs. */
/** The .xlsx template built from the company's customer template (downloaded with the token cookie). */
export const IMPORT_TEMPLATE_URL = `${BASE}/importtemplate`;

export const useImportPreview = () =>
  useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return http.upload<ImportPreview>(`${BASE}/importpreview`, form);
    },
  });

export const useStartImport = () =>
  useMutation({ mutationFn: (body: ImportStartBody) => http.post<{ jobId: string }>(`${BASE}/importstart`, body) });

/** The customer picker of the order and receipt pages (SPEC §7 customer list {page, limit 100, keyword}). */
export const useCustomerPick = (query: { page: number; keyword: string }, enabled: boolean) =>
  useQuery({
    queryKey: ['customers', 'pick', query],
    queryFn: () =>
      http.get<ListData<CustomerPickRow>>(`${BASE}/picklist`, {
        page: query.page,
        limit: LIMITS.staffPageSize,
        keyword: query.keyword,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
