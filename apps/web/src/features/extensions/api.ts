import type {
  ListData,
  SimIncomingBody,
  SimIncomingResponse,
  SipAdminInfo,
  SipBindPhoneBody,
  SipBindStaffBody,
  SipCreateBody,
  SipEditBody,
  SipInfo,
  SipListQuery,
  SipMyListQuery,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/call';

export const extensionKeys = {
  all: ['extensions'] as const,
  list: (q: Partial<SipListQuery>) => [...extensionKeys.all, 'list', q] as const,
  mine: (q: Partial<SipMyListQuery>) => [...extensionKeys.all, 'mine', q] as const,
};

/** /call/sip: every extension of the company (admin). */
export const useSipList = (query: Partial<SipListQuery>) =>
  useQuery({
    queryKey: extensionKeys.list(query),
    queryFn: () => http.get<ListData<SipAdminInfo>>(`${BASE}/siplist`, query),
    placeholderData: keepPreviousData,
  });

/** /call/mysip: the caller's own extensions. */
export const useMySipList = (query: Partial<SipMyListQuery>) =>
  useQuery({
    queryKey: extensionKeys.mine(query),
    queryFn: () => http.get<ListData<SipInfo>>(`${BASE}/sipmylist`, query),
    placeholderData: keepPreviousData,
  });

const useSipMutation = <B, R = null>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: extensionKeys.all }),
  });
};

export const useCreateSip = () => useSipMutation<SipCreateBody, { cmSipid: number }>('sipcreate');
export const useEditSip = () => useSipMutation<SipEditBody>('sipedit');
export const useDeleteSip = () => useSipMutation<{ cmSipid: number }>('sipdel');
export const useBindStaff = () => useSipMutation<SipBindStaffBody>('sipbindstaff');
export const useBindPhone = () => useSipMutation<SipBindPhoneBody>('sipbindhone');
export const useSetDefaultSip = () => useSipMutation<{ cmSipid: number }>('sipdefaultmy');
export const useResetDeviceSecret = () => useSipMutation<{ cmSipid: number }, { deviceSecret: string }>('sipdevicesecret');

/** sim telephony only: a simulated call from a customer's number to an extension. */
export const useSimIncoming = () =>
  useMutation({ mutationFn: (body: SimIncomingBody) => http.post<SimIncomingResponse>(`${BASE}/simincoming`, body) });
