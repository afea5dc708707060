import type { LeadOwnList, LeadSettings, LeadSettingsBody, ListData } from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customer/kqhk';

export const leadSettingsKeys = {
  settings: ['leads', 'settings'] as const,
  ownLists: ['leads', 'own-lists'] as const,
  ownList: (q: object) => ['leads', 'own-lists', q] as const,
};

/** 拓客设置: the masked provider key, the daily 转为客户 quota, the field mapping, lookup counts. */
export const useLeadSettings = () =>
  useQuery({ queryKey: leadSettingsKeys.settings, queryFn: () => http.get<LeadSettings>(`${BASE}/settings`) });

/** Saves the settings (administrators); a key or secret left out keeps the stored one. */
export const useSaveLeadSettings = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LeadSettingsBody) => http.post<null>(`${BASE}/settings/set`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: leadSettingsKeys.settings }),
  });
};

export type OwnListQuery = { page: number; limit: number };

/** The company's own imported lists (自有名单), newest first. */
export const useOwnLists = (q: OwnListQuery) =>
  useQuery({
    queryKey: leadSettingsKeys.ownList(q),
    queryFn: () => http.get<ListData<LeadOwnList>>(`${BASE}/own/list`, q),
    placeholderData: keepPreviousData,
  });

export type OwnImportResult = { id: number; imported: number; rejected: number; reasons: { row: number; reason: string }[] };

/** Imports an uploaded .xlsx as an own list; the searches show its rows from then on. */
export const useImportOwnList = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; fileId: number }) => http.post<OwnImportResult>(`${BASE}/own/import`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['leads'] }),
  });
};

/** Deletes an own list and its rows. */
export const useDeleteOwnList = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<null>(`${BASE}/own/del`, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['leads'] }),
  });
};
