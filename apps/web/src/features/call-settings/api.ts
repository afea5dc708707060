import type { CallSettingsInfo, CallSettingsSaveBody, TestCallBody, TestCallStatus } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/callsetting';
export const callSettingsKeys = {
  all: ['call-settings'] as const,
  test: (uuid: string) => ['call-settings', 'test', uuid] as const,
};

export const useCallSettings = () =>
  useQuery({ queryKey: callSettingsKeys.all, queryFn: () => http.get<CallSettingsInfo>(`${BASE}/info`) });

export const useSaveCallSettings = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CallSettingsSaveBody) => http.post<null>(`${BASE}/save`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: callSettingsKeys.all }),
  });
};

/** 试呼: resolves to the test call's uuid (its progress: useTestCall). */
export const useStartTestCall = () =>
  useMutation({ mutationFn: (body: TestCallBody) => http.post<{ uuid: string }>(`${BASE}/testcall`, body) });

/** The test call's leg, polled every second until it has ended. */
export const useTestCall = (uuid: string | undefined) =>
  useQuery({
    queryKey: callSettingsKeys.test(uuid ?? ''),
    queryFn: () => http.get<TestCallStatus>(`${BASE}/testcall`, { uuid }),
    enabled: Boolean(uuid),
    refetchInterval: (query) => (query.state.data?.state === 'ended' ? false : 1000),
  });
