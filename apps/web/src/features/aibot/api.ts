import type {
  AibotSettings,
  CustomerTurn,
  FlowDetail,
  FlowGraph,
  FlowIssue,
  FlowRow,
  FlowTestResult,
  FlowVersionDetail,
  ListData,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, http } from '../../api/http';

// 话术管理 (issue 16, menu 301): flows, their versions, the test console and the company's LLM
// settings. Every change refreshes the whole `aibot` key: the list shows status and version.

const BASE = '/api/frontend/aibot';

export const aibotKeys = {
  all: ['aibot'] as const,
  list: (q: FlowListParams) => ['aibot', 'flows', q] as const,
  detail: (id: number) => ['aibot', 'flow', id] as const,
  version: (id: number, version: number) => ['aibot', 'flow', id, 'version', version] as const,
  settings: ['aibot', 'settings'] as const,
};

export type FlowListParams = { page: number; limit: number; name?: string };

export const useFlowList = (q: FlowListParams) =>
  useQuery({
    queryKey: aibotKeys.list(q),
    queryFn: () => http.get<ListData<FlowRow>>(`${BASE}/flow/list`, q),
    placeholderData: keepPreviousData,
  });

export const useFlowDetail = (id: number) =>
  useQuery({
    queryKey: aibotKeys.detail(id),
    queryFn: () => http.get<FlowDetail>(`${BASE}/flow/detail`, { id }),
    enabled: id > 0,
    // the designer holds the draft: a background refetch must not replace what is being edited
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useFlowVersion = (id: number, version: number | null) =>
  useQuery({
    queryKey: aibotKeys.version(id, version ?? 0),
    queryFn: () => http.get<FlowVersionDetail>(`${BASE}/flow/version`, { id, version }),
    enabled: version !== null && version > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });

// keepEmpty: a graph's '' prompts and null recordings/next nodes are values the schema requires
const useFlowMutation = <B, R = unknown>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body, { keepEmpty: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: aibotKeys.all }),
  });
};

export const useCreateFlow = () => useFlowMutation<{ name: string; remark: string }, { id: number }>('flow/store');
export const useCopyFlow = () => useFlowMutation<{ id: number; name: string }, { id: number }>('flow/copy');
export const useDeleteFlow = () => useFlowMutation<{ id: number }>('flow/delete');
export const useUpdateFlow = () =>
  useFlowMutation<{ id: number; name: string; remark: string; graph: FlowGraph }, { issues: FlowIssue[] }>('flow/update');

/** Publish: the server refuses a draft with issues (116002); the designer shows them instead of a toast. */
export const usePublishFlow = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<{ version?: number } | null>(`${BASE}/flow/publish`, { id }, { silent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: aibotKeys.all }),
  });
};

/** The issues a refused publish carries, in whichever shape the answer's data holds them. */
export const issuesOfError = (err: unknown): FlowIssue[] => {
  if (!(err instanceof ApiError)) return [];
  const data = err.data as { issues?: unknown } | unknown[] | null;
  const list = Array.isArray(data) ? data : (data as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(list)) return [];
  return list.filter((i): i is FlowIssue => typeof i === 'object' && i !== null && 'msg' in i && 'path' in i);
};

export type FlowTestParams = {
  id: number;
  version: number;
  turns: CustomerTurn[];
  talk_seconds?: number;
  /** prompt variables to fill (the server fills the rest: 坐席姓名 = the tester, 公司名称 = the company) */
  vars?: Record<string, string>;
};
export const useFlowTest = () =>
  useMutation({
    mutationFn: (body: FlowTestParams) => http.post<FlowTestResult>(`${BASE}/flow/test`, body, { keepEmpty: true }),
  });

export const useAibotSettings = (isEnabled: boolean) =>
  useQuery({
    queryKey: aibotKeys.settings,
    queryFn: () => http.get<AibotSettings>(`${BASE}/setting`),
    enabled: isEnabled,
  });

export type AibotSettingsParams = Omit<AibotSettings, 'llm_key_set'> & { llm_key?: string | null };
export const useSaveAibotSettings = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AibotSettingsParams) => http.post<AibotSettings>(`${BASE}/setting`, body, { keepEmpty: true }),
    // the answer is the stored settings: the next opening starts from them, not from a stale copy
    onSuccess: (saved) => client.setQueryData(aibotKeys.settings, saved),
  });
};
