import type {
  ApprovalCounts,
  ApprovalInstance,
  ApprovalListQuery,
  ApprovalRow,
  ApprovalTemplate,
  ListData,
  TemplateCreateBody,
  TemplateEditBody,
  TemplateSaveBody,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const TEMPLATES = '/api/v1/merchantapp';
const STAFF = '/api/v1/staff';

export const approvalKeys = {
  all: ['approvals'] as const,
  templates: (isAll: number, isOrder?: number) => [...approvalKeys.all, 'templates', isAll, isOrder ?? ''] as const,
  template: (id: number) => [...approvalKeys.all, 'template', id] as const,
  list: (q: ApprovalListQuery) => [...approvalKeys.all, 'list', q] as const,
  counts: () => [...approvalKeys.all, 'counts'] as const,
  instance: (id: number) => [...approvalKeys.all, 'instance', id] as const,
};

/** SPEC §7 templatelist: isAll 1 lists disabled templates too (审批设置); isOrder 1 order templates only. */
export const useTemplateList = (isAll: 0 | 1, isOrder?: 0 | 1) =>
  useQuery({
    queryKey: approvalKeys.templates(isAll, isOrder),
    queryFn: () => http.get<{ list: ApprovalTemplate[] }>(`${TEMPLATES}/templatelist`, { isAll, isOrder }),
  });

/** SPEC §7 templateinfo: a template's controls and flow, as the order window shows them. */
export const useTemplateInfo = (id: number | undefined) =>
  useQuery({
    queryKey: approvalKeys.template(id ?? 0),
    // a deleted or disabled flow is shown in the form, not as a toast
    queryFn: () => http.get<ApprovalTemplate>(`${TEMPLATES}/templateinfo`, { id }, { silent: true }),
    enabled: id !== undefined,
  });

const useInvalidateTemplates = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [...approvalKeys.all, 'templates'] });
};

/** Saving a template: a new version; running approvals keep the version they started with. */
export const useSaveTemplate = () => {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (body: TemplateSaveBody | TemplateEditBody) =>
      'coMatid' in body
        ? http.post<{ coMatid: number }>(`${TEMPLATES}/templateedit`, body)
        : http.post<{ coMatid: number }>(`${TEMPLATES}/templateadd`, body),
    onSuccess: invalidate,
  });
};

export const useDeleteTemplate = () => {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (coMatid: number) => http.post<null>(`${TEMPLATES}/templatedel`, { coMatid }),
    onSuccess: invalidate,
  });
};

/** SPEC §4 step 2 of an order submit: the approval instance (isSave 2). The caller shows its error. */
export const startApproval = (body: TemplateCreateBody) =>
  http.post<{ instanceId: number; verify_status: number }>(`${STAFF}/templatecreate`, body, { silent: true });

/** 我的审批: one tab of the list. */
export const useApprovalList = (q: ApprovalListQuery) =>
  useQuery({
    queryKey: approvalKeys.list(q),
    queryFn: () => http.get<ListData<ApprovalRow>>(`${STAFF}/approvallist`, q),
    placeholderData: keepPreviousData,
  });

/** The header badge and the tab counts: polled every 30 s, refreshed at once on the socket's message. */
export const useApprovalCounts = () =>
  useQuery({
    queryKey: approvalKeys.counts(),
    queryFn: () => http.get<ApprovalCounts>(`${STAFF}/approvalcounts`, undefined, { silent: true }),
    refetchInterval: 30_000,
    staleTime: 5_000,
  });

export const useApprovalInstance = (instanceId: number | null) =>
  useQuery({
    queryKey: approvalKeys.instance(instanceId ?? 0),
    queryFn: () => http.get<ApprovalInstance>(`${STAFF}/approvalinfo`, { instanceId }),
    enabled: instanceId !== null,
  });

/** Everything an approval action changes: the lists, the counts, orders and the workbench. */
export const useInvalidateApprovals = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: approvalKeys.all }),
      client.invalidateQueries({ queryKey: ['orders'] }),
      client.invalidateQueries({ queryKey: ['workbench'] }),
    ]);
};

/** A template's flow at submit time (the cached one when the form has just shown it). */
export const fetchTemplateInfo = (id: number) =>
  http.get<ApprovalTemplate>(`${TEMPLATES}/templateinfo`, { id }, { silent: true });
