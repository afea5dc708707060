import {
  type AccountLogRow,
  type ApprovalTemplate,
  CONTRACT_STATUS,
  type ContractAccount,
  type ContractAccountBody,
  type ContractArchiveResult,
  type ContractCreateBody,
  type ContractDetail,
  type ContractListQuery,
  type ContractRow,
  type ContractRule,
  type ContractRuleBody,
  type ContractSendResult,
  type ContractStatusInfo,
  type ContractTemplate,
  type ContractTemplateStoreBody,
  type ListData,
  type Seal,
  type SealStoreBody,
  type UploadPdfResult,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/contract';

export type ContractListParams = Partial<Omit<ContractListQuery, 'page' | 'limit'>> & { page: number; limit: number };
export type ContractFilters = Partial<Omit<ContractListQuery, 'page' | 'limit' | 'status'>>;

export const contractKeys = {
  all: ['contracts'] as const,
  list: (p: ContractListParams) => [...contractKeys.all, 'list', p] as const,
  statusInfo: (f: ContractFilters) => [...contractKeys.all, 'statusInfo', f] as const,
  detail: (id: number) => [...contractKeys.all, 'detail', id] as const,
  ofOrder: (orderId: number) => [...contractKeys.all, 'ofOrder', orderId] as const,
  ofCustomer: (customerId: number) => [...contractKeys.all, 'ofCustomer', customerId] as const,
  settings: ['contract-settings'] as const,
};

// ---------- contracts ----------

/** 合同列表: the caller's contracts (his data scope) with the filters. */
export const useContractList = (params: ContractListParams) =>
  useQuery({
    queryKey: contractKeys.list(params),
    queryFn: () => http.get<ListData<ContractRow>>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
  });

/** Counts by status with the same filters (the summary tabs). */
export const useContractStatusInfo = (filters: ContractFilters) =>
  useQuery({
    queryKey: contractKeys.statusInfo(filters),
    queryFn: () => http.get<ContractStatusInfo>(`${BASE}/statusInfo`, filters),
    placeholderData: keepPreviousData,
  });

export const useContractDetail = (id: number | null) =>
  useQuery({
    queryKey: contractKeys.detail(id ?? 0),
    queryFn: () => http.get<ContractDetail>(`${BASE}/detail`, { id }),
    enabled: id !== null,
    // while the customer signs, the parties' state (and the sim line's code) show without a reload
    refetchInterval: (q) => (q.state.data?.status === CONTRACT_STATUS.signing ? 4000 : false),
  });

/** The contracts made from one order (the order drawer). */
export const useContractsOfOrder = (orderId: number) =>
  useQuery({
    queryKey: contractKeys.ofOrder(orderId),
    queryFn: () => http.get<ListData<ContractRow>>(`${BASE}/ofOrder`, { order_id: orderId }),
  });

/** The contracts of one customer (the customer drawer's 合同 tab). */
export const useContractsOfCustomer = (customerId: number) =>
  useQuery({
    queryKey: contractKeys.ofCustomer(customerId),
    queryFn: () => http.get<ListData<ContractRow>>(`${BASE}/ofCustomer`, { customer_id: customerId }),
  });

const useInvalidateContracts = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: contractKeys.all });
};

const useContractPost = <B, R = unknown>(path: string) => {
  const invalidate = useInvalidateContracts();
  return useMutation({ mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body), onSuccess: invalidate });
};

export const useCreateContract = () =>
  useContractPost<Partial<ContractCreateBody>, { id: number; contract_no: string }>('create');
export const useSendContract = () => useContractPost<{ id: number; link_days: number }, ContractSendResult>('create/sign');
export const useNewSignLink = () => useContractPost<{ id: number; link_days: number }, ContractSendResult>('signer/link');
export const useArchiveContract = () => useContractPost<{ id: number }, ContractArchiveResult>('placeOnFile');
export const useDiscardContract = () =>
  useContractPost<{ id: number; reason: string }, { id: number; discarded_id: number }>('discard');
/** 批量下载: a background job that zips the selected contracts' PDFs. */
export const useStartBatchDownload = () =>
  useMutation({ mutationFn: (input: { ids: number[] }) => http.post<{ jobId: string }>(`${BASE}/batchDownload`, input) });

/** The URL of a contract's PDF (logged-in download; the token cookie authenticates it). */
export const contractPdfUrl = (id: number, kind: 'draft' | 'signed' | 'archived' | 'dismissed') =>
  `${BASE}/pdf?id=${id}&kind=${kind}`;

/** The best PDF of a contract for reading: archived, else signed, else the draft (a discarded copy its own). */
export const bestPdf = (pdf: ContractDetail['pdf']): string => pdf.dismissed || pdf.archived || pdf.signed || pdf.draft;

// ---------- settings ----------

const settingKey = (name: string, ...rest: unknown[]) => [...contractKeys.settings, name, ...rest] as const;

const useSettingPost = <B, R = unknown>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: contractKeys.settings }),
  });
};

export const useContractTemplates = (isAll: 0 | 1) =>
  useQuery({
    queryKey: settingKey('templates', isAll),
    queryFn: () => http.get<ListData<ContractTemplate>>(`${BASE}/template`, { is_all: isAll }),
  });
export const useStoreTemplate = () => useSettingPost<ContractTemplateStoreBody, { id: number }>('template/store');
export const useUpdateTemplate = () => useSettingPost<ContractTemplateStoreBody & { id: number }>('template/update');

export const useContractRule = () =>
  useQuery({ queryKey: settingKey('rule'), queryFn: () => http.get<ContractRule>(`${BASE}/rule`) });
export const useUpdateRule = () => useSettingPost<ContractRuleBody, ContractRule>('rule/update');

export const useSeals = (withDestroyed: 0 | 1) =>
  useQuery({
    queryKey: settingKey('seals', withDestroyed),
    queryFn: () => http.get<ListData<Seal>>(`${BASE}/seal_sign`, { with_destroyed: withDestroyed }),
  });
export const useStoreSeal = () => useSettingPost<Partial<SealStoreBody>, { id: number }>('seal_sign/store');
export const useDestroySeal = () => useSettingPost<{ id: number }>('seal_sign/destroy');

export const useContractAccount = () =>
  useQuery({ queryKey: settingKey('account'), queryFn: () => http.get<ContractAccount>(`${BASE}/info`) });
export const useSaveAccount = () => useSettingPost<ContractAccountBody, ContractAccount>('info');
export const useAccountLog = (page: number, limit: number) =>
  useQuery({
    queryKey: settingKey('log', page, limit),
    queryFn: () => http.get<ListData<AccountLogRow>>(`${BASE}/account/log`, { page, limit }),
    placeholderData: keepPreviousData,
  });

/** Approval flows for 用印审批 (approval templates of kind 3). */
export const useSealApprovalFlows = () =>
  useQuery({
    queryKey: settingKey('sealFlows'),
    queryFn: () => http.get<{ list: ApprovalTemplate[] }>('/api/v1/merchantapp/templatelist', { isAll: 0, isOrder: 3 }),
  });

/** SPEC §7 api/uploadPdf {file, scene='contract'}: data.code 1 is a warning with data.msg (SPEC §8), shown by the http client. */
export const uploadContractPdf = (file: File) => {
  const form = new FormData();
  form.append('scene', 'contract');
  form.append('file', file, file.name);
  return http.upload<UploadPdfResult>('/api/uploadPdf', form);
};

/**
 * The server's A4 preview of a template body (PDF bytes, filled with sample values), as an object URL.
 * The caller revokes it.
 */
export const fetchTemplatePreview = async (body: Pick<ContractTemplateStoreBody, 'body' | 'fields'>): Promise<string> => {
  const res = await fetch(`${BASE}/template/preview`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Refusal-In-Body': '1' },
    credentials: 'include',
    body: JSON.stringify(body),
  });
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('pdf')) throw new Error('预览生成失败');
  return URL.createObjectURL(await res.blob());
};
